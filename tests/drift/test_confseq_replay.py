"""Anytime-valid confidence sequences: against the confseq package, coverage by simulation,
and the adaptive replay on known data."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from scipy import stats

from inspect_stance.drift.adaptive.confseq import AdaptiveRule, eb_cs, first_stop, stop_reason
from inspect_stance.drift.adaptive.replay import replay, t_upper

REF = Path(__file__).resolve().parents[3] / "shared" / "data" / "stance_drift_reference"


def _confseq():
    """``confseq`` where it is installed (it still uses ``np.float_``, removed in numpy 2)."""
    if not hasattr(np, "float_"):
        np.float_ = np.float64  # type: ignore[attr-defined]
    return pytest.importorskip("confseq.predmix")


@pytest.mark.parametrize("kind", ["beta", "bernoulli", "ones", "zeros", "uniform"])
def test_equals_confseq_package(kind: str) -> None:
    predmix = _confseq()
    rng = np.random.default_rng(4)
    x = {
        "beta": rng.beta(2, 5, 300),
        "bernoulli": (rng.random(200) < 0.9).astype(float),
        "ones": np.ones(100),
        "zeros": np.zeros(60),
        "uniform": rng.random(50),
    }[kind]
    for alpha in (0.05, 0.2):
        lo, hi = predmix.predmix_empbern_twosided_cs(x, alpha=alpha, running_intersection=True)
        ours_lo, ours_hi = eb_cs(x, alpha)
        np.testing.assert_allclose(ours_lo, lo, atol=1e-12)
        np.testing.assert_allclose(ours_hi, hi, atol=1e-12)


def test_vectorised_rows_equal_one_at_a_time() -> None:
    x = np.random.default_rng(0).random((3, 4, 40))
    lo, hi = eb_cs(x, 0.1)
    lo1, hi1 = eb_cs(x[2, 1], 0.1)
    np.testing.assert_array_equal(lo[2, 1], lo1)
    np.testing.assert_array_equal(hi[2, 1], hi1)


def _paths(rng: np.random.Generator, n_paths: int, n: int) -> tuple[np.ndarray, np.ndarray]:
    """Cells like the reference data: per-path means from a U-shaped Beta, values drawn around
    them (Beta with that mean), so each path's true mean is known."""
    mu = rng.beta(0.7, 0.7, n_paths)
    conc = 3.0
    x = rng.beta(mu[:, None] * conc + 1e-3, (1 - mu[:, None]) * conc + 1e-3, (n_paths, n))
    mean = (mu * conc + 1e-3) / (conc + 2e-3)
    return x, mean


def test_anytime_coverage_by_simulation() -> None:
    """Known answer: the share of paths whose sequence ever excludes the true mean, over 200
    looks, stays below alpha; a fixed-n t-interval looked at after every wave of 10 does not
    keep its level (the reason for a sequence). Reduced size; the full one:
    benchmarks/adaptive_replay.py --coverage."""
    rng = np.random.default_rng(12)
    alpha = 0.1
    x, mean = _paths(rng, 3000, 200)
    lo, hi = eb_cs(x, alpha)
    ever_out = ((lo > mean[:, None]) | (hi < mean[:, None])).any(axis=1)
    assert ever_out.mean() <= alpha
    looks = np.arange(10, 201, 10)
    t_out = np.zeros(x.shape[0], dtype=bool)
    for n in looks:
        head = x[:, :n]
        half = stats.t.ppf(1 - alpha / 2, n - 1) * head.std(axis=1, ddof=1) / np.sqrt(n)
        t_out |= np.abs(head.mean(axis=1) - mean) > half
    assert t_out.mean() > 1.5 * alpha


def test_stopping_rule_and_first_stop() -> None:
    reasons = stop_reason(
        np.array([0.5, 0.5, 1.0]), np.array([0.46, 0.1, 0.7]), np.array([0.54, 0.9, 1.0]), 0.05
    )
    assert list(reasons) == ["halfwidth", "below_one", ""]
    rule = AdaptiveRule(halfwidth=0.05, max_trials=100)
    assert rule.checkpoints() == list(range(10, 101, 10))
    used, why = first_stop(np.vstack([np.zeros(100), np.ones(100)]), rule)
    # all zeros: the upper bound leaves 1 quickly; all ones: nothing below 1, and the
    # half-width of the EB sequence is about log(2/alpha) / (t/2) > 0.05 at t = 100
    assert why[0] == "below_one" and used[0] == 10
    assert why[1] == "max_trials" and used[1] == 100


def test_t_upper_matches_hand_formula() -> None:
    x = np.random.default_rng(2).random((4, 30))
    n = np.array([5, 10, 30, 5])
    got = t_upper(x, n, 0.99)
    for r in range(4):
        h = x[r, : n[r]]
        want = h.mean() + stats.t.ppf(0.99, n[r] - 1) * h.std(ddof=1) / np.sqrt(n[r])
        assert got[r] == pytest.approx(want, rel=1e-12)


def test_replay_on_known_cells() -> None:
    """Cells of constant values: every order gives the same stop, so the figures are known."""
    x = np.zeros((4, 100, 5))
    x[:, :, 0] = 1.0  # stance 0 always preserved
    x[:, :, 1] = 0.0  # stance 1 never
    x[:, :50, 2] = 1.0  # half and half
    x[:, :, 3] = 0.0
    x[:, :, 4] = 0.0
    res = replay(x, AdaptiveRule(halfwidth=0.05, max_trials=100), orders=30, seed=1)
    assert res.coverage == 1.0
    assert res.reasons["max_trials"] == pytest.approx(0.2)  # the always-1 cells run out
    # the always-0 cells stop at 10; the mixed cells as soon as their upper bound is below 1
    assert res.share_used < 0.2 * 1.0 + 0.6 * 0.1 + 0.2 * 1.0
    assert res.changed_t_bound == 0.0  # all-ones reach 1 with any n; the rest never do


def test_decide_without_kept_values_runs_to_the_most() -> None:
    from inspect_stance.drift.adaptive.rule import decide, rule_for

    rule = rule_for(0.1, 20, unparsed="exclude")
    unparsed = [{"trial": t, "probs": None} for t in range(10)]
    assert decide(unparsed, 0, rule)["stop_reason"] is None
    more = unparsed + [{"trial": t, "probs": None} for t in range(10, 20)]
    assert decide(more, 0, rule)["stop_reason"] == "max_trials"
    # under failure the same trials are zeros: the upper bound leaves 1 at once
    assert decide(unparsed, 0, rule_for(0.1, 20))["stop_reason"] == "below_one"
