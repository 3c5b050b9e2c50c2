"""Pass rate of propositions at a success threshold, and its AUC over thresholds.

For per-proposition success rates ``succ[s, i] = T[s, i, i]`` (see :mod:`.spr`):

- the pass rate of initial stance ``i`` at threshold ``tau`` is the share of propositions whose
  success rate *exceeds* the threshold, ``pass_i(tau) = (1/P) * #{s : succ[s, i] > tau}``
  (float64, no tolerance; the method's definition). Nothing exceeds 1.00, so the last
  trapezoid is at most half a step and a run that always preserves the stance scores
  ``0.475 / 0.5 = 0.95``, not 1;
- the AUC integrates ``pass_i`` over the thresholds ``0.50, 0.55, ..., 1.00`` (11 points) with
  the **trapezoid rule**, ``sum_k (tau_{k+1} - tau_k) * (pass(tau_k) + pass(tau_{k+1})) / 2``,
  and divides by ``0.5``, the width of the threshold range (the normalisation the method
  names);
- the run's single ``auc`` is the mean over the five initial stances of their AUCs (equal to the
  AUC of the stance-averaged pass-rate curve, since both operations are linear).

Propositions whose success rate is undefined (NaN: no usable trial under ``exclude``) are left
out of the denominator.
"""

from __future__ import annotations

import numpy as np
from scipy import integrate

from inspect_stance.drift.transition import FloatArray

AUC_THRESHOLDS: FloatArray = np.round(np.arange(0.50, 1.0 + 1e-9, 0.05), 2)
AUC_MAX = float(AUC_THRESHOLDS[-1] - AUC_THRESHOLDS[0])  # 0.5


def pass_rate(success: np.ndarray, threshold: float) -> FloatArray:
    """Share of propositions with ``succ[s, i] > threshold`` per column ``i``.

    ``success`` is ``(P, 5)`` (or ``(P,)``); returns shape ``(5,)`` (or a 0-d array).
    """
    arr = np.asarray(success, dtype=np.float64)
    defined = ~np.isnan(arr)
    with np.errstate(invalid="ignore", divide="ignore"):
        hits = np.where(defined, arr > threshold, False).sum(axis=0)
        return np.asarray(hits / defined.sum(axis=0), dtype=np.float64)


def pass_rate_curve(success: np.ndarray, thresholds: np.ndarray = AUC_THRESHOLDS) -> FloatArray:
    """Pass rate at each threshold, shape ``(len(thresholds), 5)``."""
    return np.stack([pass_rate(success, float(t)) for t in thresholds])


def pass_rate_auc(
    success: np.ndarray, thresholds: np.ndarray = AUC_THRESHOLDS
) -> tuple[FloatArray, float]:
    """Normalised trapezoid AUC of the pass rate per initial stance ``(5,)`` and their mean.

    ``auc_i = trapezoid(pass_i(tau), tau) / (tau_max - tau_min)``.
    """
    taus = np.asarray(thresholds, dtype=np.float64)
    curve = pass_rate_curve(success, taus)
    per_stance = integrate.trapezoid(curve, taus, axis=0) / (taus[-1] - taus[0])
    per_stance = np.asarray(per_stance, dtype=np.float64)
    return per_stance, float(np.nanmean(per_stance))
