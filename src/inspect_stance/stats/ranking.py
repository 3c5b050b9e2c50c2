"""Ranking several runs on one metric: bootstrap rank probabilities and statistically tied groups.

Rank probabilities: the items shared by every run (rows of ``values``, one column per run) are
resampled with replacement ``B`` times (the same items for every run, so the pairing is kept);
in each resample every run's metric is the mean of its column and the runs are ranked (rank 1
= best; ``higher_is_better`` decides the direction; ties share the better rank).
``P(rank r) = (resamples in which the run has rank r) / B``.

Tied groups: runs are ordered by their estimate; a group is a maximal run of consecutive runs in
that order in which no pair differs significantly (adjusted p >= alpha). Groups can overlap (a
middle run tied with both neighbours that differ from each other), as in a compact letter
display.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
from scipy import stats


@dataclass(frozen=True)
class Ranking:
    """Runs in order of their estimate, with rank probabilities and tied groups."""

    order: list[str]
    estimates: dict[str, float]
    rank_probabilities: dict[str, list[float]]  # run -> P(rank 1), P(rank 2), ...
    tied_groups: list[list[str]]
    n_items: int
    n_resamples: int


def rank_probabilities(
    values: np.ndarray, higher_is_better: bool = True, n_resamples: int = 2000, seed: int = 0
) -> np.ndarray:
    """``(runs, ranks)`` matrix of bootstrap rank probabilities (see the module docstring)."""
    x = np.asarray(values, dtype=np.float64)
    n, m = x.shape
    rng = np.random.default_rng(seed)
    idx = rng.integers(0, n, size=(n_resamples, n))
    means = x[idx].mean(axis=1)  # (B, m)
    score = -means if higher_is_better else means
    ranks = stats.rankdata(score, method="min", axis=1).astype(int)  # 1 = best
    out = np.zeros((m, m))
    for r in range(1, m + 1):
        out[:, r - 1] = (ranks == r).mean(axis=0)
    return out


def tied_groups(order: Sequence[str], p_adjusted: Mapping[frozenset[str], float],
                alpha: float = 0.05) -> list[list[str]]:  # fmt: skip
    """Maximal consecutive groups of ``order`` with every pair's adjusted p >= ``alpha``."""
    groups: list[list[str]] = []
    for start in range(len(order)):
        end = start + 1
        while end < len(order) and all(
            p_adjusted.get(frozenset((order[k], order[end])), 1.0) >= alpha
            for k in range(start, end)
        ):
            end += 1
        group = list(order[start:end])
        if len(group) > 1 and not any(set(group) <= set(g) for g in groups):
            groups.append(group)
    return groups


def rank_runs(
    names: Sequence[str],
    values: np.ndarray,
    p_adjusted: Mapping[frozenset[str], float],
    higher_is_better: bool = True,
    alpha: float = 0.05,
    n_resamples: int = 2000,
    seed: int = 0,
) -> Ranking:
    """Order, rank probabilities and tied groups of the runs (columns of ``values``)."""
    x = np.asarray(values, dtype=np.float64)
    x = x[~np.isnan(x).any(axis=1)]
    if x.shape[0] < 2:
        raise ValueError(f"only {x.shape[0]} items have a value in every run; cannot rank")
    est = {n: float(v) for n, v in zip(names, x.mean(axis=0), strict=True)}
    order = sorted(names, key=lambda n: -est[n] if higher_is_better else est[n])
    probs = rank_probabilities(x, higher_is_better, n_resamples, seed)
    rank_p = {n: [float(v) for v in probs[k]] for k, n in enumerate(names)}
    return Ranking(order, est, rank_p, tied_groups(order, p_adjusted, alpha), int(x.shape[0]),
                   n_resamples)  # fmt: skip
