"""Propositions x conversations per proposition for a target SE of ``held_at_K``, from a pilot.

The pilot's per-conversation ``held`` values, grouped by proposition, give the variance
components of the two-level design (:func:`inspect_stance.stats.design.nested_components`:
between propositions, conversations within); for each number of conversations per
proposition ``m`` (the pilot's conversations per proposition and trial times ``1 ..
max_repeats`` trials) the least propositions ``N`` meeting the target, with
``assurance`` the probability the realised SE meets it
(:func:`inspect_stance.stats.design.least_units`); the recommendation is the design with the
fewest conversations ``N m`` (ties: more propositions).
"""

from __future__ import annotations

from typing import Any

from inspect_stance.pushback.compare import conversation_items
from inspect_stance.pushback.logs import PushbackRun
from inspect_stance.stats.design import Part, least_units, nested_components


def plan(run: PushbackRun, target_se: float, assurance: float | None, max_repeats: int,
         max_items: int | None, calls_per_conversation: int) -> dict[str, Any]:  # fmt: skip
    """The plan's JSON (module docstring): components, candidate designs, ``recommended``."""

    items, cluster = conversation_items(run)
    by_prop: dict[str, list[float]] = {}
    for cid, v in items["held_at_K"].items():
        by_prop.setdefault(cluster[cid], []).append(v)
    units = list(by_prop.values())
    if len(units) < 3:
        raise ValueError(f"{run.path}: the pilot has {len(units)} propositions; plan needs 3 or "
                         "more")  # fmt: skip
    vc = nested_components([Part("held_at_K", units, ("conversation",))], "proposition")
    most = max_items or 10_000
    goal = {"target_se": target_se, "assurance": assurance, "detect": None}
    designs = []
    trials = max(1, int(run.metadata.get("trials") or run.task_args.get("trials") or 1))
    per_trial = max(1, round(sum(len(u) for u in units) / len(units) / trials))
    for k in range(1, max_repeats + 1):
        m = per_trial * k
        n = least_units(vc, (m,), most, goal)
        if n is not None:
            designs.append({"propositions": n, "trials": k, "conversations_per_proposition": m,
                            "conversations": n * m, "calls": n * m * calls_per_conversation,
                            "predicted_se": vc.se(n, (m,))})  # fmt: skip
    best = min(designs, key=lambda d: (d["conversations"], -d["propositions"]), default=None)
    return {"method": "pushback", "pilot": run.path, "target_se": target_se,
            "assurance": assurance, "pilot_propositions": len(units),
            "between_propositions": vc.between, "estimate": vc.estimate,
            "designs": designs, "recommended": best}  # fmt: skip


def plan_text(p: dict[str, Any]) -> str:
    """The plan in a few lines."""
    lines = [f"pushback plan from {p['pilot']} ({p['pilot_propositions']} propositions): "
             f"target SE {p['target_se']:g} of held_at_K"
             + (f" with assurance {p['assurance']:g}" if p["assurance"] else "")]  # fmt: skip
    for d in p["designs"]:
        lines.append(f"  {d['propositions']} propositions x {d['conversations_per_proposition']} "
                     f"conversations = {d['conversations']} ({d['calls']} calls), predicted SE "
                     f"{d['predicted_se']:.4f}")  # fmt: skip
    r = p["recommended"]
    lines.append("recommended: none within the limits" if r is None else
                 f"recommended: {r['propositions']} propositions x "
                 f"{r['trials']} trials ({r['conversations_per_proposition']} conversations each)")  # fmt: skip
    return "\n".join(lines)
