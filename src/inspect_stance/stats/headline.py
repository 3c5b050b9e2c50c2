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


def clustered_mean(metric: str, values: Sequence[float],
                   clusters: Sequence[Hashable] | None = None,
                   value_range: tuple[float, float] = (-math.inf, math.inf),
                   confidence: float = 0.95, item: str = "item",
                   cluster: str = "cluster") -> Headline:  # fmt: skip
    """The mean of ``values`` with a cluster-robust standard error and a t interval.

    With ``n`` items in ``G`` clusters, ``ybar = sum_i y_i / n`` and

    ``se = sqrt( G / (G - 1) * sum_g (sum_{i in g} (y_i - ybar))^2 ) / n``

    (the CR1 sandwich for an intercept-only model; with one item per cluster it equals
    ``sd(y) / sqrt(n)`` exactly). The interval is ``ybar -/+ t_{G-1} * se`` clipped to
    ``value_range``. ``clusters=None``: every item its own cluster. Non-finite values are
    left out (the count of what was used is ``n_items``). Fewer than two clusters: ``se`` and
    the interval are NaN.

    References
    ----------
    Cameron, A. C. and Miller, D. L. (2015). A practitioner's guide to cluster-robust inference.
    Journal of Human Resources 50(2), 317-372 (the G / (G - 1) factor and t with G - 1 df).
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
    totals: dict[Hashable, float] = {}
    for y, k in pairs:
        totals[k] = totals.get(k, 0.0) + (y - mean)
    g = len(totals)
    own = clusters is None or g == n
    if g < 2:
        se, df = math.nan, None
    else:
        se = math.sqrt(g / (g - 1) * sum(v * v for v in totals.values())) / n
        df = float(g - 1)
    if own:
        rule = f"mean over {n} {item}s; SE sd/sqrt(n); t with {n - 1} df"
    else:
        rule = (f"mean over {n} {item}s; SE clustered by {cluster} ({g} {cluster}s); "
                f"t with {g - 1} df")  # fmt: skip
    if math.isfinite(value_range[0]) or math.isfinite(value_range[1]):
        rule += f"; clipped to [{value_range[0]:g}, {value_range[1]:g}]"
    return headline_of(metric, mean, se, df, rule, n, g, value_range, confidence)


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
