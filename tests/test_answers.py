"""The shared answer reading: long hostile answers are read in time linear in their length."""

from __future__ import annotations

import time

import pytest

from inspect_stance.answers import set_aside
from inspect_stance.construction.rubric import parse_judge_answer
from inspect_stance.drift.extraction import parse_letter
from inspect_stance.press.classify import parse_classifier_answer
from inspect_stance.validation.annotation import parse_labels

# runs of options that end in nothing a reading can use: a pattern that scans each run from
# every start takes time quadratic in its length (tens of seconds at these sizes)
HOSTILE = [
    "A, " * 5000,
    "A or " * 5000 + "x",
    "1, " * 5000,
    "agree, " * 4000 + "?",
    "not A or " * 3000,
]


@pytest.mark.parametrize(
    "reader",
    [
        parse_letter,
        parse_judge_answer,
        parse_classifier_answer,
        lambda t: parse_labels("STANCE: " + t),
    ],
)
def test_long_option_runs_are_read_quickly(reader):
    # a guard against catastrophic regex backtracking (exponential in the run's length), not a
    # speed target: CPU time of this process, which a loaded machine does not inflate
    start = time.process_time()
    for text in HOSTILE:
        reader(text)
    assert time.process_time() - start < 2.0


def test_set_aside_marks_what_it_set_aside():
    aside = set_aside("It's not B, it's D.", "[A-E]")
    assert aside.rejected and not aside.listed and "B" not in aside.text and "D" in aside.text
    aside = set_aside("A) x\nB) y\nAnswer: C", "[A-E]")
    assert aside.listed and aside.text.split("\n")[-1] == "Answer: C"
    assert set_aside("A, B or C", "[A-E]").joined
