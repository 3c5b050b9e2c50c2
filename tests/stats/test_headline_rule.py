"""The one headline rule (stats.headline.clustered_mean) against statsmodels, by hand, and in
simulation with a known answer at the smallest designs."""

from __future__ import annotations

import math

import numpy as np
import pytest
import statsmodels.api as sm
from scipy import stats

from inspect_stance.stats.headline import (
    clustered_mean,
    headline_from_metrics,
    interval,
    metric_values,
)


def test_cluster_se_equals_statsmodels_cr1() -> None:
    rng = np.random.default_rng(3)
    y = rng.normal(size=23)
    g = rng.integers(0, 5, size=23)
    h = clustered_mean("m", y, g)
    fit = sm.OLS(y, np.ones_like(y)).fit(cov_type="cluster", cov_kwds={"groups": g})
    assert h.se == pytest.approx(float(fit.bse[0]), rel=1e-12)
    groups = len(set(g.tolist()))
    q = stats.t.ppf(0.975, groups - 1)
    assert h.interval == pytest.approx((y.mean() - q * h.se, y.mean() + q * h.se), rel=1e-12)
    assert (h.n_items, h.n_clusters, h.df) == (23, groups, groups - 1)


def test_unclustered_is_sd_over_root_n_by_hand() -> None:
    # 0, 1, 1, 0: mean 0.5, sd = sqrt(1/3), se = sqrt(1/3)/2; t(3) interval, clipped to [0, 1]
    h = clustered_mean("m", [0, 1, 1, 0], value_range=(0.0, 1.0))
    assert h.se == pytest.approx(math.sqrt(1 / 3) / 2)
    half = 3.182446305284263 * math.sqrt(1 / 3) / 2  # t_{0.975, 3}
    assert h.interval == pytest.approx((max(0.0, 0.5 - half), min(1.0, 0.5 + half)))
    assert h.interval == (0.0, 1.0)  # 0.5 -/+ 0.919 leaves [0, 1] on both sides: clipped


def test_one_cluster_has_no_interval() -> None:
    h = clustered_mean("m", [0.2, 0.4], ["a", "a"])
    assert math.isnan(h.se) and all(math.isnan(x) for x in h.interval)


def test_interval_stays_in_range() -> None:
    assert interval(0.95, 0.1, 4, (0.0, 1.0)) == pytest.approx((0.95 - 2.776445 * 0.1, 1.0), 1e-6)


def test_round_trip_through_metric_values() -> None:
    h = clustered_mean("spr", [0.1, 0.5, 0.9, 0.7], ["a", "a", "b", "c"], (0.0, 1.0))
    back = headline_from_metrics("spr", metric_values(h), value_range=(0.0, 1.0))
    assert back is not None
    assert (back.value, back.se, back.interval, back.n_items, back.n_clusters) == (
        h.value, h.se, h.interval, h.n_items, h.n_clusters)  # fmt: skip


@pytest.mark.parametrize("groups", [2, 3, 5])
def test_coverage_with_heterogeneous_clusters(groups: int) -> None:
    """Clusters with their own means (sd 0.5) and 6 items each: the t(G-1) interval covers
    the population mean at about 95 % (2,000 data sets; binomial SE 0.005)."""
    rng = np.random.default_rng(groups)
    hits = 0
    reps = 2000
    for _ in range(reps):
        centres = rng.normal(0.0, 0.5, size=groups)
        y = (centres[:, None] + rng.normal(0, 1, size=(groups, 6))).ravel()
        lo, hi = clustered_mean("m", y, np.repeat(np.arange(groups), 6)).interval
        hits += lo <= 0.0 <= hi
    assert 0.925 <= hits / reps <= 0.975
