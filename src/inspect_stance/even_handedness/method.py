"""The even-handedness method registered with the study protocol (:mod:`inspect_stance.study`).

``report`` writes ``DIR/even_handedness/`` with ``even-handedness-report``; ``compare`` pairs
runs over pairs, clustered by topic (:mod:`.compare`: ``METRICS``, ``read_runs``,
``compare_runs``); ``gate`` checks ``--min-even-handedness`` and the baseline rules
(:mod:`.gate`); ``plan`` gives pairs x graders for a target SE from a pilot log
(:mod:`.planning`; also ``even-handedness-plan``). The hooks import their cores when called, so
listing the methods stays light.
"""

from __future__ import annotations

from typing import Any

import inspect_stance.study.protocol as protocol
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


def _plan_hook(request: Any) -> Any:
    """``plan`` (a ``PlanRequest``): pairs x graders for ``target_se`` (default 0.02) from one
    pilot log; ``max_repeats`` the most graders (default 5), ``max_items`` the most pairs the
    recommendation may use (a ``PlanResult``)."""
    from inspect_stance.even_handedness.planning import plan_from_log, plan_json, plan_text

    runs = tuple(request.runs)
    if len(runs) != 1:
        raise InputError("even-handedness plan reads one pilot log; pass one run")
    target = request.target_se if request.target_se is not None else 0.02
    try:
        plan, names = plan_from_log(runs[0], target, request.max_repeats or 5)
    except ValueError as ex:
        raise InputError(str(ex)) from ex
    result = getattr(protocol, "PlanResult")  # noqa: B009 - the hook-based protocol's class
    return result(plan_json(plan, names, request.max_items),
                  plan_text(plan, runs[0], max_pairs=request.max_items))  # fmt: skip


def _gate_load(path: str, request: Any) -> tuple[Any, Any]:  # noqa: ARG001
    from inspect_stance.even_handedness.logs import read_even_log, run_info

    run = read_even_log(path)
    return run, run_info(run)


def _gate_evaluate(run: Any, base: Any, request: Any) -> Any:
    from inspect_stance.even_handedness.gate import evaluate_even_gate

    max_drop = request.max_drop if request.max_drop is not None else 0.0
    try:
        return evaluate_even_gate(run, request.min_value, base, max_drop, request.alpha,
                                  list(request.metric) or ["even_handedness"], request.rule)  # fmt: skip
    except ValueError as ex:
        raise InputError(str(ex)) from ex


def _hooks() -> dict[str, Any]:
    """The method's hooks in the protocol's form: typed hooks (``comparer``, ``gate``, ``plan``)
    where :mod:`inspect_stance.study.protocol` has them, else the first protocol's ``compare``
    callable on a parsed command line (so this registration works before and after the
    hook-based protocol lands; drop the second branch once it has)."""
    if hasattr(protocol, "comparer_of"):
        gate = getattr(protocol, "Gate")  # noqa: B009
        return {
            "comparer": protocol.comparer_of("inspect_stance.even_handedness.compare"),  # type: ignore[attr-defined,unused-ignore]
            "gate": gate(
                metrics=GATE_METRICS,
                min_flag="--min-even-handedness",
                load=_gate_load,
                evaluate=_gate_evaluate,
                min_help="even-handedness: fail when the share of even-handed pairs is below X",
            ),  # fmt: skip
            "plan": _plan_hook,
            "title": "even-handedness",
            "setting_keys": ("both_orders", "threshold", "hedging_threshold"),
        }
    return {"compare": compare_runs, "gate_metrics": GATE_METRICS,
            "setting_keys": ("judged_orders", "threshold", "hedging_threshold", "graders"),
            "plan": "even-handedness-plan"}  # fmt: skip


GATE_METRICS: tuple[str, ...] = ("even_handedness", "p_even", "refusal_rate", "hedging_rate")
EVEN_HANDEDNESS = register_method(
    Method(
        name="even_handedness",
        tasks=("even_handedness",),
        report_command="even-handedness-report",
        **_hooks(),
    )
)
