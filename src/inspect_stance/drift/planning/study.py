"""The analysis behind ``inspect-stance plan`` (rendering and arguments:
:mod:`inspect_stance.cli.plan`).

From one run (or two, for a paired comparison) it computes the variance components
(:mod:`.variance`), the predicted standard errors, calls, tokens and cost of designs and the
cheapest design for the target (:mod:`.design`), the precision the frequency estimator loses
(:mod:`.estimators`), the calls saved and widths reached by a run with adaptive trials, and
with ``--adaptive-halfwidth H`` the replay of a fixed-trial run under the adaptive rule
(:mod:`~inspect_stance.drift.adaptive.replay`). Without a target the recommendation is the cheapest design whose SE(SPR) is
within 10 % of the largest design's (all propositions, all trials).
"""

from __future__ import annotations

import json
import math
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np

from inspect_stance.drift.adaptive.confseq import AdaptiveRule, eb_cs
from inspect_stance.drift.adaptive.replay import replay
from inspect_stance.drift.adaptive.rule import ADAPTIVE_ALPHA
from inspect_stance.drift.compare import load_drift
from inspect_stance.drift.inputs import load_run
from inspect_stance.drift.planning.design import (
    Design,
    PairComponents,
    Pricing,
    calls_per_trial_by_variant,
    cheapest,
    design,
    pair_from_one,
    pair_from_runs,
    prob_se_below,
    se_prediction_range,
)
from inspect_stance.drift.planning.estimators import as_frequency, estimator_in_use, precision_loss
from inspect_stance.drift.planning.variance import VarianceComponents, cell_values, decompose_run
from inspect_stance.drift.run import DriftRun
from inspect_stance.errors import InputError
from inspect_stance.logfile import read_log
from inspect_stance.runs import check_settings, dedupe, name_runs
from inspect_stance.study.protocol import PlanRequest

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
    if run.adaptive_halfwidth is not None:
        d["adaptive"] = adaptive_summary(run, costs.calls_per_trial)
    if d["estimator"] in ("logprobs", "mixed"):
        loss = precision_loss(run.probs, missing=run.missing)
        d["frequency_estimator"] = {
            "within_cell_variance_ratio": loss.within_ratio,
            "spr_variance_ratio": loss.spr_variance_ratio,
            "trials_to_match": loss.trials_to_match,
            "spr_if_frequency": loss.spr_frequency,
        }
    return d


def adaptive_summary(run: DriftRun, calls_per_trial: float) -> dict[str, Any]:
    """A run with adaptive trials: trials run of the most, calls saved
    ``(P K T_max - sum n_si) c``, and the half-widths reached, ``max(U - mean, mean - L)`` of
    each cell's sequence over the trials it ran (:func:`~inspect_stance.drift.adaptive.confseq.eb_cs`, the task's level)."""

    held = ~run.missing_mask  # (P, T, K)
    x = cell_values(run.probs, "failure")
    widths = []
    for s, i in np.ndindex(x.shape[0], x.shape[2]):
        v = x[s, held[s, :, i], i]
        if v.size:
            lo, hi = eb_cs(v, ADAPTIVE_ALPHA)
            m = float(v.mean())
            widths.append(max(hi[-1] - m, m - lo[-1]))
    run_trials = int(held.sum())
    planned = int(held.size)
    w = np.asarray(widths)
    return {
        "halfwidth": run.adaptive_halfwidth,
        "trials_run": run_trials,
        "trials_planned": planned,
        "calls_saved": (planned - run_trials) * calls_per_trial,
        "share_of_calls_used": run_trials / planned if planned else math.nan,
        "width_reached_mean": float(w.mean()) if w.size else math.nan,
        "width_reached_max": float(w.max()) if w.size else math.nan,
        "cells_within_halfwidth": float((w <= run.adaptive_halfwidth).mean())
        if w.size
        else math.nan,
    }


def _load(path: str, request: PlanRequest) -> tuple[DriftRun, VarianceComponents, RunCosts]:
    first = Path(path)
    try:
        if first.is_dir():  # one study's shards, pooled; per-call costs from its first log
            from inspect_stance.drift.shards import load_folder_run

            run, first = load_folder_run(path, "failure", request.partial, adaptive_ok=True)
        elif first.suffix in (".eval", ".json"):
            from inspect_stance.drift.logs import read_drift_log

            # the trials an adaptive run did not run are in ``missing``, which plan drops
            run = read_drift_log(path, "failure", adaptive_ok=True)
            if run.shard is not None:  # one shard's log: refused, or with --partial named
                from inspect_stance.drift.shards import pool_drift_runs

                [run] = pool_drift_runs([run], request.partial)
        else:
            run = load_run(path)
    except ValueError as ex:
        raise InputError(str(ex)) from ex
    vc = decompose_run(run.probs, "failure", run.missing)
    if request.estimator == "frequency" and estimator_in_use(run.estimator_counts, run.probs) != (
        "frequency"
    ):
        vc = as_frequency(precision_loss(run.probs, "failure", run.missing))
    p = first
    costs = (
        log_costs(p)
        if p.suffix in (".eval", ".json")
        else RunCosts(DEFAULT_CALLS_PER_TRIAL, ".npz default")
    )
    if request.calls_per_trial is not None:
        costs = RunCosts(
            request.calls_per_trial,
            "--calls-per-trial",
            costs.tokens_in_per_call,
            costs.tokens_out_per_call,
            costs.paid_calls,
        )
    return run, vc, costs


def aligned_components(a: DriftRun, b: DriftRun, frequency: bool = False) -> VarianceComponents:
    """Run ``b``'s components with its propositions in ``a``'s order (matched by text), so a
    paired difference compares each proposition with itself (with ``frequency``: as the
    frequency estimator would give them, :func:`.estimators.as_frequency`); ``InputError``
    unless both runs hold the same propositions."""
    order = {text: k for k, text in enumerate(b.propositions)}
    missing = [t for t in a.propositions if t not in order]
    if missing or len(order) != len(a.propositions):
        raise InputError(
            f"the two runs do not hold the same propositions ({len(missing)} of {a.name}'s are "
            f"not in {b.name}, which has {len(b.propositions)}); a paired comparison needs the "
            "same propositions in both"
        )
    idx = [order[t] for t in a.propositions]
    held = None if b.missing is None else b.missing[idx]
    if frequency and estimator_in_use(b.estimator_counts, b.probs) != "frequency":
        return as_frequency(precision_loss(b.probs[idx], "failure", held))
    return decompose_run(b.probs[idx], "failure", held)


def check_pair(paths: list[str], allow_different: bool = False) -> None:
    """Refuse what ``compare`` refuses of a pair, in one line: the same run twice (a copy of a
    log, the same eval id; an ``.npz`` of the same content) and runs whose settings differ
    (the prompt variant, the estimator, ...) unless ``allow_different``."""

    try:
        infos = [load_drift(p).info for p in paths]
    except ValueError as ex:
        raise InputError(str(ex)) from ex
    keep, dropped = dedupe(infos)
    if len(keep) < 2:
        raise InputError(
            f"plan needs two different runs for a paired comparison ({dropped}); give one run "
            "to plan a second model alike, or two runs of different models"
        )
    check_settings(infos, name_runs(infos), allow_different)


def build_plan(request: PlanRequest) -> Plan:
    """Load the runs and compute the plan (no rendering)."""
    if len(request.runs) > 2:
        raise InputError("plan takes one run, or two runs of the same propositions (A and B)")
    if len(request.runs) == 2:
        check_pair(list(request.runs), request.allow_different_settings)
    loaded = [_load(p, request) for p in request.runs]
    run, vc, costs = loaded[0]
    pair: PairComponents | None = None
    if len(loaded) == 2:
        pair = pair_from_runs(
            vc, aligned_components(run, loaded[1][0], request.estimator == "frequency")
        )
    elif request.detect is not None:
        pair = pair_from_one(vc, request.correlation)
    pricing = Pricing(
        costs.tokens_in_per_call,
        costs.tokens_out_per_call,
        request.price_in,
        request.price_out,
        request.batch_discount,
    )
    max_p = request.max_items or vc.propositions
    max_t = request.max_repeats or run.n_trials
    shown = sorted({t for t in SHOWN_TRIALS if t <= max_t} | {max_t})
    designs = [design(vc, max_p, t, costs.calls_per_trial, pair, pricing) for t in shown]
    target_se = request.target_se
    if target_se is None and request.detect is None:
        target_se = DEFAULT_SE_SLACK * designs[-1].spr_se
    # the assurance applies to a target the user set (the default target is a point figure)
    assurance = request.assurance if request.target_se is not None else None
    best = cheapest(vc, costs.calls_per_trial, max_p, max_t, target_se, request.detect, pair,
                    request.alpha, request.power, pricing, assurance)  # fmt: skip
    target = _target(request, vc, best, target_se, assurance, (max_p, max_t))
    rep = None
    if request.adaptive_halfwidth is not None:
        rep = _replay(run, costs, request.adaptive_halfwidth, request.replay_orders)
    summaries = [_run_summary(r, v, c) for r, v, c in loaded]
    return Plan(summaries, designs, best, target, rep)


def _target(request: PlanRequest, vc: Any, best: Any, target_se: float | None,
            assurance: float | None, limits: tuple[int, int]) -> dict[str, Any]:  # fmt: skip
    """The plan's target block: what was asked, the design space searched (``limits``:
    propositions, trials) and, for the recommended design, the probability its realised SE
    meets the target and its 80 % predicted range."""
    return {
        "target_se": target_se,
        "detect": request.detect,
        "alpha": request.alpha,
        "power": request.power,
        "max_propositions": limits[0],
        "max_trials": limits[1],
        "default_target": request.target_se is None and request.detect is None,
        "estimator": request.estimator,
        "assurance": assurance,
        "prob_meets_target": None
        if best is None or target_se is None
        else prob_se_below(vc, target_se, best.propositions, best.trials),
        "predicted_se_range": None
        if best is None
        else list(se_prediction_range(vc, best.propositions, best.trials)),
    }


def _replay(run: DriftRun, costs: RunCosts, halfwidth: float, orders: int) -> dict[str, Any]:
    if run.n_missing:
        raise InputError(
            f"{run.source}: {run.n_missing} trials are missing; the adaptive replay needs a "
            "complete fixed-trial run"
        )
    rule = AdaptiveRule(halfwidth=halfwidth, max_trials=run.n_trials)
    res = replay(cell_values(run.probs), rule, orders=orders, seed=0)
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
            # the same design's calls under each variant (its SEs are this run's variant's)
            "calls_by_variant": {
                v: r.propositions * 5 * r.trials * c
                for v, c in calls_per_trial_by_variant().items()
            },
        }
    out = {
        "runs": plan.runs,
        "target": plan.target,
        "recommended": rec,
        "designs": [asdict(d) for d in plan.designs],
        "adaptive_replay": plan.replay,
    }
    return json.loads(json.dumps(out, default=_num), parse_constant=lambda _: None)
