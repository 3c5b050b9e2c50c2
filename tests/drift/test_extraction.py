"""Letter parsing and the logprob / frequency estimators."""

from __future__ import annotations

import math

import pytest

from inspect_stance.drift.extraction import extract, parse_letter, to_stance_order
from inspect_stance.stances import REVERSED_ORDER


@pytest.mark.parametrize(
    ("text", "letter"),
    [
        ("B", "B"),
        (" C)", "C"),
        ("(D) Disagree", "D"),
        ("**E**", "E"),
        ("Answer letter: A", "A"),
        ("The answer is B.", "B"),
        ("A balanced argument", None),
        ("I cannot tell.", None),
        ("", None),
    ],
)
def test_parse_letter(text, letter):
    assert parse_letter(text) == letter


def test_logprob_estimator_sums_letter_variants_and_renormalises():
    tops = [
        [("ĠB", math.log(0.5)), ("B", math.log(0.2)), ("▁c", math.log(0.1)), ("The", math.log(0.2))]
    ]
    result = extract("B", ["ĠB"], tops)
    assert result.estimator == "logprobs"
    # B: 0.7, C: 0.1 -> renormalised over 0.8
    assert result.vector == pytest.approx((0.0, 0.875, 0.125, 0.0, 0.0))


def test_answer_token_is_first_letter_token():
    tokens = ["**", "D", "**"]
    tops = [[("**", -0.1)], [("D", math.log(0.9)), ("E", math.log(0.1))], [("**", -0.1)]]
    result = extract("**D**", tokens, tops)
    assert result.vector == pytest.approx((0, 0, 0, 0.9, 0.1))


def test_frequency_fallback_and_unparsed():
    freq = extract("C", None, None)
    assert freq.estimator == "frequency" and freq.vector == (0, 0, 1, 0, 0)
    # logprobs present but without letter mass -> falls back to the parsed letter
    fb = extract("C", ["x"], [[("x", -0.1)]])
    assert fb.estimator == "frequency"
    none = extract("I refuse", ["I"], [[("I", -0.1)]])
    assert none.unparsed and none.estimator is None


def test_reversed_order_maps_back_to_stances():
    # letter A in reversed order is Disagree strongly (stance 4)
    assert to_stance_order([1, 0, 0, 0, 0], REVERSED_ORDER) == [0, 0, 0, 0, 1]


@pytest.mark.parametrize(
    ("text", "letter"),
    [
        ("Option: B", "B"),
        ("I choose C.", "C"),
        ("Answer: Agree (B)", "B"),
        ("b", "B"),
        ("The answer is a good one", None),
        ("answer: e", None),
    ],
)
def test_parse_letter_more_forms(text, letter):
    assert parse_letter(text) == letter


def test_article_a_is_not_the_answer_token():
    tokens = ["This", " is", " a", " strong", " argument", ".", " Answer", ":", " B"]
    tops = [[("x", -1.0)] for _ in tokens]
    tops[2] = [(" a", math.log(0.9)), (" an", math.log(0.1))]
    tops[8] = [(" B", math.log(0.75)), (" C", math.log(0.25))]
    result = extract("This is a strong argument. Answer: B", tokens, tops)
    assert result.letter == "B"
    assert result.vector == pytest.approx((0, 0.75, 0.25, 0, 0))


def test_logprobs_without_alternatives_are_not_a_logprob_estimate():
    # a provider that returns only the chosen token's logprob: no distribution to read
    result = extract("C", ["C"], [[]])
    assert result.estimator == "frequency"
