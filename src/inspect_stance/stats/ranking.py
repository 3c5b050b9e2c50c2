"""Ranking several runs on one metric: rank probabilities and statistically tied groups, from the
clustered model of the runs' means that ``compare`` tests with.

Rank probabilities: the ``n`` items shared by every run (rows of ``values``, one column per run)
lie in ``G`` clusters (topics, statements, propositions; ``clusters=None``: every item its own
cluster). The runs' means ``ybar`` (a vector over the ``m`` runs) have the CR2 cluster-robust
covariance of the headline rule (:func:`inspect_stance.stats.headline.mean_variance`)

    ``V = sum_g u_g u_g' / (1 - n_g / n) / n^2``,  ``u_g = sum_{i in g} (y_i - ybar)``

with the Bell-McCaffrey degrees of freedom ``df`` (with clusters of equal size: the CR1
``G / (G - 1) * sum_g u_g u_g' / n^2`` and ``G - 1``); a difference of two runs gets exactly
:func:`~inspect_stance.stats.paired.clustered_paired_test`'s standard error,
``Var(ybar_b - ybar_a) = V_aa + V_bb - 2 V_ab``. Ranks depend on the contrasts of the means only
(``R' ybar``, ``R`` an orthonormal basis orthogonal to the ones vector); ``B`` draws of their
covariance come from its posterior given an estimate with ``df`` degrees of freedom, the
inverse Wishart ``IW(df * R' V R, df)`` (with two runs: ``df * V / chi2_df``, the Student-t
widening), so the draws carry the uncertainty of the estimated covariance, its shape as well
as its size. Per draw, the true contrasts are drawn in one of two models:

- ``"flat"``: ``R' ybar + L z`` (``L L'`` the drawn covariance): the posterior of the true
  means under a flat prior; with two runs, ``P(b first) = F_t(delta / se; df)`` with compare's
  ``delta``, ``se`` and ``df``;
- ``"hierarchical"`` (the default): the true means are ``c + theta_t`` with ``theta_t ~ N(0,
  tau^2)``, ``tau`` uniform, integrated over its posterior (:func:`_hierarchical_draws`). Targets
  that are close get the shrinkage that makes their rank-1 probabilities honest: the flat model
  states a winner too often when the targets' true spread is small beside the noise
  (``benchmarks/ranking_calibration.py``).

In each draw the runs are ranked (rank 1 = best; ``higher_is_better`` decides the direction;
draws equal to within ``1e-9`` of their scale, as for runs with identical items, share the
better rank); ``P(rank r) = (draws in which the run has rank r) / B``.

Tied groups: runs are ordered by their estimate; a group is a maximal run of consecutive runs in
that order in which no pair differs significantly (adjusted p >= alpha). Groups can overlap (a
middle run tied with both neighbours that differ from each other), as in a compact letter
display. Runs with equal estimates share a rank (:func:`shared_ranks`).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

import numpy as np

from inspect_stance.stats.headline import bm_df, cr2_weights
from inspect_stance.stats.multiplicity import Adjust, adjust_pvalues
from inspect_stance.stats.paired import clustered_paired_test

RankModel = Literal["hierarchical", "flat"]
RANKING_MODEL = ("rank probabilities: the means' contrasts with their CR2 cluster-robust "
                 "covariance, drawn from its inverse-Wishart posterior (Bell-McCaffrey df); tied "
                 "groups: clustered paired tests, adjusted")  # fmt: skip


@dataclass(frozen=True)
class Ranking:
    """Runs in order of their estimate, with rank probabilities and tied groups."""

    order: list[str]
    estimates: dict[str, float]
    rank_probabilities: dict[str, list[float]]  # run -> P(rank 1), P(rank 2), ...
    tied_groups: list[list[str]]
    n_items: int
    n_resamples: int
    n_clusters: int = 0
    #: run -> its rank by estimate (equal estimates share the better rank: 1, 1, 3)
    ranks: dict[str, int] | None = None


def _codes(clusters: Sequence[Hashable] | None, n: int) -> tuple[np.ndarray, int]:
    keys: list[Hashable] = list(range(n)) if clusters is None else list(clusters)
    if len(keys) != n:
        raise ValueError(f"{n} items but {len(keys)} cluster labels")
    codes: dict[Hashable, int] = {}
    idx = np.array([codes.setdefault(k, len(codes)) for k in keys], dtype=np.int64)
    return idx, len(codes)


def clustered_covariance(values: np.ndarray, clusters: Sequence[Hashable] | None = None
                         ) -> tuple[np.ndarray, np.ndarray, int, float]:  # fmt: skip
    """``(ybar, V, G, df)``: the runs' means, their CR2 covariance and its Bell-McCaffrey
    degrees of freedom (module docstring)."""
    x = np.asarray(values, dtype=np.float64)
    n, m = x.shape
    idx, g = _codes(clusters, n)
    mean = x.mean(axis=0)
    if g < 2:
        return mean, np.full((m, m), math.nan), g, math.nan
    u = np.zeros((g, m))
    np.add.at(u, idx, x - mean)
    sizes = np.bincount(idx, minlength=g).tolist()
    w = np.asarray(cr2_weights(sizes))
    cov = (u.T * w) @ u / n**2
    return mean, cov, g, bm_df(sizes)


def rank_probabilities(
    values: np.ndarray,
    higher_is_better: bool = True,
    n_resamples: int = 4000,
    seed: int = 0,
    clusters: Sequence[Hashable] | None = None,
    model: RankModel = "hierarchical",
) -> np.ndarray:
    """``(runs, ranks)`` matrix of rank probabilities (see the module docstring)."""
    x = np.asarray(values, dtype=np.float64)
    m = x.shape[1]
    mean, cov, g, df = clustered_covariance(x, clusters)
    if g < 2:
        raise ValueError(f"the shared items lie in {g} cluster; ranking needs at least 2")
    rng = np.random.default_rng(seed)
    rot, w, sig = _contrast_covariances(mean, (cov + cov.T) / 2, df, n_resamples, rng)
    if model == "flat" or m < 2 or rot.shape[1] == 0:
        root = np.linalg.cholesky(sig) if rot.shape[1] else sig
        theta = w + (root @ rng.standard_normal((n_resamples, rot.shape[1], 1)))[..., 0]
    else:
        theta = _hierarchical_draws(mean, w, sig, rng)
    # directions without variance (runs that differ by a constant) keep their observed value
    draws = (mean - rot @ w) + theta @ rot.T
    # runs whose draws differ only by rounding are equal (identical items): share the rank
    score = -draws if higher_is_better else draws
    tol = 1e-9 * max(float(np.abs(draws).max(initial=0.0)), 1e-300)
    ranks = 1 + (score[:, None, :] < score[:, :, None] - tol).sum(axis=2)  # 1 = best
    out = np.zeros((m, m))
    for r in range(1, m + 1):
        out[:, r - 1] = (ranks == r).mean(axis=0)
    return out


def _clean(eigenvalues: np.ndarray, scale: float) -> np.ndarray:
    """Eigenvalues of a covariance, negatives and rounding noise (below ``1e-10 * scale``, the
    trace of the runs' covariance) set to 0, so that runs with identical items, or items that
    differ by a constant, draw identical differences."""
    lam = np.clip(eigenvalues, 0.0, None)
    return np.where(lam > 1e-10 * scale, lam, 0.0)


def _contrast_covariances(mean: np.ndarray, cov: np.ndarray, df: float, n: int,
                          rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray, np.ndarray]:  # fmt: skip
    """``(R, w, Sigma)``: an orthonormal basis ``R`` (``m x r``) of the contrasts of the runs'
    means that vary (orthogonal to the ones vector; directions with no variance, as between
    runs with identical items, left out), the observed contrasts ``w = R' ybar``, and ``n``
    draws of their covariance from ``IW(df * S, df)``, ``S = R' V R`` (inverse Wishart: the
    posterior of a covariance estimated with ``df`` degrees of freedom; with one contrast it is
    ``df * S / chi2_df``, the Student-t widening). Below ``r - 1`` df the whole ``S`` is scaled
    by ``df / chi2_df``."""
    from scipy.stats import invwishart

    m = mean.size
    basis = np.linalg.svd(np.eye(m) - 1.0 / m)[0][:, : m - 1]
    lam, q = np.linalg.eigh(basis.T @ cov @ basis)
    lam = _clean(lam, float(np.trace(cov)))
    keep = lam > 0
    rot = basis @ q[:, keep]
    r = rot.shape[1]
    if r == 0:
        return rot, np.zeros(0), np.zeros((n, 0, 0))
    s = np.diag(lam[keep])
    if df > r - 1:
        sig = np.asarray(invwishart.rvs(df, df * s, size=n, random_state=rng)).reshape(n, r, r)
    else:
        sig = (df / rng.chisquare(df, size=n))[:, None, None] * s
    return rot, rot.T @ mean, sig


def _hierarchical_draws(mean: np.ndarray, w: np.ndarray, sig: np.ndarray,
                        rng: np.random.Generator, grid: int = 200) -> np.ndarray:  # fmt: skip
    """Draws of the runs' true contrasts under ``w = theta + eps``, ``eps ~ N(0, Sigma_b)``
    (``Sigma_b`` a draw of :func:`_contrast_covariances`), ``theta`` the contrasts of true
    means ``c + theta_t`` with ``theta_t ~ N(0, tau^2)`` iid, ``tau`` uniform on a grid.

    Per draw, in the eigenbasis ``Q_b`` of ``Sigma_b`` (eigenvalues ``lambda_bj``) the
    coordinates ``z_b = Q_b' w`` are independent, ``z_bj ~ N(0, lambda_bj + tau^2)``; ``tau``
    comes from its posterior on the grid given ``z_b``, and ``theta_j | z_bj ~ N(B_j z_bj,
    B_j lambda_bj)`` with ``B_j = tau^2 / (lambda_bj + tau^2)``.
    """
    lam, q = np.linalg.eigh(sig)  # (B, r), (B, r, r)
    lam = np.maximum(lam, 0.0)
    z = np.einsum("bji,j->bi", q, w)  # (B, r)
    spread = max(float(np.sqrt(np.median(lam.max(axis=1)))), float(np.ptp(mean)), 1e-12)
    taus = np.linspace(0.0, 10.0 * spread, grid)[None, :, None]  # (1, grid, 1)
    var = np.maximum(lam[:, None, :] + taus**2, 1e-300)  # (B, grid, r)
    loglik = -0.5 * (np.log(var) + z[:, None, :] ** 2 / var).sum(axis=2)  # (B, grid)
    loglik -= loglik.max(axis=1, keepdims=True)
    weights = np.exp(loglik)
    weights /= weights.sum(axis=1, keepdims=True)
    pick = (weights.cumsum(axis=1) < rng.random((weights.shape[0], 1))).sum(axis=1)
    pick = np.minimum(pick, grid - 1)
    tau2 = (taus[0, pick, 0] ** 2)[:, None]  # (B, 1)
    shrink = np.where(tau2 + lam > 0, tau2 / np.maximum(tau2 + lam, 1e-300), 1.0)
    coords = shrink * z + np.sqrt(shrink * lam) * rng.standard_normal(lam.shape)
    return np.einsum("bij,bj->bi", q, coords)  # (B, r): the true contrasts


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


def shared_ranks(estimates: Mapping[str, float], higher_is_better: bool = True,
                 tolerance: float = 1e-12) -> dict[str, int]:  # fmt: skip
    """Competition ranks of the estimates (``1, 1, 3``): equal values (within ``tolerance``)
    share the better rank."""
    sign = -1.0 if higher_is_better else 1.0
    vals = {k: sign * v for k, v in estimates.items()}
    return {k: 1 + sum(1 for o in vals.values() if o < v - tolerance) for k, v in vals.items()}


def pairwise_clustered_p(
    names: Sequence[str],
    values: np.ndarray,
    clusters: Sequence[Hashable] | None = None,
    adjust: Adjust = "holm",
) -> dict[frozenset[str], float]:
    """Every pair of runs' two-sided clustered paired test
    (:func:`~inspect_stance.stats.paired.clustered_paired_test` of ``b - a``), p adjusted
    together over the pairs."""
    x = np.asarray(values, dtype=np.float64)
    pairs = list(itertools.combinations(range(len(names)), 2))
    raw = [clustered_paired_test(x[:, j] - x[:, i], clusters).p for i, j in pairs]
    raw = [1.0 if math.isnan(p) else p for p in raw]
    adjusted = adjust_pvalues(raw, adjust)
    return {frozenset((names[i], names[j])): float(p)
            for (i, j), p in zip(pairs, adjusted, strict=True)}  # fmt: skip


def rank_runs(
    names: Sequence[str],
    values: np.ndarray,
    p_adjusted: Mapping[frozenset[str], float] | None = None,
    higher_is_better: bool = True,
    alpha: float = 0.05,
    n_resamples: int = 4000,
    seed: int = 0,
    clusters: Sequence[Hashable] | None = None,
    model: RankModel = "hierarchical",
) -> Ranking:
    """Order, rank probabilities and tied groups of the runs (columns of ``values``; rows are
    items, ``clusters`` one label per row). ``p_adjusted`` (pair -> adjusted p, e.g. from
    ``compare``'s family); ``None``: :func:`pairwise_clustered_p` with Holm."""
    x = np.asarray(values, dtype=np.float64)
    mask: np.ndarray = np.asarray(~np.isnan(x).any(axis=1), dtype=bool)
    keep = [bool(v) for v in mask]
    x = x[mask]
    labels = None if clusters is None else [k for k, ok in zip(clusters, keep, strict=True) if ok]
    if x.shape[0] < 2:
        raise ValueError(f"only {x.shape[0]} items have a value in every run; cannot rank")
    est = {n: float(v) for n, v in zip(names, x.mean(axis=0), strict=True)}
    ranks = shared_ranks(est, higher_is_better)
    order = sorted(names, key=lambda n: (ranks[n], list(names).index(n)))
    probs = rank_probabilities(x, higher_is_better, n_resamples, seed, labels, model)
    rank_p = {n: [float(v) for v in probs[k]] for k, n in enumerate(names)}
    if p_adjusted is None:
        p_adjusted = pairwise_clustered_p(names, x, labels)
    g = _codes(labels, x.shape[0])[1]
    return Ranking(order, est, rank_p, tied_groups(order, p_adjusted, alpha), int(x.shape[0]),
                   n_resamples, g, ranks)  # fmt: skip
