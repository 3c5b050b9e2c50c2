"""The compact end-of-run line: headline, 95 % interval, direction, counts as integers."""

from __future__ import annotations

from inspect_stance.console_summary import summary_line


def test_the_line_by_hand():
    metrics = {"spr": 0.6, "spr_stderr": 0.02, "stderr": 0.02, "trials": 500.0, "unparsed": 3.0}
    line = summary_line("inspect_stance/stance_drift", metrics)
    # 0.6 -/+ 1.959964 x 0.02 = 0.561, 0.639
    assert line == ("stance_drift: spr 0.600 [0.561, 0.639] (95 % interval; higher is better)"
                    " · trials 500 · unparsed 3")  # fmt: skip
    assert "500.000" not in line
    line = summary_line("prompt_construction", {"mean_difference": 0.25})
    assert line == "prompt_construction: mean_difference 0.250 (no standard error; lower is better)"


def test_other_tasks_and_empty_runs_get_no_line():
    assert summary_line("other_pkg/stance_drift_like", {"x": 1.0}) is None
    assert summary_line("inspect_stance/press", {}) is None


def test_a_real_run_prints_the_line(tmp_path, capsys):
    from inspect_ai import eval as inspect_eval
    from inspect_ai.model import get_model
    from inspect_stance.tasks.stance_drift import stance_drift

    (log,) = inspect_eval(
        stance_drift(limit_propositions=2, trials=5, cache=False),
        model=get_model("stance_sim/respondent", memoize=False),
        log_dir=str(tmp_path),
        display="plain",
    )
    err = capsys.readouterr().err
    spr = log.results.scores[0].metrics["spr"].value
    assert f"stance_drift: spr {spr:.3f} [" in err and "higher is better" in err
    assert "· trials 50 ·" in err


def test_display_none_prints_no_line(tmp_path, capsys):
    """``--display none`` asks for silence: no summary line (the headline stays in the log)."""
    from inspect_ai import eval as inspect_eval
    from inspect_ai.model import get_model
    from inspect_stance.tasks.stance_drift import stance_drift

    inspect_eval(
        stance_drift(limit_propositions=2, trials=5, cache=False),
        model=get_model("stance_sim/respondent", memoize=False),
        log_dir=str(tmp_path),
        display="none",
    )
    assert "stance_drift: spr" not in capsys.readouterr().err
