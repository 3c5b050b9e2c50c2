"""Frequency vs logprob estimator: the precision lost, against a known answer."""

from __future__ import annotations

import numpy as np
import pytest

from inspect_stance.drift.planning.estimators import (
    estimator_in_use,
    precision_loss,
    sampled_trials,
)


def _probs(p_diag: np.ndarray) -> np.ndarray:
    """Vectors with diagonal ``p`` and the rest on the next stance, shape ``(P, T, 5, 5)``."""
    p, t = p_diag.shape[:2]
    out = np.zeros((p, t, 5, 5))
    for i in range(5):
        out[:, :, i, i] = p_diag[:, :, i]
        out[:, :, i, (i + 1) % 5] = 1.0 - p_diag[:, :, i]
    return out


def test_sampled_letter_loss_matches_bernoulli_variance() -> None:
    """Trials alternate diagonal 0.2 / 0.8 (logprob trial variance 0.09); one letter drawn per
    trial is Bernoulli(0.5) (variance 0.25): ratio 0.25 / 0.09."""
    rng = np.random.default_rng(0)
    p, t = 6, 2000
    diag = np.where(np.arange(t)[None, :, None] % 2 == 0, 0.2, 0.8) * np.ones((p, t, 5))
    shift = rng.uniform(-0.1, 0.1, (p, 1, 5))  # proposition effects, same for both estimators
    probs = _probs(np.clip(diag + shift, 0, 1))
    loss = precision_loss(probs, how="sampled", seed=1)
    assert loss.within_ratio == pytest.approx(0.25 / 0.09, rel=0.05)
    assert loss.spr_frequency == pytest.approx(loss.spr_logprob, abs=0.01)
    assert loss.trials_to_match == pytest.approx(loss.within_ratio * t)
    assert loss.spr_variance_ratio > 1.0


def test_sampled_trials_are_one_hot_draws_with_the_vector_as_probabilities() -> None:
    probs = _probs(np.full((2, 20000, 5), 0.3))
    probs[0, 0, 0] = np.nan  # unparsed stays unparsed
    draws = sampled_trials(probs, seed=3)
    assert np.isnan(draws[0, 0, 0]).all()
    ok = draws[1]
    assert np.allclose(ok.sum(axis=-1), 1.0) and set(np.unique(ok)) == {0.0, 1.0}
    assert ok[:, np.arange(5), np.arange(5)].mean() == pytest.approx(0.3, abs=0.005)


def test_estimator_in_use() -> None:
    assert estimator_in_use({"logprobs": 96, "frequency": 4}) == "logprobs"
    assert estimator_in_use({"logprobs": 50, "frequency": 50}) == "mixed"
    assert estimator_in_use({"frequency": 10}) == "frequency"
    one_hot = np.zeros((2, 3, 5, 5))
    one_hot[..., 0] = 1.0
    assert estimator_in_use({}, one_hot) == "frequency"
    assert estimator_in_use({}, _probs(np.full((2, 3, 5), 0.6))) == "logprobs"
    assert estimator_in_use({}) == "unknown"
