"""Replay a finished fixed-trial run under the adaptive stopping rule, in random trial orders.

For every (proposition, stance) cell with ``n`` recorded values ``x`` (diagonal probabilities,
unparsed = 0) and each of ``R`` random orders, the rule of :mod:`.confseq` picks the stopping
count ``N``; the replay reports

- the share of calls used ``sum N / (cells n)`` (and the calls ``sum N`` times calls per trial);
- coverage: the share of (cell, order) whose final interval ``[L_N, U_N]`` holds the cell's
  all-trials mean (the finite population the orders sample without replacement, so the
  with-replacement sequence is conservative);
- decisions changed: the share of (cell, order) whose "reaches 1" decision differs from the
  all-trials one (the paper's one-sided ``confidence`` Student-t bound, Bonferroni over the
  propositions, :mod:`~inspect_stance.drift.metrics.confidence`), with the decision after stopping read either with the same
  t bound on the ``N`` trials used (``t_bound``) or from the sequence (``U_N >= 1``, ``cs``);
- the per-cell half-widths reached ``max(U_N - mean_N, mean_N - L_N)``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy import stats

from inspect_stance.drift.adaptive.confseq import AdaptiveRule, eb_cs, first_stop
from inspect_stance.drift.adaptive.estimate import unbiased_means
from inspect_stance.drift.metrics.confidence import bonferroni_level, upper_bounds
from inspect_stance.drift.transition import FloatArray


@dataclass(frozen=True)
class ReplayResult:
    """Aggregates of one run's replay (see the module docstring)."""

    cells: int
    orders: int
    trials: int
    share_used: float
    coverage: float
    changed_t_bound: float
    changed_cs: float
    reasons: dict[str, float]  #: share of (cell, order) by stop reason
    mean_halfwidth: float
    max_halfwidth: float
    #: SPR bias ``mean over (cell, order) of (estimate - all-trials mean)`` of the plain mean
    #: of the trials run and of the unbiased estimate (:mod:`.estimate`), with the
    #: standard error of each over the orders; the most negative per-cell plain bias
    bias_plain: float = float("nan")
    bias_plain_se: float = float("nan")
    bias_unbiased: float = float("nan")
    bias_unbiased_se: float = float("nan")
    worst_cell_bias_plain: float = float("nan")
    worst_cell_bias_unbiased: float = float("nan")


def t_upper(x: np.ndarray, n: np.ndarray, level: float) -> FloatArray:
    """Student-t one-sided upper bounds ``mean_n + t_{level, n-1} sd_n / sqrt(n)`` of the first
    ``n`` values along the last axis (``n`` per row, at least 2), computed as
    :func:`~inspect_stance.drift.metrics.confidence.upper_bounds` does (numpy ``mean`` / ``std(ddof=1)`` of the values)."""
    out = np.full(x.shape[:-1], np.nan)
    for m in np.unique(n):
        rows = n == m
        head = x[rows][..., :m]
        mean, sd = head.mean(axis=-1), head.std(axis=-1, ddof=1)
        out[rows] = mean + stats.t.ppf(level, m - 1) * sd / np.sqrt(m)
    return out


def _replay_cells(
    x: np.ndarray,
    full_reach: np.ndarray,
    rule: AdaptiveRule,
    orders: int,
    rng: np.random.Generator,
    level: float,
    draws: int = 0,
    seed: int = 0,
) -> dict[str, np.ndarray]:
    """Per (cell, order) results for cells ``x`` shaped ``(C, n)`` whose all-trials decision
    is ``full_reach``."""
    c, n = x.shape
    perm = np.argsort(rng.random((c, orders, n)), axis=-1)
    xs = np.take_along_axis(np.broadcast_to(x[:, None, :], (c, orders, n)), perm, axis=-1)
    xs = xs[..., : rule.max_trials]
    used, reason = first_stop(xs, rule)
    lower, upper = eb_cs(xs, rule.alpha)
    k = (used - 1)[..., None]
    lo = np.take_along_axis(lower, k, axis=-1)[..., 0]
    hi = np.take_along_axis(upper, k, axis=-1)[..., 0]
    mean_n = np.take_along_axis(np.cumsum(xs, axis=-1), k, axis=-1)[..., 0] / used
    full_mean = x.mean(axis=-1)[:, None]
    full_reach = full_reach[:, None]
    est = None
    if draws:
        est = unbiased_means(xs.reshape(c * orders, -1), used.reshape(-1), rule, draws, seed)
        est = est.reshape(c, orders)
    return {
        "err_plain": mean_n - full_mean,
        "err_unbiased": (np.nan if est is None else est) - full_mean,
        "used": used,
        "reason": reason,
        "covered": (lo <= full_mean + 1e-12) & (full_mean <= hi + 1e-12),
        "changed_t": (t_upper(xs, used, level) >= 1.0) != full_reach,
        "changed_cs": (hi >= 1.0) != full_reach,
        "halfwidth": np.maximum(hi - mean_n, mean_n - lo),
    }


def replay(
    values: np.ndarray,
    rule: AdaptiveRule,
    orders: int = 1000,
    seed: int = 0,
    confidence: float = 0.99,
    chunk: int = 20,
    draws: int = 0,
) -> ReplayResult:
    """Replay ``rule`` on a run's diagonal values ``(P, T, K)`` (no NaN) over ``orders``
    random orders per cell; ``chunk`` cells at a time bound the memory. ``draws > 0`` also
    computes the unbiased estimate with that many orderings per (cell, order) and its bias."""
    x = np.asarray(values, dtype=np.float64)
    if np.isnan(x).any():
        raise ValueError("replay needs every trial's value (count unparsed trials as 0)")
    p, n, k = x.shape
    if rule.max_trials > n:
        raise ValueError(f"the rule's {rule.max_trials} trials exceed the run's {n}")
    cells = np.moveaxis(x, 1, -1).reshape(p * k, n)
    level = bonferroni_level(confidence, p)
    # the all-trials decision exactly as the report computes it (values near 1 decide it)
    x4 = np.zeros((p, n, k, k))
    x4[:, :, np.arange(k), np.arange(k)] = x
    x4[:, :, np.arange(k), (np.arange(k) + 1) % k] = 1.0 - x
    reach = (upper_bounds(x4, confidence, bonferroni=True) >= 1.0).reshape(p * k)
    rng = np.random.default_rng(seed)
    parts: dict[str, list[np.ndarray]] = {}
    for start in range(0, cells.shape[0], chunk):
        sl = slice(start, start + chunk)
        out = _replay_cells(cells[sl], reach[sl], rule, orders, rng, level, draws, seed + start)
        for key, val in out.items():
            parts.setdefault(key, []).append(val)
    res = {key: np.concatenate(val) for key, val in parts.items()}
    reasons, counts = np.unique(res["reason"].astype(str), return_counts=True)
    total = res["used"].size
    return ReplayResult(
        cells=p * k,
        orders=orders,
        trials=rule.max_trials,
        share_used=float(res["used"].sum() / (total * rule.max_trials)),
        coverage=float(res["covered"].mean()),
        changed_t_bound=float(res["changed_t"].mean()),
        changed_cs=float(res["changed_cs"].mean()),
        reasons={str(r): float(c / total) for r, c in zip(reasons, counts, strict=True)},
        mean_halfwidth=float(res["halfwidth"].mean()),
        max_halfwidth=float(res["halfwidth"].max()),
        **_bias(res["err_plain"], "plain"),
        **_bias(res["err_unbiased"], "unbiased"),
    )


def _bias(err: np.ndarray, name: str) -> dict[str, float]:
    """SPR bias (the mean of ``err`` over cells and orders), its standard error over the
    orders (the SPR error of each order is the mean over cells) and the worst cell's bias."""
    spr_err = err.mean(axis=0)  # (orders,): each order's SPR minus the all-trials SPR
    return {
        f"bias_{name}": float(spr_err.mean()),
        f"bias_{name}_se": float(spr_err.std(ddof=1) / np.sqrt(spr_err.size)),
        f"worst_cell_bias_{name}": float(err.mean(axis=1).min()),
    }
