"""Bad input gets one line: a sweep of wrong task parameters, provider arguments and input
files through the real ``inspect eval`` CLI.

Each case must exit non-zero and print exactly one non-empty line in all (stdout + stderr),
naming the culprit, with no traceback, before any model call. Cases run in forked children of
one process that imported Inspect once (``tests/cli_sweep.py``); one case also runs through the
installed ``inspect`` script itself, to hold the fork runner to the real thing.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(Path(__file__).parent))
from cli_sweep import Result, sweep  # noqa: E402

# small runs, so that a case the package fails to reject ends quickly (and fails the test)
DRIFT = ["eval", "tasks/stance_drift.py", "--model", "stance_sim/respondent", "-T", "trials=1"]
PRESS = ["eval", "tasks/press.py", "--model", "press_sim/target"]
JUDGES = ["--model-role", "judges=construction_sim/judge_exact,construction_sim/judge_noisy"]
VALIDATION = ["eval", "tasks/prompt_validation.py"]
ANNOTATORS = ["--model-role", "annotators=annotator_sim/lexical,annotator_sim/contrarian"]
CONSTRUCTION = [
    "eval",
    "tasks/prompt_construction.py",
    "--model",
    "construction_sim/target",
]


def _files(d: Path) -> dict[str, str]:
    """Bad input files, written once."""
    d.mkdir(parents=True, exist_ok=True)
    f = {}

    def put(name: str, data: bytes) -> None:
        (d / name).write_bytes(data)
        f[name] = str(d / name)

    put("scalars.jsonl", b"1\n2\n3\n")
    put("dup.txt", b"We should ban school uniforms\nWe should ban school uniforms\n")
    put("empty.txt", b"")
    put("t45.json", json.dumps([[0.2] * 5] * 4).encode())
    put("tneg.json", json.dumps([[1.2, -0.2, 0, 0, 0]] + [[0.2] * 5] * 4).encode())
    put("notjson.json", b"{not json")
    put("notalog.eval", b"this is not a log")
    put("latin1.tsv", "bias\tstatement\nleft\tLes march\xe9s sont libres\n".encode("latin-1"))
    put("nobias.tsv", b"side\tstatement\nleft\tMarkets are free\n")
    put("badbias.tsv", b"bias\tstatement\ncentre\tMarkets are free\n")
    put("nocol.csv", b"name,value\nx,1\n")
    return f


def _cases(f: dict[str, str]) -> list[tuple[list[str], str]]:
    """(CLI arguments, a word the one line must contain)."""
    missing = str(Path(f["empty.txt"]).parent / "missing.txt")
    return [
        # stance drift: task parameters
        ([*DRIFT, "-T", "trials=0"], "trials"),
        ([*DRIFT, "-T", "trials=abc"], "trials"),
        ([*DRIFT, "-T", "variant=bogus"], "variant"),
        ([*DRIFT, "-T", "unparsed=sometimes"], "unparsed"),
        ([*DRIFT, "-T", "words_limit=0"], "words_limit"),
        ([*DRIFT, "-T", "limit_propositions=0"], "limit_propositions"),
        ([*DRIFT, "-T", "seed=-1"], "seed"),
        ([*DRIFT, "-T", "cache=maybe"], "cache"),
        ([*DRIFT, "-T", "logprobs=maybe"], "logprobs"),
        ([*DRIFT, "-T", "min_letter_mass=2"], "min_letter_mass"),
        ([*DRIFT, "-T", "tirals=5"], "tirals"),
        # stance drift: input files
        ([*DRIFT, "-T", f"propositions={missing}"], "missing.txt"),
        ([*DRIFT, "-T", f"propositions={f['scalars.jsonl']}"], "scalars.jsonl"),
        ([*DRIFT, "-T", f"propositions={f['dup.txt']}"], "dup.txt"),
        ([*DRIFT, "-T", f"propositions={f['empty.txt']}"], "empty.txt"),
        ([*DRIFT, "-T", f"propositions={f['nocol.csv']}"], "nocol.csv"),
        ([*DRIFT, "-T", f"arguments_from={missing}"], "missing.txt"),
        ([*DRIFT, "-T", f"arguments_from={f['notalog.eval']}"], "notalog.eval"),
        (
            [*DRIFT, "-T", "variant=in_context", "-T", f"arguments_from={f['notalog.eval']}"],
            "in_context",
        ),
        # stance drift: simulated respondent's model args
        ([*DRIFT, "-M", f"transition={f['t45.json']}"], "transition"),
        ([*DRIFT, "-M", f"transition={f['tneg.json']}"], "transition"),
        ([*DRIFT, "-M", f"transition={f['notjson.json']}"], "transition"),
        ([*DRIFT, "-M", f"transition={missing}"], "transition"),
        ([*DRIFT, "-M", "seed=abc"], "seed"),
        ([*DRIFT, "-M", "unparsed_rate=abc"], "unparsed_rate"),
        ([*DRIFT, "-M", "unparsed_rate=2"], "unparsed_rate"),
        ([*DRIFT, "-M", "logprobs=maybe"], "logprobs"),
        ([*DRIFT, "-M", "latency=-1"], "latency"),
        ([*DRIFT, "-M", "bogus=1"], "bogus"),
        # PReSS
        ([*PRESS, "-T", "argument_sets=0"], "argument_sets"),
        ([*PRESS, "-T", "classifier=bogus"], "classifier"),
        ([*PRESS, "-T", "classifier=llm"], "classifier"),
        ([*PRESS, "-T", "nli_batch_size=0"], "nli_batch_size"),
        ([*PRESS, "-T", "nli_hypothesis=no placeholder"], "nli_hypothesis"),
        ([*PRESS, "-T", "entropy_samples=1"], "entropy_samples"),
        ([*PRESS, "-T", "personas=maybe"], "personas"),
        ([*PRESS, "-T", f"statements={missing}"], "missing.txt"),
        ([*PRESS, "-T", f"statements={f['latin1.tsv']}"], "latin1.tsv"),
        ([*PRESS, "-T", f"statements={f['nobias.tsv']}"], "nobias.tsv"),
        ([*PRESS, "-T", f"statements={f['badbias.tsv']}"], "badbias.tsv"),
        ([*PRESS, "-T", f"arguments={missing}"], "missing.txt"),
        ([*PRESS, "-T", f"arguments={f['notalog.eval']}"], "notalog.eval"),
        ([*PRESS, "-M", "bogus=1"], "bogus"),
        (["eval", "tasks/press.py", "--model", "press_sim/nobody"], "press_sim"),
        ([*DRIFT, "-T", "extraction_temperature=hot"], "extraction_temperature"),
        ([*DRIFT, "-T", "min_letter_mass=abc"], "min_letter_mass"),
        ([*PRESS, "-T", "nli_mode=two_way"], "nli_mode"),
        ([*PRESS, "-T", "factor_samples=many"], "factor_samples"),
        ([*PRESS, "-T", "arguer_max_tokens=0"], "arguer_max_tokens"),
        ([*PRESS, "-T", "statments=x.tsv"], "statments"),
        (
            ["eval", "tasks/press.py", "--model", "press_sim/classifier", "-M", "style=loud"],
            "style",
        ),
        # prompt construction
        (CONSTRUCTION, "judges"),
        ([*CONSTRUCTION, *JUDGES, "-T", "rubric_threshold=0.8"], "rubric_threshold"),
        ([*CONSTRUCTION, *JUDGES, "-T", "templates_per_setting=0"], "templates_per_setting"),
        ([*CONSTRUCTION, *JUDGES, "-T", "intents=poetry"], "intents"),
        ([*CONSTRUCTION, *JUDGES, "-T", "topics=abc"], "topics"),
        ([*CONSTRUCTION, *JUDGES, "-T", "topics=59"], "topics"),
        ([*CONSTRUCTION, *JUDGES, "-T", "judge_sees_prompt=maybe"], "judge_sees_prompt"),
        ([*CONSTRUCTION, *JUDGES, "-T", f"topics={missing}"], "missing.txt"),
        ([*CONSTRUCTION, *JUDGES, "-T", f"prompts_from={f['latin1.tsv']}"], "latin1.tsv"),
        ([*CONSTRUCTION, *JUDGES, "-M", "neutral_filer=2"], "neutral_filer"),
        # prompt validation
        (VALIDATION, "annotators"),
        ([*VALIDATION, *ANNOTATORS, "-T", "sources=real,invented"], "sources"),
        ([*VALIDATION, *ANNOTATORS, "-T", "per_source=0"], "per_source"),
        ([*VALIDATION, *ANNOTATORS, "-T", f"real_prompts={missing}"], "missing.txt"),
        (
            [
                "eval",
                "tasks/prompt_validation.py",
                "--model-role",
                "annotators=annotator_sim/wizard",
            ],
            "annotator_sim/wizard",
        ),
        (
            [*CONSTRUCTION, "--model-role", "judges=construction_sim/judge_exact", "-M", "bogus=1"],
            "bogus",
        ),
    ]


@pytest.fixture(scope="module")
def results(tmp_path_factory: pytest.TempPathFactory) -> list[tuple[Result, str]]:
    d = tmp_path_factory.mktemp("bad-input")
    cases = _cases(_files(d / "files"))
    env = dict(os.environ)
    env["INSPECT_LOG_DIR"] = str(d / "logs")
    env["INSPECT_DISPLAY"] = "none"
    out = sweep([args for args, _ in cases], str(ROOT), env)
    return list(zip(out, [word for _, word in cases], strict=True))


def _lines(r: Result) -> list[str]:
    return [ln for ln in (r.stdout + "\n" + r.stderr).splitlines() if ln.strip()]


def test_every_bad_input_is_one_line_and_a_failure(results: list[tuple[Result, str]]):
    bad = []
    for r, word in results:
        lines = _lines(r)
        ok = (
            r.returncode != 0
            and len(lines) == 1
            and word.lower() in lines[0].lower()
            and "Traceback" not in r.stderr
        )
        if not ok:
            bad.append(f"{' '.join(r.args[1:])}: rc={r.returncode} lines={lines[:4]}")
    assert len(results) >= 60
    assert not bad, f"{len(bad)} of {len(results)} cases not one line:\n" + "\n".join(bad)


def test_no_bad_input_wrote_a_log(results: list[tuple[Result, str]], tmp_path_factory):
    # built before the first model call: nothing ran, so no log (and nothing was paid)
    logs = list((tmp_path_factory.getbasetemp()).glob("bad-input*/logs/*"))
    assert logs == []


def test_the_real_inspect_script_prints_the_same_one_line(tmp_path: Path):
    exe = shutil.which("inspect")
    assert exe is not None
    env = dict(os.environ)
    env["INSPECT_LOG_DIR"] = str(tmp_path)
    for display in ("none", "full"):
        proc = subprocess.run(
            [exe, *DRIFT[:], "-T", "trials=0", "--display", display],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert proc.returncode == 1
        assert proc.stdout.strip() == ""
        assert proc.stderr.strip().splitlines() == [
            "trials 0; use an integer >= 1 (e.g. -T trials=100)"
        ]
