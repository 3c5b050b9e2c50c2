"""Statistics core of stance drift, against hand computations and the published figures."""

from __future__ import annotations

import numpy as np
import pytest

from inspect_stance.drift.metrics.patterns import (
    PATTERN_CELLS,
    PATTERNS,
    drift_patterns,
    stance_drift_rate,
)
from inspect_stance.drift.metrics.spr import stance_preservation_rate, success_by_stance
from inspect_stance.drift.transition import (
    argmax_trials,
    check_probs,
    transition_matrices,
    unparsed_mask,
)


def _random_probs(rng: np.random.Generator, p: int = 6, t: int = 7) -> np.ndarray:
    return rng.dirichlet(np.ones(5) * 0.7, size=(p, t, 5))


def test_transition_matrix_is_mean_over_trials_by_hand():
    probs = np.zeros((1, 2, 5, 5))
    probs[0, 0] = np.eye(5)
    probs[0, 1] = np.eye(5)[[1, 1, 2, 3, 3]]
    matrix = transition_matrices(probs)[0]
    assert matrix[0, 0] == 0.5 and matrix[0, 1] == 0.5
    assert matrix[2, 2] == 1.0
    assert matrix[4, 4] == 0.5 and matrix[4, 3] == 0.5


def test_spr_and_success_by_hand():
    # two propositions; diagonals chosen by hand
    m = np.zeros((2, 5, 5))
    d1 = np.array([1.0, 0.5, 0.5, 0.0, 1.0])
    d2 = np.array([0.0, 0.5, 1.0, 1.0, 1.0])
    for s, d in enumerate((d1, d2)):
        for i in range(5):
            m[s, i, i] = d[i]
            m[s, i, (i + 1) % 5] = 1 - d[i]
    succ, se = success_by_stance(m)
    np.testing.assert_allclose(succ, (d1 + d2) / 2)
    # SE over two values a, b: |a - b| / 2
    np.testing.assert_allclose(se, np.abs(d1 - d2) / 2)
    spr, spr_se = stance_preservation_rate(m)
    assert spr == pytest.approx((d1.mean() + d2.mean()) / 2)
    assert spr_se == pytest.approx(abs(d1.mean() - d2.mean()) / 2)


def test_patterns_partition_off_diagonal_and_sdr_identity():
    cells = [c for name in PATTERNS for c in PATTERN_CELLS[name]]
    assert len(cells) == len(set(cells)) == 20
    assert all(i != j for i, j in cells)
    rng = np.random.default_rng(1)
    m = transition_matrices(_random_probs(rng))
    total = sum(v[0] for v in drift_patterns(m).values())
    spr, _ = stance_preservation_rate(m)
    assert stance_drift_rate(m)[0] == pytest.approx(total)
    assert total == pytest.approx(1 - spr)


def test_pattern_mass_by_hand():
    m = np.zeros((1, 5, 5))
    m[0] = np.eye(5)
    m[0, 1] = [0.3, 0.7, 0, 0, 0]  # polarization 0.3
    m[0, 0] = [0.6, 0.2, 0, 0.2, 0]  # moderation 0.2, flipping 0.2
    m[0, 2] = [0, 0.1, 0.8, 0.1, 0]  # deviation 0.2
    m[0, 4] = [0, 0, 0.4, 0, 0.6]  # moderation_to_neutral 0.4
    pat = drift_patterns(m)
    assert pat["polarization"][0] == pytest.approx(0.3 / 5)
    assert pat["moderation"][0] == pytest.approx(0.2 / 5)
    assert pat["flipping"][0] == pytest.approx(0.2 / 5)
    assert pat["deviation_from_neutrality"][0] == pytest.approx(0.2 / 5)
    assert pat["moderation_to_neutral"][0] == pytest.approx(0.4 / 5)


def test_unparsed_policies():
    probs = np.zeros((1, 4, 5, 5))
    probs[0, :, :, :] = np.eye(5)
    probs[0, 0, 0] = np.nan  # unparsed as NaN
    probs[0, 1, 0] = 0.0  # unparsed as all-zero
    assert unparsed_mask(probs).sum() == 2
    fail = transition_matrices(probs, "failure")[0]
    excl = transition_matrices(probs, "exclude")[0]
    assert fail[0, 0] == pytest.approx(0.5)
    assert excl[0, 0] == pytest.approx(1.0)
    with pytest.raises(ValueError, match="unknown unparsed policy"):
        transition_matrices(probs, "drop")


def test_argmax_point_mass_keeps_unparsed():
    probs = np.zeros((1, 1, 5, 5))
    probs[0, 0] = np.full((5, 5), 0.1)
    probs[0, 0, :, 3] = 0.6
    probs[0, 0, 4] = np.nan
    am = argmax_trials(probs)
    assert np.all(am[0, 0, :4, 3] == 1.0) and np.all(am[0, 0, :4].sum(axis=-1) == 1.0)
    assert np.isnan(am[0, 0, 4]).all()


def test_check_probs_rejects_bad_input():
    with pytest.raises(ValueError, match="shape"):
        check_probs(np.ones((3, 5, 5)))
    bad = np.full((1, 1, 5, 5), 0.3)
    with pytest.raises(ValueError, match="do not sum to 1"):
        check_probs(bad)


def test_reference_figures(shared_data):
    """Published figures of the reference GPT-4o-mini run (README of ../shared)."""
    with np.load(shared_data / "stance_drift_reference" / "gpt_4o_mini.npz") as data:
        probs = check_probs(data["probs"])
    m = transition_matrices(probs)
    succ, _ = success_by_stance(m)
    np.testing.assert_allclose(np.round(succ, 3), [0.933, 0.108, 0.717, 0.310, 0.784])
    assert round(stance_preservation_rate(m)[0], 3) == 0.570


def test_partly_nan_rows_are_rejected():
    bad = np.tile(np.eye(5), (1, 2, 1, 1))
    bad[0, 0, 0, 1] = np.nan
    with pytest.raises(ValueError, match="partly NaN"):
        check_probs(bad)


def test_npz_with_wrong_length_labels_is_rejected(tmp_path):
    from inspect_stance.drift.run import load_npz

    path = tmp_path / "x.npz"
    np.savez(path, probs=np.tile(np.eye(5), (2, 3, 1, 1)), propositions=np.array(["only one"]))
    with pytest.raises(ValueError, match=r"x.npz: 'propositions' has 1 entries for 2"):
        load_npz(path)
    junk = tmp_path / "junk.npz"
    junk.write_text("not a zip")
    with pytest.raises(ValueError, match="junk.npz"):
        load_npz(junk)
