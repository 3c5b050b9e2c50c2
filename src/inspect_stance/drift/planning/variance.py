"""Variance components of a stance-drift run: propositions, stances within them, trials.

The per-trial diagonal value ``x[s, t, i] = probs[s, t, i, i]`` (unparsed trials 0 under the
``failure`` policy, dropped under ``exclude``; see :mod:`~inspect_stance.drift.metrics.confidence`) follows the mixed model

    ``x[s, t, i] = mu + alpha_i + a_s + b_si + e_sit``,

with fixed stance effects ``alpha_i``, a random proposition effect ``a_s`` (variance
``sigma_a^2``), a random proposition-by-stance effect ``b_si`` (the stance within the
proposition, ``sigma_b^2``) and trial noise ``e_sit`` (``sigma_e^2``). The estimator is the
ANOVA / method-of-moments one, written on the cell means ``c_si = mean_t x[s, t, i]`` (``n_si``
trials) with ``h = mean_si (1 / n_si)`` (``h = 1/T`` when balanced):

- ``sigma_e^2 = sum_si sum_t (x_sit - c_si)^2 / sum_si (n_si - 1)`` (pooled within cells);
- ``S_b = sum_si (c_si - c_s. - c_.i + c_..)^2 / ((P - 1)(K - 1))`` and
  ``sigma_b^2 = S_b - h sigma_e^2``;
- ``S_a = var_s(c_s.)`` (ddof 1, ``c_s.`` the proposition's mean over its ``K = 5`` stances),
  the variance of the true proposition means ``sigma_P^2 = S_a - h sigma_e^2 / K``, and the
  additive model's proposition component ``sigma_a^2 = sigma_P^2 - sigma_b^2 / K``.

Balanced, these are the expected-mean-square solutions of the two-way mixed ANOVA with
replication (``MS_A = K T S_a``, ``MS_AB = T S_b``, ``MS_E = sigma_e^2``), which REML reproduces
when no component is negative. ``sigma_a^2`` is negative when a proposition moves its stances in
opposite directions (a model that agrees with it preserves the agree stances and loses the
disagree ones), which is common; SPR's variance needs only ``sigma_P^2``, which holds in general:
SPR is ``mean_s c_s.``, so ``Var(SPR) = (sigma_P^2 + sigma_e^2/(K T)) / P``; at the run's own
design this is ``S_a / P``, the squared standard error over propositions. Negative estimates of
``sigma_P^2``, ``sigma_b^2`` or ``tau_i^2`` are reported as 0 and named in ``truncated``.

Per initial stance ``i`` (one-way model of the cells of that stance):
``sigma_{e,i}^2`` pooled within its cells, ``tau_i^2 = var_s(c_si) - h_i sigma_{e,i}^2`` between
propositions, and ``Var(success_i) = (tau_i^2 + sigma_{e,i}^2 / T) / P``.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass

import numpy as np

from inspect_stance.drift.metrics.confidence import diagonal_trials
from inspect_stance.drift.transition import FloatArray
from inspect_stance.errors import InputError


@dataclass(frozen=True)
class VarianceComponents:
    """Moment estimates of the variance components of one run (see the module docstring)."""

    propositions: int
    trials: float  #: mean trials per cell (the pilot's design)
    between_propositions: float  #: sigma_P^2, variance of the true proposition means
    stance_within_proposition: float  #: sigma_b^2
    additive_between_propositions: float  #: sigma_a^2 of the additive model (may be < 0)
    within_cell: float  #: sigma_e^2, pooled over every cell
    per_stance_between: FloatArray  #: tau_i^2, shape (5,)
    per_stance_within: FloatArray  #: sigma_{e,i}^2, shape (5,)
    stance_means: FloatArray  #: success rate by initial stance, shape (5,)
    spr: float
    proposition_means: FloatArray  #: c_s., shape (P,)
    h: float  #: mean of 1/n over cells
    truncated: tuple[str, ...] = ()

    @property
    def n_stances(self) -> int:
        """Number of initial stances ``K``."""
        return int(self.stance_means.shape[0])

    def spr_variance(self, propositions: int, trials: float) -> float:
        """``(sigma_P^2 + sigma_e^2/(K T)) / P`` for a design ``(P, T)``."""
        per_prop = self.between_propositions + self.within_cell / (self.n_stances * trials)
        return float(per_prop / propositions)

    def trial_share(self) -> float:
        """Share of the run's ``Var(SPR)`` that comes from trial noise:
        ``(sigma_e^2 h / K) / (sigma_P^2 + sigma_e^2 h / K)``."""
        trial = self.within_cell * self.h / self.n_stances
        total = self.between_propositions + trial
        return float(trial / total) if total > 0 else float("nan")

    def success_variance(self, propositions: int, trials: float) -> FloatArray:
        """``(tau_i^2 + sigma_{e,i}^2 / T) / P`` for every initial stance, shape ``(5,)``."""
        out = (self.per_stance_between + self.per_stance_within / trials) / propositions
        return np.asarray(out, dtype=np.float64)


def cell_values(probs: np.ndarray, unparsed: str = "failure") -> FloatArray:
    """The per-trial diagonal values ``x[s, t, i]`` (NaN = not counted), shape ``(P, T, 5)``.

    Missing trials (all-NaN rows) are unparsed rows to :func:`diagonal_trials`; pass the run's
    ``missing`` mask to :func:`decompose` to drop them under either policy.
    """
    return diagonal_trials(probs, unparsed)


def _pooled_within(x: np.ndarray, axis: tuple[int, ...]) -> tuple[np.ndarray, np.ndarray]:
    """Sum of squared deviations from the cell means and its degrees of freedom ``sum(n-1)``."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        means = np.nanmean(x, axis=1, keepdims=True)
    ss = np.nansum((x - means) ** 2, axis=1)
    n = (~np.isnan(x)).sum(axis=1)
    return ss.sum(axis=axis), np.maximum(n - 1, 0).sum(axis=axis)


def decompose(x: np.ndarray, missing: np.ndarray | None = None) -> VarianceComponents:
    """Variance components of per-trial values ``x`` shaped ``(P, T, K)`` (NaN = not counted).

    ``missing`` (boolean ``(P, T, K)``) marks trials that were never run; they are dropped.
    Every cell needs at least one value and at least two propositions are needed; otherwise a
    one-line ``InputError``.
    """
    x = np.array(x, dtype=np.float64)
    if missing is not None:
        x[np.asarray(missing, dtype=bool)] = np.nan
    p, _, k = x.shape
    n = (~np.isnan(x)).sum(axis=1)  # (P, K)
    if p < 2:
        raise InputError("a variance decomposition needs at least 2 propositions in the run")
    if (n == 0).any():
        s, i = (int(v) for v in np.argwhere(n == 0)[0])
        raise InputError(
            f"{int((n == 0).sum())} (proposition, stance) cells have no usable trial (first: "
            f"proposition {s}, stance {i}); drop those propositions or use unparsed=failure"
        )
    if (n < 2).all():
        raise InputError("every cell has a single trial: the trial variance cannot be estimated")
    c = np.nanmean(x, axis=1)  # (P, K) cell means
    inv_n = 1.0 / n
    ss_e, df_e = _pooled_within(x, (0, 1))
    sigma_e = float(ss_e / df_e)
    h = float(inv_n.mean())
    resid = c - c.mean(axis=1, keepdims=True) - c.mean(axis=0, keepdims=True) + c.mean()
    s_b = float((resid**2).sum() / ((p - 1) * (k - 1)))
    sigma_b = s_b - h * sigma_e
    prop_means = c.mean(axis=1)
    s_a = float(prop_means.var(ddof=1))
    sigma_p = s_a - h * sigma_e / k
    ss_i, df_i = _pooled_within(x, (0,))
    within_i = ss_i / np.maximum(df_i, 1)
    tau = c.var(axis=0, ddof=1) - inv_n.mean(axis=0) * within_i
    checks = (("stance_within_proposition", sigma_b), ("between_propositions", sigma_p))
    truncated = tuple(name for name, v in checks if v < 0)
    truncated += tuple(f"per_stance_between[{i}]" for i in np.flatnonzero(tau < 0))
    return VarianceComponents(
        propositions=p,
        trials=float(n.mean()),
        between_propositions=max(sigma_p, 0.0),
        stance_within_proposition=max(sigma_b, 0.0),
        additive_between_propositions=sigma_p - sigma_b / k,
        within_cell=sigma_e,
        per_stance_between=np.maximum(tau, 0.0),
        per_stance_within=np.asarray(within_i, dtype=np.float64),
        stance_means=np.asarray(c.mean(axis=0), dtype=np.float64),
        spr=float(prop_means.mean()),
        proposition_means=np.asarray(prop_means, dtype=np.float64),
        h=h,
        truncated=truncated,
    )


def decompose_run(
    probs: np.ndarray, unparsed: str = "failure", missing: np.ndarray | None = None
) -> VarianceComponents:
    """:func:`decompose` of a run's diagonal values under the unparsed-trial policy."""
    return decompose(cell_values(probs, unparsed), missing)
