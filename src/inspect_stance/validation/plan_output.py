"""The prompt-validation plan of a log (:mod:`inspect_stance.validation.planning` computes
it), as JSON and as terminal text, and the ``plan`` hook of the method."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict
from typing import TYPE_CHECKING, Any

from inspect_stance.errors import InputError
from inspect_stance.printable import printable
from inspect_stance.stats.family import json_safe
from inspect_stance.stats.plan_text import recommendation_lines
from inspect_stance.study.protocol import PlanResult as Result
from inspect_stance.validation.analysis import annotator_order, rows_from_records
from inspect_stance.validation.annotation import Annotation
from inspect_stance.validation.logs import read_validation_runs
from inspect_stance.validation.planning import PlanResult, ValidationDesign, plan_validation_leaning

if TYPE_CHECKING:
    from inspect_stance.study.protocol import PlanRequest
    from inspect_stance.study.protocol import PlanResult as StudyPlan


def plan_json(plan: PlanResult) -> dict[str, Any]:
    """The plan as one JSON-safe object: ``recommended`` (``settings``, ``prompts``,
    ``annotators``, ``calls``, ``predicted_se``, ``predicted_delta_se``,
    ``prob_meets_target``, ``predicted_se_range``, ``calls_by_variant``; ``null`` when no
    design reaches the target, with ``reason`` saying why), ``runs``, ``designs``, ``target``."""

    rec = None
    if plan.recommended is not None:
        r, c = plan.recommended, plan.calls
        rec = {**asdict(r), "method": "prompt_validation",
               "prob_meets_target": plan.target["prob_meets_target"],
               "predicted_se_range": plan.target["predicted_se_range"],
               "calls_by_variant": {"as_run": r.calls,
                                    "neutral_only": c.calls(r.settings, r.prompts, stances=1),
                                    "headline_only": c.calls(r.settings, r.prompts, stances=1,
                                                             sources=1)}}  # fmt: skip
    out = {"method": "prompt_validation", "runs": plan.runs, "target": plan.target,
           "recommended": rec, "reason": plan.reason or None,
           "designs": [asdict(d) for d in plan.designs]}  # fmt: skip
    result: dict[str, Any] = json_safe(out)
    return result


def _line(d: ValidationDesign) -> str:
    out = (f"{d.settings:>5} settings x {d.prompts:>3} prompts per source x {d.annotators} "
           f"annotators  {d.calls:>9,} calls  SE {d.predicted_se:.4f}")  # fmt: skip
    return out + (f"  SE(delta) {d.predicted_delta_se:.4f}" if d.predicted_delta_se else "")


def render(plan: PlanResult) -> str:
    """The plan as terminal text."""
    r = plan.runs[0]
    c = r["components"]
    lines = [
        f"{printable(r['name'])} ({printable(r['source'])}): {r['settings']} neutral settings x "
        f"{r['prompts']} generated prompts x {r['answers_per_prompt']} answers, neutral "
        f"leaning of the generated prompts {r['neutral_leaning_generated']:.3f} "
        f"(SE {r['se']:.4f})",
        f"  variance: between settings {c['between_settings']:.5f}, prompts within a setting "
        f"{c['prompt']:.5f}, answers within a prompt {c['answer']:.5f}",
    ]
    if c["not_separable"]:
        lines.append("  one answer per prompt: the answer component cannot be separated "
                     "(folded into the prompt one)")  # fmt: skip
    if c["truncated"]:
        lines.append(f"  negative estimates set to 0: {', '.join(c['truncated'])}")
    if r["note"]:
        lines.append(f"  note: {r['note']}")
    lines.append("designs (all settings):")
    lines += [f"  {_line(d)}" for d in plan.designs]
    t, rec = plan.target, plan.recommended
    lines += recommendation_lines(t, _line(rec) if rec else None, f"none ({plan.reason})")
    return "\n".join(lines)


def load_pilot(
    paths: Sequence[str], partial: bool = False
) -> tuple[list[Annotation], dict[str, Any], list[str], str]:
    """The annotation rows of the one prompt_validation run in ``paths`` (a log, or a folder
    of one study's shards, pooled: :func:`inspect_stance.validation.logs.read_validation_runs`;
    an incomplete set with ``partial``), its task arguments (without ``shard``), its
    annotators and its source. One-line InputError for another task's log or several runs."""
    from inspect_ai.log import read_eval_log

    runs, _found = read_validation_runs(paths, partial)
    if len(runs) != 1:
        raise InputError(f"plan takes one prompt_validation run; {len(runs)} given (a "
                         "paired plan of two runs is not offered: give one run with --detect "
                         "and --correlation)")  # fmt: skip
    [run] = runs
    header = read_eval_log(str(run.paths[0]), header_only=True)
    args = {k: v for k, v in (header.eval.task_args or {}).items() if k != "shard"}
    names = list(run.metadata.get("annotators") or annotator_order(run.records))
    source = ", ".join(map(str, run.paths)) + run.suffix
    return rows_from_records(run.records), args, names, source


def plan_validation_log(paths: Sequence[str], partial: bool = False, **options: Any) -> PlanResult:
    """:func:`plan_validation_leaning` of the one prompt_validation run in ``paths`` (a log, or
    a folder holding one run or one study's shards); ``options`` are its keywords. One-line
    InputError otherwise."""
    rows, args, names, source = load_pilot(paths, partial)
    return plan_validation_leaning(rows, args, len(names) or None, name=", ".join(names),
                                   source=source, **options)  # fmt: skip


def plan_from_request(request: PlanRequest) -> StudyPlan:
    """The ``plan`` hook of the prompt-validation method: ``max_items`` neutral settings,
    ``max_repeats`` prompts per source; JSON and text of :func:`plan_validation_log`."""

    res = plan_validation_log(list(request.runs), request.partial, target_se=request.target_se,
                              detect=request.detect, assurance=request.assurance,
                              correlation=request.correlation, alpha=request.alpha,
                              power=request.power, max_settings=request.max_items,
                              max_prompts=request.max_repeats)  # fmt: skip
    return Result(plan_json(res), render(res))
