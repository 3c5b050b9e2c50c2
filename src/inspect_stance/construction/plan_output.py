"""``inspect-stance plan`` on prompt_construction logs: the plan of
:mod:`inspect_stance.construction.planning` as JSON (``recommended`` and the designs) and
terminal text, the pilot read from its log(s) (the shards of one study pooled), and the ``plan``
hook of the prompt-construction method."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict
from typing import TYPE_CHECKING, Any

from inspect_stance.construction.planning import (
    ConstructionDesign,
    PlanResult,
    plan_construction_gap,
)
from inspect_stance.construction.report import read_records
from inspect_stance.errors import InputError
from inspect_stance.logfile import find_task_logs
from inspect_stance.printable import printable
from inspect_stance.runs import log_info
from inspect_stance.shards.layout import group_logs
from inspect_stance.stats.family import json_safe
from inspect_stance.stats.plan_text import recommendation_lines, why_none
from inspect_stance.study.protocol import PlanResult as Result

if TYPE_CHECKING:
    from inspect_stance.construction.records import Record
    from inspect_stance.study.protocol import PlanRequest
    from inspect_stance.study.protocol import PlanResult as StudyPlan


def plan_json(plan: PlanResult) -> dict[str, Any]:
    """The plan as one JSON-safe object: ``recommended`` (``settings``, ``prompts``,
    ``responses``, ``judges``, ``calls``, ``predicted_se``, ``prob_meets_target``,
    ``predicted_se_range``, ``calls_by_variant``; ``null`` when no design reaches the target),
    ``runs``, ``designs`` and ``target``."""

    rec = None
    if plan.recommended is not None:
        r = plan.recommended
        rec = {**asdict(r), "method": "prompt_construction",
               "prob_meets_target": plan.target["prob_meets_target"],
               "predicted_se_range": plan.target["predicted_se_range"],
               "calls_by_variant": {"as_run": r.calls, "neutral_only": plan.calls.calls(
                   r.settings, r.prompts, r.responses, stances=1)}}  # fmt: skip
    out = {"method": "prompt_construction", "runs": plan.runs, "target": plan.target,
           "recommended": rec, "designs": [asdict(d) for d in plan.designs]}  # fmt: skip
    result: dict[str, Any] = json_safe(out)
    return result


def _line(d: ConstructionDesign) -> str:
    return (f"{d.settings:>4} settings x {d.prompts:>3} prompts x {d.responses} responses x "
            f"{d.judges} judges  {d.calls:>9,} calls  SE(gap) {d.predicted_se:.4f}")  # fmt: skip


def render(plan: PlanResult) -> str:
    """The plan as terminal text."""
    r = plan.runs[0]
    c = r["components"]
    comp = ", ".join(f"{k.replace('_', ' ')} {v:.5f}" for k, v in c.items()
                     if isinstance(v, float))  # fmt: skip
    lines = [
        f"{printable(r['name'])} ({printable(r['source'])}): {r['settings']} neutral settings x "
        f"{r['prompts']} prompts x {r['responses']} responses x {r['judges']} judges, "
        f"gap templated-generated {r['gap']:+.3f} (SE {r['se']:.4f})",
        f"  variance: {comp}",
    ]
    if c["not_separable"]:
        lines.append(f"  not separable in this pilot (folded into the level above, predicted to "
                     f"buy nothing): {', '.join(c['not_separable'])}")  # fmt: skip
    lines.append("designs (all settings):")
    lines += [f"  {_line(d)}" for d in plan.designs]
    t, rec = plan.target, plan.recommended
    lines += recommendation_lines(t, _line(rec) if rec else None,
                                  f"none within {t['max_settings']} settings"
                                  + why_none(t, [(f"{d.settings} settings x {d.prompts} prompts",
                                                  d.predicted_se) for d in plan.designs],
                                             "--max-settings S or --max-prompts P", "SE(gap)"),
                                  "SE(gap)",
                                  "a gap")  # fmt: skip
    return "\n".join(lines)


def load_pilot(
    path: str | Sequence[str], partial: bool = False
) -> tuple[list[Record], dict[str, Any], str]:
    """The prompt_construction records of the log at ``path`` (or of the logs of one study's
    shards, pooled; ``partial``: an incomplete set), its task arguments (without ``shard``)
    and model; one-line InputError for another task's log or one shard alone without
    ``partial``."""

    paths = [path] if isinstance(path, str) else list(path)
    records, _ = read_records(paths, partial)
    records = [r for r in records if r.extra.get("task") == "prompt_construction"]
    if not records:
        raise InputError(f"{paths[0]}: not a prompt_construction run; plan the gap from the log "
                         "of inspect eval tasks/prompt_construction.py")  # fmt: skip
    info = log_info(paths[0])
    args = {k: v for k, v in info.task_args.items() if k != "shard"}
    return records, args, str(info.model or "")


def plan_construction_gap_log(
    paths: Sequence[str], partial: bool = False, **options: Any
) -> PlanResult:
    """:func:`plan_construction_gap` of the one prompt_construction run in ``paths`` (a log, or
    a folder holding one run: one log, or the shards of one study, pooled; an incomplete set
    only with ``partial``); ``options`` are its keywords. One-line InputError otherwise."""

    found = find_task_logs(paths, ("prompt_construction",), "prompt_construction run")
    groups, _suffix = group_logs(found.paths, partial)
    if len(groups) != 1:
        raise InputError(f"plan takes one prompt_construction run; {len(groups)} given "
                         "(a paired plan of two construction runs is not offered)")  # fmt: skip
    group = [str(p) for p in groups[0]]
    records, args, model = load_pilot(group, partial)
    return plan_construction_gap(records, args, name=model, source=group[0], **options)


def plan_from_request(request: PlanRequest) -> StudyPlan:
    """The ``plan`` hook of the prompt-construction method: ``max_items`` neutral settings,
    ``max_repeats`` prompts per method; JSON and text of :func:`plan_construction_gap_log`."""

    res = plan_construction_gap_log(list(request.runs), request.partial,
                                    target_se=request.target_se,
                                    detect=request.detect, assurance=request.assurance,
                                    alpha=request.alpha, power=request.power,
                                    max_settings=request.max_items,
                                    max_prompts=request.max_repeats)  # fmt: skip
    return Result(plan_json(res), render(res))
