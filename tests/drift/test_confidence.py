"""One-sided Student-t upper bounds, Bonferroni level, and the share of bounds reaching 1."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats

from inspect_stance.drift.metrics.confidence import (
    bonferroni_level,
    ci_includes_one,
    diagonal_trials,
    share_reaching_one,
    upper_bounds,
)


def _probs_from_diag(diag: np.ndarray) -> np.ndarray:
    """(P, T, 5) diagonal probabilities -> (P, T, 5, 5) rows with the rest on the next stance."""
    p, t, _ = diag.shape
    probs = np.zeros((p, t, 5, 5))
    for i in range(5):
        probs[:, :, i, i] = diag[:, :, i]
        probs[:, :, i, (i + 1) % 5] = 1.0 - diag[:, :, i]
    return probs


def test_bonferroni_level():
    assert bonferroni_level(0.99, 112) == pytest.approx(1 - 0.01 / 112, abs=1e-15)
    assert bonferroni_level(0.95, 1) == pytest.approx(0.95)
    with pytest.raises(ValueError):
        bonferroni_level(1.0, 3)


def test_upper_bound_matches_hand_computation_and_one_sample_t_test():
    x = np.array([1.0, 0.8, 0.9, 0.7])
    diag = np.full((2, 4, 5), 1.0)
    diag[0, :, 0] = x
    probs = _probs_from_diag(diag)
    ub = upper_bounds(probs, 0.99)
    mean, sd = 0.85, np.sqrt(((x - 0.85) ** 2).sum() / 3)
    t_99_3 = 4.540702858698  # Student t 0.99 quantile, 3 df (tables)
    assert ub[0, 0] == pytest.approx(mean + t_99_3 * sd / 2, rel=1e-9)
    # The bound is the mean at which the one-sided t-test (H1: mean < mu0) has p = 1 - c.
    p = stats.ttest_1samp(x, ub[0, 0], alternative="less").pvalue
    assert p == pytest.approx(0.01, rel=1e-6)
    # Bonferroni over 2 propositions: level 0.995.
    ub_b = upper_bounds(probs, 0.99, bonferroni=True)
    p_b = stats.ttest_1samp(x, ub_b[0, 0], alternative="less").pvalue
    assert p_b == pytest.approx(0.005, rel=1e-6)
    # Constant cells: sd 0, bound equals the mean exactly.
    assert ub[1, 0] == 1.0 and ub[0, 1] == 1.0


def test_share_reaching_one_uses_exact_comparison():
    bounds = np.array(
        [
            [1.0, 0.999999999, 1.2, np.nan, 0.5],
            [0.7, 1.0 + 1e-12, 1.0, np.nan, 0.5],
            [1.0 - 1e-15, 0.2, 0.9, 1.0, 0.5],
        ]
    )
    share = share_reaching_one(bounds)
    np.testing.assert_allclose(share, [1 / 3, 1 / 3, 2 / 3, 1.0, 0.0])


def test_unparsed_policy_failure_vs_exclude():
    diag = np.full((1, 3, 5), 1.0)
    probs = _probs_from_diag(diag)
    probs[0, 2, 0] = np.nan  # unparsed trial of stance 0
    probs[0, 1, 3] = 0.0  # all-zero unparsed trial of stance 3
    fail = diagonal_trials(probs, "failure")
    excl = diagonal_trials(probs, "exclude")
    assert fail[0, 2, 0] == 0.0 and fail[0, 1, 3] == 0.0
    assert np.isnan(excl[0, 2, 0]) and np.isnan(excl[0, 1, 3])
    # exclude: two remaining trials, both 1 -> sd 0 -> bound 1; failure: [1, 1, 0] -> bound > mean.
    assert upper_bounds(probs, 0.99, unparsed="exclude")[0, 0] == 1.0
    x = np.array([1.0, 1.0, 0.0])
    expected = x.mean() + stats.t.ppf(0.99, 2) * x.std(ddof=1) / np.sqrt(3)
    assert upper_bounds(probs, 0.99, unparsed="failure")[0, 0] == pytest.approx(expected)


def test_fewer_than_two_trials_give_no_bound():
    diag = np.full((2, 2, 5), 0.5)
    diag[:, :, 4] = 1.0  # stance 4 always kept: its bound is 1
    probs = _probs_from_diag(diag)
    probs[0, 0, 2] = np.nan
    ub = upper_bounds(probs, 0.99, unparsed="exclude")
    assert np.isnan(ub[0, 2]) and not np.isnan(ub[1, 2])
    plain, corrected = ci_includes_one(probs, 0.99, unparsed="exclude")
    # zero spread: each bound is its mean, 0.5 (never reaches 1) or 1.0 for stance 4; stance 2
    # is a share over the one proposition that has a bound
    np.testing.assert_array_equal(plain, [0.0, 0.0, 0.0, 0.0, 1.0])
    np.testing.assert_array_equal(corrected, [0.0, 0.0, 0.0, 0.0, 1.0])


def test_published_ci_figures(shared_data):
    """Reference study, gpt_4o_mini: Bonferroni-corrected 99% bound reaching 1, by stance."""
    with np.load(shared_data / "stance_drift_reference" / "gpt_4o_mini.npz") as d:
        probs = d["probs"]
    _, corrected = ci_includes_one(probs, 0.99)
    np.testing.assert_array_equal(np.round(corrected, 3), [0.223, 0.000, 0.402, 0.116, 0.536])
