"""Fewer than 10 shared items: the interval is the t interval with n - 1 degrees of freedom
(clipped to the range a difference can take), so it excludes 0 exactly when its own p < 0.05,
and its test line says that few items make it wide."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.stats import binomtest

from inspect_stance.stats.paired import paired_delta


def _draw(rng: np.random.Generator, n: int, delta: float) -> tuple[np.ndarray, np.ndarray]:
    """Per-item rates of two runs (10 trials x 5 stances per item), true difference ``delta``."""
    p_a = 0.1 + 0.7 * rng.beta(2, 2, size=(n, 5))
    p_b = p_a + delta
    x_a = (rng.uniform(size=(n, 10, 5)) < p_a[:, None, :]).mean(axis=(1, 2))
    x_b = (rng.uniform(size=(n, 10, 5)) < p_b[:, None, :]).mean(axis=(1, 2))
    return x_a, x_b


@pytest.mark.parametrize("n", [2, 3, 5, 8])
def test_interval_agrees_with_its_own_p(n):
    rng = np.random.default_rng(n)
    for _ in range(200):
        res = paired_delta(*_draw(rng, n, 0.0))
        excludes_zero = res.ci[0] > 0 or res.ci[1] < 0
        assert excludes_zero == (res.p < 0.05), (res.ci, res.p)


def test_few_items_say_the_interval_is_wide():
    rng = np.random.default_rng(0)
    res = paired_delta(*_draw(rng, 8, 0.0))
    assert "fewer than 10" in res.test and "wide" in res.test
    res = paired_delta(*_draw(rng, 40, 0.0))
    assert "fewer than 10" not in res.test


def test_few_items_interval_stays_in_range():
    a = np.array([0.0, 0.0, 0.0, 1.0])
    b = np.array([1.0, 1.0, 1.0, 1.0])
    res = paired_delta(a, b)
    assert -1.0 <= res.ci[0] <= res.ci[1] <= 1.0
    assert (res.ci[0] > 0) == (res.p < 0.05)


@pytest.mark.slow
@pytest.mark.parametrize("n", [2, 3, 5, 8])
def test_coverage_with_few_items(n):
    """1,000 replications per n: coverage not below 95 % (exact one-sided binomial test, 1 %).
    With 2 items it is conservative (about 0.99): in ~7 % of draws the two discrete differences
    coincide, and the sign-flip interval is then the whole range."""
    rng = np.random.default_rng(100 + n)
    reps, delta = 1000, 0.05
    covered = 0
    for _ in range(reps):
        res = paired_delta(*_draw(rng, n, delta))
        covered += res.ci[0] <= delta <= res.ci[1]
    assert binomtest(covered, reps, 0.95, alternative="less").pvalue > 0.01, covered / reps
