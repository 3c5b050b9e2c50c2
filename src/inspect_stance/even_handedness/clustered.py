"""The mean of paired differences with a topic-clustered interval (statsmodels, lazily imported).

For items ``i`` (pairs) in clusters ``g`` (topics) with differences ``d_i``, the estimate is
``delta = mean(d)`` and its cluster-robust standard error is statsmodels' OLS of ``d`` on a
constant with ``cov_type="cluster"`` (small-sample correction on):

    se = sqrt(G / (G - 1) * (n - 1) / (n - 1) * sum_g (sum_{i in g} (d_i - delta))^2) / n

with the t distribution on ``G - 1`` degrees of freedom for the interval and the two-sided p.
With fewer than two clusters there is no cluster-robust estimate: the plain paired t over items
(``scipy.stats.ttest_1samp``) is used and its test line says so.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    pass


CLUSTER_TEST = "paired over pairs, cluster-robust over topics (statsmodels OLS, t with G-1 df)"
PLAIN_TEST = "paired t over pairs (scipy.stats.ttest_1samp; fewer than 2 topics to cluster on)"


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
    import numpy as np
    from scipy import stats

    x = np.asarray(d, dtype=float)
    n = int(x.size)
    groups = sorted(set(clusters))
    if n < 2:
        nan = math.nan
        return ClusteredDelta(float(x.mean()) if n else nan, nan, (nan, nan), nan, n, len(groups),
                              PLAIN_TEST)  # fmt: skip
    delta = float(x.mean())
    if len(groups) < 2:
        se = float(x.std(ddof=1)) / math.sqrt(n)
        df, test = n - 1, PLAIN_TEST
    else:
        import statsmodels.api as sm

        codes = np.array([groups.index(c) for c in clusters])
        fit = sm.OLS(x, np.ones((n, 1))).fit(
            cov_type="cluster", cov_kwds={"groups": codes}, use_t=True
        )
        se = float(fit.bse[0])
        df, test = len(groups) - 1, CLUSTER_TEST
    if se <= 1e-12:
        p = 1.0 if delta == 0 else 0.0
        return ClusteredDelta(delta, 0.0, (delta, delta), p, n, len(groups), test)
    q = float(stats.t.ppf(0.5 + confidence / 2, df))
    p = float(2 * stats.t.sf(abs(delta / se), df))
    return ClusteredDelta(delta, se, (delta - q * se, delta + q * se), p, n, len(groups), test)
