"""One-sided CLT upper confidence bounds of per-proposition success rates.

For proposition ``s`` and initial stance ``i`` the trials give diagonal probabilities
``x_t = probs[s, t, i, i]`` (``t = 1..n``). The success rate ``T[s, i, i]`` is their mean
``xbar``; its one-sided upper confidence bound at level ``c`` is the Student-t CLT bound

    ``U = xbar + t_{c, n-1} * sd / sqrt(n)``,  ``sd`` the sample SD with ddof 1,

where ``t_{c, n-1}`` is the ``c`` quantile of Student's t with ``n - 1`` degrees of freedom.
With the Bonferroni correction over the ``P`` propositions the level is
``c_B = 1 - (1 - c) / P``.

A bound that *reaches 1* (``U >= 1``) means the data cannot rule out perfect preservation for
that proposition and stance; the report gives the share of propositions for which this holds,
by initial stance. Everything is float64 and the comparison is exactly ``U >= 1``: many cells
have ``xbar`` within 1e-9 of 1 and ``sd`` near 0, and those decide the published figures.

Unparsed trials follow the same policy as the transition matrices (see :mod:`~inspect_stance.drift.transition`):
``"failure"`` counts them as ``x_t = 0``; ``"exclude"`` drops them, so ``n`` is the number of
parsed trials of the cell. A cell with fewer than two usable trials has no bound (NaN) and is
left out of the share's denominator.
"""

from __future__ import annotations

import warnings

import numpy as np
from scipy import stats

from inspect_stance.drift.transition import FloatArray, check_policy, unparsed_mask


def bonferroni_level(confidence: float, n_tests: int) -> float:
    """Per-test level ``1 - (1 - confidence) / n_tests`` of a Bonferroni-corrected family."""
    if not 0.0 < confidence < 1.0:
        raise ValueError(f"confidence {confidence!r} must be strictly between 0 and 1")
    if n_tests < 1:
        raise ValueError(f"number of tests must be at least 1 (got {n_tests})")
    return 1.0 - (1.0 - confidence) / n_tests


def diagonal_trials(probs: np.ndarray, unparsed: str = "failure") -> FloatArray:
    """Per-trial diagonal probabilities ``probs[s, t, i, i]``, shape ``(P, T, 5)``.

    Unparsed trials are 0 under ``"failure"`` and NaN (dropped) under ``"exclude"``.
    """
    policy = check_policy(unparsed)
    arr = np.asarray(probs, dtype=np.float64)
    diag = np.diagonal(arr, axis1=-2, axis2=-1).copy()
    mask = unparsed_mask(arr)
    diag[mask] = 0.0 if policy == "failure" else np.nan
    return diag


def upper_bounds(
    probs: np.ndarray,
    confidence: float = 0.99,
    bonferroni: bool = False,
    unparsed: str = "failure",
) -> FloatArray:
    """One-sided upper bounds ``xbar + t_{c, n-1} * sd_{ddof=1} / sqrt(n)``, shape ``(P, 5)``.

    ``c`` is ``confidence``, or ``1 - (1 - confidence) / P`` with ``bonferroni=True``.
    Cells with fewer than two usable trials are NaN.
    """
    x = diagonal_trials(probs, unparsed)
    n_props = x.shape[0]
    level = bonferroni_level(confidence, n_props) if bonferroni else bonferroni_level(confidence, 1)
    n = (~np.isnan(x)).sum(axis=1)  # (P, 5)
    with np.errstate(invalid="ignore", divide="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # cells with < 2 trials: NaN below
        if np.isnan(x).any():
            mean = np.nanmean(x, axis=1)
            sd = np.nanstd(x, axis=1, ddof=1)
        else:
            mean = x.mean(axis=1)
            sd = x.std(axis=1, ddof=1)
        q = stats.t.ppf(level, np.maximum(n - 1, 1))
        bound = mean + q * sd / np.sqrt(n)
    return np.where(n >= 2, bound, np.nan)


def share_reaching_one(bounds: np.ndarray) -> FloatArray:
    """Share of propositions whose bound satisfies ``U >= 1``, by initial stance, shape ``(5,)``.

    The denominator counts propositions with a defined bound (NaN cells are left out).
    """
    arr = np.asarray(bounds, dtype=np.float64)
    defined = ~np.isnan(arr)
    with np.errstate(invalid="ignore", divide="ignore"):
        hits = np.where(defined, arr >= 1.0, False).sum(axis=0)
        share = hits / defined.sum(axis=0)
    return np.asarray(share, dtype=np.float64)


def ci_includes_one(
    probs: np.ndarray,
    confidence: float = 0.99,
    unparsed: str = "failure",
) -> tuple[FloatArray, FloatArray]:
    """Shares of propositions whose upper bound reaches 1: (uncorrected, Bonferroni), each (5,)."""
    plain = share_reaching_one(upper_bounds(probs, confidence, False, unparsed))
    corrected = share_reaching_one(upper_bounds(probs, confidence, True, unparsed))
    return plain, corrected
