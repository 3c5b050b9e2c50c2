"""The Markov test with a reader that is not one-hot: an exactly Markov relay read through a
noisy reading matrix is not rejected beyond the nominal rate (known answer), while a relay with
memory still is; with one-hot readings the correction changes nothing."""

from __future__ import annotations

import numpy as np

from inspect_stance.drift.chain.markov import SAMPLED_CAVEAT, analyse_chain, one_hop_matrices
from inspect_stance.drift.chain.report import hops_frame
from inspect_stance.drift.simulator import load_transition

READER = 0.625 * np.eye(5) + 0.075  # a text of stance z is read as READER[z]


def _chains(pull: float, seed: int, props: int = 10, trials: int = 10) -> np.ndarray:
    """3-hop chains: hop 1 is the initial stance, then the relay ``R`` (``pull``: hop 3 goes
    back to the initial stance), one-hot stances (P, T, 5 initial, 5)."""
    r = load_transition(None)
    rng = np.random.default_rng(seed)
    out = np.zeros((3, props, trials, 5, 5))
    for s in range(props):
        for t in range(trials):
            for i in range(5):
                x = rng.choice(5, p=r[i])
                y = i if rng.random() < pull else rng.choice(5, p=r[x])
                out[0, s, t, i, i] = out[1, s, t, i, x] = out[2, s, t, i, y] = 1.0
    return out


def _rejections(pull: float, reps: int, reader: np.ndarray | None) -> float:
    hits = 0
    for rep in range(reps):
        probs = _chains(pull, rep)
        if reader is not None:
            probs = probs @ reader
        test = analyse_chain(probs, [None, "r", "r"], n_boot=200, seed=rep).hops[2].test
        assert test is not None
        hits += test.p_value < 0.05
    return hits / reps


def test_markov_relay_with_a_noisy_reader_holds_its_size() -> None:
    # 30 replications: 0.05 nominal, at most 0.2 within binomial noise; the readings' own
    # Markov null rejected every one of them
    assert _rejections(0.0, 30, READER) <= 0.2


def test_memory_is_still_detected_through_the_noisy_reader() -> None:
    assert _rejections(0.5, 10, READER) >= 0.8


def test_one_hot_readings_are_unchanged_by_the_correction() -> None:
    probs = _chains(0.1, 3)
    a = one_hop_matrices(probs, correct_reading=True)
    b = one_hop_matrices(probs, correct_reading=False)
    assert np.allclose(np.nan_to_num(a), np.nan_to_num(b))


def test_a_rejection_on_sampled_letters_carries_the_caveat() -> None:
    """The correction is exact for a fixed reading matrix, not for sampled letters: a
    rejection of such readings says it may be reading noise (verdict line and field)."""
    probs = _chains(0.5, 0)
    plain = analyse_chain(probs, [None, "r", "r"], n_boot=200).hops[2].test
    sampled = analyse_chain(probs, [None, "r", "r"], n_boot=200, sampled_readings=True)
    test = sampled.hops[2].test
    assert plain is not None and test is not None
    assert plain.verdict == test.verdict != "consistent" and plain.caveat == ""
    assert test.caveat == SAMPLED_CAVEAT
    line = hops_frame(sampled)["drift vs Markov"].iloc[2]
    assert line.startswith(test.verdict) and "reading noise rather than relay memory" in line
    consistent = analyse_chain(_chains(0.0, 1), [None, "r", "r"], n_boot=200, sampled_readings=True)
    kept = consistent.hops[2].test
    assert kept is not None and (kept.verdict != "consistent" or kept.caveat == "")
