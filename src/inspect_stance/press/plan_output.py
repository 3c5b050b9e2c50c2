"""``inspect-stance plan`` on PReSS logs: the plan of :mod:`inspect_stance.press.planning` as
JSON (``recommended`` and the designs) and terminal text, the pilot read from its log(s) (the
shards of one study pooled), and the ``plan`` hook of the PReSS method."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict
from typing import TYPE_CHECKING, Any

from inspect_stance.errors import InputError
from inspect_stance.press.logs import PressRun, find_press_logs
from inspect_stance.press.planning import PlanResult, PressCalls, PressDesign, plan_press
from inspect_stance.printable import printable
from inspect_stance.runs import dedupe, log_info
from inspect_stance.stats.family import json_safe
from inspect_stance.stats.plan_text import recommendation_lines, why_none
from inspect_stance.study.protocol import PlanResult as Result

if TYPE_CHECKING:
    from inspect_stance.study.protocol import PlanRequest
    from inspect_stance.study.protocol import PlanResult as StudyPlan


def plan_json(plan: PlanResult) -> dict[str, Any]:
    """The plan as one JSON-safe object: ``recommended`` (``statements``, ``argument_sets``,
    ``calls``, ``predicted_se``, ``predicted_delta_se``, ``prob_meets_target``,
    ``predicted_se_range``, ``calls_by_variant``; ``null`` when no design reaches the target),
    ``runs``, ``designs`` and ``target``."""

    rec = None
    if plan.recommended is not None:
        r = plan.recommended
        reuse = PressCalls(plan.calls.per_set - (2 if plan.calls.generated_arguments else 0),
                           plan.calls.per_statement, False)  # fmt: skip
        rec = {**asdict(r), "method": "press",
               "prob_meets_target": plan.target["prob_meets_target"],
               "predicted_se_range": plan.target["predicted_se_range"],
               "calls_by_variant": {"as_run": r.calls,
                                    "arguments_reused": reuse.calls(r.statements,
                                                                    r.argument_sets)}}  # fmt: skip
    out = {"method": "press", "runs": plan.runs, "target": plan.target, "recommended": rec,
           "designs": [asdict(d) for d in plan.designs]}  # fmt: skip
    result: dict[str, Any] = json_safe(out)
    return result


def render(plan: PlanResult) -> str:
    """The plan as terminal text."""
    r = plan.runs[0]
    c = r["components"]
    lines = [
        f"{printable(r['name'])} ({printable(r['source'])}): {r['statements']} statements x "
        f"{r['argument_sets']} "
        f"argument sets, share stable {r['share_stable']:.3f} (SE {r['se']:.4f})",
        f"  variance: between statements {c['between_statements']:.5f}, argument sets within "
        f"a statement {c['within_statement']:.5f}",
        f"  calls per statement: {plan.calls.per_statement:g} + {plan.calls.per_set:g} per "
        "argument set",
    ]
    if c["not_separable"]:
        lines.append("  one argument set per statement: the set component cannot be separated "
                     "(more sets are predicted to buy nothing)")  # fmt: skip
    lines.append("designs (all statements):")
    lines += [f"  {_line(d)}" for d in plan.designs]
    lines += _recommendation_lines(plan)
    return "\n".join(lines)


def _line(d: PressDesign) -> str:
    out = f"{d.statements:>5} statements x {d.argument_sets:>3} sets  {d.calls:>9,} calls  " \
          f"SE {d.predicted_se:.4f}"  # fmt: skip
    return out + (f"  SE(delta) {d.predicted_delta_se:.4f}" if d.predicted_delta_se else "")


def _recommendation_lines(plan: PlanResult) -> list[str]:
    t, rec = plan.target, plan.recommended
    none = f"none within {t['max_statements']} statements x {t['max_argument_sets']} argument sets"
    none += why_none(t, [(f"{d.statements} statements x {d.argument_sets} sets", d.predicted_se)
                         for d in plan.designs],
                     "--max-statements S or --max-argument-sets A")  # fmt: skip
    return recommendation_lines(t, _line(rec) if rec else None, none,
                                predicted_se=rec.predicted_se if rec else None)  # fmt: skip


def check_runs(runs: Sequence[PressRun]) -> None:
    """One or two runs (a second for a paired plan); a one-line InputError otherwise."""
    if not 1 <= len(runs) <= 2:
        raise InputError("plan takes one PReSS run, or two runs of the same statements")


def plan_press_logs(paths: Sequence[str], partial: bool = False, **options: Any) -> PlanResult:
    """:func:`plan_press` of the PReSS log(s) at ``paths`` (files or folders; the shards of one
    study pooled, an incomplete set only with ``partial``): one run, or two different runs of
    the same statements (the second is the pilot, the first its baseline, as ``compare A B``);
    ``options`` are :func:`plan_press`'s keywords. One-line InputError for another task's log,
    three or more runs, or the same run twice."""

    runs, _ = find_press_logs(paths, partial)
    check_runs(runs)
    if len(runs) == 2:
        keep, dropped = dedupe([log_info(r.path) for r in runs])
        if len(keep) < 2:
            raise InputError(f"plan needs two different runs for a paired plan ({dropped}); "
                             "give one run to plan a second model alike")  # fmt: skip
        return plan_press(runs[1], baseline=runs[0], **options)
    return plan_press(runs[0], **options)


def plan_from_request(request: PlanRequest) -> StudyPlan:
    """The ``plan`` hook of the PReSS method: ``max_items`` statements, ``max_repeats``
    argument sets; JSON and text of :func:`plan_press_logs`."""

    res = plan_press_logs(list(request.runs), request.partial, target_se=request.target_se,
                          detect=request.detect, assurance=request.assurance,
                          correlation=request.correlation,
                          alpha=request.alpha, power=request.power,
                          max_statements=request.max_items,
                          max_argument_sets=request.max_repeats)  # fmt: skip
    return Result(plan_json(res), render(res))
