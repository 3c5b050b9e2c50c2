"""The neutral distance difference ``mean(|lean_T| - |lean_G|)`` from per-setting PPI leans:
its interval covers near 0 (where ``|estimate|`` is biased upward) and away from it."""

from __future__ import annotations

import numpy as np
import pytest

from inspect_stance.stats.ppi import PPIEstimate, distance_difference


def _est(mu: float, se: float) -> PPIEstimate:
    return PPIEstimate(mu, se, mu - 1.96 * se, mu + 1.96 * se, 10, 10, 1.0)


def coverage(lean_t: float, lean_g: float, se_t: float, se_g: float, settings: int,
             reps: int, seed: int = 0) -> float:  # fmt: skip
    """Share of ``reps`` draws (each lean ~ Normal(true, se)) whose interval covers the true
    ``|lean_T| - |lean_G|``."""
    rng = np.random.default_rng(seed)
    truth = abs(lean_t) - abs(lean_g)
    hits = 0
    for k in range(reps):
        t = [_est(v, se_t) for v in rng.normal(lean_t, se_t, settings)]
        g = [_est(v, se_g) for v in rng.normal(lean_g, se_g, settings)]
        _, low, high = distance_difference(t, g, draws=4000, seed=k)
        hits += low <= truth <= high
    return hits / reps


@pytest.mark.parametrize(
    ("lean_t", "lean_g", "se_t", "se_g", "settings"),
    [
        (0.0, 0.0, 0.1, 0.3, 18),
        (0.4, 0.1, 0.15, 0.15, 18),
        (0.0, 0.0, 0.1, 0.3, 1),
        (0.0, 0.4, 0.3, 0.1, 18),
    ],
)
def test_distance_difference_covers(lean_t, lean_g, se_t, se_g, settings):
    # 200 draws: a true 95 % coverage falls below 0.91 with probability < 1 %
    assert coverage(lean_t, lean_g, se_t, se_g, settings, 200) >= 0.91
