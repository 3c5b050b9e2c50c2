"""A run's headline: one value, its standard error and interval, computed by one rule.

Every method declares its headline once (:class:`inspect_stance.study.protocol.TaskHeadline`);
the scorer's metric computes it with :func:`clustered_mean` (or builds a :class:`Headline` from
its own estimator with :func:`headline_of`), writes it into the log with :func:`metric_values`,
and every surface (console line, report, compare, gate, card, leaderboard, dataframes) reads
it back with :func:`headline_from_metrics`, never recomputing it.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import asdict, dataclass
from typing import Any

#: the keys a headline occupies among a task's metrics (besides the headline's own name)
STDERR, CI_LOW, CI_HIGH, N_ITEMS, N_CLUSTERS = (
    "stderr",
    "ci_low",
    "ci_high",
    "n_items",
    "n_clusters",
)


@dataclass(frozen=True)
class Headline:
    """A run's headline.

    ``value``: the estimate; ``se``: its standard error (NaN when the design gives none);
    ``interval``: the ``confidence`` interval, clipped to ``range``; ``df``: the Student-t
    degrees of freedom of the interval (``None``: normal); ``rule``: one sentence saying how
    the three were computed; ``n_items`` / ``n_clusters``: the items the value averages and
    the independent clusters the standard error counts (equal when items are independent).
    """

    metric: str
    value: float
    se: float
    interval: tuple[float, float]
    rule: str
    n_items: int
    n_clusters: int
    range: tuple[float, float] = (-math.inf, math.inf)
    df: float | None = None
    confidence: float = 0.95

    def to_json(self) -> dict[str, Any]:
        """The headline as JSON (non-finite numbers as ``None``)."""
        out = asdict(self)
        out["interval"] = [_json_float(x) for x in self.interval]
        out["range"] = [_json_float(x) for x in self.range]
        for key in ("value", "se", "df"):
            out[key] = _json_float(out[key])
        return out


def _json_float(x: float | None) -> float | None:
    return None if x is None or not math.isfinite(x) else float(x)


def clip(x: float, value_range: tuple[float, float]) -> float:
    """``x`` clipped to ``[lo, hi]`` (NaN stays NaN)."""
    lo, hi = value_range
    return x if math.isnan(x) else min(max(x, lo), hi)


def interval(value: float, se: float, df: float | None, value_range: tuple[float, float],
             confidence: float = 0.95) -> tuple[float, float]:  # fmt: skip
    """``value -/+ q * se`` clipped to ``value_range``, with ``q`` the ``(1 + confidence) / 2``
    quantile of Student's t with ``df`` degrees of freedom (normal when ``df`` is ``None``).
    With no finite standard error, or ``df < 1``, the interval is ``(NaN, NaN)``."""
    if not (math.isfinite(value) and math.isfinite(se)) or (df is not None and df < 1):
        return (math.nan, math.nan)
    from scipy.stats import norm, t

    p = (1 + confidence) / 2
    q = float(norm.ppf(p)) if df is None else float(t.ppf(p, df))
    return (clip(value - q * se, value_range), clip(value + q * se, value_range))


def headline_of(metric: str, value: float, se: float, df: float | None, rule: str,
                n_items: int, n_clusters: int,
                value_range: tuple[float, float] = (-math.inf, math.inf),
                confidence: float = 0.95) -> Headline:  # fmt: skip
    """A :class:`Headline` from an estimate and its standard error (interval by
    :func:`interval`)."""
    return Headline(metric, float(value), float(se),
                    interval(value, se, df, value_range, confidence), rule, int(n_items),
                    int(n_clusters), value_range, df, confidence)  # fmt: skip


@dataclass(frozen=True)
class MeanVariance:
    """The sampling variance of a mean over clustered items (:func:`mean_variance`).

    ``var``: the variance of the mean; ``df``: the Student-t degrees of freedom to refer it to;
    ``n_items`` / ``n_clusters``: ``n`` and ``G``; ``within``: ``True`` when every cluster had the
    same mean and ``var`` is the within-cluster variance (the degenerate case).
    """

    var: float
    df: float
    n_items: int
    n_clusters: int
    within: bool = False


def cr2_weights(sizes: Sequence[int]) -> list[float]:
    """CR2 weights ``w_g = 1 / (1 - n_g / n)`` of an intercept-only model with cluster sizes
    ``n_g`` (:func:`mean_variance`)."""
    n = sum(sizes)
    return [n / (n - m) for m in sizes]


def bm_df(sizes: Sequence[int]) -> float:
    """Bell-McCaffrey degrees of freedom of the CR2 variance of a mean over clusters of sizes
    ``n_g`` (working model: independent items of equal variance):

    ``nu = n^2 / ( sum_g n_g^2 + ((sum_g w_g n_g^2)^2 - sum_g w_g^2 n_g^4) / n^2 )``

    with ``w_g`` the CR2 weights; ``G - 1`` when the clusters are of equal size (``n - 1``
    with one item each), below it when they are not."""
    n = sum(sizes)
    w = cr2_weights(sizes)
    s1 = sum(m * m for m in sizes)
    s2 = sum(wg * m * m for wg, m in zip(w, sizes, strict=True))
    s3 = sum((wg * m * m) ** 2 for wg, m in zip(w, sizes, strict=True))
    return n * n / (s1 + (s2 * s2 - s3) / (n * n))


def mean_variance(values: Sequence[float], clusters: Sequence[Hashable]) -> MeanVariance:
    """The variance of ``ybar = sum_i y_i / n`` over ``n`` items in ``G >= 2`` clusters.

    The CR2 cluster-robust variance (Bell and McCaffrey 2002; Pustejovsky and Tipton 2018) of an
    intercept-only model, with ``u_g = sum_{i in g} (y_i - ybar)`` and ``n_g`` the size of
    cluster ``g``:

    ``V_CR2 = sum_g u_g^2 / (1 - n_g / n) / n^2``,

    referred to Student's t with the Bell-McCaffrey df (:func:`bm_df`). With clusters of equal
    size this is exactly the CR1 ``G / (G - 1) * sum_g u_g^2 / n^2`` with ``G - 1`` df; with one
    item per cluster, ``sd(y)^2 / n`` with ``n - 1`` df (the one-sample t).

    The degenerate case: when every cluster has the same mean (``V_CR2 = 0`` to rounding, common
    with a few clusters of 0/1 values) a zero variance is an artefact of the discreteness, not
    precision; with ``n > G`` the within-cluster variance of the mean ``W = MSW / n``,
    ``MSW = sum_i (y_i - ybar_{g(i)})^2 / (n - G)``, is used instead, with ``n - G`` df
    (``within = True``). Otherwise ``V_CR2`` is used as it is, however small: taking the larger
    of it and a within-cluster or plain ``sd / sqrt(n)`` variance over-covers (0.98 for 3 to 5
    topics of binary pairs, ``benchmarks/even_handedness_topics.py``), and for continuous
    values the t interval with ``V_CR2`` is exact.

    References
    ----------
    Bell, R. M. and McCaffrey, D. F. (2002). Bias reduction in standard errors for linear
    regression with multi-stage samples. Survey Methodology 28(2), 169-181.
    Pustejovsky, J. E. and Tipton, E. (2018). Small-sample methods for cluster-robust variance
    estimation and hypothesis testing in fixed effects models. JBES 36(4), 672-683.
    """
    keys = list(clusters)
    if len(keys) != len(values):
        raise ValueError(f"{len(values)} values but {len(keys)} cluster labels")
    n = len(keys)
    codes: dict[Hashable, int] = {}
    idx = [codes.setdefault(k, len(codes)) for k in keys]
    g = len(codes)
    if g < 2:
        return MeanVariance(math.nan, math.nan, n, g)
    mean = sum(values) / n
    sums, sizes, raw = [0.0] * g, [0] * g, [0.0] * g
    for y, k in zip(values, idx, strict=True):
        sums[k] += y - mean
        raw[k] += y
        sizes[k] += 1
    w = cr2_weights(sizes)
    var = sum(wg * u * u for wg, u in zip(w, sums, strict=True)) / (n * n)
    if n > g:
        cm = [r / m for r, m in zip(raw, sizes, strict=True)]
        within = sum((y - cm[k]) ** 2 for y, k in zip(values, idx, strict=True)) / (n - g) / n
        if var <= 1e-24 * max(1.0, mean * mean) and within > var:
            return MeanVariance(within, float(n - g), n, g, True)
    return MeanVariance(var, bm_df(sizes), n, g)


def clustered_mean(metric: str, values: Sequence[float],
                   clusters: Sequence[Hashable] | None = None,
                   value_range: tuple[float, float] = (-math.inf, math.inf),
                   confidence: float = 0.95, item: str = "item",
                   cluster: str = "cluster") -> Headline:  # fmt: skip
    """The mean of ``values`` with a cluster-robust standard error and a t interval.

    ``se = sqrt(var)`` and ``df`` from :func:`mean_variance` (CR2 with Bell-McCaffrey df; the
    within-cluster variance when every cluster has the same mean, said in the rule sentence); the interval is ``ybar -/+ t_df * se`` clipped to ``value_range``.
    ``clusters=None``: every item its own cluster (``se = sd(y) / sqrt(n)``, ``n - 1`` df).
    Non-finite values are left out (the count of what was used is ``n_items``). Fewer than two
    clusters: ``se`` and the interval are NaN.
    """
    keys: list[Hashable] = list(range(len(values))) if clusters is None else list(clusters)
    if len(keys) != len(values):
        raise ValueError(f"{len(values)} values but {len(keys)} cluster labels")
    pairs = [(float(y), k) for y, k in zip(values, keys, strict=True) if math.isfinite(float(y))]
    n = len(pairs)
    if n == 0:
        return Headline(metric, math.nan, math.nan, (math.nan, math.nan),
                        f"no {item} with a value", 0, 0, value_range, None, confidence)  # fmt: skip
    mean = sum(y for y, _ in pairs) / n
    mv = mean_variance([y for y, _ in pairs], [k for _, k in pairs])
    g = mv.n_clusters
    own = clusters is None or g == n
    se = math.sqrt(mv.var) if g >= 2 else math.nan
    df = mv.df if g >= 2 else None
    dft = f"{df:.3g}" if df is not None else "no"
    if own:
        rule = f"mean over {n} {item}s; SE sd/sqrt(n); t with {n - 1} df"
    elif mv.within:
        rule = (f"mean over {n} {item}s in {g} {cluster}s; every {cluster} has the same mean, so "
                f"the clustered SE is 0 (degenerate, not precise): SE the within-{cluster} one; "
                f"t with {dft} df")  # fmt: skip
    else:
        rule = (f"mean over {n} {item}s; SE clustered by {cluster} (CR2, {g} {cluster}s); "
                f"t with {dft} df")  # fmt: skip
    if math.isfinite(value_range[0]) or math.isfinite(value_range[1]):
        rule += f"; clipped to [{value_range[0]:g}, {value_range[1]:g}]"
    return headline_of(metric, mean, se, df, rule, n, g, value_range, confidence)


def share_interval(value: float, var: float, n_items: int, df: float | None,
                   confidence: float = 0.95) -> tuple[float, float]:  # fmt: skip
    """The interval of a share ``p`` (a value in [0, 1]) whose sampling variance ``var`` was
    estimated with ``df`` degrees of freedom: the Jeffreys interval at an effective sample size
    (Korn and Graubard 1998; Dean and Pagano 2015),

    ``n_eff = p (1 - p) / var``,   ``n* = n_eff (z / t_df)^2``,   ``x* = p n*``,

    ``[Beta_{a/2}(x* + 1/2, n* - x* + 1/2), Beta_{1-a/2}(x* + 1/2, n* - x* + 1/2)]``
    (``statsmodels`` ``proportion_confint(x*, n*, method="jeffreys")``), with ``z`` and ``t_df``
    the ``(1 + confidence) / 2`` quantiles of the normal and of Student's t (normal when ``df``
    is ``None``); the lower end is 0 when ``p = 0``, the upper 1 when ``p = 1``, and
    ``n_eff = n_items`` when ``p`` is 0 or 1 or ``var`` is 0. Unlike ``p -/+ t se`` it follows
    the share's skew near 0 and 1, where the variance estimated from a few clusters is small
    exactly when ``p`` is extreme (``benchmarks/even_handedness_coverage.py``). ``(NaN, NaN)``
    without a finite ``var`` or with ``df < 1``."""
    if not (math.isfinite(value) and math.isfinite(var)) or (df is not None and df < 1):
        return (math.nan, math.nan)
    from scipy.stats import norm, t
    from statsmodels.stats.proportion import proportion_confint

    p = min(max(value, 0.0), 1.0)
    n_eff = p * (1 - p) / var if 0.0 < p < 1.0 and var > 0 else float(n_items)
    q = (1 + confidence) / 2
    z = float(norm.ppf(q))
    n_star = n_eff * (z / (float(t.ppf(q, df)) if df is not None else z)) ** 2
    lo, hi = proportion_confint(p * n_star, n_star, 1 - confidence, method="jeffreys")
    return (0.0 if p == 0.0 else float(lo), 1.0 if p == 1.0 else float(hi))


def clustered_share(metric: str, values: Sequence[float], clusters: Sequence[Hashable],
                    confidence: float = 0.95, item: str = "item",
                    cluster: str = "cluster") -> Headline:  # fmt: skip
    """:func:`clustered_mean` of per-item values whose mean is a share (range [0, 1]): the
    same value, SE and df, with the interval of :func:`share_interval` (Jeffreys at the
    effective sample size, df-adjusted) instead of ``p -/+ t se`` clipped; the rule sentence
    says so."""
    h = clustered_mean(metric, values, clusters, (0.0, 1.0), confidence, item, cluster)
    if not math.isfinite(h.se):
        return h
    rule = h.rule.replace("; clipped to [0, 1]", "") + (
        "; interval Jeffreys at the effective size p(1-p)/SE^2 x (z/t)^2"
    )
    iv = share_interval(h.value, h.se**2, h.n_items, h.df, confidence)
    return Headline(metric, h.value, h.se, iv, rule, h.n_items, h.n_clusters, (0.0, 1.0), h.df,
                    confidence)  # fmt: skip


def metric_values(h: Headline) -> dict[str, float]:
    """The headline as a task's metric values: ``{metric: value, "stderr": se, "ci_low": lo,
    "ci_high": hi, "n_items": n, "n_clusters": G}`` (``stderr`` is the name Inspect's
    ``evals_df`` reads as the headline's error)."""
    lo, hi = h.interval
    return {h.metric: h.value, STDERR: h.se, CI_LOW: lo, CI_HIGH: hi,
            N_ITEMS: float(h.n_items), N_CLUSTERS: float(h.n_clusters)}  # fmt: skip


def headline_from_metrics(metric: str, metrics: Mapping[str, Any], rule: str = "",
                          value_range: tuple[float, float] = (-math.inf, math.inf),
                          confidence: float = 0.95) -> Headline | None:  # fmt: skip
    """The headline a scorer wrote with :func:`metric_values`, read back from a log's metric
    values (``None`` when ``metric`` is missing)."""
    if metric not in metrics:
        return None

    def f(key: str) -> float:
        x = metrics.get(key)
        try:
            return math.nan if x is None else float(x)
        except (TypeError, ValueError):
            return math.nan

    n_items, n_clusters = f(N_ITEMS), f(N_CLUSTERS)
    return Headline(metric, f(metric), f(STDERR), (f(CI_LOW), f(CI_HIGH)), rule,
                    int(n_items) if math.isfinite(n_items) else 0,
                    int(n_clusters) if math.isfinite(n_clusters) else 0, value_range, None,
                    confidence)  # fmt: skip
