"""The stance-drift plan as terminal text (:func:`render`): the runs' variance components,
the designs, the recommendation and the adaptive replay (``inspect-stance plan``)."""

from __future__ import annotations

import math
from typing import Any

from inspect_stance.drift.planning.design import Design, calls_per_trial_by_variant
from inspect_stance.drift.planning.study import Plan
from inspect_stance.stats.plan_text import why_none


def _design_line(d: Design) -> str:
    parts = [
        f"{d.propositions:>4} x {d.trials:>3} trials",
        f"{d.calls:>9,} calls",
        f"SE(SPR) {d.spr_se:.4f}",
    ]
    if d.delta_se is not None:
        parts.append(f"SE(dSPR) {d.delta_se:.4f}")
    if d.tokens_in is not None and d.tokens_out is not None:
        parts.append(f"{d.tokens_in / 1e6:.2f}M in / {d.tokens_out / 1e6:.2f}M out tokens")
    if d.cost is not None:
        parts.append(f"cost {d.cost:,.2f}")
    return "  ".join(parts)


def _run_lines(r: dict[str, Any]) -> list[str]:
    """The lines of one run: components, calls per trial, adaptive figures, estimator loss."""
    c = r["components"]
    lines = [
        f"{r['name']} ({r['source']}): {r['propositions']} propositions x "
        f"{r['trials']:.0f} trials, SPR {r['spr']:.3f}, estimator {r['estimator']}",
        f"  variance: between propositions {c['between_propositions']:.5f}, stance within "
        f"proposition {c['stance_within_proposition']:.5f}, trials within cell "
        f"{c['within_cell']:.5f}; trials make {100 * c['trial_share_of_spr_variance']:.1f} % "
        "of Var(SPR)",
        f"  calls per trial {r['calls_per_trial']:g} ({r['calls_per_trial_source']})",
    ]
    ad = r.get("adaptive")
    if ad:
        lines.append(
            f"  adaptive trials (half-width {ad['halfwidth']:g}): {ad['trials_run']:,} of "
            f"{ad['trials_planned']:,} trials run, {ad['calls_saved']:,.0f} calls saved; "
            f"half-width reached: mean {ad['width_reached_mean']:.3f}, max "
            f"{ad['width_reached_max']:.3f}; {100 * ad['cells_within_halfwidth']:.0f} % of "
            "cells within the target"
        )
    f = r.get("frequency_estimator")
    if f and not math.isfinite(f["within_cell_variance_ratio"]):
        lines.append("  without logprobs: no trial noise in this run, no ratio to give")
    elif f:
        lines.append(
            f"  without logprobs (one sampled letter per trial): trial variance x"
            f"{f['within_cell_variance_ratio']:.2f}, Var(SPR) x{f['spr_variance_ratio']:.2f};"
            f" {f['trials_to_match']:.0f} trials per cell for this run's trial noise"
        )
    return lines


def render(plan: Plan) -> str:
    """The plan as terminal text."""
    lines: list[str] = []
    for r in plan.runs:
        lines += _run_lines(r)
    lines.append("designs (all propositions):")
    lines += ["  " + _design_line(d) for d in plan.designs]
    t = plan.target
    what = f"SE(SPR) <= {t['target_se']:.4f}" if t["target_se"] is not None else ""
    if t["detect"] is not None:
        what += (" and " if what else "") + (
            f"detect dSPR {t['detect']} (power {t['power']}, two-sided alpha {t['alpha']})"
        )
    if t["default_target"]:
        what += " (within 10 % of the largest design)"
    if t.get("estimator") == "frequency":
        what += ", without logprobs (frequency estimator)"
    rec = plan.recommended
    lines.append(
        f"recommended for {what}: "
        + (
            _design_line(rec)
            if rec
            else f"none within {t['max_propositions']} propositions x {t['max_trials']} trials"
            + why_none(
                t,
                [(f"{d.propositions} x {d.trials} trials", d.spr_se) for d in plan.designs],
                "--max-propositions P (more propositions than the pilot's) or --max-trials T",
                "SE(SPR)",
            )
        )
    )
    if rec is not None and t.get("prob_meets_target") is not None:
        lo, hi = t["predicted_se_range"]
        lines.append(
            f"  predicted SE(SPR) {rec.spr_se:.4f}, 80 % range from the pilot's sampling error "
            f"{lo:.4f}-{hi:.4f}; probability its realised SE is <= the target "
            f"{t['prob_meets_target']:.2f}"
            + (f" (assurance {t['assurance']:g})" if t.get("assurance") else "")
        )
    if rec is not None:
        by_variant = ", ".join(
            f"{v} {rec.propositions * 5 * rec.trials * c:,}"
            for v, c in calls_per_trial_by_variant().items()
        )
        lines.append(f"  its calls by variant: {by_variant}")
    if plan.replay:
        rp = plan.replay
        lines.append(
            f"adaptive stopping at half-width {rp['halfwidth']}: {rp['calls_adaptive']:,.0f} of "
            f"{rp['calls_full']:,.0f} calls ({100 * rp['share_used']:.1f} %; {rp['orders']} "
            f"random orders); coverage {rp['coverage']:.4f}; 'reaches 1' changed in "
            f"{100 * rp['changed_t_bound']:.1f} % of cells"
        )
    return "\n".join(lines)
