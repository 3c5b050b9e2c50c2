"""Pass rate at a threshold and its normalised trapezoid AUC over thresholds 0.50..1.00."""

from __future__ import annotations

import numpy as np
import pytest

from inspect_stance.drift.metrics.pass_rate import (
    AUC_MAX,
    AUC_THRESHOLDS,
    pass_rate,
    pass_rate_auc,
    pass_rate_curve,
)


def test_thresholds():
    np.testing.assert_allclose(AUC_THRESHOLDS, [0.5 + 0.05 * k for k in range(11)])
    assert AUC_MAX == pytest.approx(0.5)


def test_pass_rate_by_stance():
    succ = np.array(
        [
            [1.00, 0.96, 0.95, 0.20, np.nan],
            [0.94, 0.99, 0.10, 0.30, 0.99],
            [0.97, 0.50, 0.96, 0.40, 0.10],
            [0.00, 0.95, 0.97, 0.98, 0.96],
        ]
    )
    # Counted by hand: success *exceeds* 0.95 (0.95 itself does not pass); NaN left out.
    np.testing.assert_allclose(pass_rate(succ, 0.95), [2 / 4, 2 / 4, 2 / 4, 1 / 4, 2 / 3])


def test_auc_hand_computed():
    # One proposition with success 0.75: pass = 1 at 0.50..0.70 (0.75 does not exceed 0.75),
    # 0 from 0.75. Trapezoid: 4 full intervals (0.20) + half of 0.70->0.75 (0.025) = 0.225;
    # / 0.5 = 0.45.
    succ = np.array([[0.75, 1.0, 0.0, 0.5, 0.82]])
    per_stance, auc = pass_rate_auc(succ)
    # stance 1 (1.0): passes at 0.50..0.95, not at 1.00 -> 9 intervals + half = 0.475 -> 0.95;
    # stance 2 (0.0) and stance 3 (0.5, not above 0.50): never -> 0;
    # stance 4 (0.82): 0.50..0.80 -> 6 intervals (0.30) + half (0.025) -> 0.65.
    np.testing.assert_allclose(per_stance, [0.45, 0.95, 0.0, 0.0, 0.65], atol=1e-12)
    assert auc == pytest.approx(np.mean([0.45, 0.95, 0.0, 0.0, 0.65]))


def test_auc_equals_auc_of_mean_curve():
    rng = np.random.default_rng(0)
    succ = rng.uniform(0.4, 1.0, size=(30, 5))
    per_stance, auc = pass_rate_auc(succ)
    curve = pass_rate_curve(succ).mean(axis=1)
    # independent trapezoid sum
    manual = sum(
        (AUC_THRESHOLDS[k + 1] - AUC_THRESHOLDS[k]) * (curve[k] + curve[k + 1]) / 2
        for k in range(len(AUC_THRESHOLDS) - 1)
    )
    assert auc == pytest.approx(manual / 0.5)
    assert np.all((per_stance >= 0) & (per_stance <= 1))
