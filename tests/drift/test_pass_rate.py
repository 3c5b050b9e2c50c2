"""Pass rate at a threshold and its normalised trapezoid AUC over thresholds 0.50..1.00."""

from __future__ import annotations

import numpy as np
import pytest

from inspect_stance.drift.pass_rate import (
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
    # Counted by hand: >= 0.95 per column; NaN left out of the denominator.
    np.testing.assert_allclose(pass_rate(succ, 0.95), [2 / 4, 3 / 4, 3 / 4, 1 / 4, 2 / 3])


def test_auc_hand_computed():
    # One proposition with success 0.75: pass = 1 at 0.50..0.75, 0 at 0.80..1.00.
    # Trapezoid: 5 full intervals (0.25) + half of 0.75->0.80 (0.025) = 0.275; / 0.5 = 0.55.
    succ = np.array([[0.75, 1.0, 0.0, 0.5, 0.82]])
    per_stance, auc = pass_rate_auc(succ)
    # stance 1: always passes -> 1; stance 2: never -> 0; stance 3: passes only at 0.50 -> half
    # of the first interval = 0.025 / 0.5 = 0.05; stance 4 (0.82): 0.50..0.80 -> 0.30 + 0.025.
    np.testing.assert_allclose(per_stance, [0.55, 1.0, 0.0, 0.05, 0.65], atol=1e-12)
    assert auc == pytest.approx(np.mean([0.55, 1.0, 0.0, 0.05, 0.65]))


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
