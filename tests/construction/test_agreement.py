"""Krippendorff's alpha and judge-human agreement against hand computations."""

from __future__ import annotations

import math

import numpy as np
import pytest

from inspect_stance.construction.agreement import NOMINAL, ORDINAL, alpha, pair_agreement


def test_ordinal_alpha_hand_case():
    # units (1,1) (2,2) (3,3) (3,4): D_o = 2 * 1 * (4/2)^2 = 8, sum n_c n_k d_ck = 624, n = 8
    # alpha = 1 - 7 * 8 / 624 = 568 / 624 (worked by hand)
    assert alpha([["1", "2", "3", "3"], ["1", "2", "3", "4"]], ORDINAL) == pytest.approx(568 / 624)


def test_nominal_alpha_hand_case():
    # units (1,1) (1,2) (2,2) (2,2): o_12 = o_21 = 1, n_1 = 3, n_2 = 5, n = 8
    # alpha = 1 - (n - 1) * 2 / (2 * 3 * 5) = 1 - 14 / 30
    assert alpha([["1", "1", "2", "2"], ["1", "2", "2", "2"]], NOMINAL) == pytest.approx(16 / 30)


def test_refusal_is_missing_for_ordinal_and_a_category_for_nominal(hand_alpha):
    a = ["1", "refusal", "3", "3", "5"]
    b = ["1", "2", "3", "4", "refusal"]
    # ordinal: refusals are missing, so only units 1, 3, 4 are pairable
    assert alpha([a, b], ORDINAL) == pytest.approx(hand_alpha([[1, 3, 3], [1, 3, 4]], ORDINAL))
    coded = [[1, 6, 3, 3, 5], [1, 2, 3, 4, 6]]
    assert alpha([a, b], NOMINAL) == pytest.approx(hand_alpha(coded, NOMINAL))


def test_alpha_matches_hand_formula_with_three_coders_and_missing_values(hand_alpha):
    rng = np.random.default_rng(3)
    matrix = rng.integers(1, 6, size=(3, 40)).astype(object)
    matrix[rng.random(matrix.shape) < 0.15] = None
    labels = [[None if v is None else str(v) for v in row] for row in matrix]
    for level in (ORDINAL, NOMINAL):
        assert alpha(labels, level) == pytest.approx(hand_alpha(matrix.tolist(), level))


def test_alpha_undefined_cases_are_nan():
    assert math.isnan(alpha([["2", "2", "2"], ["2", "2", "2"]]))  # one value only
    assert math.isnan(alpha([["2", "3"]]))  # one coder
    assert math.isnan(alpha([["2", None], [None, "3"]]))  # nothing pairable


def test_pair_agreement_exact_and_within_one():
    judges = ["1", "2", "3", "refusal", "5", "4", None]
    humans = ["1", "3", "5", "refusal", "refusal", "4", "2"]
    result = pair_agreement(judges, humans)
    # pairs (the last is dropped): exact 1,refusal,4 -> 3/6; within1 adds (2,3) -> 4/6
    assert result.n == 6
    assert result.exact == pytest.approx(3 / 6)
    assert result.within1 == pytest.approx(4 / 6)
