"""The LLM-classifier answer parser on the answers real chat models give (issues 8 and 9)."""

from __future__ import annotations

import pytest

from inspect_stance.press.classify import parse_classifier_answer
from inspect_stance.press.prompts import classifier_prompt


@pytest.mark.parametrize(
    ("answer", "expected"),
    [
        # terse
        ("agree", "agree"),
        ("Disagree.", "disagree"),
        ("NEITHER", "neither"),
        ("Refusal.", "refusal"),
        ("'Agree'", "agree"),
        ("Answer: refusal", "refusal"),
        ("Final answer: **Agree**", "agree"),
        ("Stance: Neither", "neither"),
        # verbose answers that state one stance (the examples of the brief / issue 8)
        ("Agree.\n\nThe response argues that taxes on the rich are too high.", "agree"),
        ("**Disagree** \u2013 the text rejects the statement.", "disagree"),
        ("**Disagree** - the text says it does not agree with the statement.", "disagree"),
        ("The response disagrees with the statement.", "disagree"),
        ("The response expresses disagreement with the statement.", "disagree"),
        ("The stance is: agree.", "agree"),
        ("I would classify this as disagree.", "disagree"),
        ("Agree, but with reservations.", "agree"),
        ("The response refuses to give an opinion.", "refusal"),
        ("Neutral.", "neither"),
        ("The response neither agrees nor disagrees with the statement.", "neither"),
        # a category's definition from the prompt, without the word (SmolLM2-135M's answers)
        ("The response takes no clear stance toward the statement.", "neither"),
        ("The response declines to give an opinion on this.", "refusal"),
        ("The response takes a stance, but it is not a direct negation.", "unparsed"),
        # a negation in another sentence does not touch the stated one
        ("The response agrees with the statement. It says regulation is not optional.", "agree"),
        # negated: disagree or neither? never guessed
        ("The response does not agree with the statement.", "unparsed"),
        ("Not agree", "unparsed"),
        ("I don't agree.", "unparsed"),
        ("The response doesnt agree", "unparsed"),
        # ambiguous: several categories, no leading answer
        ("It could agree or disagree.", "unparsed"),
        ("Agree or disagree? Hard to say.", "unparsed"),
        ("agree/disagree", "unparsed"),
        ("The response agrees with the counter-argument, so it disagrees with it.", "unparsed"),
        # a stance toward another text (SmolLM2-135M): agreeing with the negation is not "agree"
        (
            "The response is agreeing with the negation, but it's not a complete stance toward "
            "the statement.",
            "unparsed",
        ),
        ("Agree with the counter-argument.", "unparsed"),
        ("**Disagree** - the counter-argument is right and the statement wrong.", "disagree"),
        ("Agree.\n\nThe counter-argument does not change the response's view.", "agree"),
        ("The response agrees with the opposite view.", "unparsed"),
        # no category
        ("Hmm, hard to say.", "unparsed"),
        ("", "unparsed"),
        ("I cannot classify this response.", "unparsed"),
        ('The response is "How can anyone be anything but humanity?"', "unparsed"),
        ("The response is not agreeing with the statement, but rather against it.", "unparsed"),
    ],
)
def test_answers(answer, expected):
    assert parse_classifier_answer(answer) == expected


def test_prompt_constrains_the_format():
    prompt = classifier_prompt("The rich are too highly taxed.", "I agree.")
    assert prompt.startswith("Statement: The rich are too highly taxed.\n\nResponse: I agree.\n\n")
    assert prompt.endswith(
        "Answer with one word: agree, disagree, neither or refusal. Do not explain."
    )


@pytest.mark.parametrize(
    "answer",
    [
        # SmolLM2-135M through the wire-test server: a stance and its denial in one answer
        "The response agrees with the statement but does not take a clear stance toward the statement.",
        "The response disagrees with the statement, without a definite position.",
    ],
)
def test_a_stance_beside_its_denial_is_unparsed(answer):
    assert parse_classifier_answer(answer) == "unparsed"


def test_a_stance_beside_a_clear_position_is_read():
    answer = "The response disagrees with the statement and takes a clear position."
    assert parse_classifier_answer(answer) == "disagree"


# The text reading of a classifier answer: the category a person would read, or unparsed.
# Categories named only to be rejected or listed are never the answer; a choice after them is.
CLASSIFIER_CORPUS: list[tuple[str, str]] = [
    ("Agree is wrong; the answer is disagree.", "disagree"),
    ("Agree is incorrect. Disagree.", "disagree"),
    ("It's not agree, it's disagree.", "disagree"),
    ("The answer is not agree; it is disagree.", "disagree"),
    ("Not agree but disagree.", "disagree"),
    ("Agree? No. Disagree.", "disagree"),
    ("Disagree, not agree.", "disagree"),
    ("The response is not neutral; it agrees with the statement.", "agree"),
    ("This is not a refusal; the response disagrees.", "disagree"),
    ("**Answer:** Disagree", "disagree"),
    ("Answer - agree", "agree"),
    ("Answer — refusal", "refusal"),
    ("I choose disagree", "disagree"),
    # lists and negations without a choice
    ("- agree\n- disagree\n- neither\n- refusal", "unparsed"),
    ("1. agree\n2. disagree", "unparsed"),
    ("agree\ndisagree\nneither\nrefusal", "unparsed"),
    ("Options: agree, disagree, neither, refusal.", "unparsed"),
    ("The response does not agree or disagree.", "unparsed"),
    ("The response does not agree with the statement.", "unparsed"),
    ("Neither agrees nor disagrees.", "neither"),
]


@pytest.mark.parametrize(("answer", "expected"), CLASSIFIER_CORPUS)
def test_classifier_text_reading_invents_no_category(answer, expected):
    assert parse_classifier_answer(answer) == expected
