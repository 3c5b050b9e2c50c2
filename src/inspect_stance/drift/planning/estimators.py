"""How much precision the frequency estimator loses against the logprob estimator.

A trial's logprob estimate is the answer token's distribution ``p`` over the five stances; a
model without logprobs gives one parsed letter, whose one-hot vector is the *frequency*
estimate. A logprob run is re-scored as if only one letter were known in two ways:

- ``"sampled"``: the letter a temperature-1 extraction would give, drawn from ``p`` (the
  task's default ``extraction_temperature=1``): same expected cell means, per-trial values in
  {0, 1}; the draws use a fixed seed;
- ``"argmax"``: the top letter (temperature 0, :func:`.transition.argmax_trials`): other cell
  means as well as another variance.

The loss is read from the variance components (:mod:`.variance`) of the re-scored run against
the original: the within-cell variance ratio ``r = sigma_e,freq^2 / sigma_e,lp^2`` (one
logprob trial is worth ``r`` frequency trials), the SPR-variance ratio at ``T`` trials
``(sigma_P^2 + r sigma_e,lp^2 / (K T)) / (sigma_P^2 + sigma_e,lp^2 / (K T))`` with the logprob
run's ``sigma_P^2`` for both (exactly so for ``sampled``, whose cell means are those of the
logprob run), and the trials per cell the frequency estimator needs for the logprob run's trial
noise at ``T``: ``T' = r T``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Literal

import numpy as np

from inspect_stance.drift.planning.variance import VarianceComponents, decompose_run
from inspect_stance.drift.transition import FloatArray, argmax_trials, unparsed_mask
from inspect_stance.stances import N_STANCES

Rescoring = Literal["sampled", "argmax"]


def sampled_trials(probs: np.ndarray, seed: int = 0) -> FloatArray:
    """Each parsed trial's vector replaced by a one-hot draw ``e_j``, ``j ~ p`` (unparsed rows
    stay NaN); reproducible from ``seed``."""
    arr = np.asarray(probs, dtype=np.float64)
    mask = unparsed_mask(arr)
    p = np.where(mask[..., None], 1.0 / N_STANCES, np.nan_to_num(arr, nan=0.0))
    p = p / p.sum(axis=-1, keepdims=True)
    u = np.random.default_rng(seed).random(p.shape[:-1])[..., None]
    idx = np.minimum((np.cumsum(p, axis=-1) < u).sum(axis=-1), N_STANCES - 1)
    out = np.eye(N_STANCES)[idx]
    out[mask] = np.nan
    return out


def frequency_trials(probs: np.ndarray, how: Rescoring = "sampled", seed: int = 0) -> FloatArray:
    """The run re-scored with the frequency estimator (see the module docstring)."""
    return sampled_trials(probs, seed) if how == "sampled" else argmax_trials(probs)


@dataclass(frozen=True)
class PrecisionLoss:
    """Logprob vs frequency estimator on one run, at the run's own trials per cell."""

    how: Rescoring
    trials: float
    within_ratio: float  #: sigma_e,freq^2 / sigma_e,lp^2
    spr_variance_ratio: float  #: Var_freq(SPR) / Var_lp(SPR) at the run's design
    spr_logprob: float
    spr_frequency: float
    trials_to_match: float  #: frequency trials per cell with the trial noise of ``T``
    logprob: VarianceComponents
    frequency: VarianceComponents


def spr_variance_ratio(lp: VarianceComponents, ratio: float, trials: float) -> float:
    """``(sigma_P^2 + r sigma_e^2 / (K T)) / (sigma_P^2 + sigma_e^2 / (K T))``: how much larger
    SPR's variance is with the frequency estimator at ``T`` trials per cell."""
    noise = lp.within_cell / (lp.n_stances * trials)
    base = lp.between_propositions + noise
    return (lp.between_propositions + ratio * noise) / base if base > 1e-15 else math.nan


def precision_loss(
    probs: np.ndarray,
    unparsed: str = "failure",
    missing: np.ndarray | None = None,
    how: Rescoring = "sampled",
    seed: int = 0,
) -> PrecisionLoss:
    """Variance components of the run and of its frequency re-scoring, and their ratios."""
    lp = decompose_run(probs, unparsed, missing)
    fr = decompose_run(frequency_trials(probs, how, seed), unparsed, missing)
    t = lp.trials
    # no trial noise at all (e.g. a deterministic respondent): no ratio to give
    ratio = fr.within_cell / lp.within_cell if lp.within_cell > 1e-12 else math.nan
    return PrecisionLoss(
        how=how,
        trials=t,
        within_ratio=ratio,
        trials_to_match=ratio * t,
        spr_variance_ratio=spr_variance_ratio(lp, ratio, t),
        spr_logprob=lp.spr,
        spr_frequency=fr.spr,
        logprob=lp,
        frequency=fr,
    )


Estimator = Literal["logprobs", "frequency", "mixed", "unknown"]


def estimator_in_use(counts: dict[str, int], probs: np.ndarray | None = None) -> Estimator:
    """The estimator a run's parsed trials used: from a log's per-trial records
    (``DriftRun.estimator_counts``): ``logprobs`` / ``frequency`` when at least 95 % of parsed
    trials used it, else ``mixed``. For an ``.npz`` (no records) from the vectors:
    ``frequency`` when at least 95 % are one-hot, else ``logprobs`` (a confident logprob
    estimate is one-hot too, so no share in between is told apart). ``unknown`` without
    either."""
    lp = counts.get("logprobs", 0)
    fr = counts.get("frequency", 0)
    total = lp + fr + counts.get("mixed", 0)
    if total == 0 and probs is not None:
        arr = np.asarray(probs, dtype=np.float64)
        parsed = ~unparsed_mask(arr)
        one_hot = np.nanmax(np.where(parsed[..., None], arr, 0.0), axis=-1) >= 1.0 - 1e-9
        share = (one_hot & parsed).sum() / max(int(parsed.sum()), 1)
        return "frequency" if share >= 0.95 else "logprobs"
    if total == 0:
        return "unknown"
    if lp >= 0.95 * total:
        return "logprobs"
    if fr >= 0.95 * total:
        return "frequency"
    return "mixed"


def as_frequency(loss: PrecisionLoss) -> VarianceComponents:
    """The logprob run's components with the frequency estimator's trial variances (overall and
    per stance): what a model without logprobs would show on the same propositions (the
    between-proposition components stay the logprob run's)."""
    return replace(
        loss.logprob,
        within_cell=loss.frequency.within_cell,
        per_stance_within=loss.frequency.per_stance_within,
    )
