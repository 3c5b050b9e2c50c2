"""A family of paired comparisons between runs, on item-level values matched by item key.

Each run gives, per metric, a mapping ``item key -> value`` (keys are content: a proposition's
text, ``statement | set k``, a setting key; never a position). For every pair of runs ``(A, B)``
(in the order given) and every metric, the items present in both are paired and
:func:`~inspect_stance.stats.paired.paired_delta` gives ``delta = b - a``, its interval and p.
Comparisons computed otherwise (McNemar, judgment-level models) join the same family; the
p-values of the whole family are then adjusted together (:func:`adjust_family`).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field, replace
from typing import Any

import numpy as np

from inspect_stance.stats.multiplicity import Adjust, adjust_pvalues
from inspect_stance.stats.paired import Interval, naive_interval, paired_delta
from inspect_stance.stats.ranking import Ranking, rank_runs


@dataclass
class CompareResult:
    """Everything ``inspect-stance compare`` reports."""

    method: str
    runs: list[dict[str, Any]]
    comparisons: list[Comparison]
    rankings: dict[str, Ranking]
    adjust: str
    alpha: float
    confidence: float
    notes: list[str] = field(default_factory=list)
    extra: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class MetricSpec:
    """A metric's direction (for rankings) and the range its item-level values can take."""

    name: str
    higher_is_better: bool = True
    value_range: tuple[float, float] = (0.0, 1.0)
    rank: bool = True  # False: no "better" direction (e.g. a signed lean), no ranking


@dataclass
class RunItems:
    """One run's item-level values per metric, and (optionally) its trial-level values per
    metric for the naive interval."""

    name: str
    items: dict[str, dict[str, float]]
    trials: dict[str, np.ndarray] = field(default_factory=dict)
    #: item key -> its cluster (topic, statement, ...); an item not in it is its own cluster
    clusters: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Comparison:
    """One comparison of run ``run_a`` with ``run_b`` on ``metric``: ``delta = b - a``."""

    metric: str
    run_a: str
    run_b: str
    a: float
    b: float
    delta: float
    ci: tuple[float, float]
    p: float
    test: str
    n_items: int
    p_adjusted: float = math.nan
    naive_ci: tuple[float, float] | None = None

    def to_json(self) -> dict[str, Any]:
        """JSON-safe dict (NaN -> None, tuples -> lists)."""
        return json_safe(asdict(self))


def json_safe(obj: Any) -> Any:
    if isinstance(obj, dict):
        return {k: json_safe(v) for k, v in obj.items()}
    if isinstance(obj, list | tuple):
        return [json_safe(v) for v in obj]
    if isinstance(obj, float | np.floating) and not math.isfinite(float(obj)):
        return None
    if isinstance(obj, np.floating | np.integer):
        return obj.item()
    return obj


def select_specs(
    available: Sequence[MetricSpec], names: Sequence[str] | None, what: str
) -> list[MetricSpec]:
    """The specs named (each once, in the order named; all when none); ValueError naming the
    ``what`` metrics (e.g. ``stance-drift``) for an unknown name."""
    if not names:
        return list(available)
    by_name = {m.name: m for m in available}
    bad = [n for n in names if n not in by_name]
    if bad:
        raise ValueError(f"unknown {what} metric {bad[0]!r}; use one of {', '.join(by_name)}")
    return [by_name[n] for n in dict.fromkeys(names)]


def paired_arrays(a: Mapping[str, float], b: Mapping[str, float]) -> tuple[np.ndarray, np.ndarray]:
    """Values of the keys present in both mappings, in ``a``'s key order."""
    keys = [k for k in a if k in b]
    return (np.array([a[k] for k in keys], dtype=np.float64),
            np.array([b[k] for k in keys], dtype=np.float64))  # fmt: skip


def item_comparisons(
    runs: Sequence[RunItems],
    metrics: Sequence[MetricSpec],
    confidence: float = 0.95,
    interval: Interval = "auto",
) -> list[Comparison]:
    """Every pair of runs (``A`` before ``B`` in the given order) x every metric."""
    out: list[Comparison] = []
    for ra, rb in itertools.combinations(runs, 2):
        for spec in metrics:
            xa, xb = paired_arrays(ra.items[spec.name], rb.items[spec.name])
            res = paired_delta(xa, xb, confidence, interval, spec.value_range)
            naive = None
            if spec.name in ra.trials and spec.name in rb.trials:
                naive = naive_interval(ra.trials[spec.name], rb.trials[spec.name], confidence)
            out.append(Comparison(spec.name, ra.name, rb.name, res.a, res.b, res.delta, res.ci,
                                  res.p, res.test, res.n_items, naive_ci=naive))  # fmt: skip
    return out


def overlap_notes(runs: Sequence[RunItems], metric: str, noun: str) -> list[str]:
    """One note per pair of runs whose item sets on ``metric`` differ: ``n`` shared items and how
    many each run has (``a`` and ``b`` of that pair are means over the shared items only)."""
    out = []
    for ra, rb in itertools.combinations(runs, 2):
        ka, kb = set(ra.items.get(metric, {})), set(rb.items.get(metric, {}))
        if ka != kb:
            out.append(f"{ra.name} vs {rb.name}: {len(ka & kb)} shared {noun} ({ra.name} has "
                       f"{len(ka)}, {rb.name} has {len(kb)}); their values and deltas are over "
                       "the shared ones")  # fmt: skip
    return out


def adjust_family(comparisons: Sequence[Comparison], method: Adjust = "holm") -> list[Comparison]:
    """The comparisons with ``p_adjusted`` set over the whole family."""
    adjusted = adjust_pvalues([c.p for c in comparisons], method)
    return [replace(c, p_adjusted=p) for c, p in zip(comparisons, adjusted, strict=True)]


def rankings(
    runs: Sequence[RunItems],
    metrics: Sequence[MetricSpec],
    comparisons: Sequence[Comparison],
    alpha: float = 0.05,
) -> dict[str, Ranking]:
    """Per metric, the ranking of the runs over the items every run has (needs >= 2 runs):
    rank probabilities from the clustered model of the means (items in the runs' ``clusters``,
    :func:`~inspect_stance.stats.ranking.rank_runs`), tied groups from ``comparisons``'
    adjusted p-values (the family ``compare`` reports)."""
    out: dict[str, Ranking] = {}
    if len(runs) < 2:
        return out
    for spec in (m for m in metrics if m.rank):
        keys = [k for k in runs[0].items[spec.name] if all(k in r.items[spec.name] for r in runs)]
        values = np.array([[r.items[spec.name][k] for r in runs] for k in keys], dtype=np.float64)
        p_adj = {
            frozenset((c.run_a, c.run_b)): c.p_adjusted
            for c in comparisons
            if c.metric == spec.name
        }
        clusters = {k: c for r in runs for k, c in r.clusters.items()}
        labels = [clusters.get(k, "item " + k) for k in keys]
        try:
            out[spec.name] = rank_runs([r.name for r in runs], values.reshape(len(keys), len(runs)),
                                       p_adj, spec.higher_is_better, alpha,
                                       clusters=labels)  # fmt: skip
        except ValueError:
            continue
    return out


def width_ratio(c: Comparison) -> float:
    """Width of the honest interval over the naive trial-level one (NaN without a naive one)."""
    if c.naive_ci is None or c.naive_ci[1] == c.naive_ci[0]:
        return math.nan
    return (c.ci[1] - c.ci[0]) / (c.naive_ci[1] - c.naive_ci[0])
