"""PReSS's headline ``mean_S_t`` is found at every stage of a run: Inspect resolves the declared
headline against the interim metrics of its progress line too (from 0 samples on), and a
missing key made it warn "Headline metric 'mean_S_t' not found" on every run and show the
first metric (``n_statements: 0.00``) instead."""

from __future__ import annotations

import math
import os
import subprocess
import sys
from pathlib import Path

from inspect_ai.log import read_eval_log
from inspect_stance.scorers.press import press_headline

from inspect_stance.press.summary import HEADLINE
from inspect_stance.viewer import headline

ROOT = Path(__file__).resolve().parents[2]


def test_headline_is_present_before_any_statement_is_scored() -> None:
    out = press_headline()([])
    assert "mean_S_t" in out and math.isnan(out["mean_S_t"])
    assert headline("press").metric == HEADLINE == "mean_S_t"


def test_press_run_has_no_headline_warning(tmp_path: Path) -> None:
    cmd = [sys.executable, "-m", "inspect_ai", "eval", "tasks/press.py",
           "--model", "press_sim/target", "--model-role", "arguer=press_sim/arguer",
           "--model-role", "classifier=press_sim/classifier", "-T", "classifier=llm",
           "--log-dir", str(tmp_path), "--display", "plain"]  # fmt: skip
    env = {**os.environ, "COLUMNS": "200"}
    done = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=300, env=env)
    text = done.stdout + done.stderr
    assert done.returncode == 0, text[-2000:]
    assert "Headline metric" not in text
    progress = [line for line in text.splitlines() if "Samples:" in line]
    assert progress and all("mean_S_t:" in line for line in progress), progress
    [path] = tmp_path.glob("*.eval")
    log = read_eval_log(str(path))
    assert log.results is not None and log.results.headline is not None
    assert log.results.headline.metric == "mean_S_t"
    [score] = log.results.scores
    s_t = [s.scores["press_scorer"].metadata["S_t"]["none"] for s in log.samples or []]
    defined = [x for x in s_t if x is not None]
    assert score.metrics["mean_S_t"].value == sum(defined) / len(defined)
