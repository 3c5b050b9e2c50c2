"""The comparison layer's statistics against hand computations, scipy and statsmodels."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats

from inspect_stance.stats.multiplicity import adjust_pvalues
from inspect_stance.stats.paired import cluster_bootstrap, naive_interval, paired_delta, paired_t
from inspect_stance.stats.power import detectable_difference
from inspect_stance.stats.ranking import rank_probabilities, tied_groups


def test_paired_t_matches_hand_formula_and_scipy():
    a = np.array([0.2, 0.5, 0.4, 0.9, 0.7, 0.3])
    b = np.array([0.3, 0.55, 0.6, 0.85, 0.9, 0.5])
    d = b - a
    n = d.size
    se = d.std(ddof=1) / math.sqrt(n)
    q = stats.t.ppf(0.975, n - 1)
    res = paired_t(a, b)
    assert res.delta == pytest.approx(d.mean())
    assert res.ci == pytest.approx((d.mean() - q * se, d.mean() + q * se))
    ref = stats.ttest_rel(b, a)
    assert res.p == pytest.approx(ref.pvalue)
    ci = ref.confidence_interval(0.95)
    assert res.ci == pytest.approx((ci.low, ci.high))


def test_paired_t_drops_nan_pairs_and_handles_constant_difference():
    res = paired_t(np.array([0.1, np.nan, 0.3]), np.array([0.2, 0.5, 0.4]))
    assert res.n_items == 2 and res.delta == pytest.approx(0.1)
    assert res.ci == pytest.approx((0.1, 0.1)) and res.p == 0.0
    with pytest.raises(ValueError, match="need at least 2"):
        paired_t(np.array([0.1]), np.array([0.2]))


def test_cluster_bootstrap_close_to_t_on_normal_differences():
    rng = np.random.default_rng(3)
    a = rng.uniform(0.2, 0.8, 200)
    b = np.clip(a + rng.normal(0.05, 0.1, 200), 0, 1)
    t = paired_t(a, b)
    boot = cluster_bootstrap(a, b)
    width_t, width_b = t.ci[1] - t.ci[0], boot.ci[1] - boot.ci[0]
    assert boot.ci[0] < t.delta < boot.ci[1]
    assert width_b == pytest.approx(width_t, rel=0.15)


def test_auto_clips_the_t_interval_for_few_items_and_stays_in_range():
    a = np.array([0.0, 0.0, 0.0, 1.0])
    b = np.array([1.0, 1.0, 1.0, 1.0])
    res = paired_delta(a, b)
    assert "fewer than 10" in res.test
    assert -1.0 <= res.ci[0] <= res.ci[1] == 1.0
    assert paired_t(a, b).ci[1] > 1.0  # the t interval would leave the range


def test_naive_interval_hand_computation():
    xa = np.array([0.0, 1.0, 1.0, 0.0])
    xb = np.array([1.0, 1.0, 1.0, 0.0, np.nan])
    se = math.sqrt(np.var(xa, ddof=1) / 4 + np.var([1, 1, 1, 0], ddof=1) / 4)
    low, high = naive_interval(xa, xb)
    assert (low + high) / 2 == pytest.approx(0.25)
    assert high - low == pytest.approx(2 * 1.959963984540054 * se)


def test_holm_and_bh_by_hand():
    p = [0.01, 0.04, 0.03]
    assert adjust_pvalues(p, "holm") == pytest.approx([0.03, 0.06, 0.06])
    assert adjust_pvalues(p, "bh") == pytest.approx([0.03, 0.04, 0.04])
    out = adjust_pvalues([0.01, math.nan], "holm")
    assert out[0] == pytest.approx(0.01) and math.isnan(out[1])


def test_detectable_difference_has_80_percent_noncentral_t_power():
    n, sd, alpha = 30, 0.2, 0.05
    mde = detectable_difference(n, sd, alpha, 0.8)
    crit = stats.t.ppf(1 - alpha, n - 1)
    power = 1 - stats.nct.cdf(crit, n - 1, mde / sd * math.sqrt(n))
    assert power == pytest.approx(0.8, abs=1e-4)
    # large n: the normal approximation (z_a + z_b) sd / sqrt(n)
    approx = (stats.norm.ppf(0.95) + stats.norm.ppf(0.8)) * sd / math.sqrt(5000)
    assert detectable_difference(5000, sd) == pytest.approx(approx, rel=1e-3)


def test_rank_probabilities_separated_and_exchangeable():
    rng = np.random.default_rng(0)
    x = rng.uniform(0, 1, (50, 1))
    values = np.hstack([x, x + 0.5, x])  # run 1 clearly best; runs 0 and 2 identical
    probs = rank_probabilities(values, n_resamples=500)
    assert probs[1, 0] == 1.0
    assert probs[0, 1] == 1.0 and probs[2, 1] == 1.0  # identical runs share rank 2
    assert probs.sum(axis=1) == pytest.approx(np.ones(3))


def test_tied_groups_overlap_like_a_letter_display():
    order = ["A", "B", "C"]
    p = {frozenset("AB"): 0.5, frozenset("BC"): 0.5, frozenset("AC"): 0.001}
    assert tied_groups(order, p) == [["A", "B"], ["B", "C"]]
    assert tied_groups(order, {frozenset("AB"): 0.01, frozenset("BC"): 0.01,
                               frozenset("AC"): 0.01}) == []  # fmt: skip


def test_benjamini_yekutieli_by_hand():
    """BY (valid under any dependence): BH times c(m) = sum_{i<=m} 1/i, capped at 1."""
    p = [0.01, 0.04, 0.03]
    c = 1 + 1 / 2 + 1 / 3
    assert adjust_pvalues(p, "by") == pytest.approx([0.03 * c, 0.04 * c, 0.04 * c])


def test_compare_offers_by_and_says_bh_needs_positive_dependence():
    import argparse

    from inspect_stance.cli.compare import register

    parser = argparse.ArgumentParser()
    register(parser.add_subparsers())
    action = next(a for a in parser._subparsers._group_actions[0].choices["compare"]._actions
                  if "--adjust" in a.option_strings)  # fmt: skip
    assert "by" in action.choices
    assert "positive dependence" in action.help
