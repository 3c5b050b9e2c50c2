"""Study planning: predicted standard errors, calls, tokens and cost of stance-drift designs.

A design is ``P`` propositions x ``K = 5`` initial stances x ``T`` trials per cell. From the
variance components of a pilot (:mod:`.variance`):

- ``SE(SPR) = sqrt((sigma_P^2 + sigma_e^2 / (K T)) / P)``;
- ``SE(success_i) = sqrt((tau_i^2 + sigma_{e,i}^2 / T) / P)``;
- paired ``dSPR`` of two models on the same propositions, with ``d_s = c^A_s. - c^B_s.``:
  ``SE(dSPR) = sqrt((sigma_D^2 + (sigma_{e,A}^2 + sigma_{e,B}^2) / (K T)) / P)``, where
  ``sigma_D^2 = var_s(d_s) - (h_A sigma_{e,A}^2 + h_B sigma_{e,B}^2) / K`` from two pilots, or,
  from one pilot (model B assumed alike, its proposition means correlated ``rho`` with A's),
  ``sigma_D^2 = 2 (1 - rho) sigma_P^2`` and ``sigma_{e,B} = sigma_{e,A}``.

The cheapest design for a target (fewest calls ``P K T c``, ``c`` calls per trial): for
``--target-se X`` the least ``P`` with ``SE(SPR) <= X`` at every ``T``; for ``--detect D``
(two-sided ``alpha``, ``power``) the least ``P`` with ``D / SE(dSPR) >= t_{1-alpha/2, P-1} +
t_{power, P-1}`` (the paired t-test's power, as in ``gate``), then the ``T`` of fewest calls.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy import stats

from inspect_stance.drift.planning.variance import VarianceComponents
from inspect_stance.drift.prompts import EXTRACTION_ONLY_VARIANTS, MULTIPLE_EXTRACTIONS, VARIANTS
from inspect_stance.errors import InputError

#: the least trials per cell a plan proposes (a cell's interval needs a few trials)
MIN_TRIALS = 2


def calls_per_trial_by_variant() -> dict[str, int]:
    """Model calls per trial of each one-hop variant: one generation plus one extraction (five
    for ``multiple_extraction``); ``+arguments_from``: the extraction-only variants reusing an
    earlier run's arguments (no generation). Chains (``hops > 1``) record theirs in the log's
    metadata."""

    def extractions(v: str) -> int:
        return MULTIPLE_EXTRACTIONS if v == "multiple_extraction" else 1

    out = {v: 1 + extractions(v) for v in VARIANTS}
    out.update({f"{v}+arguments_from": extractions(v) for v in EXTRACTION_ONLY_VARIANTS})
    return out


@dataclass(frozen=True)
class PairComponents:
    """The variance of a paired dSPR: ``sigma_D^2`` and the two trial variances."""

    between: float  #: sigma_D^2
    within_a: float
    within_b: float
    n_stances: int = 5

    def variance(self, propositions: int, trials: float) -> float:
        """``(sigma_D^2 + (sigma_{e,A}^2 + sigma_{e,B}^2) / (K T)) / P``."""
        noise = (self.within_a + self.within_b) / (self.n_stances * trials)
        return float((self.between + noise) / propositions)


def pair_from_runs(a: VarianceComponents, b: VarianceComponents) -> PairComponents:
    """``sigma_D^2 = var_s(c^A_s. - c^B_s.) - (h_A sigma_{e,A}^2 + h_B sigma_{e,B}^2) / K``
    (0 when negative); the two runs must hold the same propositions in the same order."""
    if a.propositions != b.propositions:
        raise InputError(
            f"the two runs hold {a.propositions} and {b.propositions} propositions; a paired "
            "comparison needs the same propositions in both"
        )
    d = a.proposition_means - b.proposition_means
    k = a.n_stances
    between = float(d.var(ddof=1)) - (a.h * a.within_cell + b.h * b.within_cell) / k
    return PairComponents(max(between, 0.0), a.within_cell, b.within_cell, k)


def pair_from_one(a: VarianceComponents, rho: float = 0.0) -> PairComponents:
    """A second model alike to ``a``: ``sigma_D^2 = 2 (1 - rho) sigma_P^2``."""
    if not -1.0 <= rho <= 1.0:
        raise InputError(f"--correlation {rho} must be between -1 and 1")
    between = 2.0 * (1.0 - rho) * a.between_propositions
    return PairComponents(between, a.within_cell, a.within_cell, a.n_stances)


@dataclass(frozen=True)
class Design:
    """One design with its predicted standard errors and what it costs."""

    propositions: int
    trials: int
    calls: int
    spr_se: float
    success_se: tuple[float, ...]
    delta_se: float | None = None
    tokens_in: float | None = None
    tokens_out: float | None = None
    cost: float | None = None


@dataclass(frozen=True)
class Pricing:
    """Tokens per call (from a log's usage) and prices per million tokens."""

    tokens_in_per_call: float | None = None
    tokens_out_per_call: float | None = None
    price_in: float | None = None  #: per million input tokens
    price_out: float | None = None  #: per million output tokens
    batch_discount: float = 0.0  #: share taken off, e.g. 0.5 for a provider's Batch API

    def tokens(self, calls: int) -> tuple[float | None, float | None]:
        """Input and output tokens of ``calls`` calls (``None`` without a log's usage)."""
        tin = None if self.tokens_in_per_call is None else calls * self.tokens_in_per_call
        tout = None if self.tokens_out_per_call is None else calls * self.tokens_out_per_call
        return tin, tout

    def cost(self, calls: int) -> float | None:
        """``(tokens_in price_in + tokens_out price_out) / 1e6 * (1 - batch_discount)``, or
        ``None`` when a price or the token counts are unknown."""
        tin, tout = self.tokens(calls)
        if tin is None or tout is None or self.price_in is None or self.price_out is None:
            return None
        return (tin * self.price_in + tout * self.price_out) / 1e6 * (1.0 - self.batch_discount)


def design(
    vc: VarianceComponents,
    propositions: int,
    trials: int,
    calls_per_trial: float,
    pair: PairComponents | None = None,
    pricing: Pricing | None = None,
) -> Design:
    """A :class:`Design` for ``(P, T)``: predicted SEs and calls ``P K T c``."""
    calls = int(round(propositions * vc.n_stances * trials * calls_per_trial))
    pricing = pricing or Pricing()
    tin, tout = pricing.tokens(calls)
    success = np.sqrt(vc.success_variance(propositions, trials))
    return Design(
        propositions=propositions,
        trials=trials,
        calls=calls,
        spr_se=math.sqrt(vc.spr_variance(propositions, trials)),
        success_se=tuple(float(v) for v in success),
        delta_se=None if pair is None else math.sqrt(pair.variance(propositions, trials)),
        tokens_in=tin,
        tokens_out=tout,
        cost=pricing.cost(calls),
    )


def excess_kurtosis(vc: VarianceComponents) -> float:
    """The pilot's proposition means' excess kurtosis ``kappa`` (the unbiased estimate,
    at least -1.5): a sample variance of ``n`` such values has ``Var(s^2) / sigma^4 = 2 / (n - 1)
    + kappa / n`` (0 for normal values; bounded, skewed SPRs are often heavier-tailed)."""
    m = vc.proposition_means
    if m.size < 4 or float(np.ptp(m)) == 0.0:
        return 0.0
    return max(float(stats.kurtosis(m, bias=False)), -1.5)


def variance_df(n: int, kappa: float) -> float:
    """Degrees of freedom of the scaled chi-square with the variance of an ``n``-value sample
    variance: ``2 / (2 / (n - 1) + kappa / n)`` (``n - 1`` for normal values), at least 1."""
    inv = 2.0 / (n - 1) + kappa / n
    return max(2.0 / inv, 1.0) if inv > 0 else math.inf


def pilot_df(vc: VarianceComponents, trials: float) -> float:
    """Satterthwaite degrees of freedom of the pilot's estimate of the per-proposition variance
    ``V(T) = sigma_P^2 + sigma_e^2 / (K T) = S_a + c sigma_e^2`` with ``c = (1/T - h) / K``:
    ``V^2 / (S_a^2 / d_a + c^2 sigma_e^4 / df_e)``, ``d_a`` of :func:`variance_df` for the
    ``P`` proposition means, ``df_e = P K (n - 1)`` (at least 1)."""
    k = vc.n_stances
    s_a = vc.between_propositions + vc.h * vc.within_cell / k
    c = (1.0 / trials - vc.h) / k
    df_e = max(vc.propositions * k * (vc.trials - 1.0), 1.0)
    v = vc.spr_variance(1, trials)
    d_a = variance_df(vc.propositions, excess_kurtosis(vc))
    denom = s_a**2 / d_a + (c * vc.within_cell) ** 2 / df_e
    return max(v**2 / denom, 1.0) if denom > 0 else math.inf


def prob_se_below(
    vc: VarianceComponents, target_se: float, propositions: int, trials: int
) -> float:
    """``P(realised SE(SPR) <= target)`` of a ``(P, T)`` study of new propositions, with the
    pilot's own sampling error: the study's ``s^2 ~ V chi^2_m / m`` (``m`` of
    :func:`variance_df` for ``P`` values with the pilot's kurtosis) and the pilot's
    ``V_hat ~ V chi^2_d / d`` (``d`` of :func:`pilot_df`), so ``s^2 / V_hat ~ F(m, d)`` and the
    probability is ``F_cdf(P target^2 / V_hat; m, d)``."""
    v = vc.spr_variance(1, trials)
    if v <= 0:
        return 1.0
    x = propositions * target_se**2 / v
    m = variance_df(propositions, excess_kurtosis(vc))
    return float(stats.f.cdf(x, m, pilot_df(vc, trials)))


def se_prediction_range(
    vc: VarianceComponents, propositions: int, trials: int, level: float = 0.8
) -> tuple[float, float]:
    """The central ``level`` range of the true SE(SPR) of ``(P, T)`` given the pilot's sampling
    error: ``SE_hat sqrt(d / chi^2_{d, (1 +- level)/2})`` (``d`` of :func:`pilot_df`)."""
    se = math.sqrt(vc.spr_variance(propositions, trials))
    d = pilot_df(vc, trials)
    if not math.isfinite(d):
        return se, se
    lo = se * math.sqrt(d / stats.chi2.ppf(0.5 + level / 2.0, d))
    hi = se * math.sqrt(d / stats.chi2.ppf(0.5 - level / 2.0, d))
    return lo, hi


def least_propositions_for_se(
    vc: VarianceComponents,
    target_se: float,
    trials: int,
    max_propositions: int,
    assurance: float | None = None,
) -> int | None:
    """The least ``P >= 2`` with ``SE(SPR) <= target``: ``ceil((sigma_P^2 + sigma_e^2/(K T))
    / target^2)`` for the point prediction, or with ``assurance`` the least ``P`` whose
    :func:`prob_se_below` is at least it (bisection: the probability grows with ``P``);
    ``None`` above ``max_propositions``."""
    if assurance is None:
        per_prop = vc.spr_variance(1, trials)
        p = max(2, math.ceil(per_prop / target_se**2 - 1e-12))
        return p if p <= max_propositions else None
    if prob_se_below(vc, target_se, max_propositions, trials) < assurance:
        return None
    lo, hi = 1, max_propositions  # prob(hi) >= assurance; lo is below the least P of 2
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if mid >= 2 and prob_se_below(vc, target_se, mid, trials) >= assurance:
            hi = mid
        else:
            lo = mid
    return hi


def power_multiplier(propositions: int, alpha: float, power: float) -> float:
    """``t_{1-alpha/2, P-1} + t_{power, P-1}``: the ratio ``D / SE`` a paired two-sided t-test
    needs to detect a true difference ``D`` with the given power."""
    df = propositions - 1
    return float(stats.t.ppf(1.0 - alpha / 2.0, df) + stats.t.ppf(power, df))


def least_propositions_for_power(
    pair: PairComponents,
    detect: float,
    trials: int,
    max_propositions: int,
    alpha: float = 0.05,
    power: float = 0.8,
) -> int | None:
    """The least ``P`` (2..max) with ``detect / SE(dSPR) >= power_multiplier(P)`` (bisection:
    the ratio grows and the multiplier falls with ``P``); any ``P`` when the pair's variance is
    0 (no difference of its own and no trial noise)."""

    def enough(p: int) -> bool:
        var = pair.variance(p, trials)
        return var <= 0 or detect / math.sqrt(var) >= power_multiplier(p, alpha, power)

    if not enough(max_propositions):
        return None
    lo, hi = 1, max_propositions
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if mid >= 2 and enough(mid):
            hi = mid
        else:
            lo = mid
    return hi


def cheapest(
    vc: VarianceComponents,
    calls_per_trial: float,
    max_propositions: int,
    max_trials: int,
    target_se: float | None = None,
    detect: float | None = None,
    pair: PairComponents | None = None,
    alpha: float = 0.05,
    power: float = 0.8,
    pricing: Pricing | None = None,
    assurance: float | None = None,
) -> Design | None:
    """The design of fewest calls meeting ``target_se`` (SPR; with ``assurance``, with that
    probability, :func:`least_propositions_for_se`) and/or ``detect`` (paired dSPR),
    over ``T = MIN_TRIALS..max_trials`` and ``P <= max_propositions``; ``None`` when none does.
    Ties go to more trials (better per-cell intervals for the same calls)."""
    if target_se is None and detect is None:
        raise InputError("give a target: --target-se X or --detect D")
    best: Design | None = None
    for t in range(MIN_TRIALS, max_trials + 1):
        need: list[int] = []
        if target_se is not None:
            p_se = least_propositions_for_se(vc, target_se, t, max_propositions, assurance)
            if p_se is None:
                continue
            need.append(p_se)
        if detect is not None:
            assert pair is not None
            p_pw = least_propositions_for_power(pair, detect, t, max_propositions, alpha, power)
            if p_pw is None:
                continue
            need.append(p_pw)
        cand = design(vc, max(need), t, calls_per_trial, pair, pricing)
        if best is None or cand.calls <= best.calls:
            best = cand
    return best
