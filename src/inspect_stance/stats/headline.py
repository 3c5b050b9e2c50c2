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
    same mean and ``var`` is the within-cluster variance (the degenerate case);
    ``within_var``: the within-cluster variance of the mean ``MSW / n`` on ``n - G`` df (NaN
    with one item per cluster).
    """

    var: float
    df: float
    n_items: int
    n_clusters: int
    within: bool = False
    within_var: float = math.nan


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
    of it and a within-cluster or plain ``sd / sqrt(n)`` variance on ``G - 1`` df over-covers
    (0.98 for 3 to 5 topics of binary pairs, ``benchmarks/even_handedness_topics.py``), and for
    continuous values the t interval with ``V_CR2`` is exact. A share's headline floors it at the
    within-cluster part with Satterthwaite df instead (:func:`share_variance`).

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
    within = math.nan
    if n > g:
        cm = [r / m for r, m in zip(raw, sizes, strict=True)]
        within = sum((y - cm[k]) ** 2 for y, k in zip(values, idx, strict=True)) / (n - g) / n
        if var <= 1e-24 * max(1.0, mean * mean) and within > var:
            return MeanVariance(within, float(n - g), n, g, True, within)
    return MeanVariance(var, bm_df(sizes), n, g, False, within)


def _finite(values: Sequence[float],
            clusters: Sequence[Hashable] | None) -> list[tuple[float, Hashable]]:  # fmt: skip
    """(value, cluster) of the finite values (``clusters=None``: each item its own cluster)."""
    keys: list[Hashable] = list(range(len(values))) if clusters is None else list(clusters)
    if len(keys) != len(values):
        raise ValueError(f"{len(values)} values but {len(keys)} cluster labels")
    return [(float(y), k) for y, k in zip(values, keys, strict=True) if math.isfinite(float(y))]


def _own_rule(n: int, item: str) -> str:
    return f"mean over {n} {item}s; SE sd/sqrt(n); t with {n - 1} df"


def _tied_rule(n: int, g: int, dft: str, item: str, cluster: str) -> str:
    return (f"mean over {n} {item}s in {g} {cluster}s; every {cluster} has the same mean, so "
            f"the clustered SE is 0 (degenerate, not precise): SE the within-{cluster} one; "
            f"t with {dft} df")  # fmt: skip


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
    pairs = _finite(values, clusters)
    n = len(pairs)
    if n == 0:
        return Headline(metric, math.nan, math.nan, (math.nan, math.nan),
                        f"no {item} with a value", 0, 0, value_range, None, confidence)  # fmt: skip
    mean = sum(y for y, _ in pairs) / n
    mv = mean_variance([y for y, _ in pairs], [k for _, k in pairs])
    g = mv.n_clusters
    se = math.sqrt(mv.var) if g >= 2 else math.nan
    df = mv.df if g >= 2 else None
    dft = f"{df:.3g}" if df is not None else "no"
    if clusters is None or g == n:
        rule = _own_rule(n, item)
    elif mv.within:
        rule = _tied_rule(n, g, dft, item, cluster)
    else:
        rule = (f"mean over {n} {item}s; SE clustered by {cluster} (CR2, {g} {cluster}s); "
                f"t with {dft} df")  # fmt: skip
    if math.isfinite(value_range[0]) or math.isfinite(value_range[1]):
        rule += f"; clipped to [{value_range[0]:g}, {value_range[1]:g}]"
    return headline_of(metric, mean, se, df, rule, n, g, value_range, confidence)


def share_variance(values: Sequence[float], clusters: Sequence[Hashable]) -> MeanVariance:
    """The variance of a share ``p = ybar`` over ``n`` items in ``G >= 2`` clusters, floored at
    its within-cluster part, with Satterthwaite degrees of freedom.

    With ``V_CR`` the CR2 variance and ``nu_B`` its Bell-McCaffrey df (:func:`mean_variance`,
    ``G - 1`` for clusters of equal size), and ``V_W = MSW / n`` the within-cluster part,
    ``MSW = sum_i (y_i - ybar_{g(i)})^2 / (n - G)`` on ``n - G`` df:

    ``V = max(V_CR, V_W)``,   ``nu = max(1, V^2 / (V_CR^2 / nu_B + V_W^2 / (n - G)))``

    (Satterthwaite 1946: each estimate's variance ``2 E^2 / df``). A clustered variance below
    the within-cluster one is the between-cluster part estimated at or below 0 from a few
    clusters, not precision beyond the items' own sampling variance, so ``V`` never goes below
    ``V_W``; ``nu`` is ``nu_B`` (or just below) when ``V_CR`` dominates and rises towards
    ``n - G`` as ``V_CR / V_W`` falls, which is the degenerate case of :func:`mean_variance`
    (every cluster with the same mean: ``V_CR = 0``, ``V = V_W`` on ``n - G`` df) reached
    continuously. With one item per cluster (``n = G``) it is :func:`mean_variance`.

    References
    ----------
    Satterthwaite, F. E. (1946). An approximate distribution of estimates of variance
    components. Biometrics Bulletin 2(6), 110-114.
    """
    return _floored(mean_variance(values, clusters))


def _floored(mv: MeanVariance) -> MeanVariance:
    """:func:`share_variance` from the :func:`mean_variance` of the same items."""
    n, g = mv.n_items, mv.n_clusters
    if g < 2 or n == g or mv.within:
        return mv
    v_w = mv.within_var
    v = max(mv.var, v_w)
    if v <= 0:
        return mv
    df = max(1.0, v * v / (mv.var**2 / mv.df + v_w**2 / (n - g)))
    return MeanVariance(v, df, n, g, mv.var < v_w, v_w)


def share_interval(value: float, var: float, n_items: int, df: float | None,
                   confidence: float = 0.95) -> tuple[float, float]:  # fmt: skip
    """The interval of a share ``p`` (a value in [0, 1]) whose sampling variance ``var`` was
    estimated with ``df`` degrees of freedom: ``p -/+ t_df sqrt(var)`` clipped to [0, 1]
    (:func:`interval`); with ``var = 0`` (every item 0, or every item 1) rather than the point
    the Jeffreys interval of ``p n*`` successes in ``n* = n (z / t_df)^2`` trials, ``n =
    n_items`` (Korn and Graubard 1998's df adjustment; ``statsmodels``
    ``proportion_confint(method="jeffreys")``; lower end 0 at ``p = 0``, upper 1 at ``p =
    1``): a few clusters in which every item agreed cannot show how much clusters differ, and
    the unadjusted Jeffreys interval missed most of the 2-topic runs a position-biased grader
    judged all even. ``(NaN, NaN)`` without a finite ``var`` or with ``df < 1``."""
    if not (math.isfinite(value) and math.isfinite(var)) or (df is not None and df < 1):
        return (math.nan, math.nan)
    p = min(max(value, 0.0), 1.0)
    if var > 0 or n_items < 1:
        return interval(p, math.sqrt(var), df, (0.0, 1.0), confidence)
    from scipy.stats import norm, t
    from statsmodels.stats.proportion import proportion_confint

    q = (1 + confidence) / 2
    z = float(norm.ppf(q))
    n_star = n_items * (z / (float(t.ppf(q, df)) if df is not None else z)) ** 2
    lo, hi = proportion_confint(p * n_star, n_star, 1 - confidence, method="jeffreys")
    return (0.0 if p == 0.0 else float(lo), 1.0 if p == 1.0 else float(hi))


def clustered_share(metric: str, values: Sequence[float],
                    clusters: Sequence[Hashable] | None = None, confidence: float = 0.95,
                    item: str = "item", cluster: str = "cluster") -> Headline:  # fmt: skip
    """The mean of per-item values whose mean is a share (range [0, 1]), every share headline's
    rule: the value of :func:`clustered_mean`; the variance and df of :func:`share_variance`
    (the CR2 variance floored at the within-cluster one, Satterthwaite df; with one item per
    cluster, ``clusters=None`` included, ``sd(y)^2 / n`` on ``n - 1`` df); the interval of
    :func:`share_interval` (``p -/+ t_df se`` clipped to [0, 1]; Jeffreys when ``se = 0``).
    The rule sentence says which. Coverage at 2 to 30 topics, fair and position-biased
    grader: ``benchmarks/even_handedness_coverage.py``."""
    pairs = _finite(values, clusters)
    mv = mean_variance([y for y, _ in pairs], [k for _, k in pairs]) if pairs else None
    if mv is None or mv.n_clusters < 2:  # no value, or one cluster: no SE
        return clustered_mean(metric, values, clusters, (0.0, 1.0), confidence, item, cluster)
    n, g = mv.n_items, mv.n_clusters
    value = sum(y for y, _ in pairs) / n
    sv = _floored(mv)
    if clusters is None or g == n:
        rule = _own_rule(n, item)
    elif mv.within:
        rule = _tied_rule(n, g, f"{sv.df:.3g}", item, cluster)
    else:
        rule = (f"mean over {n} {item}s in {g} {cluster}s; SE the larger of the clustered "
                f"(CR2) and the within-{cluster} one; t with {sv.df:.3g} df (Satterthwaite, "
                f"between and within {cluster})")  # fmt: skip
    rule += "; clipped to [0, 1]" + (
        f"; se 0: Jeffreys interval at n (z/t)^2, t with {g - 1} df" if sv.var == 0 else ""
    )
    # se 0 (every item alike): Jeffreys at n (z / t_{G-1})^2, as few clusters warrant
    iv = share_interval(value, sv.var, n, sv.df if sv.var > 0 else g - 1.0, confidence)
    return Headline(metric, value, math.sqrt(sv.var), iv, rule, n, g, (0.0, 1.0), sv.df,
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
