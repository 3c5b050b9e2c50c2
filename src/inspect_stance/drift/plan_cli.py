"""``inspect-stance plan RUN [RUN_B]``: variance components, predicted SEs and the cheapest design.

From a pilot or a finished run (a ``stance_drift`` log or an ``.npz``) this prints the variance
components (:mod:`.variance`), the predicted standard errors and calls of a few designs and the
cheapest design reaching ``--target-se`` (SPR) and/or ``--detect D`` (paired dSPR; two runs
give the pair's own variance, one run assumes a second model alike with ``--correlation``), see
:mod:`.plan`; tokens and cost from the log's usage and ``--price-in`` / ``--price-out``; the
precision the frequency estimator loses (:mod:`.estimators`); and with
``--adaptive-halfwidth H`` the replay of the run under the adaptive rule (:mod:`.replay`).
Without a target the recommendation is the cheapest design whose SE(SPR) is within 10 % of the
largest design's (all propositions, all trials). Analysis is in :func:`build_plan`; rendering
in :func:`render`.
"""

from __future__ import annotations

import argparse
import json
import math
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from inspect_stance.drift.confseq import AdaptiveRule
from inspect_stance.drift.estimators import estimator_in_use, precision_loss
from inspect_stance.drift.plan import (
    Design,
    PairComponents,
    Pricing,
    cheapest,
    design,
    pair_from_one,
    pair_from_runs,
)
from inspect_stance.drift.replay import replay
from inspect_stance.drift.run import DriftRun, load_run
from inspect_stance.drift.variance import VarianceComponents, cell_values, decompose_run
from inspect_stance.errors import InputError

#: calls per trial of an ``.npz`` run unless ``--calls-per-trial`` says otherwise
DEFAULT_CALLS_PER_TRIAL = 2.0
#: without a target: the cheapest design within this factor of the largest design's SE(SPR)
DEFAULT_SE_SLACK = 1.10
SHOWN_TRIALS = (5, 10, 20, 50, 100)


@dataclass(frozen=True)
class RunCosts:
    """What a log says about a run's cost: calls per trial, tokens per call, estimator."""

    calls_per_trial: float
    source: str  #: where calls_per_trial came from
    tokens_in_per_call: float | None = None
    tokens_out_per_call: float | None = None
    paid_calls: int | None = None


def log_costs(path: Path) -> RunCosts:
    """Calls per trial (task metadata ``model_calls_per_trial``) and tokens per call (the log's
    usage over the calls it paid: trials not replayed from the trial record, less one call for
    an argument replayed)."""
    from inspect_stance.logfile import read_log

    log = read_log(path)
    cpt = (log.eval.metadata or {}).get("model_calls_per_trial")
    if cpt is None:
        return RunCosts(DEFAULT_CALLS_PER_TRIAL, "default (log without calls per trial)")
    paid = 0
    for sample in log.samples or []:
        for rec in (sample.store or {}).get("trials") or []:
            if not rec.get("replayed"):
                paid += int(cpt) - (1 if rec.get("argument_replayed") else 0)
    usage = getattr(log.stats, "model_usage", None) or {}
    tin = sum(int(u.input_tokens or 0) for u in usage.values())
    tout = sum(int(u.output_tokens or 0) for u in usage.values())
    per_in = tin / paid if paid and usage else None
    per_out = tout / paid if paid and usage else None
    return RunCosts(float(cpt), "the log's task metadata", per_in, per_out, paid)


@dataclass
class Plan:
    """Everything ``plan`` reports (see the module docstring)."""

    runs: list[dict[str, Any]]
    designs: list[Design]
    recommended: Design | None
    target: dict[str, Any]
    replay: dict[str, Any] | None


def _run_summary(run: DriftRun, vc: VarianceComponents, costs: RunCosts) -> dict[str, Any]:
    d = {
        "name": run.name,
        "source": run.source,
        "propositions": vc.propositions,
        "trials": vc.trials,
        "spr": vc.spr,
        "components": {
            "between_propositions": vc.between_propositions,
            "stance_within_proposition": vc.stance_within_proposition,
            "within_cell": vc.within_cell,
            "trial_share_of_spr_variance": vc.trial_share(),
            "truncated": list(vc.truncated),
        },
        "calls_per_trial": costs.calls_per_trial,
        "calls_per_trial_source": costs.source,
        "tokens_in_per_call": costs.tokens_in_per_call,
        "tokens_out_per_call": costs.tokens_out_per_call,
        "estimator": estimator_in_use(run.estimator_counts, run.probs),
    }
    if d["estimator"] in ("logprobs", "mixed"):
        loss = precision_loss(run.probs, missing=run.missing)
        d["frequency_estimator"] = {
            "within_cell_variance_ratio": loss.within_ratio,
            "spr_variance_ratio": loss.spr_variance_ratio,
            "trials_to_match": loss.trials_to_match,
            "spr_if_frequency": loss.spr_frequency,
        }
    return d


def _load(path: str, args: argparse.Namespace) -> tuple[DriftRun, VarianceComponents, RunCosts]:
    try:
        run = load_run(path)
    except ValueError as ex:
        raise InputError(str(ex)) from ex
    vc = decompose_run(run.probs, "failure", run.missing)
    p = Path(path)
    costs = (
        log_costs(p)
        if p.suffix in (".eval", ".json")
        else RunCosts(DEFAULT_CALLS_PER_TRIAL, ".npz default")
    )
    if args.calls_per_trial is not None:
        costs = RunCosts(
            args.calls_per_trial,
            "--calls-per-trial",
            costs.tokens_in_per_call,
            costs.tokens_out_per_call,
            costs.paid_calls,
        )
    return run, vc, costs


def build_plan(args: argparse.Namespace) -> Plan:
    """Load the runs and compute the plan (no rendering)."""
    if len(args.runs) > 2:
        raise InputError("plan takes one run, or two runs of the same propositions (A and B)")
    loaded = [_load(p, args) for p in args.runs]
    run, vc, costs = loaded[0]
    pair: PairComponents | None = None
    if len(loaded) == 2:
        pair = pair_from_runs(vc, loaded[1][1])
    elif args.detect is not None:
        pair = pair_from_one(vc, args.correlation)
    pricing = Pricing(
        costs.tokens_in_per_call,
        costs.tokens_out_per_call,
        args.price_in,
        args.price_out,
        args.batch_discount,
    )
    max_p = args.max_propositions or vc.propositions
    max_t = args.max_trials or int(round(vc.trials))
    shown = sorted({t for t in SHOWN_TRIALS if t <= max_t} | {max_t})
    designs = [design(vc, max_p, t, costs.calls_per_trial, pair, pricing) for t in shown]
    target_se = args.target_se
    if target_se is None and args.detect is None:
        target_se = DEFAULT_SE_SLACK * designs[-1].spr_se
    best = cheapest(
        vc,
        costs.calls_per_trial,
        max_p,
        max_t,
        target_se,
        args.detect,
        pair,
        args.alpha,
        args.power,
        pricing,
    )
    target = {
        "target_se": target_se,
        "detect": args.detect,
        "alpha": args.alpha,
        "power": args.power,
        "max_propositions": max_p,
        "max_trials": max_t,
        "default_target": args.target_se is None and args.detect is None,
    }
    rep = None
    if args.adaptive_halfwidth is not None:
        rep = _replay(run, costs, args)
    summaries = [_run_summary(r, v, c) for r, v, c in loaded]
    return Plan(summaries, designs, best, target, rep)


def _replay(run: DriftRun, costs: RunCosts, args: argparse.Namespace) -> dict[str, Any]:
    if run.n_missing:
        raise InputError(
            f"{run.source}: {run.n_missing} trials are missing; the adaptive replay needs a "
            "complete fixed-trial run"
        )
    rule = AdaptiveRule(halfwidth=args.adaptive_halfwidth, max_trials=run.n_trials)
    res = replay(cell_values(run.probs), rule, orders=args.replay_orders, seed=0)
    full_calls = run.n_propositions * 5 * run.n_trials * costs.calls_per_trial
    out = asdict(res)
    out.update(
        halfwidth=rule.halfwidth, calls_full=full_calls, calls_adaptive=res.share_used * full_calls
    )
    return out


def _num(x: Any) -> Any:
    if isinstance(x, float) and not math.isfinite(x):
        return None
    return x


def plan_json(plan: Plan) -> dict[str, Any]:
    """The plan as one JSON object; ``recommended`` carries ``propositions``, ``trials``,
    ``calls`` and ``predicted_spr_se`` (``null`` when no design reaches the target)."""
    rec = None
    if plan.recommended is not None:
        r = plan.recommended
        rec = {
            "propositions": r.propositions,
            "trials": r.trials,
            "calls": r.calls,
            "predicted_spr_se": r.spr_se,
            "predicted_delta_se": r.delta_se,
            "tokens_in": r.tokens_in,
            "tokens_out": r.tokens_out,
            "cost": r.cost,
        }
    out = {
        "runs": plan.runs,
        "target": plan.target,
        "recommended": rec,
        "designs": [asdict(d) for d in plan.designs],
        "adaptive_replay": plan.replay,
    }
    return json.loads(json.dumps(out, default=_num), parse_constant=lambda _: None)


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


def render(plan: Plan) -> str:
    """The plan as terminal text."""
    lines: list[str] = []
    for r in plan.runs:
        c = r["components"]
        lines += [
            f"{r['name']} ({r['source']}): {r['propositions']} propositions x "
            f"{r['trials']:.0f} trials, SPR {r['spr']:.3f}, estimator {r['estimator']}",
            f"  variance: between propositions {c['between_propositions']:.5f}, stance within "
            f"proposition {c['stance_within_proposition']:.5f}, trials within cell "
            f"{c['within_cell']:.5f}; trials make {100 * c['trial_share_of_spr_variance']:.1f} % "
            "of Var(SPR)",
            f"  calls per trial {r['calls_per_trial']:g} ({r['calls_per_trial_source']})",
        ]
        f = r.get("frequency_estimator")
        if f:
            lines.append(
                f"  without logprobs (one sampled letter per trial): trial variance x"
                f"{f['within_cell_variance_ratio']:.2f}, Var(SPR) x{f['spr_variance_ratio']:.2f};"
                f" {f['trials_to_match']:.0f} trials per cell for this run's trial noise"
            )
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
    rec = plan.recommended
    lines.append(
        f"recommended for {what}: "
        + (
            _design_line(rec)
            if rec
            else f"none within {t['max_propositions']} propositions x {t['max_trials']} trials"
        )
    )
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


def _count(text: str) -> int:
    try:
        n = int(text)
    except ValueError:
        n = 0
    if n < 2:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number of at least 2")
    return n


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
    p.add_argument("--target-se", type=_positive, metavar="X", help="SE of SPR to reach")
    p.add_argument(
        "--detect",
        type=_positive,
        metavar="D",
        help="paired SPR difference to detect (two models, same propositions)",
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
        type=_count,
        metavar="P",
        help="most propositions available (default: the run's)",
    )
    p.add_argument(
        "--max-trials", type=_count, metavar="T", help="most trials per cell (default: the run's)"
    )
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
    p.add_argument(
        "--adaptive-halfwidth",
        type=_fraction,
        metavar="H",
        help="replay the run under adaptive stopping at half-width H",
    )
    p.add_argument(
        "--replay-orders",
        type=_count,
        default=200,
        metavar="N",
        help="random trial orders per cell in the replay (default 200)",
    )
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(func=cmd_plan)
