"""The share headline's rule (stats.headline.clustered_share / share_variance / share_interval)
by hand and in simulation with a known answer."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats
from scipy.optimize import brentq
from scipy.special import expit

from inspect_stance.stats.headline import (
    bm_df,
    clustered_mean,
    clustered_share,
    share_interval,
    share_variance,
)


def _design(groups: list[list[int]]) -> tuple[list[float], list[str]]:
    return ([float(y) for ys in groups for y in ys],
            [f"g{k}" for k, ys in enumerate(groups) for _ in ys])  # fmt: skip


def test_clustered_variance_above_within_keeps_it_with_satterthwaite_df_by_hand() -> None:
    # T1 (1,0,1,1), T2 (0,0,1,0), T3 (1,1,1,0): p = 7/12; u = 2/3, -4/3, 2/3, CR1 = CR2 (equal
    # sizes) V = 3/2 * (24/9) / 144 = 1/36; MSW = 3 * 0.75 / 9 = 1/4, V_W = 1/48 < V;
    # df = V^2 / (V^2 / 2 + V_W^2 / 9) = 1 / (1/2 + (3/4)^2 / 9) = 16/9
    y, g = _design([[1, 0, 1, 1], [0, 0, 1, 0], [1, 1, 1, 0]])
    h = clustered_share("s", y, g)
    assert h.value == pytest.approx(7 / 12) and h.se == pytest.approx(1 / 6)
    assert h.df == pytest.approx(16 / 9)
    half = stats.t.ppf(0.975, 16 / 9) / 6
    assert h.interval == pytest.approx((max(0.0, 7 / 12 - half), min(1.0, 7 / 12 + half)))
    assert "Satterthwaite" in h.rule and "within-cluster" in h.rule


def test_clustered_variance_below_within_is_floored_by_hand() -> None:
    # A (1,1,0,0), B (1,1,1,0), C (1,0,1,0): p = 7/12; u = -1/3, 2/3, -1/3, V_CR = 3/2 * (2/3)
    # / 144 = 1/144; MSW = (1 + 3/4 + 1) / 9 = 11/36, V_W = 11/432 > V_CR, so V = V_W;
    # df = V_W^2 / (V_CR^2 / 2 + V_W^2 / 9) = 121 / (9/2 + 121/9) = 2178/323
    y, g = _design([[1, 1, 0, 0], [1, 1, 1, 0], [1, 0, 1, 0]])
    sv = share_variance(y, g)
    assert sv.var == pytest.approx(11 / 432) and sv.df == pytest.approx(2178 / 323) and sv.within
    assert clustered_mean("s", y, g).se == pytest.approx(1 / 12)  # the CR2 SE it replaces
    h = clustered_share("s", y, g)
    q = stats.t.ppf(0.975, 2178 / 323) * math.sqrt(11 / 432)
    assert h.interval == pytest.approx((7 / 12 - q, min(1.0, 7 / 12 + q)))


def test_unequal_clusters_refer_the_clustered_part_to_bell_mccaffrey_df() -> None:
    # sizes 2, 3, 5: V_CR and nu_B from clustered_mean (CR2, Bell-McCaffrey), V_W = MSW / n
    y, g = _design([[1, 0], [1, 1, 1], [0, 1, 0, 1, 1]])
    v_cr, nu_b = clustered_mean("s", y, g).se ** 2, bm_df([2, 3, 5])
    msw = (2 * 0.25 + 0 + 5 * 0.24) / (10 - 3)
    v_w = msw / 10
    v = max(v_cr, v_w)
    sv = share_variance(y, g)
    assert sv.var == pytest.approx(v)
    assert sv.df == pytest.approx(max(1.0, v * v / (v_cr**2 / nu_b + v_w**2 / 7)))


def test_degenerate_and_unclustered_cases_match_the_mean_rule() -> None:
    # every cluster with the same mean: V_CR = 0, so V = V_W on n - G df (formula's limit)
    y, g = _design([[1, 0, 1, 0], [0, 1, 1, 0]])
    sv = share_variance(y, g)
    assert sv.var == pytest.approx(4 * 0.25 * 2 / 6 / 8) and sv.df == 6
    # one item per cluster: sd / sqrt(n) on n - 1 df, p -/+ t se clipped
    h = clustered_share("s", [1.0, 1.0, 0.0, 1.0, 1.0], None)
    se = math.sqrt(0.2 / 5)
    assert h.se == pytest.approx(se) and h.df == 4
    assert h.interval == pytest.approx((0.8 - stats.t.ppf(0.975, 4) * se, 1.0))


def test_all_ones_take_the_jeffreys_interval_by_scipy() -> None:
    # 7 items in 2 clusters, all 1: Jeffreys at n* = 7 (z / t_1)^2 (G - 1 = 1 df), x* = n*
    y, g = _design([[1, 1, 1], [1, 1, 1, 1]])
    h = clustered_share("s", y, g)
    assert h.value == 1.0 and h.se == 0.0
    n1 = 7 * (stats.norm.ppf(0.975) / stats.t.ppf(0.975, 1)) ** 2
    assert h.interval == pytest.approx((stats.beta.ppf(0.025, n1 + 0.5, 0.5), 1.0))
    assert "t with 1 df" in h.rule
    # all 0 with 5 df: n* = 7 (z / t_5)^2, x* = 0
    n5 = 7 * (stats.norm.ppf(0.975) / stats.t.ppf(0.975, 5)) ** 2
    assert share_interval(0.0, 0.0, 7, 5.0) == pytest.approx(
        (0.0, stats.beta.ppf(0.975, 0.5, n5 + 0.5))
    )
    # no df (normal): plain Jeffreys at n
    assert share_interval(0.0, 0.0, 7, None) == pytest.approx(
        (0.0, stats.beta.ppf(0.975, 0.5, 7.5))
    )


SPREAD, TRUTH = 0.5, 0.843
_NODES, _WEIGHTS = np.polynomial.hermite_e.hermegauss(60)


def _share(mu: float) -> float:
    return float(np.sum(_WEIGHTS * expit(mu + SPREAD * _NODES)) / math.sqrt(2 * math.pi))


@pytest.mark.parametrize("topics", [2, 10])
def test_coverage_of_a_share_over_new_topics(topics: int) -> None:
    # 10 0/1 pairs per topic, topic share expit(mu + N(0, 0.5^2)), truth the share over new
    # topics (0.843). At 10 topics the floored variance with Satterthwaite df covers 0.95; at 2
    # topics it is conservative: a run whose items all agree (se 0) takes Jeffreys at
    # n (z / t_1)^2 (plain Jeffreys at n missed most of them: coverage 0.937 here).
    mu = brentq(lambda m: _share(m) - TRUTH, 0.0, 5.0)
    rng = np.random.default_rng(20261205 + topics)
    reps, hits = 600, 0
    for _ in range(reps):
        p_g = expit(mu + SPREAD * rng.standard_normal(topics))
        y = (rng.random((topics, 10)) < p_g[:, None]).astype(float).ravel()
        lo, hi = clustered_share("s", list(y), list(np.repeat(np.arange(topics), 10))).interval
        hits += lo <= TRUTH <= hi
    if topics == 2:  # conservative, never short
        assert hits / reps >= 0.95
    else:
        assert abs(hits / reps - 0.95) < 0.025  # 2.8 binomial SEs (0.0089)
