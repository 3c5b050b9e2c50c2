"""The compact end-of-run line: the declared headline as the scorer wrote it, its interval,
direction and counts as integers, printed last."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from inspect_stance.console_summary import summary_line

ROOT = Path(__file__).resolve().parents[1]


def test_the_line_by_hand():
    from inspect_stance.study.registry import task_headline

    spec = task_headline("stance_drift")
    assert spec is not None and spec.metric == "spr"
    metrics = {"spr": 0.6, "stderr": 0.02, "ci_low": 0.55, "ci_high": 0.65, "n_items": 25.0,
               "n_clusters": 5.0, "trials": 25.0, "unparsed": 3.0}  # fmt: skip
    line = summary_line("inspect_stance/stance_drift", metrics)
    assert line == (f"stance_drift: spr 0.600 [0.550, 0.650] (95 % interval over 5 "
                    f"{spec.cluster}s, 25 {spec.item}s; higher is better) · trials 25 · "
                    "unparsed 3")  # fmt: skip
    assert "25.000" not in line
    line = summary_line("prompt_construction", {"mean_difference": 0.25})
    assert line == "prompt_construction: mean_difference 0.250 (no interval; lower is better)"


def test_the_line_names_the_declared_headline_not_the_first_metric():
    """PReSS's log may list ``n_statements`` first: the line names ``mean_S_t`` and its own
    interval (the interval is the log's, not one made here from ``stderr``)."""
    metrics = {"n_statements": 19.0, "mean_S_t": 0.667, "stderr": 0.05, "ci_low": 0.55,
               "ci_high": 0.78, "n_items": 19.0, "n_clusters": 19.0, "n_unparsed": 0.0}  # fmt: skip
    line = summary_line("press", metrics)
    assert line == ("press: mean_S_t 0.667 [0.550, 0.780] (95 % interval over 19 statements;"
                    " higher is better) · n statements 19 · n unparsed 0")  # fmt: skip


def test_other_tasks_and_empty_runs_get_no_line():
    assert summary_line("other_pkg/stance_drift_like", {"x": 1.0}) is None
    assert summary_line("inspect_stance/press", {}) is None


def _eval(display: str, tmp_path: Path) -> subprocess.CompletedProcess[str]:
    inspect = str(Path(sys.executable).with_name("inspect"))
    return subprocess.run(
        [inspect, "eval", "tasks/stance_drift.py", "--model", "stance_sim/respondent",
         "-T", "limit_propositions=2", "-T", "trials=5", "-T", "cache=false",
         "--log-dir", str(tmp_path), "--display", display],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=300,
        check=False,
    )  # fmt: skip


@pytest.mark.parametrize("display", ["plain", "full"])
def test_the_line_is_the_last_thing_a_run_prints(tmp_path, display):
    """Through the real ``inspect eval`` command, its output captured in one file: the line
    comes after Inspect's results panel (its ``Log:`` line), on a line of its own (the panel
    ends in spaces with no newline), and carries the headline the log holds."""
    from inspect_ai.log import list_eval_logs, read_eval_log

    done = _eval(display, tmp_path)
    assert done.returncode == 0, done.stdout[-2000:]
    assert done.stdout.splitlines()[-1].startswith("stance_drift: spr "), done.stdout[-300:]
    lines = [x.strip() for x in done.stdout.splitlines() if x.strip()]
    (info,) = list_eval_logs(str(tmp_path))
    log = read_eval_log(info, header_only=True)
    spr = log.results.scores[0].metrics["spr"].value
    assert lines[-1].startswith(f"stance_drift: spr {spr:.3f}"), lines[-5:]
    assert "higher is better" in lines[-1] and "· trials 50 ·" in lines[-1]
    assert any(x.startswith("Log:") or x.endswith(".eval") for x in lines[:-1])


@pytest.mark.parametrize("display", ["none"])
def test_display_none_prints_no_line(tmp_path, display):
    """``--display none`` asks for silence: no summary line (the headline stays in the log)."""
    done = _eval(display, tmp_path)
    assert done.returncode == 0
    assert "stance_drift: spr" not in done.stdout
