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
    mean_variance,
    metric_values,
)


def _cr2_by_matrices(y: np.ndarray, g: np.ndarray) -> tuple[float, float]:
    """CR2 variance of the mean and its Bell-McCaffrey df from the general matrix formulas
    (Pustejovsky and Tipton 2018, eq. 5 and sec. 3): X = 1, A_g = (I - H_gg)^(-1/2),
    V = (X'X)^-1 sum_g X_g' A_g e_g e_g' A_g X_g (X'X)^-1; df = (tr B)^2 / tr(B^2) with
    B = M (sum_g a_g a_g') M, a_g the n-vector X_g' A_g placed at cluster g's rows, M = I - H."""
    n = y.size
    h = np.full((n, n), 1.0 / n)
    e = y - y.mean()
    m = np.eye(n) - h
    v = 0.0
    big = np.zeros((n, n))
    for k in np.unique(g):
        rows = np.flatnonzero(g == k)
        lam, q = np.linalg.eigh(np.eye(rows.size) - h[np.ix_(rows, rows)])
        a = q @ np.diag(lam**-0.5) @ q.T
        score = np.ones(rows.size) @ a
        v += float(score @ e[rows]) ** 2 / n**2
        vec = np.zeros(n)
        vec[rows] = score
        big += np.outer(vec, vec)
    b = m @ big @ m
    return v, float(np.trace(b) ** 2 / np.trace(b @ b))


def test_cluster_variance_is_cr2_with_bell_mccaffrey_df() -> None:
    rng = np.random.default_rng(3)
    g = np.repeat(np.arange(5), [2, 7, 3, 9, 2])
    y = rng.normal(size=g.size) + rng.normal(0, 2, 5)[g]
    var, df = _cr2_by_matrices(y, g)
    mv = mean_variance(list(y), list(g))
    assert not mv.within
    assert mv.var == pytest.approx(var, rel=1e-10) and mv.df == pytest.approx(df, rel=1e-10)
    assert df < 4  # unequal clusters: below G - 1
    h = clustered_mean("m", y, g)
    q = stats.t.ppf(0.975, df)
    assert h.se == pytest.approx(math.sqrt(var), rel=1e-10) and h.df == pytest.approx(df)
    assert h.interval == pytest.approx((y.mean() - q * h.se, y.mean() + q * h.se), rel=1e-10)
    assert (h.n_items, h.n_clusters) == (g.size, 5)


def test_equal_clusters_are_statsmodels_cr1_with_g_minus_1_df() -> None:
    rng = np.random.default_rng(4)
    g = np.repeat(np.arange(6), 4)
    y = rng.normal(size=24) + rng.normal(0, 2, 6)[g]
    h = clustered_mean("m", y, g)
    fit = sm.OLS(y, np.ones_like(y)).fit(cov_type="cluster", cov_kwds={"groups": g})
    assert h.se == pytest.approx(float(fit.bse[0]), rel=1e-12) and h.df == pytest.approx(5)


def test_equal_cluster_means_take_the_within_variance_by_hand() -> None:
    # clusters {0, 1} and {1, 0}: equal means, so V_CR2 = 0 (degenerate);
    # MSW = 4 * 0.25 / (4 - 2) = 0.5, W = 0.5 / 4, with n - G = 2 df
    h = clustered_mean("m", [0, 1, 1, 0], ["a", "a", "b", "b"], cluster="topic")
    assert h.se == pytest.approx(math.sqrt(0.125)) and h.df == 2
    assert "same mean" in h.rule
    mv = mean_variance([0.0, 1.0, 1.0, 0.0], ["a", "a", "b", "b"])
    assert mv.within and mv.var == pytest.approx(0.125)


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
