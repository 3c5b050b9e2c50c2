"""A sweep over models with ``inspect eval-set`` (the orchestrator docs/planning.md names): two
simulated models, a small adaptive design, one log per model, and ``inspect-stance plan`` on the
logs. The command is the one docs/planning.md shows."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from inspect_ai.log import read_eval_log

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.slow  # one `inspect eval-set` process over two models (~30 s on 2 busy cores)
def test_eval_set_sweep_over_two_simulated_models(tmp_path: Path) -> None:
    logs = tmp_path / "sweep"
    r = subprocess.run(
        [
            *(sys.executable, "-m", "inspect_ai._cli.main", "eval-set", "tasks/stance_drift.py"),
            *("--model", "stance_sim/respondent,press_sim/target"),
            *("-T", "limit_propositions=3", "-T", "trials=20", "-T", "adaptive_halfwidth=0.2"),
            *("--log-dir", str(logs), "--display", "none"),
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert r.returncode == 0, r.stderr[-3000:]
    found = sorted(logs.glob("*.eval"))
    assert len(found) == 2
    by_model = {read_eval_log(str(p), header_only=True).eval.model: p for p in found}
    assert set(by_model) == {"stance_sim/respondent", "press_sim/target"}
    from inspect_stance.drift.figures import log_figures

    for path in found:
        header = read_eval_log(str(path), header_only=True)
        assert header.status == "success"
        figures = log_figures([str(path)])  # the counts beside the panel's (drift.figures)
        assert figures["trials_planned"] == 3 * 5 * 20
        assert figures["trials_run"] <= 3 * 5 * 20
    # press_sim (a PReSS respondent) names no letter: every trial is unparsed (a failure), so
    # every cell stops at 10
    other = log_figures([str(by_model["press_sim/target"])])
    assert other["trials_run"] == 3 * 5 * 10
    assert other["unparsed"] == 3 * 5 * 10
    plan = subprocess.run(
        [
            sys.executable,
            "-m",
            "inspect_stance.cli",
            "plan",
            str(by_model["stance_sim/respondent"]),
            "--json",
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert plan.returncode == 0, plan.stderr
    out = json.loads(plan.stdout)
    assert out["runs"][0]["adaptive"]["trials_planned"] == 3 * 5 * 20
