"""Hostile-input probes over the study, card, shard, label-sample, report and dataframe surfaces,
each a real process (``inspect-stance ...``, ``inspect eval ...`` or ``python -c ...``) in a
temporary folder on the package's simulated models (no network), with its expected good outcome.

    python benchmarks/hostile_probes.py [--only SUBSTRING] [--slow] [-j 4]

A probe expecting a refusal passes when the process exits non-zero within its time limit, prints
one non-empty line to stderr naming the problem (its words), and no output carries Python
exception text (a traceback, an exception class name, ``EOCD``). A probe expecting success
passes when it exits 0 and its own check holds. In every case no output file or stream carries
live markup (``<script``, ``<img src=``, an unescaped ``](javascript:``), a line starting with a
CI workflow command (``::warning::``, ``::error::``) or a bidirectional / zero-width character.
Prints one line per probe and the count failed; exits 1 when any failed.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

BIN = Path(sys.executable).parent
STANCE = str(BIN / "inspect-stance")
INSPECT = str(BIN / "inspect")
PY = sys.executable

#: Python exception text on an output stream
EXCEPTION_TEXT = re.compile(
    r"Traceback|\b[A-Z][A-Za-z]*(Error|Exception)\b|EOCD|BadZipFile|File \"|line \d+, in "
)
#: a CI workflow command starting a line, or a bidirectional / zero-width character: checked on
#: every stream, file name and text file (JSON escapes them itself)
CONTROL = re.compile(r"^\s*::(warning|error|notice|debug)|[\u202e\u202d\u200b\u2066]", re.M)
#: live markup: checked on Markdown and HTML files (JSON, CSV and the terminal keep a name's
#: characters; CSV files are data, read back by the commands, and are not checked)
MARKUP = re.compile(r"<script|<img src=", re.I)
HOSTILE_NAMES = [
    "<script>alert(1)</script>",
    "<img src=x onerror=alert(1)>",
    "[x](javascript:alert(1))",
    "evil\u202etxt.exe\u200b",
    "a\r\n::warning::pwned",
]


@dataclass
class Probe:
    """One probe: the process to run, what a good outcome is, and the issue class it checks."""

    name: str
    cls: str
    argv: list[str]
    expect: str  # "refuse" | "ok"
    words: tuple[str, ...] = ()
    check: Callable[[subprocess.CompletedProcess[str]], str | None] | None = None
    files: list[Path] = field(default_factory=list)  # output folders/files checked
    limit: float = 300.0
    slow: bool = False
    stdin: str | None = None


@dataclass
class Outcome:
    probe: Probe
    ok: bool
    why: str
    took: float


def _run(p: Probe, cwd: Path) -> Outcome:
    start = time.monotonic()
    env = {**os.environ, "INSPECT_DISPLAY": "none", "NO_COLOR": "1", "COLUMNS": "200"}
    try:
        r = subprocess.run(p.argv, cwd=cwd, capture_output=True, text=True, timeout=p.limit,
                           env=env, input=p.stdin or "")  # fmt: skip
    except subprocess.TimeoutExpired:
        return Outcome(p, False, f"still running after {p.limit:.0f} s", time.monotonic() - start)
    took = time.monotonic() - start
    text = r.stdout + "\n" + r.stderr
    problems: list[str] = []
    m = EXCEPTION_TEXT.search(text)
    if m:
        at = text[max(0, m.start() - 80) : m.end() + 80].replace("\n", "⏎")
        problems.append(f"exception text {m.group(0)!r}: …{at}…")
    if CONTROL.search(text):
        problems.append(f"control text on a stream: {CONTROL.search(text).group(0)!r}")  # type: ignore[union-attr]
    for f in p.files:
        for path in [f] if f.is_file() else (sorted(f.rglob("*")) if f.is_dir() else []):
            if CONTROL.search(path.name):
                problems.append(f"control text in file name {path.name!r}")
            if path.is_file() and path.suffix in (".md", ".html", ".json", ".txt", ".xml"):
                body = path.read_text(errors="replace")
                hit = CONTROL.search(body)
                if path.suffix in (".md", ".html"):
                    hit = hit or MARKUP.search(body)
                if path.suffix == ".md":  # in HTML, Markdown's link syntax is text
                    if not hit and "](javascript:" in body.replace("\\]", ""):
                        problems.append(f"live link in {path.name}")
                if hit:
                    problems.append(f"live text in {path.name}: {hit.group(0)!r}")
    if p.expect == "refuse":
        err_lines = [ln for ln in r.stderr.splitlines() if ln.strip()]
        if r.returncode == 0:
            problems.append("exit 0 (accepted)")
        if len(err_lines) != 1:
            problems.append(f"{len(err_lines)} stderr lines: {r.stderr.strip()[-300:]!r}")
        for w in p.words:
            if w.lower() not in r.stderr.lower():
                problems.append(f"stderr does not name {w!r}: {r.stderr.strip()[-300:]!r}")
    elif r.returncode != 0:
        problems.append(f"exit {r.returncode}: {r.stderr.strip()[-400:]!r}")
    if p.check is not None and not problems:
        why = p.check(r)
        if why:
            problems.append(why)
    return Outcome(p, not problems, "; ".join(problems), took)


# --- fixtures --------------------------------------------------------------------------------


def _eh_log(log_dir: Path, target: str, limit: int = 2, **kw) -> Path:
    from inspect_ai import eval as inspect_eval

    logs = inspect_eval("inspect_stance/even_handedness", model="even_sim/target",
                        model_roles={"graders": "even_sim/grader"}, task_args={"limit": limit},
                        log_dir=str(log_dir), display="none",
                        metadata={"stance_study": "hx", "stance_target": target}, **kw)  # fmt: skip
    return Path(logs[0].location.removeprefix("file://"))


def _hostile_store(path: Path, model: str | None = None) -> None:
    """Rewrite ``path`` with hostile provenance (returned model, fingerprint) and model name."""
    from inspect_ai.log import read_eval_log, write_eval_log

    from inspect_stance.provenance import STORE_KEY

    log = read_eval_log(str(path))
    if model is not None:
        log.eval.model = model
    for i, s in enumerate(log.samples or []):
        entries = s.store.get(STORE_KEY) or []
        for e in entries:
            if e.get("role") is None:
                e["returned_model"] = f"gpt\r\n::error::pwned{i}\u202e"
                e["system_fingerprint"] = f"fp_{i}\n::warning::fp"
        s.store[STORE_KEY] = entries
    write_eval_log(log, str(path))


def build_fixtures(root: Path) -> dict[str, Path]:
    """Logs with hostile names, a corrupt log, hostile provenance, a construction log."""
    from inspect_ai import eval as inspect_eval
    from inspect_ai.log import read_eval_log, write_eval_log

    fx: dict[str, Path] = {}
    names = root / "names"
    for name in [*HOSTILE_NAMES, "team a", "team_a", "x" * 400]:
        _eh_log(names, name, tags=["[t](javascript:alert(2))", "<script>tag</script>"])
    # a hostile model name on one log
    one = _eh_log(names, "modelname")
    log = read_eval_log(str(one))
    log.eval.model = "even_sim/<img src=x onerror=alert(3)>\u202e"
    write_eval_log(log, str(one))
    fx["names"] = names
    corrupt = root / "corrupt"
    corrupt.mkdir()
    good = _eh_log(corrupt, "ok")
    (corrupt / "2026-01-01T00-00-00+00-00_even-handedness_bad.eval").write_bytes(b"PK\x03\x04xx")
    fx["corrupt"] = corrupt
    fx["good_log"] = good
    prov = root / "prov"
    p = _eh_log(prov, "prov", limit=3)
    _hostile_store(p)
    fx["prov"] = p
    # a finished run, then a later failed run of the same target
    runs = root / "laterfail"
    first = _eh_log(runs, "t", limit=3)
    log = read_eval_log(str(first))
    log.status = "error"
    log.eval.eval_id, log.eval.run_id = "later-failed", "later-failed-run"
    log.eval.created = "2099-01-01T00:00:00+00:00"
    write_eval_log(log, str(runs / "2099-01-01T00-00-00+00-00_even-handedness_failed.eval"))
    fx["laterfail"] = runs
    fx["first"] = first
    # failed calls (no fingerprint) beside named ones: no model-changed note
    fail = root / "failcalls"
    p = _eh_log(fail, "f", limit=3)
    from inspect_stance.provenance import STORE_KEY

    log = read_eval_log(str(p))
    for i, s in enumerate(log.samples or []):
        s.store[STORE_KEY] = [
            {"role": None, "model": "even_sim/target", "returned_model": "target",
             "system_fingerprint": "fp_a", "route": None, "cached": False, "calls": 2},
            {"role": None, "model": "even_sim/target", "returned_model": None,
             "system_fingerprint": None, "route": None, "cached": False, "calls": i},
        ]  # fmt: skip
    write_eval_log(log, str(p))
    fx["failcalls"] = p
    # prompt_construction with a hostile model name and provenance, for label-sample
    cons = root / "cons"
    clog = inspect_eval("inspect_stance/prompt_construction", model="construction_sim/target",
                        model_roles={"judges": ["construction_sim/judge_exact",
                                                "construction_sim/judge_noisy"],
                                     "prompter": "construction_sim/prompter"},
                        task_args={"topics": "1003", "intents": "opinion",
                                   "templates_per_setting": 1, "prompts_per_setting": 1},
                        log_dir=str(cons), display="none")[0]  # fmt: skip
    cpath = Path(clog.location.removeprefix("file://"))
    _hostile_store(cpath, model="construction_sim/target\r\n::warning::pwned\u202e")
    fx["cons"] = cpath
    # a password in a base URL
    cred = root / "cred"
    p = _eh_log(cred, "c")
    log = read_eval_log(str(p))
    log.eval.model_base_url = "https://user:s3cret@example.com/v1"
    log.eval.model_args = {"api_key": "sk-hidden", "base_url": "https://u:pw2@h.example/v1"}
    write_eval_log(log, str(p))
    fx["cred"] = cred
    # another study's log folder
    other = root / "otherstudy"
    from inspect_ai import eval as ev

    ev("inspect_stance/even_handedness", model="even_sim/target",
       model_roles={"graders": "even_sim/grader"}, task_args={"limit": 1}, log_dir=str(other),
       display="none", metadata={"stance_study": "other"})  # fmt: skip
    fx["otherstudy"] = other
    # human labels
    (root / "latin1.csv").write_bytes("id,label\ncaf\xe9-1,A\n".encode("latin-1"))
    (root / "list.jsonl").write_bytes(b'[{"id": "trump-0000", "label": "A"}]\n')
    (root / "afile").write_text("x")
    (root / "notcard.json").write_text('{"a": 1}')
    (root / "empty.eval").write_bytes(b"")
    (root / "binary.eval").write_bytes(os.urandom(300))
    return fx


# --- probes ----------------------------------------------------------------------------------

EH = """study: hx
targets:
  a: even_sim/target
roles: {graders: [even_sim/grader]}
methods:
  even_handedness: {args: {limit: 3}}
"""
DRIFT = """study: hx
targets:
  a: stance_sim/respondent
methods:
  stance_drift: {args: {limit_propositions: 2, trials: TRIALS}}
"""


def _bomb(where: str) -> str:
    lines = ['a0: &a0 ["x", "x", "x", "x", "x", "x", "x", "x", "x", "x"]']
    lines += [f"a{k}: &a{k} [{', '.join([f'*a{k - 1}'] * 10)}]" for k in range(1, 10)]
    bomb = "\n".join(lines)
    if where == "study":
        return f"{bomb}\n" + EH.replace("study: hx", "study: *a9")
    return f"{bomb}\n" + EH.replace("a: even_sim/target", "a: *a9")


def probes(root: Path, fx: dict[str, Path]) -> list[Probe]:
    out: list[Probe] = []

    def study_file(name: str, text: str) -> Path:
        path = root / "studies" / f"{name}.yaml"
        path.parent.mkdir(exist_ok=True)
        path.write_text(text, encoding="utf-8")
        return path

    def study(name, cls, text, expect="refuse", words=(), extra=("--plan",), **kw) -> None:
        path = study_file(name, text)
        out.append(Probe(f"study:{name}", cls, [STANCE, "study", str(path), *extra], expect,
                         words, **kw))  # fmt: skip

    def ldir(name: str) -> str:
        return str(root / "L" / name)

    def no_logs(name: str) -> Callable[[subprocess.CompletedProcess[str]], str | None]:
        def check(_r):
            d = Path(ldir(name))
            found = list(d.rglob("*.eval")) if d.exists() else []
            return f"a log was written before the refusal: {found[0].name}" if found else None

        return check

    # Hangs and unbounded work
    study("hops-1e6", "hangs", DRIFT.replace("TRIALS", "5, hops: 1000000"), words=("hops",),
          limit=120)  # fmt: skip
    out.append(Probe("eval:-T hops=1e6", "hangs",
                     [INSPECT, "eval", "inspect_stance/stance_drift", "--model",
                      "stance_sim/respondent", "-T", "hops=1000000", "-T", "limit_propositions=1",
                      "--log-dir", ldir("evhops")], "refuse", ("hops",), limit=120))  # fmt: skip
    for n in ("1000000000", "1000000"):
        out.append(Probe(f"shard:--shards {n}", "hangs",
                         [STANCE, "shard", "stance_drift", "--shards", n, "--model", "a/b"],
                         "refuse", ("shards",), limit=120))  # fmt: skip
    study("alias-bomb-name", "hangs", _bomb("study"), words=("alias",), limit=120)
    study("alias-bomb-target", "hangs", _bomb("target"), words=("alias",), limit=120)
    closed = EH.replace(
        "a: even_sim/target",
        'a: {model: openai-api/local/x, model_args: {base_url: "http://127.0.0.1:9/v1", '
        "api_key: k}}",
    ).replace("limit: 3", "limit: 1")
    study("closed-endpoint", "hangs", closed + "max_retries: 1\ntimeout: 5\n", expect="ok",
          extra=("--yes", "--log-dir", ldir("closed")), limit=300, slow=True,
          check=lambda r: None if "NOT finished" in r.stdout else "no 'NOT finished' line")  # fmt: skip
    # Masked crashes
    for v in ("abc", "[1, 2]", ".nan", ".inf", "2024-01-01", "{a: 1}", "true", "1e400"):
        study(f"trials={v}", "masked", DRIFT.replace("TRIALS", v), words=("trials",))
    study("deep-nesting", "masked", EH.replace("study: hx", "study: " + "[" * 5000 + "]" * 5000),
          words=("nested",))  # fmt: skip
    for d in ("{target_se: 1e-320}", "{target_se: .inf}", "{budget_calls: 1e400}",
              "{budget_calls: 10000000000000000000000}", "{target_se: -1}", "{target_se: abc}",
              "{sizes: target_se, sd: {even_handedness: 1e308}, target_se: 0.01}"):  # fmt: skip
        study(f"design={d}", "masked", EH + f"design: {d}\n",
              expect="refuse" if "-1" in d or "abc" in d or "1e400" in d or ".inf" in d else "ok")  # fmt: skip
    study("log-dir-file", "masked", EH, words=("--log-dir",),
          extra=("--yes", "--log-dir", str(root / "afile")))  # fmt: skip
    study("log-dir-under-file", "masked", EH, words=("--log-dir",),
          extra=("--yes", "--log-dir", str(root / "afile" / "sub")))  # fmt: skip
    study("log-dir-unwritable", "masked", EH, words=("--log-dir",),
          extra=("--yes", "--log-dir", "/proc/hostile-probe"))  # fmt: skip
    study("log-dir-other-study", "masked", EH, words=("other",),
          extra=("--yes", "--log-dir", str(fx["otherstudy"])))  # fmt: skip
    study("unknown-provider-target", "masked", EH.replace("a: even_sim", "a: nosuch"),
          words=("nosuch",))  # fmt: skip
    study("unknown-provider-role", "masked", EH.replace("[even_sim/grader]", "[nosuch/grader]"),
          words=("nosuch",))  # fmt: skip
    two = (DRIFT.replace("TRIALS", "2").replace("methods:", "roles: {graders: [even_sim/grader]}"
                                                "\nmethods:"))  # fmt: skip
    study("second-method-missing-file", "masked",
          two + "  even_handedness: {args: {limit: 2, human_labels: nope.csv}}\n",
          words=("nope.csv",), extra=("--yes", "--log-dir", ldir("m2")),
          check=no_logs("m2"))  # fmt: skip
    study("second-method-bad-value", "masked",
          two + "  even_handedness: {args: {limit: 2, readout: sideways}}\n",
          words=("readout",), extra=("--yes", "--log-dir", ldir("m3")), check=no_logs("m3"))  # fmt: skip
    study("second-method-unknown-topic", "masked",
          two + "  even_handedness: {args: {limit: 2, topics: nosuchtopic}}\n",
          words=("nosuchtopic",), extra=("--yes", "--log-dir", ldir("m4")),
          check=no_logs("m4"))  # fmt: skip
    for name in ("empty", "binary"):
        f = root / f"{name}.eval"
        out.append(Probe(f"card:{name}-log", "masked",
                         [STANCE, "card", str(f), "--out", str(root / f"c-{name}"), "--strict"],
                         "refuse", (f.name,)))  # fmt: skip
    out.append(Probe("card:corrupt-in-folder", "masked",
                     [STANCE, "card", str(fx["corrupt"]), "--out", str(root / "c-corrupt")], "ok",
                     check=lambda r: None if "bad.eval" in r.stderr else "corrupt log not named",
                     files=[root / "c-corrupt"]))  # fmt: skip
    out.append(Probe("card:corrupt-strict", "masked",
                     [STANCE, "card", str(fx["corrupt"]), "--out", str(root / "c-c2"), "--strict"],
                     "refuse", ("bad.eval",)))  # fmt: skip
    out.append(Probe("card:--out-file", "masked",
                     [STANCE, "card", str(fx["corrupt"]), "--out", str(root / "afile")], "refuse",
                     ("--out",)))  # fmt: skip
    out.append(Probe("card:--out-unwritable", "masked",
                     [STANCE, "card", str(fx["corrupt"]), "--out", "/proc/hostile-probe"],
                     "refuse", ("--out",)))  # fmt: skip
    out.append(Probe("card:--since-not-a-card", "masked",
                     [STANCE, "card", str(fx["corrupt"]), "--out", str(root / "c-s"), "--since",
                      str(root / "notcard.json")], "refuse", ("--since",)))  # fmt: skip
    out.append(Probe("card:--since-missing", "masked",
                     [STANCE, "card", str(fx["corrupt"]), "--out", str(root / "c-s2"), "--since",
                      str(root / "nope.json")], "refuse", ("--since",)))  # fmt: skip
    out.append(Probe("runs_df:corrupt-log", "masked",
                     [PY, "-W", "always", "-c",
                      "import sys; from inspect_stance.analysis import runs_df; "
                      f"print(len(runs_df({str(fx['corrupt'])!r})))"], "ok",
                     check=lambda r: None if "bad.eval" in r.stderr and r.stdout.strip() == "1"
                     else f"set-aside line missing or wrong rows: {r.stdout!r}"))  # fmt: skip
    out.append(Probe("shard:--out-unwritable", "masked",
                     [STANCE, "shard", "stance_drift", "--shards", "2", "--model", "a/b", "--out",
                      "/proc/hostile-probe/job.py"], "refuse", ("--out",)))  # fmt: skip
    out.append(Probe("shard:--out-a-folder", "masked",
                     [STANCE, "shard", "stance_drift", "--shards", "2", "--model", "a/b", "--out",
                      str(root)], "refuse", ("--out",)))  # fmt: skip
    for cmd in ("report", "label-sample", "even-handedness-report"):
        extra = ["--n", "5", "--out", str(root / "ls.csv")] if cmd == "label-sample" else []
        for name in ("empty", "binary"):
            out.append(Probe(f"{cmd}:{name}-log", "masked",
                             [STANCE, cmd, str(root / f"{name}.eval"), *extra], "refuse",
                             (f"{name}.eval",)))  # fmt: skip
        out.append(Probe(f"{cmd}:missing", "masked", [STANCE, cmd, str(root / "nope.eval"), *extra],
                         "refuse", ("nope.eval",)))  # fmt: skip
    # Silently wrong
    dup = EH.replace("  a: even_sim/target\n", "  a: even_sim/target\n  a: even_sim/target\n")
    study("dup-targets", "silent", dup, words=("repeated",))
    study("dup-top", "silent", EH.replace("study: hx", "study: hx\nstudy: hy"), words=("repeated",))
    study("dup-methods", "silent", EH + "methods:\n  even_handedness: {args: {limit: 4}}\n",
          words=("repeated",))  # fmt: skip
    study("dup-args", "silent", EH.replace("{limit: 3}", "{limit: 3, limit: 4}"),
          words=("repeated",))  # fmt: skip
    study("dup-method-in-list", "silent",
          EH.replace("even_handedness: {args: {limit: 3}}",
                     "even_handedness: {args: {limit: 3}}\n  even_handedness: {}"),
          words=("repeated",))  # fmt: skip
    for v in ("-3", "2.5", "0"):
        study(f"trials={v}", "silent", DRIFT.replace("TRIALS", v), words=("trials",))
    study("limit_propositions=-1", "silent",
          DRIFT.replace("limit_propositions: 2", "limit_propositions: -1").replace("TRIALS", "2"),
          words=("limit_propositions",))  # fmt: skip
    study("limit_propositions=5000", "silent",
          DRIFT.replace("limit_propositions: 2", "limit_propositions: 5000").replace("TRIALS", "2"),
          words=("limit_propositions",))  # fmt: skip
    study("eh-limit=5000", "silent", EH.replace("limit: 3", "limit: 5000"), words=("limit",))
    study("eh-limit-beyond-filtered", "silent",
          EH.replace("{limit: 3}", "{limit: 1000, topics: trump}"), words=("limit",))  # fmt: skip
    out.append(Probe("eval:-T limit beyond filtered", "silent",
                     [INSPECT, "eval", "inspect_stance/even_handedness", "--model",
                      "even_sim/target", "--model-role", "graders=even_sim/grader", "-T",
                      "topics=trump", "-T", "limit=1000", "--log-dir", ldir("evlim")], "refuse",
                     ("limit",), check=no_logs("evlim")))  # fmt: skip
    out.append(Probe("shard:-T limit beyond filtered", "silent",
                     [STANCE, "shard", "even_handedness", "--shards", "2", "--model",
                      "even_sim/target", "-T", "topics=trump", "-T", "limit=1000"], "refuse",
                     ("limit",)))  # fmt: skip
    study("eh-design-with-filter", "silent",
          EH.replace("{limit: 3}", "{topics: trump}") + "design: {target_se: 0.0001}\n",
          expect="ok",
          check=lambda r: None if re.search(r"limit=(\d+)", r.stdout) and int(
              re.search(r"limit=(\d+)", r.stdout).group(1)) < 1350  # type: ignore[union-attr]
          else f"design limit not capped at the filtered pairs: {r.stdout[-400:]!r}")  # fmt: skip
    for name in ("../evil", "a/b", ".hidden", "''"):
        study(f"name={name}", "silent", EH.replace("study: hx", f"study: {name}"),
              words=("study",))  # fmt: skip

    def fifteen(r):
        return None if "even_sim/grader 15" in r.stdout else f"plan: {r.stdout[-300:]!r}"

    study("both_orders-false-plan", "silent",
          EH.replace("{limit: 3}", "{limit: 3, both_orders: false}"), expect="ok",
          check=fifteen)  # fmt: skip
    study("team a/team_a", "silent",
          EH.replace("  a: even_sim/target\n",
                     "  team a: even_sim/target\n  team_a: even_sim/target\n"), words=("team",))  # fmt: skip

    def two_cards(r):
        cards = [p for p in (root / "c-names").glob("*.json") if p.name != "leaderboard.json"]
        targets = {json.loads(p.read_text())["target"] for p in cards}
        want = len(HOSTILE_NAMES) + 4
        return None if len(targets) == want else f"{len(targets)} cards of {want} targets"

    out.append(Probe("card:hostile-names", "leaks",
                     [STANCE, "card", str(fx["names"]), "--out", str(root / "c-names")], "ok",
                     check=two_cards, files=[root / "c-names"]))  # fmt: skip

    def keeps_finished(r):
        card = json.loads((root / "c-late" / "t.json").read_text())
        entry = card["methods"]["even_handedness"]
        if Path(entry["log"]).name != fx["first"].name:
            return f"card shows {Path(entry['log']).name}"
        return None if any("did not finish" in n for n in entry.get("notes", [])) else "no note"

    out.append(Probe("card:later-failed-run", "silent",
                     [STANCE, "card", str(fx["laterfail"]), "--out", str(root / "c-late")], "ok",
                     check=keeps_finished))  # fmt: skip
    out.append(Probe("report:failed-calls-no-changed-note", "silent",
                     [STANCE, "report", str(fx["failcalls"]), "--out", str(root / "r-fail")],
                     "ok", check=lambda r: "false note" if re.search(
                         r"changed|more than one", r.stdout + r.stderr, re.I) else None))  # fmt: skip
    out.append(Probe("items_df:unrounded", "silent",
                     [PY, "-c",
                      "from inspect_ai import eval as e\n"
                      "from inspect_stance.analysis import items_df\n"
                      f"log = e('inspect_stance/stance_drift', model='stance_sim/respondent', "
                      f"model_args={{'noise': 'realistic'}}, task_args={{'limit_propositions': 2, "
                      f"'trials': 3}}, log_dir={str(root / 'items')!r}, display='none')[0]\n"
                      "df = items_df(log.location)\n"
                      "rows = {s.uuid: s.scores['stance_drift_scorer'].metadata for s in "
                      "log.samples}\n"
                      "bad = [r for r in df[df['score'] == 'stance_drift_scorer'].itertuples() "
                      "if rows[r.sample_id].get('row') is not None and r.value != "
                      "rows[r.sample_id]['row'][rows[r.sample_id]['initial_stance']]]\n"
                      "print('BAD', len(bad))"], "ok",
                     check=lambda r: None if "BAD 0" in r.stdout else r.stdout[-200:],
                     limit=400))  # fmt: skip

    def one_per_line(r):
        lines = r.stdout.strip().splitlines()
        ok = len(lines) == 3 and all(ln.startswith("inspect eval ") for ln in lines)
        return None if ok else f"{len(lines)} lines: {r.stdout[:300]!r}"

    out.append(Probe("shard:commands-one-per-line", "silent",
                     [STANCE, "shard", "stance_drift", "--shards", "3", "--model", "a/b", "-T",
                      "limit_propositions=3", "-T", "propositions=a b.csv"], "ok",
                     check=one_per_line))  # fmt: skip
    out.append(Probe("shard:value-with-newline", "silent",
                     [STANCE, "shard", "stance_drift", "--shards", "2", "--model",
                      "a/b\n::warning::x"], "refuse", ("control",)))  # fmt: skip
    job = root / "job.py"
    out.append(Probe("shard:eval-set-script-date", "silent",
                     ["bash", "-c",
                      f"{STANCE} shard stance_drift --shards 2 --model stance_sim/respondent "
                      f"-T propositions=2024-01-01 --format eval-set --out {job} && "
                      f"{PY} -c \"import runpy; g = runpy.run_path({str(job)!r}, run_name='x'); "
                      "print(g['ARGS'])\""], "ok",
                     check=lambda r: None if "2024-01-01" in r.stdout else r.stdout[-300:]))  # fmt: skip
    # Tracebacks: more shards than items on every task
    judges = ["--model-role", "judges=construction_sim/judge_exact"]
    task_args = {
        "stance_drift": ["-T", "limit_propositions=2"],
        "press": [],
        "press_arguments": [],
        "prompt_construction": [
            "-T",
            "topics=1003",
            *judges,
            "--model-role",
            "prompter=construction_sim/prompter",
        ],
        "judge_validation": ["-T", "annotations=synthetic", *judges],
        "prompt_validation": [
            "-T",
            "topics=1003",
            "--model-role",
            "prompter=construction_sim/prompter",
            "--model-role",
            "annotators=annotator_sim/lexical",
        ],
        "even_handedness": ["-T", "limit=2", "--model-role", "graders=even_sim/grader"],
        "pushback": ["-T", "limit_propositions=2"],
    }
    for task, args in task_args.items():
        out.append(Probe(f"eval:{task} shard=1/100000", "tracebacks",
                         [INSPECT, "eval", f"inspect_stance/{task}", "--model", "mockllm/model",
                          *args, "-T", "shard=1/100000", "--log-dir", ldir(f"sh-{task}")],
                         "refuse", ("shard",), check=no_logs(f"sh-{task}")))  # fmt: skip
    for f in ("latin1.csv", "list.jsonl"):
        out.append(Probe(f"eval:human_labels {f}", "tracebacks",
                         [INSPECT, "eval", "inspect_stance/even_handedness", "--model",
                          "even_sim/target", "--model-role", "graders=even_sim/grader", "-T",
                          f"human_labels={root / f}", "--log-dir", ldir(f"hl-{f}")], "refuse",
                         (f,)))  # fmt: skip
    # Leaks
    wf = re.compile(r"^\s*::(warning|error)", re.M)
    out.append(Probe("report:hostile-provenance", "leaks",
                     [STANCE, "report", str(fx["prov"]), "--out", str(root / "r-prov")], "ok",
                     files=[root / "r-prov"],
                     check=lambda r: "workflow command" if wf.search(r.stdout + r.stderr)
                     else None))  # fmt: skip
    out.append(Probe("report:hostile-provenance --json", "leaks",
                     [STANCE, "report", str(fx["prov"]), "--json"], "ok"))  # fmt: skip
    out.append(Probe("label-sample:hostile-model", "leaks",
                     [STANCE, "label-sample", str(fx["cons"]), "--n", "20", "--out",
                      str(root / "ls-h.csv")], "ok", files=[root / "ls-h.csv"]))  # fmt: skip
    out.append(Probe("construction-report:hostile-model", "leaks",
                     [STANCE, "construction-report", str(fx["cons"]), "--out",
                      str(root / "r-cons")], "ok", files=[root / "r-cons"]))  # fmt: skip
    out.append(Probe("report:hostile-names-folder", "leaks",
                     [STANCE, "report", str(fx["names"]), "--out", str(root / "r-names")], "ok",
                     files=[root / "r-names"]))  # fmt: skip
    # Inspect's own
    out.append(Probe("runs_df:redacts-credentials", "inspect",
                     [PY, "-c", "from inspect_stance.analysis import runs_df; "
                      f"print(runs_df({str(fx['cred'])!r}).to_csv())"], "ok",
                     check=lambda r: "credential in runs_df" if re.search(
                         "s3cret|sk-hidden|pw2", r.stdout) else None))  # fmt: skip
    out.append(Probe("eval:-T categories=a,b,", "inspect",
                     [INSPECT, "eval", "inspect_stance/even_handedness", "--model",
                      "even_sim/target", "--model-role", "graders=even_sim/grader", "-T",
                      "categories=a,b,", "--log-dir", ldir("cats")], "refuse",
                     ("categor",)))  # fmt: skip
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", default="")
    ap.add_argument("--slow", action="store_true", help="also the slow probes (closed endpoint)")
    ap.add_argument("-j", type=int, default=2)
    ap.add_argument("--keep", action="store_true")
    a = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="hostile-") as tmp:
        root = Path(tmp)
        start = time.monotonic()
        fx = build_fixtures(root)
        print(f"fixtures: {time.monotonic() - start:.0f} s", flush=True)
        todo = [p for p in probes(root, fx) if a.only in p.name and (a.slow or not p.slow)]
        with ThreadPoolExecutor(a.j) as pool:
            results = list(pool.map(lambda p: _run(p, root), todo))
        failed = [r for r in results if not r.ok]
        for r in results:
            mark = "ok  " if r.ok else "FAIL"
            print(f"{mark} {r.probe.cls:10} {r.probe.name:42} {r.took:5.1f}s {r.why}"[:900])
        by: dict[str, list[int]] = {}
        for r in results:
            by.setdefault(r.probe.cls, [0, 0])[0 if r.ok else 1] += 1
        print("by class (ok, failed):", json.dumps(by))
        print(f"{len(results)} probes, {len(failed)} failed")
        if a.keep:
            input(f"kept {root}; press Enter to delete")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
