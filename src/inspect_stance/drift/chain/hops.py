"""Multi-hop chains: stance drift when a message passes through several AI hops.

Model: each hop writes from the stance the previous hop extracted and reads it back, with the
proposition's transition matrix ``T_s`` (row ``i`` = initial stance, column ``j`` = extracted
stance). Under this Markov assumption the ``k``-hop matrix is the matrix power ``T_s^k``;
``(T_s^k)[i, j]`` is the probability that a message written with stance ``i`` is read as ``j``
after ``k`` hops.

- **SPR after k hops**: ``SPR_k = mean_s mean_i (T_s^k)[i, i]`` with its SE over propositions —
  the end-to-end preservation rate (a path that drifts away and back counts as preserved).
  ``SPR_1`` is the ordinary SPR.
- **Unparsed mass** (rows summing to less than 1 under the default ``failure`` policy): in
  ``T^k`` it is lost at every hop (an unparsed extraction ends the chain as a failure), so
  ``SPR_k`` stays consistent with ``SPR_1``. A proposition with an undefined row (NaN: no usable
  trial under ``exclude``) has no ``T^k``; it is NaN and left out of the means.
- **Stationary distribution** of a proposition's chain — the stance distribution a message ends in
  after many hops. Rows are first renormalised to sum to 1 (conditioning on a parsed
  extraction; otherwise every leaky chain would end all-unparsed), a row with no parsed mass at
  all makes the proposition undefined (NaN). For an irreducible chain the stationary
  distribution ``pi = pi T`` is unique and computed with the numerically stable
  Grassmann-Taksar-Heyman (GTH) elimination (no subtractions, so probabilities like 1e-12 keep
  their relative accuracy). A **reducible** chain (e.g. the identity, or a stance that is never
  left) has one stationary distribution per closed communicating class; the reported
  distribution is then the long-run (Cesaro) limit ``lim (1/N) sum_{n<N} u T^n`` started from
  the uniform distribution ``u`` over the five initial stances:
  ``pi = sum_C w_C pi_C``, where ``w_C`` is the probability of ending in closed class ``C``
  (``u``'s mass in ``C`` plus the absorption probabilities ``(I - Q)^{-1} R`` from the transient
  stances, computed by subtraction-free state reduction because real matrices leave some
  stances with probability ~1e-17, which makes ``I - Q`` numerically singular) and ``pi_C`` the
  class's own stationary distribution. ``unique`` flags irreducible /
  single-closed-class chains, whose answer does not depend on ``u``. Communicating classes use
  exact positivity ``T[i, j] > 0``.
"""

from __future__ import annotations

import warnings

import numpy as np
from scipy.sparse.csgraph import connected_components

from inspect_stance.drift.transition import FloatArray, diagonal
from inspect_stance.stances import N_STANCES
from inspect_stance.stats.moments import mean_se


def k_hop_matrices(matrices: np.ndarray, k: int) -> FloatArray:
    """``T_s^k`` for every proposition, shape ``(P, 5, 5)``; NaN for propositions with NaN rows."""
    if k < 0:
        raise ValueError(f"number of hops must be >= 0 (got {k})")
    arr = np.asarray(matrices, dtype=np.float64)
    bad = np.isnan(arr).any(axis=(-2, -1))
    out = np.linalg.matrix_power(np.nan_to_num(arr, nan=0.0), k)
    out[bad] = np.nan
    return out


def spr_after_hops(matrices: np.ndarray, k: int) -> tuple[float, float, FloatArray]:
    """``SPR_k = mean_s mean_i (T_s^k)[i, i]``: (mean, SE over propositions, success by stance)."""
    diag = diagonal(k_hop_matrices(matrices, k))  # (P, 5)
    with np.errstate(invalid="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # undefined propositions stay NaN
        per_prop = np.nanmean(diag, axis=-1)
        by_stance = np.nanmean(diag, axis=0)
    mean, se = mean_se(per_prop)
    return float(mean), float(se), np.asarray(by_stance, dtype=np.float64)


def spr_curve(matrices: np.ndarray, max_hops: int) -> list[dict[str, object]]:
    """``SPR_k`` (mean, SE, success by stance) for ``k = 1..max_hops``."""
    rows: list[dict[str, object]] = []
    for k in range(1, max_hops + 1):
        mean, se, by_stance = spr_after_hops(matrices, k)
        rows.append({"k": k, "spr": mean, "spr_se": se, "success_by_stance": by_stance})
    return rows


def _gth(p: np.ndarray) -> FloatArray:
    """Stationary distribution of an irreducible stochastic matrix by GTH elimination."""
    a = np.array(p, dtype=np.float64)
    n = a.shape[0]
    for k in range(n - 1, 0, -1):
        s = a[k, :k].sum()
        a[:k, k] /= s
        a[:k, :k] += np.outer(a[:k, k], a[k, :k])
    pi = np.zeros(n)
    pi[0] = 1.0
    for k in range(1, n):
        pi[k] = pi[:k] @ a[:k, k]
    return pi / pi.sum()


def _absorbed_mass(t: np.ndarray, transient: np.ndarray, start: np.ndarray) -> FloatArray:
    """Start mass moved onto the recurrent stances by eliminating every transient stance.

    Eliminating stance ``k`` (self-loops ignored, so the geometric sum of staying is implicit):
    ``w[j] += w[k] * P[k, j] / s_k`` and ``P[i, j] += P[i, k] * P[k, j] / s_k`` for the remaining
    ``i, j``, with ``s_k = sum_{j != k remaining} P[k, j]``. This equals absorption through
    ``(I - Q)^{-1} R`` but stays accurate when a stance is left with probability ~1e-17.
    """
    p = np.array(t, dtype=np.float64)
    w = np.array(start, dtype=np.float64)
    alive = list(range(p.shape[0]))
    for k in transient:
        others = [j for j in alive if j != k]
        out = p[k, others]
        total = out.sum()
        if total > 0:
            share = out / total
            w[others] += w[k] * share
            p[np.ix_(others, others)] += np.outer(p[others, k], share)
        p[others, k] = 0.0
        w[k] = 0.0
        alive = others
    return w


def stationary_distribution(
    matrix: np.ndarray, start: np.ndarray | None = None
) -> tuple[FloatArray, bool]:
    """Long-run stance distribution of one 5x5 chain and whether it is unique.

    Rows are renormalised to sum to 1; NaN (and ``False``) when a row is NaN or has no mass.
    ``start`` (default uniform) only matters for reducible chains (see the module docstring).
    """
    t = np.asarray(matrix, dtype=np.float64)
    n = t.shape[0]
    sums = t.sum(axis=1)
    if np.isnan(t).any() or np.any(sums <= 0):
        return np.full(n, np.nan), False
    t = t / sums[:, None]
    u = np.full(n, 1.0 / n) if start is None else np.asarray(start, dtype=np.float64)
    n_comp, label = connected_components(t > 0, directed=True, connection="strong")
    closed = []
    for c in range(n_comp):
        members = label == c
        if not (t[np.ix_(members, ~members)] > 0).any():
            closed.append(c)
    transient = ~np.isin(label, closed)
    # Where does the start mass end up? Eliminate transient stances one by one (GTH-style state
    # reduction: a stance's mass moves to the remaining stances in proportion to its outgoing
    # probabilities; sums only, no subtractions), leaving mass only on recurrent stances.
    mass = _absorbed_mass(t, np.flatnonzero(transient), u)
    pi = np.zeros(n)
    for c in closed:
        members = label == c
        pi[members] += mass[members].sum() * _gth(t[np.ix_(members, members)])
    return pi / pi.sum(), len(closed) == 1


def stationary_distributions(matrices: np.ndarray) -> tuple[FloatArray, np.ndarray]:
    """Per-proposition stationary distributions ``(P, 5)`` and the ``unique`` flags ``(P,)``."""
    arr = np.asarray(matrices, dtype=np.float64)
    pis = np.full((arr.shape[0], N_STANCES), np.nan)
    unique = np.zeros(arr.shape[0], dtype=bool)
    for s in range(arr.shape[0]):
        pis[s], unique[s] = stationary_distribution(arr[s])
    return pis, unique
