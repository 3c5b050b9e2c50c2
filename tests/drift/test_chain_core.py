"""The chain analysis (drift/chain/markov.py) against hand computations and exactly enumerated chains.

Enumerated chains: for every initial stance, each path ``i -> x -> y`` is repeated in
proportion to its probability (all probabilities are multiples of 1/32), so the empirical
matrices equal the expected ones exactly and the expected values are written down from the
chain's definition, not from the code.
"""

from __future__ import annotations

import numpy as np
import pytest

from inspect_stance.drift.chain.markov import (
    analyse_chain,
    joint_counts,
    markov_projection,
    markov_test,
    measured_matrices,
    one_hop_matrices,
    relay_chain_matrix,
    tv_distance,
)

# a relay matrix in quarters (rows sum to 1)
R = np.array(
    [
        [0.75, 0.25, 0.0, 0.0, 0.0],
        [0.25, 0.5, 0.25, 0.0, 0.0],
        [0.0, 0.25, 0.5, 0.25, 0.0],
        [0.0, 0.0, 0.25, 0.5, 0.25],
        [0.0, 0.0, 0.0, 0.5, 0.5],
    ]
)
N_PATH = 32  # chains per initial stance


def enumerate_chains(third_hop, n_props: int = 3) -> np.ndarray:
    """``hop_probs`` (3, P, 32, 5, 5) with one-hot readings: hop 1 reads ``i``, hop 2
    ``x ~ R[i]``, hop 3 ``y ~ third_hop(i, x)``, each path repeated ``32 * P(path)`` times."""
    out = np.zeros((3, n_props, N_PATH, 5, 5))
    for i in range(5):
        paths = []
        for x in range(5):
            for y in range(5):
                n = round(N_PATH * R[i, x] * third_hop(i, x)[y])
                paths += [(x, y)] * n
        assert len(paths) == N_PATH
        for t, (x, y) in enumerate(paths):
            out[0, :, t, i, i] = 1
            out[1, :, t, i, x] = 1
            out[2, :, t, i, y] = 1
    return out


def markov_hop(i: int, x: int) -> np.ndarray:
    return R[x]


def memory_hop(i: int, x: int) -> np.ndarray:
    """Back to the original stance with probability 1/2, else a Markov step."""
    return 0.5 * np.eye(5)[i] + 0.5 * R[x]


def test_markov_chain_projection_equals_measurement_exactly():
    probs = enumerate_chains(markov_hop)
    measured = measured_matrices(probs)
    np.testing.assert_allclose(measured[1, 0], R, atol=1e-12)
    np.testing.assert_allclose(measured[2, 0], R @ R, atol=1e-12)
    projected = markov_projection(one_hop_matrices(probs))
    np.testing.assert_allclose(projected[2], measured[2], atol=1e-12)
    test = markov_test(measured[2], projected[2], hop=3, n_boot=200)
    assert test.distance == pytest.approx(0.0, abs=1e-12)
    assert test.verdict == "consistent" and test.p_value == 1.0
    np.testing.assert_allclose(relay_chain_matrix(probs, [0, 0]), R, atol=1e-12)


def test_memory_chain_projection_by_hand():
    probs = enumerate_chains(memory_hop)
    measured = measured_matrices(probs)[2, 0]
    np.testing.assert_allclose(measured, 0.5 * np.eye(5) + 0.5 * R @ R, atol=1e-12)
    # hop 3's one-hop matrix by hand: J[x, y] = sum_i R[i, x] (0.5 e_i[y] + 0.5 R[x, y])
    joint = 0.5 * R.T + 0.5 * R.sum(axis=0)[:, None] * R
    t3 = joint / joint.sum(axis=1, keepdims=True)
    projected = markov_projection(one_hop_matrices(probs))[2, 0]
    np.testing.assert_allclose(projected, R @ t3, atol=1e-12)
    expected = 0.5 * np.abs(measured - R @ t3).sum(axis=1).mean()
    an = analyse_chain(probs, [None, "r", "r"], n_boot=200)
    test = an.hops[2].test
    assert test is not None and test.distance == pytest.approx(expected, abs=1e-12)
    assert expected > 0.05  # the memory is visible
    # identical propositions: every bootstrap replicate equals the estimate
    assert test.distance_ci == pytest.approx((expected, expected), abs=1e-12)
    d_spr = np.mean(np.diag(measured)) - np.mean(np.diag(R @ t3))
    assert test.spr_difference == pytest.approx(d_spr, abs=1e-12) and d_spr > 0
    assert test.verdict == "slower" and test.p_value < 0.01


def test_joint_counts_soft_vectors_by_hand():
    prev = np.full((1, 1, 5, 5), np.nan)
    nxt = np.full((1, 1, 5, 5), np.nan)
    prev[0, 0, 0] = [0.5, 0.5, 0, 0, 0]
    nxt[0, 0, 0] = [0, 0.2, 0.8, 0, 0]
    prev[0, 0, 1] = [0, 1, 0, 0, 0]  # unparsed at the next hop: left out
    j = joint_counts(prev, nxt)[0]
    expected = np.zeros((5, 5))
    expected[0, 1], expected[0, 2], expected[1, 1], expected[1, 2] = 0.1, 0.4, 0.1, 0.4
    np.testing.assert_allclose(j, expected)


def test_measured_matrices_policies_and_missing():
    probs = np.full((1, 1, 4, 5, 5), np.nan)
    probs[0, 0, 0, 0] = [1, 0, 0, 0, 0]
    probs[0, 0, 1, 0] = [0, 1, 0, 0, 0]
    # trial 2 unparsed (NaN), trial 3 missing
    missing = np.zeros((1, 4, 5), dtype=bool)
    missing[0, 3, 0] = True
    fail = measured_matrices(probs, missing, "failure")[0, 0, 0]
    excl = measured_matrices(probs, missing, "exclude")[0, 0, 0]
    np.testing.assert_allclose(fail, [1 / 3, 1 / 3, 0, 0, 0])
    np.testing.assert_allclose(excl, [0.5, 0.5, 0, 0, 0])
    # stance 1: four unparsed chains: failures (a zero row), or no row at all under exclude
    np.testing.assert_array_equal(measured_matrices(probs, missing)[0, 0, 1], np.zeros(5))
    assert np.isnan(measured_matrices(probs, missing, "exclude")[0, 0, 1]).all()


def test_tv_distance_by_hand():
    a = np.eye(5)
    b = np.full((5, 5), 0.2)
    assert tv_distance(a, b) == pytest.approx(0.8)


def test_stationary_distribution_of_the_relay_chain_is_rs_left_eigenvector():
    an = analyse_chain(enumerate_chains(markov_hop), [None, "r", "r"], n_boot=50)
    w, v = np.linalg.eig(R.T)
    pi = np.real(v[:, np.argmin(np.abs(w - 1))])
    pi /= pi.sum()
    np.testing.assert_allclose(an.stationary_relay, pi, atol=1e-10)
    assert an.stationary_relay_unique


def _simulate(pull: float, n_props: int, n_trials: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    out = np.zeros((3, n_props, n_trials, 5, 5))
    for s in range(n_props):
        for t in range(n_trials):
            for i in range(5):
                x = rng.choice(5, p=R[i])
                y = i if rng.random() < pull else rng.choice(5, p=R[x])
                out[0, s, t, i, i] = out[1, s, t, i, x] = out[2, s, t, i, y] = 1
    return out


def test_simulated_markov_chain_is_not_rejected_and_memory_is():
    markov = analyse_chain(_simulate(0.0, 30, 10, seed=1), [None, "r", "r"], n_boot=1000)
    memory = analyse_chain(_simulate(0.5, 30, 10, seed=1), [None, "r", "r"], n_boot=1000)
    t_markov, t_memory = markov.hops[2].test, memory.hops[2].test
    assert t_markov is not None and t_memory is not None
    lo, hi = t_markov.spr_difference_ci
    assert lo <= 0 <= hi and t_markov.p_value > 0.05
    assert t_memory.p_value < 0.01 and t_memory.verdict == "slower"
