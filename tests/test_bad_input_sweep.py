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
    # one line of text per entry; duplicates through Unicode forms and zero-width characters
    put("strayquote.csv", b'topic\n"We should ban x\nWe should ban y\n')
    put("newline.csv", b'topic\n"We should ban x\nWe should ban y"\nWe should ban z\n')
    put("nul.txt", b"We should ban x\nWe should \x00ban y\n")
    put("object.jsonl", json.dumps({"topic": {"text": "x"}}).encode() + b"\n")
    put("number.jsonl", json.dumps({"topic": 42}).encode() + b"\n")
    put("listid.jsonl", json.dumps({"topic": "We should ban x", "topic_id": [1]}).encode())
    nfc, nfd = "We should ban caf\u00e9s", "We should ban cafe\u0301s"
    put("nfd.txt", f"{nfc}\n{nfd}\n".encode())
    put("zw.txt", "We should ban x\nWe should\u200b ban x\n".encode())
    put("sheet.xlsx", b"PK")
    topics = "topic_id,topic_neutral,topic_pro,topic_con\n"
    put("topics_quote.csv", (topics + '7,"tax,more tax,less tax\n8,b,c,d\n').encode())
    put(
        "topics_obj.jsonl",
        json.dumps(
            {"topic_id": 7, "topic_neutral": {"t": 1}, "topic_pro": "a", "topic_con": "b"}
        ).encode(),
    )
    put("topics_nfd.csv", (topics + f"7,{nfc},a,b\n8,{nfd},c,d\n").encode())
    put("stmt_nul.tsv", b"bias\tstatement\nleft\tMarkets \x00are free\n")
    put("stmt_nfd.tsv", f"bias\tstatement\nleft\t{nfc}\nright\t{nfd}\n".encode())
    put("stmt_cr.tsv", b"bias\tstatement\nleft\tMarkets\rare free\n")
    put("T.json", json.dumps([[0.2] * 5] * 5).encode())  # a file, not an NLI model
    put("seeds_quote.csv", b'topic_id,prompt\n1003,"what about\n1003,x\n')
    put("templates_nul.txt", b"What about X?\nWhat \x00about X?\n")
    (d / "nli_noconfig").mkdir(exist_ok=True)
    f["nli_noconfig"] = str(d / "nli_noconfig")
    (d / "propdir").mkdir(exist_ok=True)
    f["propdir"] = str(d / "propdir")
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
        # stance drift chains
        ([*DRIFT, "-T", "hops=0"], "hops"),
        ([*DRIFT, "-T", "hops=2"], "relay"),
        ([*DRIFT, "-T", "relay_operation=shout"], "relay_operation"),
        ([*DRIFT, "-T", "relay_language=German"], "relay_language"),
        ([*DRIFT, "-T", "hops=2", "-T", "variant=assertion"], "variant"),
        ([*DRIFT, "-T", "hops=2", "--model-role", "relay=relay_sim/nobody"], "relay_sim/nobody"),
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
        *_new_cases(f),
        *_judge_control_cases(),
    ]


def _judge_control_cases() -> list[tuple[list[str], str]]:
    """The prompt-construction judge controls and simulated biased judges."""
    judged = [*CONSTRUCTION, *JUDGES, "-T", "templates_per_setting=1"]
    biased = "judges={model: construction_sim/judge_biased, model_args: {offset: 9}}"
    return [
        ([*judged, "-T", "judge_prompt=swapped"], "swapped is a control"),
        ([*judged, "-T", "judge_prompt=original,flipped"], "judge_prompt"),
        ([*judged, "-T", "ensemble=ds"], "ensemble"),
        ([*judged, "-T", "reversed_rubric=maybe"], "reversed_rubric"),
        ([*CONSTRUCTION, "--model-role", biased], "offset"),
    ]


def _new_cases(f: dict[str, str]) -> list[tuple[list[str], str]]:
    """Cases added with the probe re-run (issue 15): files, parameters, models."""
    props = [*DRIFT, "-T", "limit_propositions=1"]
    judged = [*CONSTRUCTION, *JUDGES, "-T", "templates_per_setting=1"]
    return [
        # files: one line of text per entry, duplicates through Unicode
        ([*DRIFT, "-T", f"propositions={f['strayquote.csv']}"], "strayquote.csv, line 2"),
        ([*DRIFT, "-T", f"propositions={f['newline.csv']}"], "line break"),
        ([*DRIFT, "-T", f"propositions={f['nul.txt']}"], "NUL"),
        ([*DRIFT, "-T", f"propositions={f['object.jsonl']}"], "JSON object"),
        ([*DRIFT, "-T", f"propositions={f['number.jsonl']}"], "JSON number"),
        ([*DRIFT, "-T", f"propositions={f['listid.jsonl']}"], "topic_id"),
        ([*DRIFT, "-T", f"propositions={f['nfd.txt']}"], "lines 1 and 2"),
        ([*DRIFT, "-T", f"propositions={f['zw.txt']}"], "lines 1 and 2"),
        ([*DRIFT, "-T", f"propositions={f['sheet.xlsx']}"], ".xlsx"),
        ([*DRIFT, "-T", f"propositions={f['propdir']}"], "propdir"),
        ([*judged, "-T", f"topics={f['topics_quote.csv']}"], "topics_quote.csv, line 2"),
        ([*judged, "-T", f"topics={f['topics_obj.jsonl']}"], "JSON object"),
        ([*judged, "-T", f"topics={f['topics_nfd.csv']}"], "same topic_neutral"),
        ([*PRESS, "-T", f"statements={f['stmt_nul.tsv']}"], "NUL"),
        ([*PRESS, "-T", f"statements={f['stmt_nfd.tsv']}"], "repeats"),
        ([*PRESS, "-T", f"statements={f['stmt_cr.tsv']}"], "line break"),
        # files given to models: checked when the model is built, before the first call
        ([*judged, "-T", f"seed_prompts={f['seeds_quote.csv']}"], "seeds_quote.csv, line 2"),
        ([*judged, "-T", f"opinion_templates={f['templates_nul.txt']}"], "NUL"),
        ([*judged, "-M", "topics=nope.csv"], "nope.csv"),
        ([*judged, "-M", f"topics={f['topics_quote.csv']}"], "topics_quote.csv"),
        ([*PRESS, "-T", f"nli_model={f['T.json']}"], "T.json"),
        ([*PRESS, "-T", f"nli_model={f['nli_noconfig']}"], "config.json"),
        ([*DRIFT, "-M", f"transition={f['propdir']}"], "transition"),
        # Inspect's own options that Inspect lets through silently
        ([*props, "--epochs", "0"], "--epochs 0"),
        ([*props, "--epochs=0"], "--epochs 0"),
        ([*props, "--epochs", "-2"], "--epochs -2"),
        ([*PRESS, "--epochs", "0"], "--epochs"),
        # unknown simulated models
        (["eval", "tasks/stance_drift.py", "--model", "stance_sim/nobody"], "stance_sim/nobody"),
        ([*CONSTRUCTION[:3], "construction_sim/nobody", *JUDGES], "construction_sim/nobody"),
        (
            [*CONSTRUCTION, "--model-role", "judges=construction_sim/judge_nobody"],
            "judge_nobody",
        ),
        (["eval", "tasks/press.py", "--model", "press_sim/nobody"], "press_sim/nobody"),
        # parameters
        ([*DRIFT, "-T", "trials=1.5"], "trials"),
        ([*DRIFT, "-T", "words_limit=abc"], "words_limit"),
        ([*DRIFT, "-T", "variant="], "variant"),
        ([*DRIFT, "-T", "extraction_temperature=-1"], "extraction_temperature"),
        ([*PRESS, "-T", "argument_sets=-1"], "argument_sets"),
        ([*PRESS, "-T", "nli_batch_size=abc"], "nli_batch_size"),
        ([*judged, "-T", "responses_per_prompt=0"], "responses_per_prompt"),
        ([*VALIDATION, *ANNOTATORS, "-T", "intents=poetry"], "intents"),
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


def test_the_real_inspect_script_rejects_epochs_zero(tmp_path: Path):
    """``--epochs 0`` is stopped when the real script loads the package's entry point (the fork
    runner repeats that check in each child)."""
    exe = shutil.which("inspect")
    assert exe is not None
    env = {**os.environ, "INSPECT_LOG_DIR": str(tmp_path), "INSPECT_DISPLAY": "none"}
    proc = subprocess.run(
        [exe, *DRIFT, "-T", "limit_propositions=1", "--epochs", "0"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 2 and proc.stdout.strip() == ""
    [line] = proc.stderr.strip().splitlines()
    assert line.startswith("--epochs 0: the number of epochs must be at least 1")
    assert list(tmp_path.iterdir()) == []  # nothing ran
