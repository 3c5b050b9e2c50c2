"""Anytime-valid confidence sequences for the mean of values in [0, 1], and the stopping rule.

The predictable-mixture empirical-Bernstein confidence sequence (PrPl-EB) of Waudby-Smith &
Ramdas, "Estimating means of bounded random variables by betting" (JRSS-B 2024, Theorem 2),
as implemented in the ``confseq`` package (``predmix_empbern_twosided_cs``, default
truncation 1/2), vectorised over leading axes. For ``x_1, x_2, ... in [0, 1]`` with common
mean ``mu`` and a one-sided level ``a``:

- regularised running mean and variance ``m_t = (1/2 + sum_{j<=t} x_j) / (t + 1)`` (capped at
  1), ``s_t^2 = (1/4 + sum_{j<=t} (x_j - m_j)^2) / (t + 1)``, with ``s_0^2 = 1/4``;
- predictable bets ``lambda_t = min(sqrt(2 log(1/a) / (t log(1 + t) s_{t-1}^2)), 1/2)``;
- ``v_t = (x_t - xbar_{t-1})^2`` (``xbar`` the plain running mean, ``xbar_0 = 0``) and
  ``psi(l) = -log(1 - l) - l``;
- lower bound ``L_t = sum lambda_j x_j / sum lambda_j - (log(1/a) + sum v_j psi(lambda_j)) /
  sum lambda_j`` (at least 0); the upper bound is ``1 - L_t`` computed on ``1 - x``.

The two-sided sequence uses ``a = alpha / 2`` on each side; ``P(mu in [L_t, U_t] for every t)
>= 1 - alpha``, so the bounds may be checked after every wave of trials and the sampling
stopped at any data-dependent time without losing coverage (a fixed-n t-interval checked after
every wave does lose it: see the tests). The running intersection ``max_{j<=t} L_j`` /
``min_{j<=t} U_j`` keeps that guarantee and makes the bounds monotone.

This small implementation is used instead of a dependency: ``confseq`` has no wheel for current
Pythons and builds from source only with Boost's headers; the tests compare this module with
``confseq`` where it is installed.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from inspect_stance.drift.transition import FloatArray

if TYPE_CHECKING:
    import numpy as np

#: the bets' cap (``confseq``'s default truncation)
TRUNCATION = 0.5

StopReason = Literal["halfwidth", "below_one", "max_trials"]


def eb_lower(x: np.ndarray, alpha: float, truncation: float = TRUNCATION) -> FloatArray:
    """One-sided PrPl-EB lower confidence sequence at level ``alpha`` along the last axis.

    ``x`` has shape ``(..., n)`` with values in [0, 1]; returns ``L_t`` for ``t = 1..n``
    (no running intersection; see the module docstring for the formula).
    """
    import numpy as np

    x = np.asarray(x, dtype=np.float64)
    n = x.shape[-1]
    t = np.arange(1, n + 1, dtype=np.float64)
    log_a = np.log(1.0 / alpha)
    cum = np.cumsum(x, axis=-1)
    reg_mean = np.minimum((0.5 + cum) / (t + 1.0), 1.0)
    reg_var = (0.25 + np.cumsum((x - reg_mean) ** 2, axis=-1)) / (t + 1.0)
    prev_var = np.concatenate([np.full(x.shape[:-1] + (1,), 0.25), reg_var[..., :-1]], axis=-1)
    with np.errstate(divide="ignore", invalid="ignore"):
        lam = np.sqrt(2.0 * log_a / (t * np.log1p(t) * prev_var))
    lam = np.minimum(np.nan_to_num(lam, nan=0.0), truncation)
    plain_mean = cum / t
    prev_mean = np.concatenate([np.zeros(x.shape[:-1] + (1,)), plain_mean[..., :-1]], axis=-1)
    v = (x - prev_mean) ** 2
    psi = -np.log1p(-lam) - lam
    sum_lam = np.cumsum(lam, axis=-1)
    centre = np.cumsum(lam * x, axis=-1) / sum_lam
    margin = (log_a + np.cumsum(v * psi, axis=-1)) / sum_lam
    return np.asarray(np.maximum(centre - margin, 0.0), dtype=np.float64)


def eb_cs(
    x: np.ndarray, alpha: float = 0.05, running_intersection: bool = True
) -> tuple[FloatArray, FloatArray]:
    """Two-sided PrPl-EB confidence sequence ``(L_t, U_t)`` at level ``1 - alpha`` (``alpha/2``
    per side) along the last axis of ``x`` in [0, 1]; each of shape ``x.shape``."""
    import numpy as np

    if not 0.0 < alpha < 1.0:
        raise ValueError(f"alpha {alpha!r} must be strictly between 0 and 1")
    x = np.asarray(x, dtype=np.float64)
    lower = eb_lower(x, alpha / 2.0)
    upper = 1.0 - eb_lower(1.0 - x, alpha / 2.0)
    if running_intersection:
        lower = np.maximum.accumulate(lower, axis=-1)
        upper = np.minimum.accumulate(upper, axis=-1)
    return lower, upper


def stop_reason(
    mean: np.ndarray | float,
    lower: np.ndarray | float,
    upper: np.ndarray | float,
    halfwidth: float,
) -> np.ndarray:
    """The stopping decision of cells whose sequence stands at ``(lower, upper)``: an object
    array of ``"halfwidth"`` (``max(upper - mean, mean - lower) <= halfwidth``),
    ``"below_one"`` (``upper < 1``: the rate is settled below 1, so the cell's "reaches 1"
    question is answered) or ``""`` (go on)."""
    import numpy as np

    mean, lower, upper = (np.asarray(v, dtype=np.float64) for v in (mean, lower, upper))
    narrow = np.maximum(upper - mean, mean - lower) <= halfwidth
    below = upper < 1.0
    return np.where(narrow, "halfwidth", np.where(below, "below_one", "")).astype(object)


@dataclass(frozen=True)
class AdaptiveRule:
    """Waves of ``wave`` trials (the first ``min_trials``), at most ``max_trials``; after each
    wave the two-sided ``1 - alpha`` sequence of the cell's values is checked with
    :func:`stop_reason` (``stop_below_one=False`` keeps only the half-width rule)."""

    halfwidth: float
    max_trials: int
    min_trials: int = 10
    wave: int = 10
    alpha: float = 0.05
    stop_below_one: bool = True

    def checkpoints(self) -> list[int]:
        """Trial counts after which the rule is checked: ``min_trials, +wave, ..., max``."""
        first = min(self.min_trials, self.max_trials)
        points = list(range(first, self.max_trials, self.wave)) + [self.max_trials]
        return sorted(set(points))


def first_stop(values: np.ndarray, rule: AdaptiveRule) -> tuple[np.ndarray, np.ndarray]:
    """Replay ``rule`` on ``values`` shaped ``(..., n)`` (n >= ``rule.max_trials``) in order:
    returns the trials used and the reason (``"max_trials"`` when no checkpoint stopped)."""
    import numpy as np

    x = np.asarray(values, dtype=np.float64)[..., : rule.max_trials]
    lower, upper = eb_cs(x, rule.alpha)
    means = np.cumsum(x, axis=-1) / np.arange(1, x.shape[-1] + 1)
    used = np.full(x.shape[:-1], rule.max_trials, dtype=np.int64)
    reason = np.full(x.shape[:-1], "max_trials", dtype=object)
    open_ = np.ones(x.shape[:-1], dtype=bool)
    for n in rule.checkpoints():
        k = n - 1
        r = stop_reason(means[..., k], lower[..., k], upper[..., k], rule.halfwidth)
        if not rule.stop_below_one:
            r = np.where(r == "below_one", "", r)
        hit = open_ & (r != "")
        used[hit] = n
        reason[hit] = r[hit]
        open_ &= ~hit
    return used, reason
