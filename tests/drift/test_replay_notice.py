"""A run that replays trials from the trial record says how many and from when: on the
console (also under ``--display none``, where Inspect prints nothing: on stderr), in the log
(each replayed trial's ``recorded_at``) and in every report (terminal notes, markdown, runs
table, JSON)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path

from inspect_ai.log import read_eval_log

from inspect_stance.cli import main as cli_main
from inspect_stance.drift.logs import read_drift_log

ROOT = Path(__file__).resolve().parents[2]


def _eval(tmp: Path, log_dir: str) -> subprocess.CompletedProcess[str]:
    props = tmp / "props.txt"
    props.write_text("We should adopt policy 1\nWe should adopt policy 2\n")
    cmd = [sys.executable, "-m", "inspect_ai", "eval", "tasks/stance_drift.py",
           "--model", "stance_sim/respondent", "-T", f"propositions={props}", "-T", "trials=2",
           "--log-dir", str(tmp / log_dir), "--display", "none"]  # fmt: skip
    env = {**os.environ, "INSPECT_CACHE_DIR": str(tmp / "cache")}
    done = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=300, env=env)
    assert done.returncode == 0, done.stderr[-2000:]
    return done


def test_replay_is_said_on_the_console_in_the_log_and_in_reports(tmp_path, capsys) -> None:
    before = datetime.now(UTC).replace(microsecond=0)
    first = _eval(tmp_path, "a")
    assert "replayed" not in first.stdout + first.stderr  # nothing replayed: nothing said
    second = _eval(tmp_path, "b")
    [line] = [x for x in second.stderr.splitlines() if "replayed from the trial record" in x]
    assert "20 of 20 trials" in line and "recorded from 20" in line
    since = line.split("recorded from ")[1].split(";")[0]
    assert before <= datetime.fromisoformat(since) <= datetime.now(UTC)
    [log] = (tmp_path / "b").glob("*.eval")
    full = read_eval_log(str(log))
    trials = [r for s in full.samples or [] for r in s.store["trials"]]
    assert all(r["replayed"] for r in trials)  # each sample's record has its own start time
    assert min(r["recorded_at"] for r in trials) == since
    run = read_drift_log(log)
    assert run.n_replayed == 20 and run.replayed_since == since
    assert cli_main(["report", str(log), "--json"]) == 0
    [obj] = json.loads(capsys.readouterr().out)["runs"]
    assert obj["trials_replayed"] == 20 and obj["replayed_recorded_from"] == since
    out = tmp_path / "report"
    assert cli_main(["report", str(log), "--out", str(out)]) == 0
    terminal = capsys.readouterr().out
    assert (
        f"20 of 20 trials were replayed from the trial record (no model call, recorded from {since})"
        in terminal
    )
    markdown = (out / "report.md").read_text()
    assert f"recorded from {since}" in markdown and " replayed " in markdown.split("## Runs")[1]
    [fresh] = (tmp_path / "a").glob("*.eval")
    assert read_drift_log(fresh).replay_note is None
    assert cli_main(["compare", str(fresh), str(log), "--json"]) == 0
    notes = json.loads(capsys.readouterr().out)["notes"]
    assert [n for n in notes if "replayed from the trial record" in n and since in n]
