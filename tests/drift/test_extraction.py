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


# --------------------------------------------------------------------------- answer token rule
# Token sequences shaped like real tokenizers' output (GPT-2 BPE "Ġ", SentencePiece "▁", or
# plain leading spaces as OpenAI-protocol servers return them).

from inspect_stance.drift.extraction import answer_position  # noqa: E402


def _tops(n: int, at: dict[int, list[tuple[str, float]]]) -> list[list[tuple[str, float]]]:
    """Top logprobs for n tokens: a non-letter alternative everywhere, ``at[k]`` at position k
    (probabilities given, converted to logprobs)."""
    out = [[("the", math.log(0.9))] for _ in range(n)]
    for k, pairs in at.items():
        out[k] = [(t, math.log(p)) for t, p in pairs]
    return out


def test_word_starting_capital_is_not_an_answer_amarilla():
    tokens = ["A", "mar", "illa", "."]
    tops = _tops(4, {0: [("A", 0.6), ("B", 0.3), ("The", 0.1)]})
    result = extract("Amarilla.", tokens, tops)
    assert result.unparsed and result.estimator is None and result.vector is None
    assert answer_position(tokens, "A") is None


def test_word_starting_capital_is_not_an_answer_elegant():
    # " E" of " Elegant": 1.7 % letter mass among its top-5; renormalising would make it certain
    tokens = [" E", "legant", " reasoning", "."]
    tops = _tops(4, {0: [(" E", 0.017), (" The", 0.5), (" This", 0.3), (" Elegant", 0.1)]})
    assert extract("Elegant reasoning.", tokens, tops).unparsed
    assert answer_position(tokens, "E") is None
    # the same word start before a real answer: the answer is read at the real letter
    tokens = [" E", "legant", ".", " Answer", ":", " D"]
    tops = _tops(6, {0: [(" E", 0.017), (" The", 0.9)], 5: [(" D", 0.8), (" E", 0.2)]})
    result = extract("Elegant. Answer: D", tokens, tops)
    assert result.estimator == "logprobs" and result.answer_index == 5
    assert result.vector == pytest.approx((0, 0, 0, 0.8, 0.2))


def test_first_token_that_is_not_a_letter_is_never_the_answer_token():
    # "The answer is B." read at " B", not at "The" (whose alternatives carry letters)
    tokens = ["The", " answer", " is", " B", "."]
    tops = _tops(5, {0: [("The", 0.5), ("B", 0.3), ("A", 0.2)], 3: [(" B", 0.7), (" C", 0.3)]})
    result = extract("The answer is B.", tokens, tops)
    assert result.estimator == "logprobs" and result.answer_index == 3
    assert result.vector == pytest.approx((0, 0.7, 0.3, 0, 0))
    assert result.letter_mass == pytest.approx(1.0)


def test_which_prose_without_a_letter_is_unparsed_despite_letter_alternatives():
    tokens = ["Which", " stance", " fits", "?", " Hard", " to", " say", "."]
    tops = _tops(8, {0: [("Which", 0.5), ("A", 0.3), ("C", 0.2)]})
    result = extract("Which stance fits? Hard to say.", tokens, tops)
    assert result.unparsed and result.letter_mass is None


@pytest.mark.parametrize(
    ("tokens", "text", "index"),
    [
        (["**", "B", "**"], "**B**", 1),
        (["B", ")"], "B)", 0),
        (["Answer", ":", " C"], "Answer: C", 2),
        (["ĠThe", "Ġanswer", "Ġis", "ĠC", "."], "The answer is C.", 3),
        (["▁C"], "C", 0),
        (["C", "Ċ", "Ċ", "The", "Ġargument"], "C\n\nThe argument", 0),
        (["(", "C", ")", " Neutral"], "(C) Neutral", 1),
    ],
)
def test_answer_token_found_in_real_token_shapes(tokens, text, index):
    tops = _tops(len(tokens), {index: [("C", 0.6), ("B", 0.2), ("D", 0.2)]})
    result = extract(text, tokens, tops)
    letter = "B" if "B" in text else "C"
    assert result.letter == letter
    assert result.answer_index == index and result.estimator == "logprobs"
    assert result.vector == pytest.approx((0, 0.2, 0.6, 0.2, 0))


def test_mid_sentence_article_a_is_not_the_answer():
    tokens = ["A", " good", " argument", ".", " Answer", ":", " C"]
    tops = _tops(7, {0: [("A", 0.9), ("The", 0.1)], 6: [(" C", 0.5), (" D", 0.5)]})
    result = extract("A good argument. Answer: C", tokens, tops)
    assert result.answer_index == 6
    assert result.vector == pytest.approx((0, 0, 0.5, 0.5, 0))
    assert answer_position(["It", " is", " A", " good", " one"], "A") is None
    # an answer "A" followed by its label is an answer
    assert answer_position(["A", ")", " Agree", " strongly"], "A") == 0
    assert answer_position(["A", "Ċ", "Ċ", "the", " argument"], "A") == 0


def test_refusal_is_unparsed_even_with_letter_mass():
    tokens = ["I", " cannot", " determine", " the", " stance", "."]
    tops = _tops(6, {0: [("I", 0.4), ("A", 0.35), ("B", 0.25)]})
    result = extract("I cannot determine the stance.", tokens, tops)
    assert result.unparsed and result.vector is None and result.estimator is None


def test_letter_mass_below_minimum_falls_back_to_the_text():
    tokens = ["B"]
    tops = [[("B", math.log(0.3)), ("C", math.log(0.1)), ("The", math.log(0.6))]]
    low = extract("B", tokens, tops)  # default minimum 0.5 > 0.4
    assert low.estimator == "frequency" and low.vector == (0, 1, 0, 0, 0)
    assert low.letter_mass == pytest.approx(0.4)  # raw mass kept
    ok = extract("B", tokens, tops, min_letter_mass=0.4)
    assert ok.estimator == "logprobs" and ok.vector == pytest.approx((0, 0.75, 0.25, 0, 0))
    # the text parse fails too -> unparsed
    assert extract("The", ["The"], [[("The", math.log(0.6)), ("B", math.log(0.3))]]).unparsed


def test_raw_letter_mass_is_recorded_before_renormalising():
    tops = [[("B", math.log(0.6)), ("ĠC", math.log(0.2)), ("x", math.log(0.2))]]
    result = extract("B", ["B"], tops, min_letter_mass=0.0)
    assert result.letter_mass == pytest.approx(0.8)
    assert result.vector == pytest.approx((0, 0.75, 0.25, 0, 0))
    assert extract("B").letter_mass is None  # no logprobs


def test_min_letter_mass_out_of_range():
    with pytest.raises(ValueError, match="min_letter_mass"):
        extract("B", min_letter_mass=1.5)


@pytest.mark.parametrize(
    ("text", "letter"),
    [
        ('The answer to this question is "D"', "D"),  # a SmolLM2-135M answer
        ("The correct answer is “C”.", "C"),
        ("The answer is A because it agrees", "A"),
        ("The answer is not A", None),
        ("The answer to this question is that one.", None),
    ],
)
def test_parse_letter_after_answer_is(text, letter):
    assert parse_letter(text) == letter


# The text reading of an extraction answer (the reading without logprobs, and the only one for
# providers that return none): the letter a person would read, or None. Options named only to
# be rejected or listed are never the answer; a choice stated after them is.
TEXT_READING_CORPUS: list[tuple[str, str | None]] = [
    # options rejected before (or after) the choice
    ("A is wrong; the answer is C.", "C"),
    ("B is incorrect, so C.", "C"),
    ("Options A and B are wrong; D.", "D"),
    ("A) Agree strongly is wrong; D) Disagree", "D"),
    ("It's not B, it's D.", "D"),
    ("It is not A. It is E.", "E"),
    ("D, not A.", "D"),
    ("C rather than A", "C"),
    ("Not A. The answer is B.", "B"),
    ("B? No. C.", "C"),
    ("A is not right. B is not right either.", None),
    ("The answer is not A", None),
    ("I would not choose B.", None),
    # clear answers after words, and markdown
    ("I choose a) Agree strongly", "A"),
    ("I pick (d) Disagree", "D"),
    ("**Answer:** C", "C"),
    ("**Answer: C**", "C"),
    ("Answer - A", "A"),
    ("Answer — D", "D"),
    ("The answer E) Disagree strongly", "E"),
    ("The answer would be E", "E"),
    ("I'd go with D", "D"),
    ("My answer: D) Disagree", "D"),
    # lists of options without a choice: none read
    ("A) Agree strongly\nB) Agree\nC) Neutral\nD) Disagree\nE) Disagree strongly", None),
    ("A) Agree strongly, B) Agree, C) Neutral, D) Disagree, E) Disagree strongly", None),
    ("A, B, C, D or E", None),
    ("- A\n- B", None),
    ("Answer: A or B", None),
    ("A or B", None),
    # ... and a choice stated after the list is read
    (
        "A) Agree strongly\nB) Agree\nC) Neutral\nD) Disagree\nE) Disagree strongly\n\nAnswer: C",
        "C",
    ),
    # words, not letters
    ("A balanced argument", None),
    ("It is A good point", None),
]


@pytest.mark.parametrize(("text", "letter"), TEXT_READING_CORPUS)
def test_text_reading_invents_no_letter_and_reads_clear_answers(text, letter):
    assert parse_letter(text) == letter
    # the text reading is the estimator when there are no logprobs: unparsed stays unparsed
    result = extract(text)
    assert result.unparsed is (letter is None)
    assert result.letter == letter


def test_logprobs_are_read_at_the_chosen_letter_not_at_a_listed_one():
    # the option list holds a "C" before the answer's "C": the answer token is the later one
    tokens = ["A", ")", " x", "\n", "C", ")", " y", "\n\n", "Answer", ":", " C"]
    tops = [[(t, 0.0)] for t in tokens]
    tops[4] = [("C", math.log(0.99)), ("D", math.log(0.01))]
    tops[10] = [(" C", math.log(0.6)), (" D", math.log(0.4))]
    result = extract("".join(tokens), tokens, tops)
    assert result.letter == "C" and result.estimator == "logprobs"
    assert result.answer_index == 10
    assert result.vector == pytest.approx((0, 0, 0.6, 0.4, 0))
