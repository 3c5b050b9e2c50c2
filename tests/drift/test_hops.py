"""Multi-hop chains: T^k, SPR after k hops, stationary distributions (incl. reducible chains)."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import linalg

from inspect_stance.drift.chain.hops import (
    k_hop_matrices,
    spr_after_hops,
    stationary_distribution,
    stationary_distributions,
)


def test_k_hop_and_spr_hand_computed():
    t = np.eye(5)
    t[1] = [0.5, 0.5, 0, 0, 0]
    t2 = k_hop_matrices(t[None], 2)[0]
    np.testing.assert_allclose(t2[1], [0.75, 0.25, 0, 0, 0])
    mean, se, by_stance = spr_after_hops(t[None], 2)
    assert mean == pytest.approx((1 + 0.25 + 1 + 1 + 1) / 5)
    np.testing.assert_allclose(by_stance, [1, 0.25, 1, 1, 1])
    assert np.isnan(se)  # one proposition
    # k = 1 is the ordinary SPR
    assert spr_after_hops(t[None], 1)[0] == pytest.approx(np.trace(t) / 5)


def test_nan_rows_make_the_proposition_undefined():
    good = np.eye(5)
    bad = np.eye(5)
    bad[2] = np.nan
    out = k_hop_matrices(np.stack([good, bad]), 3)
    assert np.isnan(out[1]).all() and not np.isnan(out[0]).any()
    assert spr_after_hops(np.stack([good, bad]), 3)[0] == pytest.approx(1.0)


def test_unparsed_mass_leaks_at_every_hop():
    t = 0.9 * np.eye(5)  # 10% unparsed (failure) mass per hop
    assert spr_after_hops(t[None], 3)[0] == pytest.approx(0.9**3)


def test_stationary_irreducible_matches_left_eigenvector():
    rng = np.random.default_rng(1)
    t = rng.uniform(0.01, 1.0, (5, 5))
    t /= t.sum(axis=1, keepdims=True)
    pi, unique = stationary_distribution(t)
    null = linalg.null_space((t - np.eye(5)).T)[:, 0]
    assert unique
    np.testing.assert_allclose(pi, null / null.sum(), atol=1e-12)
    np.testing.assert_allclose(pi @ t, pi, atol=1e-12)


def test_stationary_two_state_with_tiny_probabilities():
    # Two-state chain [[1-a, a], [b, 1-b]] has pi = (b, a) / (a + b), even for tiny a, b.
    a, b = 1e-12, 2e-12
    t = np.eye(5)
    t[0, :2] = [1 - a, a]
    t[1, :2] = [b, 1 - b]
    t[2:, :] = 0
    t[2:, 0] = 1.0  # stances 2..4 move to stance 0 (transient)
    pi, unique = stationary_distribution(t)
    assert unique
    np.testing.assert_allclose(pi, [2 / 3, 1 / 3, 0, 0, 0], rtol=1e-9, atol=1e-15)


def test_stationary_reducible_chains():
    # identity: every stance is its own closed class -> the uniform start stays uniform
    pi, unique = stationary_distribution(np.eye(5))
    assert not unique
    np.testing.assert_allclose(pi, np.full(5, 0.2))
    # stances 0 and 4 absorbing; 1..3 move half to a neighbour each way (random walk).
    t = np.zeros((5, 5))
    t[0, 0] = t[4, 4] = 1.0
    for i in (1, 2, 3):
        t[i, i - 1] = t[i, i + 1] = 0.5
    pi, unique = stationary_distribution(t)
    assert not unique
    # gambler's ruin from uniform start: absorbed at 0 with prob (4 - i)/4 from stance i
    w0 = (1 + 3 / 4 + 2 / 4 + 1 / 4 + 0) / 5
    np.testing.assert_allclose(pi, [w0, 0, 0, 0, 1 - w0], atol=1e-12)
    limit = np.full(5, 0.2) @ np.linalg.matrix_power(t, 400)
    np.testing.assert_allclose(pi, limit, atol=1e-12)


def test_stationary_periodic_chain_is_cesaro_limit():
    t = np.eye(5)
    t[0] = [0, 1, 0, 0, 0]
    t[1] = [1, 0, 0, 0, 0]
    pi, unique = stationary_distribution(t)
    assert not unique  # {0,1}, {2}, {3}, {4} are closed
    np.testing.assert_allclose(pi, [0.2, 0.2, 0.2, 0.2, 0.2])


def test_substochastic_rows_are_renormalised_and_empty_rows_undefined():
    t = 0.5 * np.eye(5)
    t[0, 1] = 0.5
    pi, _ = stationary_distribution(t)
    ref, _ = stationary_distribution(t / t.sum(axis=1, keepdims=True))
    np.testing.assert_allclose(pi, ref)
    t[3] = 0.0
    pis, unique = stationary_distributions(np.stack([t, np.eye(5)]))
    assert np.isnan(pis[0]).all() and not unique[0]
    np.testing.assert_allclose(pis[1], 0.2)


def test_stationary_with_numerically_vanishing_exit():
    # From a real run: stances {0, 1} leave only with probability ~1e-17, so I - Q is singular
    # in floating point; everything still ends in the closed class {3, 4}.
    t = np.array(
        [
            [9.89025687e-01, 1.09743134e-02, 0, 0, 0],
            [2.06302555e-01, 7.93697445e-01, 2.15745952e-19, 1.58945614e-17, 0],
            [0, 0, 6.80533955e-01, 1.63486644e-01, 1.55979400e-01],
            [0, 0, 0, 5.68664188e-16, 1.00000000e00],
            [0, 0, 0, 2.85342297e-16, 1.00000000e00],
        ]
    )
    pi, unique = stationary_distribution(t)
    assert unique
    a, b = 1.0, 2.85342297e-16  # 3 -> 4 and 4 -> 3
    np.testing.assert_allclose(pi, [0, 0, 0, b / (a + b), a / (a + b)], rtol=1e-6, atol=1e-300)
