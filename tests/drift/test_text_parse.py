"""The text parse of extraction answers: negated mentions, lower-case bracketed letters, and
answers whose letter and written label disagree (answers quoted from real model output)."""

from __future__ import annotations

import pytest

from inspect_stance.drift.extraction import (
    extract,
    label_mismatch,
    parse_letter,
    record_label_mismatches,
    stated_label,
)
from inspect_stance.stances import DEFAULT_ORDER, REVERSED_ORDER


@pytest.mark.parametrize(
    ("text", "letter"),
    [
        # negated mentions are not answers
        ("You chose a chance, but Choice C was not a decision provided to you.", None),
        ("I would not choose B.", None),
        ("I wouldn't pick A", None),
        ("Option D is not right", None),
        # ... and the next mention is read instead
        ("I would not choose B; I choose C.", "C"),
        # a lower-case letter with a bracket is a clear answer
        ("c) Highly", "C"),
        ("b) Agree", "B"),
        ("(e) Disagree strongly", "E"),
        ("OPT: D)", "D"),
        ("Answer: (d)", "D"),
        ("My option is e)", "E"),
        ("Answer: (d) is not right; answer: (b)", "B"),
        ("There are two reasons: a) cost and b) time", None),  # an enumeration in prose
        # unchanged forms
        ("I choose C.", "C"),
        ("Answer: Agree (B)", "B"),
        ("**A** - Neutral", "A"),
        ("A balanced argument", None),
        ("answer: e", None),
        ("The answer is not A", None),
    ],
)
def test_parse_letter_cases(text, letter):
    assert parse_letter(text) == letter


def test_lower_case_bracket_answer_is_read_at_its_token():
    import math

    tops = [[("c", math.log(0.7)), ("b", math.log(0.3))], [(")", 0.0)], [(" High", 0.0)]]
    result = extract("c) Highly", ["c", ")", " Highly"], tops)
    assert result.letter == "C" and result.estimator == "logprobs" and result.answer_index == 0
    assert result.vector == pytest.approx((0, 0.3, 0.7, 0, 0))


@pytest.mark.parametrize(
    ("text", "order", "label", "mismatch"),
    [
        ("A) Disagree", (2, 0, 1, 3, 4), 3, True),  # A lists Neutral: letter and label disagree
        ("A) Neutral", (2, 0, 1, 3, 4), 2, False),
        ("b) Agree", DEFAULT_ORDER, 1, False),
        ("D) Disagree strongly", DEFAULT_ORDER, 4, True),  # longest label first
        ("D) Disagree", DEFAULT_ORDER, 3, False),
        ("A) Disagree strongly", REVERSED_ORDER, 4, False),
        ("Neutral (A)", DEFAULT_ORDER, 2, True),
        ("**B**: agree", DEFAULT_ORDER, 1, False),
        ("c) Highly", DEFAULT_ORDER, None, False),  # not a label
        ("A\n\nNeutral arguments are rare", DEFAULT_ORDER, None, False),  # another line
        ("I refuse", DEFAULT_ORDER, None, False),  # unparsed: nothing to compare
    ],
)
def test_letter_and_label(text, order, label, mismatch):
    letter = parse_letter(text)
    assert (None if letter is None else stated_label(text, letter)) == label
    assert label_mismatch(text, order) is mismatch


def test_record_mismatches_from_flags_or_recomputed_for_old_records():
    assert record_label_mismatches({"label_mismatch": [True, False, True]}) == 2
    old = {"answers": ["A) Disagree", "B) Agree"], "orders": [[0, 1, 2, 3, 4]] * 2}
    assert record_label_mismatches(old) == 1
    assert record_label_mismatches({}) == 0
