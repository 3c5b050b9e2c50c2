"""The prompt-validation plan as JSON and as terminal text
(:mod:`inspect_stance.validation.planning` computes it)."""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from inspect_stance.printable import printable
from inspect_stance.validation.planning import PlanResult, ValidationDesign


def plan_json(plan: PlanResult) -> dict[str, Any]:
    """The plan as one JSON-safe object: ``recommended`` (``settings``, ``prompts``,
    ``annotators``, ``calls``, ``predicted_se``, ``predicted_delta_se``,
    ``prob_meets_target``, ``predicted_se_range``, ``calls_by_variant``; ``null`` when no
    design reaches the target, with ``reason`` saying why), ``runs``, ``designs``, ``target``."""
    from inspect_stance.stats.family import json_safe

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
    what = f"SE <= {t['target_se']:.4f}" if t["target_se"] is not None else ""
    if t["detect"] is not None:
        what += (" and " if what else "") + f"detect a difference of {t['detect']:g} (power " \
                f"{t['power']:g}, two-sided alpha {t['alpha']:g})"  # fmt: skip
    what += " (within 10 % of the largest design)" if t["default_target"] else ""
    if rec is None:
        lines.append(f"recommended for {what}: none ({plan.reason})")
        return "\n".join(lines)
    lines.append(f"recommended for {what}: {_line(rec)}")
    lo, hi = t["predicted_se_range"]
    prob = t["prob_meets_target"]
    lines.append(f"  80 % range of its SE from the pilot's sampling error {lo:.4f}-{hi:.4f}"
                 + (f"; probability its realised SE is <= the target {prob:.2f}"
                    if prob is not None else "")
                 + (f" (assurance {t['assurance']:g})" if t["assurance"] else ""))  # fmt: skip
    return "\n".join(lines)
