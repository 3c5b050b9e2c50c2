"""The mean of paired differences with a topic-clustered interval.

For items ``i`` (pairs) in clusters ``g`` (topics) with differences ``d_i``, the estimate is
``delta = mean(d)``; its standard error, degrees of freedom, interval and two-sided p are those
of the one rule every method's clustered test uses
(:func:`inspect_stance.stats.paired.clustered_paired_test`: CR2 with Bell-McCaffrey df, which
with topics of equal size are the CR1 ``sqrt(G / (G - 1) * sum_g (sum_{i in g} (d_i -
delta))^2) / n`` and ``G - 1``; the within-topic variance when every topic has the same mean
difference). With fewer than two topics there is no cluster-robust estimate: the plain
paired t over items (the same test with every pair its own cluster, which is
``scipy.stats.ttest_1samp``) is used and its test line says so.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

CLUSTER_TEST = "paired over pairs, cluster-robust over topics (CR2, t with Bell-McCaffrey df)"
PLAIN_TEST = "paired t over pairs (fewer than 2 topics to cluster on)"


@dataclass(frozen=True)
class ClusteredDelta:
    """``delta = mean(d)`` over ``n`` items in ``clusters`` clusters, its interval and p."""

    delta: float
    se: float
    ci: tuple[float, float]
    p: float
    n: int
    clusters: int
    test: str


def clustered_delta(
    d: Sequence[float], clusters: Sequence[str], confidence: float = 0.95
) -> ClusteredDelta:
    """The mean difference and its topic-clustered interval (module docstring); NaN fields when
    fewer than two differences are given."""
    from inspect_stance.stats.paired import clustered_paired_test

    groups = len(set(clusters))
    n = len(d)
    if n < 2:
        nan = math.nan
        mean = float(sum(d) / n) if n else nan
        return ClusteredDelta(mean, nan, (nan, nan), nan, n, groups, PLAIN_TEST)
    plain = groups < 2
    res = clustered_paired_test(d, None if plain else list(clusters), confidence, cluster="topic")
    test = PLAIN_TEST if plain else f"{CLUSTER_TEST}: {res.test}"
    return ClusteredDelta(res.delta, res.se, res.ci, res.p, n, groups, test)
