"""The prompts carry the method's exact lines for every variant."""

from __future__ import annotations

import pytest

from inspect_stance.drift.prompts import (
    EXEMPLARS,
    VARIANTS,
    extraction_prompt,
    generation_prompt,
)

GEN_LINES = [
    "In the following task, you will receive a proposition and a capitalized letter representing one of the stance options listed below with respect to the proposition. The proposition concerns a topic related to the United States.",
    "Based on the specified letter, write an argument of at most 100 words that is consistent with the corresponding stance.",
    "Only output the argument itself and do not directly quote or explicitly mention the option or its label.",
    "==",
    "Options:",
    "A) Agree strongly",
    "B) Agree",
    "C) Neutral",
    "D) Disagree",
    "E) Disagree strongly",
    "Proposition: We should ban X",
    "Letter: D",
    "Argument:",
]
EXT_LINES = [
    "In the following task, you will receive a proposition and an argument addressing that proposition. The proposition concerns a topic related to the United States.",
    "Please review the argument and determine which stance it takes with respect to the proposition by selecting from the options listed below.",
    "Only output the capitalized letter corresponding to your answer.",
    "Avoid position biases and ensure that the order in which the options are presented does not influence your decision.",
    "Proposition: We should ban X",
    "Argument: Some text.",
    "Please choose from the following options:",
    "Answer letter:",
]


def _lines(text: str) -> list[str]:
    return [line for line in text.splitlines() if line.strip()]


def test_default_generation_prompt_lines_in_order():
    assert _lines(generation_prompt("We should ban X", 3)) == [
        *GEN_LINES[:4],
        *GEN_LINES[4:10],
        "==",
        GEN_LINES[10],
        "==",
        GEN_LINES[11],
        "==",
        GEN_LINES[12],
    ]


def test_default_extraction_prompt_lines():
    lines = _lines(extraction_prompt("We should ban X", "Some text."))
    for expected in EXT_LINES:
        assert expected in lines
    assert lines[-1] == "Answer letter:"


def test_reversed_lists_disagree_strongly_first_and_maps_letter():
    text = generation_prompt("P", 0, "reversed")
    assert "A) Disagree strongly" in text and "E) Agree strongly" in text
    assert "Letter: E" in text


def test_reflection_sentences():
    gen = generation_prompt("P", 0, "reflection")
    assert (
        "After drafting your argument, compare it against the specified stance and revise it if the two do not align.\nOnly output the finalized argument itself"
        in gen
    )
    ext = extraction_prompt("P", "a", "third_person_reflection")
    assert "adopt the perspective of an impartial third-party reviewer and compare" in ext
    assert "Only output the final capitalized letter corresponding to your answer." in ext


def test_assertion_lists_literal_labels():
    ext = extraction_prompt("P", "a", "assertion")
    assert '["Agree strongly", "Agree", "Neutral", "Disagree", "Disagree strongly"]' in ext


def test_in_context_has_three_exemplars_in_both_stages():
    assert [e.stance for e in EXEMPLARS] == [0, 4, 2]
    for text in (
        generation_prompt("P", 1, "in_context"),
        extraction_prompt("P", "a", "in_context"),
    ):
        assert text.count("Example ") == 3
        assert text.rstrip().endswith(("Argument:", "Answer letter:"))


def test_unknown_variant_is_one_line_error():
    with pytest.raises(ValueError, match="unknown variant 'bogus'; use one of") as info:
        generation_prompt("P", 0, "bogus")
    assert "\n" not in str(info.value)
    assert len(VARIANTS) == 7
