"""An unbiased estimate of a cell's rate after adaptive stopping (Rao–Blackwell).

The mean of the trials run is biased when the number run depends on their values: the rule of
:mod:`.confseq` stops a cell whose upper bound falls below 1, which happens sooner when its
first trials are low, so stopped cells keep low means and run-on cells dilute their high start.

The first wave's mean ``xbar_m`` (``m = min_trials`` trials always run) is unbiased for the
cell's rate ``mu``, whatever the rule does after it. Its Rao–Blackwell improvement conditions
on what the rule cannot change the meaning of, the multiset of the ``N`` values run and ``N``:

    ``mu_hat = E[xbar_m | {x_1..x_N}, N]``

Trials are exchangeable, so given the multiset every ordering is equally likely a priori, and
given ``N`` the orderings are uniform over those for which the rule (applied to the reordered
values) stops at exactly ``N``. ``mu_hat`` is the mean of ``xbar_m`` over those orderings: it
is unbiased (``E[mu_hat] = E[xbar_m] = mu``) with a variance no larger than ``xbar_m``'s.
It equals the plain mean when the rule stops at the first wave (``N = m``), and is above the
plain mean of a cell that ran on (the orderings whose first wave would not have stopped have
higher first waves).

The conditional mean is computed by Monte Carlo: the observed ordering plus ``draws`` uniform
random orderings of the ``N`` values, keeping those the rule stops at ``N``; the observed
ordering is itself a uniform draw from the kept set, so the average over the kept orderings is
unbiased for ``mu_hat`` and hence for ``mu``. The draws use a fixed seed: the same trials give
the same estimate (an ``eval-retry`` scores as the first run).

Under the ``exclude`` policy (unparsed trials are NaN and left out of the sequence) the rule
checks the kept values only, and the estimate averages the first wave's kept values: the
unbiased-per-trial argument then holds for the ratio ``sum kept / count kept`` only
approximately, as it does for a fixed design.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from inspect_stance.drift.adaptive.confseq import AdaptiveRule, eb_cs, stop_reason
from inspect_stance.drift.transition import FloatArray, nanmean

if TYPE_CHECKING:
    import numpy as np

#: random orderings drawn per estimate (besides the observed one)
DRAWS = 400
SEED = 20241


def stop_counts(values: np.ndarray, rule: AdaptiveRule) -> np.ndarray:
    """The trial count at which ``rule`` stops each row of ``values`` ``(..., n)`` (NaN =
    left out of the sequence but counted as a trial run): the first checkpoint that stops it,
    ``n`` at ``n >= max_trials`` when none does, and ``n + 1`` (the rule runs on) otherwise."""
    import numpy as np

    v = np.asarray(values, dtype=np.float64)
    n = v.shape[-1]
    nan = np.isnan(v)
    # the kept values first, in order (a stable sort on "is NaN"), zeros after them
    order = np.argsort(nan, axis=-1, kind="stable")
    kept = np.take_along_axis(np.where(nan, 0.0, v), order, axis=-1)
    lower, upper = eb_cs(kept, rule.alpha)
    means = np.cumsum(kept, axis=-1) / np.arange(1, n + 1)
    count = np.cumsum(~nan, axis=-1)
    used = np.full(v.shape[:-1], n if n >= rule.max_trials else n + 1, dtype=np.int64)
    open_ = np.ones(v.shape[:-1], dtype=bool)
    for point in rule.checkpoints():
        if point > n:
            break
        k = count[..., point - 1]
        idx = np.maximum(k - 1, 0)[..., None]
        mean_k, lo_k, hi_k = (
            np.take_along_axis(a, idx, axis=-1)[..., 0] for a in (means, lower, upper)
        )
        r = stop_reason(mean_k, lo_k, hi_k, rule.halfwidth)
        if not rule.stop_below_one:
            r = np.where(r == "below_one", "", r)
        hit = open_ & (r != "") & (k > 0)
        used[hit] = point
        open_ &= ~hit
    return used


def _first_wave(vectors: np.ndarray, m: int) -> FloatArray:
    """The mean of the first ``m`` kept rows along axis -2 (NaN rows left out); NaN if none."""
    import numpy as np

    head = vectors[..., :m, :]
    keep = ~np.isnan(head[..., :1])
    total = np.where(keep, head, 0.0).sum(axis=-2)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.asarray(total / keep.sum(axis=-2), dtype=np.float64)


def unbiased_row(
    vectors: np.ndarray,
    diagonal: np.ndarray,
    rule: AdaptiveRule,
    draws: int = DRAWS,
    seed: int = SEED,
) -> FloatArray:
    """``mu_hat``: the Rao–Blackwellised first-wave mean of a stopped cell's trial rows.

    ``vectors`` ``(N, K)`` are the trials' vectors in trial order (a NaN row: left out),
    ``diagonal`` ``(N,)`` the values the rule read (NaN: left out); returns ``(K,)``. With
    ``N <= min_trials`` (or no draw kept besides the observed ordering) it is the plain mean
    of the kept rows of the first wave's orderings (see the module docstring)."""
    import numpy as np

    vec = np.asarray(vectors, dtype=np.float64)
    diag = np.asarray(diagonal, dtype=np.float64)
    n = diag.shape[0]
    m = min(rule.min_trials, n)
    if n <= m:
        return _first_wave(vec[None], m)[0]
    rng = np.random.default_rng(seed)
    perm = np.argsort(rng.random((draws, n)), axis=-1)
    perm = np.concatenate([np.arange(n)[None], perm])
    accept = stop_counts(diag[perm], rule) == n
    accept[0] = True  # the observed ordering stopped at n by definition
    est = _first_wave(vec[perm[accept]], m)
    return np.asarray(np.nanmean(est, axis=0), dtype=np.float64)


def unbiased_means(
    x: np.ndarray, used: np.ndarray, rule: AdaptiveRule, draws: int = 64, seed: int = SEED
) -> FloatArray:
    """:func:`unbiased_row` of many scalar cells at once (no NaN): ``x`` ``(R, n)`` in trial
    order, ``used`` ``(R,)`` the count each stopped at; returns ``(R,)`` (the replay's)."""
    import numpy as np

    x = np.asarray(x, dtype=np.float64)
    out = np.empty(x.shape[0])
    rng = np.random.default_rng(seed)
    m = rule.min_trials
    for n in np.unique(used):
        rows = np.flatnonzero(used == n)
        head = x[rows, :n]
        if n <= m:
            out[rows] = head.mean(axis=-1)
            continue
        perm = np.argsort(rng.random((rows.size, draws, n)), axis=-1)
        perm = np.concatenate([np.broadcast_to(np.arange(n), (rows.size, 1, n)), perm], axis=1)
        vals = np.take_along_axis(np.broadcast_to(head[:, None, :], perm.shape), perm, axis=-1)
        accept = stop_counts(vals, rule) == n
        accept[:, 0] = True
        first = vals[..., :m].mean(axis=-1)
        out[rows] = (first * accept).sum(axis=-1) / accept.sum(axis=-1)
    return out


def adaptive_matrices(
    vectors: np.ndarray,
    values: np.ndarray,
    ran: np.ndarray,
    rule: AdaptiveRule,
    unparsed: str = "exclude",
) -> FloatArray:
    """Per-proposition matrices ``(P, 5, 5)`` of an adaptive run, each row :func:`unbiased_row`.

    ``vectors`` ``(P, T, 5, 5)`` are the trials' vectors as the report counts them (NaN rows:
    unparsed or not run), ``values`` ``(P, T, 5)`` what the rule read (NaN: left out of its
    sequence), ``ran`` ``(P, T, 5)`` the trials run. Trials run in blocks of
    ``rule.max_trials`` (one block per epoch); a row is the mean of its blocks' estimates
    (the fixed design weighs every epoch alike). Under ``failure`` an unparsed trial is a zero
    row; under ``exclude`` it is left out. A row with no trial kept is NaN."""
    import numpy as np

    vec = np.asarray(vectors, dtype=np.float64)
    if unparsed == "failure":
        vec = np.nan_to_num(vec, nan=0.0)
    else:
        vec = np.where((np.nansum(vec, axis=-1) == 0.0)[..., None], np.nan, vec)
    n_props, n_trials, k = ran.shape
    out = np.full((n_props, k, vec.shape[-1]), np.nan)
    block = max(int(rule.max_trials), 1)
    for s in range(n_props):
        for i in range(k):
            rows = []
            for start in range(0, n_trials, block):
                run_ = ran[s, start : start + block, i]
                kept = vec[s, start : start + block, i][run_]
                if kept.size and not np.isnan(kept[:, 0]).all():
                    diag = values[s, start : start + block, i][run_]
                    rows.append(unbiased_row(kept, diag, rule))
            if rows:
                out[s, i] = nanmean(np.array(rows), axis=0)
    return out
