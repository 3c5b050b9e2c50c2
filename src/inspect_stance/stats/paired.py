"""Paired item-level differences of two runs, with intervals that respect the clustering.

Trials are nested in items (propositions, statements, settings): the unit of resampling and of
the test is the item. For items ``k = 1..n`` shared by runs A and B, with item-level values
``a_k`` and ``b_k`` (e.g. per-proposition SPR, a mean over that proposition's trials), the
difference is ``delta = mean_k (b_k - a_k)``.

Intervals (``interval``):

- ``"t"``: the paired Student-t interval ``delta +- t_{1-alpha/2, n-1} * sd(d) / sqrt(n)`` and
  the two-sided paired t-test ``scipy.stats.ttest_rel(b, a)`` (the reference study's Student-t
  reasoning, applied to item-level differences);
- ``"bootstrap"``: the cluster (item-level) bootstrap: items are resampled with replacement,
  ``scipy.stats.bootstrap`` with ``paired=True`` and the BCa interval; p from the t-test;
- ``"auto"`` (default): ``"t"``. With fewer than 10 shared items it stays the t interval (the
  bootstrap's resamples of so few items are too few distinct sets to cover: BCa covered 0.89
  with 8 items, 0.50 with 2), clipped to the range a difference of the metric can take
  (``[lo - hi, hi - lo]`` for values in ``[lo, hi]``; clipping keeps the coverage, since the true
  difference lies in that range, and keeps ``0 in CI  <=>  p >= 1 - confidence``), and its test
  line says that few items make it wide. With 10 or more items and a t interval that leaves the
  range: the bootstrap, whose percentile-type interval stays inside it. Below 10 items with
  every difference equal (no spread to estimate, common with discrete item values), the exact
  sign-flip test is used instead of a zero-width interval: ``p = 2^(1 - n)`` (1 when the
  differences are 0), and the interval is the point when ``2^(1 - n) < 1 - confidence`` (every
  other value is rejected), else the whole range.

:func:`naive_interval` is the trial-level interval that ignores the clustering (every trial an
independent observation, Welch-type SE ``sqrt(var(x_A)/N_A + var(x_B)/N_B)``), kept only to show
how much the clustering widens the honest interval.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import Literal

import numpy as np
from scipy import stats

from inspect_stance.stats.headline import mean_variance

Interval = Literal["auto", "t", "bootstrap"]
INTERVALS: tuple[str, ...] = ("auto", "t", "bootstrap")
MIN_T_ITEMS = 10
CONSTANT_TOLERANCE = 1e-12
T_TEST = "paired t-test over items (scipy.stats.ttest_rel)"
T_FEW_TEST = (
    "paired t-test over items (scipy.stats.ttest_rel), t interval with n - 1 df, clipped to the "
    "metric's range: fewer than 10 shared items make the interval wide"
)
BOOT_TEST = "cluster bootstrap over items (scipy.stats.bootstrap, BCa) + paired t-test p"


@dataclass(frozen=True)
class PairedDelta:
    """``delta = mean(b - a)`` over ``n_items`` shared items, its interval and two-sided p."""

    a: float
    b: float
    delta: float
    ci: tuple[float, float]
    p: float
    test: str
    n_items: int
    se: float


def _clean_pairs(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    a = np.asarray(a, dtype=np.float64)
    b = np.asarray(b, dtype=np.float64)
    if a.shape != b.shape:
        raise ValueError(f"paired values differ in shape: {a.shape} vs {b.shape}")
    ok = ~(np.isnan(a) | np.isnan(b))
    return a[ok], b[ok]


def paired_t(a: np.ndarray, b: np.ndarray, confidence: float = 0.95) -> PairedDelta:
    """Paired t interval and two-sided p of ``mean(b - a)``; NaN pairs dropped.

    ``se = sd(b - a, ddof=1) / sqrt(n)``; CI ``delta +- t_{(1+c)/2, n-1} se``. When every
    difference is identical the interval is the point and ``p`` is 0 (non-zero) or 1 (zero).
    """
    a, b = _clean_pairs(a, b)
    n = int(a.size)
    if n < 2:
        raise ValueError(f"only {n} shared items with a value in both runs; need at least 2")
    d = b - a
    delta = float(d.mean())
    sd = float(d.std(ddof=1))
    if sd <= CONSTANT_TOLERANCE:  # every difference the same (up to rounding)
        sd = 0.0
    se = sd / math.sqrt(n)
    if sd == 0.0:
        return PairedDelta(
            float(a.mean()), float(b.mean()), delta, (delta, delta),
            0.0 if delta != 0 else 1.0, T_TEST, n, 0.0,
        )  # fmt: skip
    q = float(stats.t.ppf(0.5 + confidence / 2, n - 1))
    p = float(stats.ttest_rel(b, a).pvalue)
    return PairedDelta(
        float(a.mean()), float(b.mean()), delta, (delta - q * se, delta + q * se), p, T_TEST, n, se
    )


def cluster_bootstrap(
    a: np.ndarray,
    b: np.ndarray,
    confidence: float = 0.95,
    n_resamples: int = 2000,
    seed: int = 0,
) -> PairedDelta:
    """Item-level (cluster) bootstrap BCa interval of ``mean(b - a)``; p from the paired t-test.

    Resamples whole items (``scipy.stats.bootstrap(..., paired=True)``), so the trials of an
    item stay together. A degenerate bootstrap (all differences equal) gives the point.
    """
    base = paired_t(a, b, confidence)
    a, b = _clean_pairs(a, b)
    if base.se == 0.0:
        return PairedDelta(**{**base.__dict__, "test": BOOT_TEST})
    res = stats.bootstrap(
        (a, b),
        lambda x, y, axis=-1: np.mean(y - x, axis=axis),
        paired=True,
        confidence_level=confidence,
        n_resamples=n_resamples,
        method="BCa",
        random_state=np.random.default_rng(seed),
    )
    low, high = float(res.confidence_interval.low), float(res.confidence_interval.high)
    if not (math.isfinite(low) and math.isfinite(high)):  # BCa undefined: percentile
        boot = np.asarray(res.bootstrap_distribution)
        low, high = (
            float(v) for v in np.quantile(boot, [(1 - confidence) / 2, (1 + confidence) / 2])
        )
    return PairedDelta(base.a, base.b, base.delta, (low, high), base.p, BOOT_TEST, base.n_items,
                       float(res.standard_error))  # fmt: skip


def paired_delta(
    a: np.ndarray,
    b: np.ndarray,
    confidence: float = 0.95,
    interval: Interval = "auto",
    value_range: tuple[float, float] = (0.0, 1.0),
    seed: int = 0,
) -> PairedDelta:
    """The paired difference under ``interval`` (see the module docstring for ``"auto"``)."""
    if interval not in INTERVALS:
        raise ValueError(f"unknown interval {interval!r}; use one of {', '.join(INTERVALS)}")
    if interval == "bootstrap":
        return cluster_bootstrap(a, b, confidence, seed=seed)
    res = paired_t(a, b, confidence)
    if interval == "t":
        return res
    span = value_range[1] - value_range[0]
    if res.n_items < MIN_T_ITEMS:
        ci = (max(res.ci[0], -span), min(res.ci[1], span))
        if res.se == 0.0:  # no spread: the exact sign-flip test (module docstring)
            flip = 2.0 ** (1 - res.n_items)
            ci = (res.delta, res.delta) if flip < 1 - confidence else (-span, span)
            p = 1.0 if res.delta == 0 else flip
            return PairedDelta(res.a, res.b, res.delta, ci, p, T_FEW_TEST, res.n_items, 0.0)
        return PairedDelta(res.a, res.b, res.delta, ci, res.p, T_FEW_TEST, res.n_items, res.se)
    if res.ci[0] < -span or res.ci[1] > span:
        return cluster_bootstrap(a, b, confidence, seed=seed)
    return res


def naive_interval(
    trials_a: np.ndarray, trials_b: np.ndarray, confidence: float = 0.95
) -> tuple[float, float]:
    """Trial-level interval ignoring the clustering: ``mean(x_B) - mean(x_A) +- z * se`` with
    ``se = sqrt(var(x_A)/N_A + var(x_B)/N_B)`` over all (non-NaN) trials of each run."""
    xa = np.asarray(trials_a, dtype=np.float64).ravel()
    xb = np.asarray(trials_b, dtype=np.float64).ravel()
    xa, xb = xa[~np.isnan(xa)], xb[~np.isnan(xb)]
    delta = float(xb.mean() - xa.mean())
    se = math.sqrt(xa.var(ddof=1) / xa.size + xb.var(ddof=1) / xb.size)
    z = float(stats.norm.ppf(0.5 + confidence / 2))
    return delta - z * se, delta + z * se


Alternative = Literal["two-sided", "greater", "less"]
CLUSTER_PAIRED_TEST = "paired over items, cluster-robust (CR2) over {cluster}s, t with {df} df"
PLAIN_PAIRED_TEST = "paired t over items (each item its own cluster), t with {df} df"
WITHIN_PAIRED_TEST = (
    "paired over items in {g} {cluster}s, SE the within-{cluster} one (every "
    "{cluster} has the same mean difference: the clustered SE is 0), t with "
    "{df} df"
)


def _label(own: bool, cluster: str, df: float, g: int, within: bool) -> str:
    text = WITHIN_PAIRED_TEST if within else PLAIN_PAIRED_TEST if own else CLUSTER_PAIRED_TEST
    return text.format(cluster=cluster, df=f"{df:.3g}", g=g)


@dataclass(frozen=True)
class ClusteredTest:
    """``delta = mean(d)`` over ``n_items`` paired differences in ``n_clusters`` clusters.

    ``se``: the cluster-robust standard error and ``df`` its degrees of freedom
    (:func:`inspect_stance.stats.headline.mean_variance`); ``ci``: the
    two-sided ``confidence`` interval ``delta -/+ t_{df} se``; ``statistic = (delta - margin)
    / se``; ``p``: its p-value under ``alternative``; ``test``: one line saying all this.
    """

    delta: float
    se: float
    ci: tuple[float, float]
    statistic: float
    p: float
    df: float
    n_items: int
    n_clusters: int
    margin: float
    alternative: str
    test: str


def clustered_paired_test(
    diffs: Sequence[float] | np.ndarray,
    clusters: Sequence[Hashable] | None = None,
    confidence: float = 0.95,
    alternative: Alternative = "two-sided",
    margin: float = 0.0,
    cluster: str = "cluster",
) -> ClusteredTest:
    """Cluster-robust paired test of the mean of item-level differences ``d_i`` (``b - a``).

    With ``n`` items in ``G`` clusters and ``delta = sum_i d_i / n``:

    ``se^2`` and ``df`` by the headline rule (:func:`inspect_stance.stats.headline
    .mean_variance`: CR2 with Bell-McCaffrey df, which with clusters of equal size are the CR1
    ``G / (G - 1) * sum_g (sum_{i in g} (d_i - delta))^2 / n^2`` and ``G - 1``; the
    within-cluster variance when every cluster has the same mean difference), and
    ``T = (delta - margin) / se`` referred to Student's t with ``df``;
    ``alternative="greater"``: ``p = P(t > T)`` (H1: ``delta > margin``), ``"less"``: ``p = P(t < T)``, ``"two-sided"``: ``2 P(t > |T|)``. The interval is
    ``delta -/+ t_{(1+c)/2, df} se``. ``clusters=None`` (or every item its own cluster) is
    exactly the paired t-test (``scipy.stats.ttest_1samp``). Non-finite differences are left
    out. Every difference equal (``se = 0``): the test is degenerate, ``p`` is 0 or 1 by the
    sign of ``delta - margin`` (1 for ``delta = margin`` when two-sided). Fewer than two
    clusters: ``se``, the interval and ``p`` are NaN (no cluster-robust test exists; a caller
    must not read NaN as a pass). ``ValueError`` when the lengths differ or an option is unknown.
    """
    if alternative not in ("two-sided", "greater", "less"):
        raise ValueError(f"unknown alternative {alternative!r}; use two-sided, greater or less")
    x = np.asarray(diffs, dtype=np.float64).ravel()
    keys: list[Hashable] = list(range(x.size)) if clusters is None else list(clusters)
    if len(keys) != x.size:
        raise ValueError(f"{x.size} differences but {len(keys)} cluster labels")
    ok = np.isfinite(x)
    x = x[ok]
    keys = [k for k, good in zip(keys, ok, strict=True) if good]
    n = int(x.size)
    codes: dict[Hashable, int] = {}
    idx = np.array([codes.setdefault(k, len(codes)) for k in keys], dtype=np.int64)
    g = len(codes)
    nan = math.nan
    delta = float(x.mean()) if n else nan
    own = g == n
    df = float(g - 1)
    if g < 2:
        return ClusteredTest(delta, nan, (nan, nan), nan, nan, nan, n, g, margin, alternative,
                             f"fewer than 2 {cluster}s: no cluster-robust test")  # fmt: skip
    mv = mean_variance(x.tolist(), idx.tolist())
    se, df = math.sqrt(mv.var), mv.df
    label = _label(own, cluster, df, g, mv.within)
    if se <= CONSTANT_TOLERANCE * max(1.0, abs(delta)):
        diff = delta - margin
        if alternative == "greater":
            p = 0.0 if diff > 0 else 1.0
        elif alternative == "less":
            p = 0.0 if diff < 0 else 1.0
        else:
            p = 1.0 if abs(diff) <= CONSTANT_TOLERANCE else 0.0
        stat = math.copysign(math.inf, diff) if diff else nan
        return ClusteredTest(delta, 0.0, (delta, delta), stat, p, df, n, g, margin, alternative,
                             label + "; every difference equal: degenerate")  # fmt: skip
    stat = (delta - margin) / se
    if alternative == "greater":
        p = float(stats.t.sf(stat, df))
    elif alternative == "less":
        p = float(stats.t.cdf(stat, df))
    else:
        p = float(2 * stats.t.sf(abs(stat), df))
    q = float(stats.t.ppf(0.5 + confidence / 2, df))
    return ClusteredTest(delta, se, (delta - q * se, delta + q * se), stat, p, df, n, g, margin,
                         alternative, label)  # fmt: skip
