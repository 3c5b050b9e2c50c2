"""The planner's assurance: a known-answer simulation (normal propositions, known variances)
in which the share of studies whose realised SE(SPR) meets the target is about the assurance
(the point prediction meets it only about half the time), and the command's line for it."""

from __future__ import annotations

import math

import numpy as np
import pytest

from inspect_stance.cli import main as cli_main
from inspect_stance.drift.planning.design import cheapest, prob_se_below, se_prediction_range
from inspect_stance.drift.planning.variance import decompose

SD_P, SD_E, K = 0.1, 0.2, 5
TARGET = 0.015
REPS = 300


def _draw(rng: np.random.Generator, p: int, t: int) -> np.ndarray:
    props = 0.5 + SD_P * rng.standard_normal((p, 1, 1))
    return props + SD_E * rng.standard_normal((p, t, K))


def _share_met(assurance: float | None) -> float:
    rng = np.random.default_rng(11)
    met = 0
    for _ in range(REPS):
        vc = decompose(_draw(rng, 30, 10))
        d = cheapest(vc, 2.0, 10_000, 4, target_se=TARGET, assurance=assurance)
        assert d is not None
        means = _draw(rng, d.propositions, d.trials).mean(axis=(1, 2))
        met += means.std(ddof=1) / math.sqrt(d.propositions) <= TARGET
    return met / REPS


@pytest.mark.slow
def test_assured_design_meets_the_target_with_its_probability() -> None:
    noise = 3 * math.sqrt(0.8 * 0.2 / REPS)
    assert abs(_share_met(0.8) - 0.8) < noise
    assert _share_met(None) < 0.8 - noise  # the point prediction: about half


def test_probability_and_range_are_monotone() -> None:
    vc = decompose(_draw(np.random.default_rng(1), 30, 10))
    probs = [prob_se_below(vc, TARGET, p, 4) for p in (50, 100, 200, 400)]
    assert probs == sorted(probs) and probs[-1] > 0.99
    lo, hi = se_prediction_range(vc, 100, 4)
    assert lo < math.sqrt(vc.spr_variance(100, 4)) < hi


def test_plan_prints_the_probability(capsys, tmp_path) -> None:
    rng = np.random.default_rng(2)
    x = np.clip(_draw(rng, 20, 10), 0, 1)
    probs = np.zeros((20, 10, K, K))
    probs[:, :, np.arange(K), np.arange(K)] = x
    probs[:, :, np.arange(K), (np.arange(K) + 1) % K] = 1 - x
    path = tmp_path / "pilot.npz"
    np.savez(path, probs=probs)
    assert cli_main(["plan", str(path), "--target-se", "0.03", "--assurance", "0.9"]) == 0
    out = capsys.readouterr().out
    assert "assurance 0.9" in out and "probability its realised SE" in out
