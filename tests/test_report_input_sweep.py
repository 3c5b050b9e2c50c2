"""Bad logs and options given to the report commands, and faults and credentials around a run:
the probe families *logs*, *faults* and *security* (the *parameters* and *files* families run
through the real ``inspect eval`` CLI in ``test_bad_input_sweep.py``).

Each case is classed as the issue's probes were: **one-line** (exit 2, exactly one line on
stderr naming the culprit, no traceback) or **handled** (a sensible result, checked by the
case); anything else (a traceback, a result that looks valid and is not, a lost count, a
leaked credential) fails the test. The report commands run in-process (``inspect_stance.cli``).
"""

from __future__ import annotations

import json
import shutil
import zipfile
from collections import Counter
from pathlib import Path

import pytest
from inspect_ai import eval as inspect_eval

from inspect_stance.cli import main

pytestmark = pytest.mark.filterwarnings("ignore:The 'initial' parameter is deprecated")

CANARY = "CANARY-7f3a-SECRET"


@pytest.fixture(scope="module")
def logs(tmp_path_factory):
    """A finished stance-drift run, a run whose provider failed part-way (faults), a run given
    a canary credential, and broken copies of the finished log."""
    from inspect_stance.tasks.stance_drift import stance_drift

    d = tmp_path_factory.mktemp("report_sweep")
    (d / "props.txt").write_text("We should adopt policy 1\n")

    def run(model_args=None, api_key=None, **kw):
        from inspect_ai.model import get_model

        model = get_model(
            "stance_sim/respondent", api_key=api_key, memoize=False, **(model_args or {})
        )
        [log] = inspect_eval(
            stance_drift(propositions=str(d / "props.txt"), trials=1, cache=False),
            model=model,
            log_dir=str(d / "logs"),
            display="none",
            **kw,
        )
        return Path(log.location)

    good = run()
    faulty = run({"fail_after": 4}, fail_on_error=False)
    secret = run(api_key=CANARY)
    broken = d / "broken"
    broken.mkdir()
    (broken / "empty.eval").write_bytes(b"")
    data = good.read_bytes()
    (broken / "truncated.eval").write_bytes(data[: len(data) // 2])
    (broken / "notalog.json").write_text(json.dumps({"hello": "world"}))
    (broken / "zip_as_json.json").write_bytes(data)
    with zipfile.ZipFile(broken / "junk.eval", "w") as z:
        z.writestr("readme.txt", "not a log")
    only_other = d / "only_other"
    only_other.mkdir()
    (only_other / "notes.json").write_text("{}")
    return {"dir": d, "good": good, "faulty": faulty, "secret": secret, "broken": broken,
            "only_other": only_other}  # fmt: skip


def _one_line(code: int, err: str, word: str) -> bool:
    lines = [ln for ln in err.splitlines() if ln.strip()]
    return code == 2 and len(lines) == 1 and word in lines[0] and "Traceback" not in err


def _cases(L: dict) -> list[tuple[str, list[str], str]]:
    """(family, argv, a word the one line names) for cases that must be one line."""
    b, good = L["broken"], str(L["good"])
    taken = L["dir"] / "taken.txt"
    taken.write_text("")
    return [
        ("logs", ["report", str(b / "empty.eval")], "empty.eval"),
        ("logs", ["report", str(b / "truncated.eval")], "truncated.eval"),
        ("logs", ["report", str(b / "notalog.json")], "notalog.json"),
        ("logs", ["report", str(b / "zip_as_json.json")], "zip_as_json.json"),
        ("logs", ["report", str(b / "junk.eval")], "junk.eval"),
        ("logs", ["report", str(L["only_other"])], "only_other"),
        ("logs", ["report", str(L["dir"] / "nope.eval")], "nope.eval"),
        ("logs", ["report", str(L["dir"] / "props.txt")], "props.txt"),
        ("logs", ["press-report", good], "stance_drift"),
        ("logs", ["construction-report", good], "stance_drift"),
        ("logs", ["validation-report", good], "stance_drift"),
        ("logs", ["press-report", str(b / "truncated.eval")], "truncated.eval"),
        ("logs", ["construction-report", str(b / "empty.eval")], "empty.eval"),
        ("logs", ["validation-report", str(L["only_other"])], "only_other"),
        ("parameters", ["report", good, "--hops", "100000000"], "--hops"),
        ("parameters", ["report", good, "--threshold", "2"], "--threshold"),
        ("parameters", ["report", good, "--threshold", "nan"], "--threshold"),
        ("parameters", ["report", good, "--confidence", "1"], "--confidence"),
        ("parameters", ["report", good, "--out", str(taken)], "taken.txt"),
        ("parameters", ["report", good, "--out", str(taken / "sub")], "taken.txt"),
        ("parameters", ["press-report", good, "--out", str(taken)], "taken.txt"),
        ("parameters", ["construction-report", good, "--out", str(taken / "x")], "taken.txt"),
        ("parameters", ["validation-report", good, "--out", str(taken)], "taken.txt"),
        ("parameters", ["press-report", good, "--ci", "bogus"], "--ci"),
        ("parameters", ["press-report", good, "--table2-set", "-1"], "--table2-set"),
    ]


def test_report_sweep(logs, capsys, tmp_path):
    counts: Counter[str] = Counter()
    bad = []
    capsys.readouterr()
    for family, argv, word in _cases(logs):
        code = main(argv)
        captured = capsys.readouterr()
        if _one_line(code, captured.err, word):
            counts["one-line"] += 1
        else:
            bad.append(f"{family}: {' '.join(argv)} -> {code} {captured.err.splitlines()[:3]}")
    counts["handled"] += _handled(logs, capsys, tmp_path)
    assert not bad, "\n".join(bad)
    assert counts["one-line"] == 25 and counts["handled"] == 5


def _handled(L: dict, capsys, tmp_path) -> int:
    """Cases with a sensible result other than an error; each asserts what that result is."""
    from inspect_ai.log import read_eval_log

    n = 0
    # faults: a run whose provider failed part-way is reported with its missing trials counted,
    # not as a smaller complete run; the gate refuses it (exit 2)
    faulty = read_eval_log(str(L["faulty"]))
    assert faulty.status == "error" or any(s.error for s in faulty.samples or [])
    assert main(["report", str(L["faulty"]), "--json"]) == 0
    run = json.loads(capsys.readouterr().out)["runs"][0]
    assert run["missing_values"] > 0
    n += 1
    assert main(["report", str(L["faulty"])]) == 0
    assert "missing" in capsys.readouterr().out
    n += 1
    assert main(["gate", str(L["faulty"]), "--min-spr", "0.1"]) == 2
    assert "incomplete" in capsys.readouterr().err
    n += 1
    # logs: a copy of a log beside it is one run, said on stderr
    folder = tmp_path / "copies"
    folder.mkdir()
    shutil.copy(L["good"], folder / "a.eval")
    shutil.copy(L["good"], folder / "b.eval")
    assert main(["report", str(folder), str(L["good"]), "--json"]) == 0
    captured = capsys.readouterr()
    assert (
        len(json.loads(captured.out)["runs"]) == 1
        and "counted 2 repeated runs once" in captured.err
    )
    n += 1
    # security: an api_key given to a run is written nowhere (log, report outputs)
    out = tmp_path / "secret_report"
    assert main(["report", str(L["secret"]), "--out", str(out)]) == 0
    printed = capsys.readouterr()
    assert CANARY not in printed.out + printed.err
    with zipfile.ZipFile(L["secret"]) as z:
        assert all(CANARY.encode() not in z.read(name) for name in z.namelist())
    assert all(CANARY.encode() not in p.read_bytes() for p in out.rglob("*") if p.is_file())
    n += 1
    return n
