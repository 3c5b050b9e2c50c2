"""``inspect-stance plan RUN [RUN_B]``: variance components, predicted SEs and the cheapest design.

From a pilot or a finished run (a ``stance_drift`` log or an ``.npz``) this prints the variance
components, the predicted standard errors and calls of a few designs and the cheapest design
reaching ``--target-se`` (SPR) and/or ``--detect D`` (paired dSPR; two runs give the pair's own
variance, one run assumes a second model alike with ``--correlation``); tokens and cost from
the log's usage and ``--price-in`` / ``--price-out``; the precision the frequency estimator
loses; and with ``--adaptive-halfwidth H`` the replay of the run under the adaptive rule. The
analysis is :func:`inspect_stance.drift.planning.study.build_plan`; this module renders it
and parses the arguments.
"""

from __future__ import annotations

import argparse
import json
import math
from typing import Any

from inspect_stance.drift.planning.design import Design, calls_per_trial_by_variant
from inspect_stance.drift.planning.study import Plan, build_plan, plan_json


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


def cmd_plan(args: argparse.Namespace) -> int:
    """Entry point of ``inspect-stance plan``."""
    plan = build_plan(args)
    print(json.dumps(plan_json(plan), indent=2) if args.json else render(plan))
    return 0


def _positive(text: str) -> float:
    try:
        x = float(text)
    except ValueError:
        x = math.nan
    if not math.isfinite(x) or x <= 0:
        raise argparse.ArgumentTypeError(f"{text!r} is not a positive number")
    return x


def _fraction(text: str) -> float:
    x = _positive(text)
    if x >= 1:
        raise argparse.ArgumentTypeError(f"{text!r} is not strictly between 0 and 1")
    return x


def _share(text: str) -> float:
    try:
        x = float(text)
    except ValueError:
        x = math.nan
    if not 0.0 <= x < 1.0:
        raise argparse.ArgumentTypeError(f"{text!r} is not a share in [0, 1)")
    return x


#: the largest design space and replay the planner searches (bounded work and memory)
MAX_PROPOSITIONS = 1_000_000
MAX_TRIALS = 1_000
MAX_REPLAY_ORDERS = 10_000


def _count(text: str, most: int | None = None) -> int:
    try:
        n = int(text)
    except ValueError:
        n = 0
    if n < 2:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number of at least 2")
    if most is not None and n > most:
        raise argparse.ArgumentTypeError(f"{text!r} is more than {most:,}; give at most that")
    return n


def _propositions(text: str) -> int:
    return _count(text, MAX_PROPOSITIONS)


def _trials(text: str) -> int:
    return _count(text, MAX_TRIALS)


def _orders(text: str) -> int:
    return _count(text, MAX_REPLAY_ORDERS)


def register(subparsers: Any) -> None:
    """Add ``plan`` to ``subparsers``."""
    p = subparsers.add_parser(
        "plan",
        help="plan a cheaper stance-drift study from a pilot or a finished run",
        description="Variance components of a stance-drift run (log or .npz), predicted "
        "standard errors, calls, tokens and cost of designs (propositions x trials), the "
        "cheapest design for a target, and an adaptive-stopping replay.",
    )
    p.add_argument(
        "runs",
        nargs="+",
        metavar="RUN",
        help="a run (log or .npz); a second run "
        "of the same propositions plans a paired comparison of the two",
    )
    _add_target_args(p)
    _add_cost_args(p)
    p.add_argument(
        "--adaptive-halfwidth",
        type=_fraction,
        metavar="H",
        help="replay the run under adaptive stopping at half-width H",
    )
    p.add_argument(
        "--replay-orders",
        type=_orders,
        default=200,
        metavar="N",
        help="random trial orders per cell in the replay (default 200)",
    )
    p.add_argument(
        "--estimator",
        choices=("as-run", "frequency"),
        default="as-run",
        help="frequency: plan for a model without logprobs (one letter per trial) from a "
        "logprob run, with the trial variance of its re-scoring (default: the run's own)",
    )
    p.add_argument(
        "--allow-different-settings",
        action="store_true",
        help="plan a pair of runs whose settings differ (as compare's flag)",
    )
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(func=cmd_plan)


def _add_target_args(p: argparse.ArgumentParser) -> None:
    """The target and the design space: ``--target-se``, ``--detect`` and its settings."""
    p.add_argument("--target-se", type=_positive, metavar="X", help="SE of SPR to reach")
    p.add_argument(
        "--detect",
        type=_fraction,
        metavar="D",
        help="paired SPR difference to detect (two models, same propositions)",
    )
    p.add_argument(
        "--assurance",
        type=_fraction,
        default=0.8,
        metavar="P",
        help="with --target-se: the cheapest design whose realised SE(SPR) is below the "
        "target with probability P, given the pilot's own sampling error (default 0.8)",
    )
    p.add_argument("--power", type=_fraction, default=0.8, help="power for --detect (0.8)")
    p.add_argument(
        "--alpha", type=_fraction, default=0.05, help="two-sided level for --detect (0.05)"
    )
    p.add_argument(
        "--correlation",
        type=float,
        default=0.0,
        metavar="RHO",
        help="one run with --detect: correlation of the two models' proposition "
        "means (default 0, the cautious choice for positive correlations)",
    )
    p.add_argument(
        "--max-propositions",
        type=_propositions,
        metavar="P",
        help="most propositions available (default: the run's)",
    )
    p.add_argument(
        "--max-trials", type=_trials, metavar="T", help="most trials per cell (default: the run's)"
    )


def _add_cost_args(p: argparse.ArgumentParser) -> None:
    """Calls per trial and prices."""
    p.add_argument(
        "--calls-per-trial",
        type=_positive,
        metavar="C",
        help="model calls per trial (default: the log's task metadata; 2 for .npz)",
    )
    p.add_argument(
        "--price-in", type=_positive, metavar="USD", help="price per million input tokens"
    )
    p.add_argument(
        "--price-out", type=_positive, metavar="USD", help="price per million output tokens"
    )
    p.add_argument(
        "--batch-discount",
        type=_share,
        default=0.0,
        metavar="SHARE",
        help="share off the price, e.g. 0.5 for a Batch API (default 0)",
    )
