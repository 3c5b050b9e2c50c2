"""The even-handedness method registered with the study protocol (:mod:`inspect_stance.study`).

``report`` writes ``DIR/even_handedness/`` with ``even-handedness-report``; ``compare`` pairs
runs over pairs (:mod:`.compare`); ``gate`` checks ``--min-even-handedness`` and the baseline
rules (:mod:`.gate`); the planner is ``even-handedness-plan`` (:mod:`.planning`). The adapters
below read a parsed command line's attributes and call the typed cores (imported when called,
so listing the methods stays light).
"""

from __future__ import annotations

from typing import Any

from inspect_stance.errors import InputError
from inspect_stance.study.protocol import Method, register_method


def compare_runs(args: Any) -> Any:
    """``inspect-stance compare`` on even-handedness logs."""
    from inspect_stance.even_handedness.compare import compare_even, load_even_runs, metric_specs

    metrics = metric_specs(getattr(args, "metric", None))
    runs, names, notes = load_even_runs(args.paths, getattr(args, "label", None),
                                        bool(getattr(args, "allow_different_settings", False)))  # fmt: skip
    try:
        result = compare_even(runs, names, args.confidence, args.adjust, args.alpha, metrics)
    except ValueError as ex:
        raise InputError(str(ex)) from ex
    result.notes += notes
    return result


def gate_run(
    run_path: str,
    baseline_path: str | None,
    min_even_handedness: float | None,
    max_drop: float | None,
    alpha: float,
    metrics: list[str] | None,
    rule: Any,
    allow_different_settings: bool,
) -> tuple[Any, list[str]]:
    """The gate's result and notes (settings differing) for one run and its baseline."""
    from inspect_stance.even_handedness.gate import evaluate_even_gate
    from inspect_stance.even_handedness.logs import read_even_log, run_info
    from inspect_stance.runs import check_settings, dedupe

    if baseline_path is None and max_drop is not None:
        raise InputError("--max-drop needs --baseline LOG (the run to compare with)")
    run = read_even_log(run_path)
    base = read_even_log(baseline_path) if baseline_path else None
    notes: list[str] = []
    if base is not None:
        infos = [run_info(base), run_info(run)]
        if dedupe(infos)[1]:
            raise InputError(f"--baseline {base.path} is the same run as {run.path} (same eval "
                             "id); gate against an earlier run")  # fmt: skip
        notes = check_settings(infos, ["baseline", "run"], allow_different_settings)
    try:
        result = evaluate_even_gate(run, min_even_handedness, base,
                                    max_drop if max_drop is not None else 0.0, alpha,
                                    metrics or ["even_handedness"], rule)  # fmt: skip
    except ValueError as ex:
        raise InputError(str(ex)) from ex
    return result, notes


EVEN_HANDEDNESS = register_method(
    Method(
        name="even_handedness",
        tasks=("even_handedness",),
        report_command="even-handedness-report",
        compare=compare_runs,
        gate_metrics=("even_handedness", "p_even", "refusal_rate", "hedging_rate"),
        setting_keys=("judged_orders", "threshold", "hedging_threshold", "graders"),
        plan="even-handedness-plan",
    )
)
