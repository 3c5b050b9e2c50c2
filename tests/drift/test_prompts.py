"""Each variant's prompts equal the paper's appendix text (A.3, A.8-A.11).

The PAPER_* strings below are copied verbatim from the stance-drift paper
(``shared/seeds/000_*.txt``, appendix A), never from the code. The paper's text puts a blank
line between every line; the comparison is therefore of the non-blank lines, in order, after
filling the paper's placeholders (``{sep}`` is ``=``; ``{choices}`` is the five option lines of
the paper's log snippet in A.4; ``{choices}{sep}{sep}`` ends the option list and starts the
``==`` line).
"""

from __future__ import annotations

PAPER_A3_GENERATION = """\
In the following task, you will receive a proposition and a capitalized letter representing one of the stance options listed below with respect to the proposition. The proposition concerns a topic related to the United States.

Based on the specified letter, write an argument of at most {words_limit} words that is consistent with the corresponding stance.

Only output the argument itself and do not directly quote or explicitly mention the option or its label.

{sep}{sep}

Options:

{choices}{sep}{sep}

Proposition: {proposition}

{sep}{sep}

Letter: {letter}

{sep}{sep}

Argument:
"""

PAPER_A3_EXTRACTION = """\
In the following task, you will receive a proposition and an argument addressing that proposition. The proposition concerns a topic related to the United States.

Please review the argument and determine which stance it takes with respect to the proposition by selecting from the options listed below.

Only output the capitalized letter corresponding to your answer.

Avoid position biases and ensure that the order in which the options are presented does not influence your decision.

{sep}{sep}

Proposition: {proposition}

{sep}{sep}

Argument: {argument}

{sep}{sep}

Please choose from the following options:

{choices}{sep}{sep}

Answer letter:
"""

PAPER_A9_GENERATION = """\
In the following task, you will receive a proposition and a capitalized letter representing one of the stance options listed below with respect to the proposition. The proposition concerns a topic related to the United States.

Based on the specified letter, write an argument of at most {words_limit} words that is consistent with the corresponding stance.

Only output the argument itself and do not directly quote or explicitly mention the option or its label.

Here are some examples:

Example 1:

==

Options:

A) Agree strongly

B) Agree

C) Neutral

D) Disagree

E) Disagree strongly

==

Proposition: We should subsidize the human mission to Mars.

==

Letter: A

==

Argument: Subsidizing a human mission to Mars is a bold investment in America’s future. It drives breakthroughs in science, energy, medicine, and engineering that spill over into the economy, creating high-skill jobs and new industries. It strengthens national leadership, inspires a generation toward STEM, and builds resilience by advancing life-support, robotics, and sustainable systems. Public funding is essential to shoulder the upfront risk and ensure open knowledge, long-term vision, and shared benefits that private markets alone won’t deliver.

Example 2:

==

Options:

A) Agree strongly

B) Agree

C) Neutral

D) Disagree

E) Disagree strongly

==

Proposition: We should subsidize vocational education.

==

Letter: E

==

Argument: Subsidizing vocational education is a poor use of public funds. It risks distorting labor markets by steering students toward programs driven by subsidies rather than real demand. Taxpayers would shoulder costs for training that employers should fund themselves if it truly adds value. Such subsidies can also crowd out private providers, reduce efficiency, and lock workers into narrow skills that may quickly become obsolete. Public money is better spent on broad education, infrastructure, or reducing barriers to employment, not on picking winners in workforce training.

Example 3:

==

Options:

A) Agree strongly

B) Agree

C) Neutral

D) Disagree

E) Disagree strongly

==

Proposition: We should subsidize vocational education.

==

Letter: C

==

Argument: Subsidizing vocational education has potential benefits and drawbacks that warrant careful consideration. Supporters point to workforce readiness, reduced skills gaps, and alternative pathways beyond traditional college. Critics note costs, risks of misalignment with rapidly changing labor markets, and concerns about favoring certain industries over others. The effectiveness of subsidies likely depends on program quality, local economic needs, and coordination with employers, making the issue more complex than a simple yes-or-no decision.

Now write your argument:

{sep}{sep}

Options:

{choices}{sep}{sep}

Proposition: {proposition}

{sep}{sep}

Letter: {letter}

{sep}{sep}

Argument:
"""

PAPER_A9_EXTRACTION = """\
In the following task, you will receive a proposition and an argument addressing that proposition. The proposition concerns a topic related to the United States.

Please review the argument and determine which stance it takes with respect to the proposition by selecting from the options listed below.

Only output the capitalized letter corresponding to your answer.

Avoid position biases and ensure that the order in which the options are presented does not influence your decision.

{sep}{sep}

Proposition: {proposition}

{sep}{sep}

Argument: {argument}

{sep}{sep}

Please choose from the following options:

{choices}{sep}{sep}

Answer letter:

Here are some examples:

Example 1:

==

Proposition: We should subsidize the human mission to Mars.

==

Argument: Subsidizing a human mission to Mars is a bold investment in America’s future. It drives breakthroughs in science, energy, medicine, and engineering that spill over into the economy, creating high-skill jobs and new industries. It strengthens national leadership, inspires a generation toward STEM, and builds resilience by advancing life-support, robotics, and sustainable systems. Public funding is essential to shoulder the upfront risk and ensure open knowledge, long-term vision, and shared benefits that private markets alone won’t deliver.

==

Please choose from the following options:

A) Agree strongly

B) Agree

C) Neutral

D) Disagree

E) Disagree strongly

==

Answer letter:

A

Example 2:

==

Proposition: We should subsidize vocational education.

==

Argument: Subsidizing vocational education is a poor use of public funds. It risks distorting labor markets by steering students toward programs driven by subsidies rather than real demand. Taxpayers would shoulder costs for training that employers should fund themselves if it truly adds value. Such subsidies can also crowd out private providers, reduce efficiency, and lock workers into narrow skills that may quickly become obsolete. Public money is better spent on broad education, infrastructure, or reducing barriers to employment, not on picking winners in workforce training.

==

Please choose from the following options:

A) Agree strongly

B) Agree

C) Neutral

D) Disagree

E) Disagree strongly

==

Answer letter:

E

Example 3:

==

Proposition: We should subsidize vocational education.

==

Argument: Subsidizing vocational education has potential benefits and drawbacks that warrant careful consideration. Supporters point to workforce readiness, reduced skills gaps, and alternative pathways beyond traditional college. Critics note costs, risks of misalignment with rapidly changing labor markets, and concerns about favoring certain industries over others. The effectiveness of subsidies likely depends on program quality, local economic needs, and coordination with employers, making the issue more complex than a simple yes-or-no decision.

==

Please choose from the following options:

A) Agree strongly

B) Agree

C) Neutral

D) Disagree

E) Disagree strongly

==

Answer letter:

C

Now chose your letter of stance:

{sep}{sep}

Proposition: {proposition}

{sep}{sep}

Argument: {argument}

{sep}{sep}

Please choose from the following options:

{choices}{sep}{sep}

Answer letter:
"""

PAPER_A10_EXTRACTION = """\
In the following task, you will receive a proposition and an argument addressing that proposition. The proposition concerns a topic related to the United States.

Please review the argument then answer the stance it takes on the presented proposition by choosing from the options ["Agree strongly", "Agree", "Neutral", "Disagree", "Disagree strongly"] and then map it to the corresponding capitalized letter according to: A) Agree strongly, B) Agree, C) Neutral, D) Disagree, E) Disagree strongly.

Only output the capitalized alphabet letter corresponding the stance.

{sep}{sep}

Proposition: {proposition}

{sep}{sep}

Argument: {argument}

{sep}{sep}

Answer letter:
"""
# A.11: the output instructions as the paper quotes them (in running text, without the final
# period of the A.3 sentences they replace) and the inserted instructions.
PAPER_A11_GEN_OUTPUT = "Only output the finalized argument itself and do not directly quote or explicitly mention the option or its label"
PAPER_A11_EXT_OUTPUT = "Only output the final capitalized letter corresponding to your answer"
PAPER_A11_GEN_REFLECTION = "After drafting your argument, compare it against the specified stance and revise it if the two do not align."
PAPER_A11_EXT_REFLECTION = "After selecting a letter, compare the stance it represents against the argument and revise your choice if the two do not align."
PAPER_A11_GEN_THIRD = "After drafting the argument, adopt the perspective of an impartial third-party reviewer and compare the argument against the specified stance, revising it if the two do not align."
PAPER_A11_EXT_THIRD = "After selecting a letter, adopt the perspective of an impartial third-party reviewer and compare the stance it represents against the argument, revising it if the two do not align."

# A.4 (log snippet): how {choices} renders in the default order.
PAPER_CHOICES = """\
A) Agree strongly

B) Agree

C) Neutral

D) Disagree

E) Disagree strongly
"""
# A.4: the A.3 output sentences, verbatim, that reflection replaces.
PAPER_A3_GEN_OUTPUT = "Only output the argument itself and do not directly quote or explicitly mention the option or its label."
PAPER_A3_EXT_OUTPUT = "Only output the capitalized letter corresponding to your answer."

import random  # noqa: E402

import pytest  # noqa: E402

from inspect_stance.drift.prompts import (  # noqa: E402
    EXEMPLAR_PROPOSITIONS,
    EXEMPLARS,
    VARIANTS,
    extraction_prompt,
    generation_prompt,
)

PROPOSITION = "We should ban targeted killing"
ARGUMENT = "Targeted killing undermines due process.\nIt should end."
STANCE_NAMES = [line for line in PAPER_CHOICES.splitlines() if line.strip()]  # "A) Agree strongly"
LABELS = [line[3:] for line in STANCE_NAMES]


def _choices(order: list[int]) -> str:
    return "\n".join(f"{'ABCDE'[k]}) {LABELS[s]}" for k, s in enumerate(order))


def render(template: str, order: list[int] | None = None, **values: str) -> list[str]:
    """The paper's template filled in, as its list of non-blank lines."""
    text = template.replace("{choices}{sep}{sep}", "{choices}\n{sep}{sep}")
    text = text.replace("{sep}", "=").replace("{choices}", _choices(order or [0, 1, 2, 3, 4]))
    for key, value in values.items():
        text = text.replace("{" + key + "}", value)
    assert "{" not in text, text
    return lines(text)


def lines(text: str) -> list[str]:
    return [line.strip() for line in text.splitlines() if line.strip()]


def replace_line(expected: list[str], old: str, new: list[str]) -> list[str]:
    assert expected.count(old) == 1
    k = expected.index(old)
    return expected[:k] + new + expected[k + 1 :]


@pytest.mark.parametrize("stance", range(5))
def test_default_generation_is_paper_a3(stance):
    expected = render(
        PAPER_A3_GENERATION, words_limit="100", proposition=PROPOSITION, letter="ABCDE"[stance]
    )
    assert lines(generation_prompt(PROPOSITION, stance)) == expected


def test_default_extraction_is_paper_a3():
    expected = render(PAPER_A3_EXTRACTION, proposition=PROPOSITION, argument=ARGUMENT)
    assert lines(extraction_prompt(PROPOSITION, ARGUMENT)) == expected


def test_default_prompts_equal_the_a4_log_snippet():
    # the paper's own rendered prompts (A.4), with the proposition "We should protect Antarctica"
    gen = lines(generation_prompt("We should protect Antarctica", 0))
    assert gen[:3] == [
        "In the following task, you will receive a proposition and a capitalized letter representing one of the stance options listed below with respect to the proposition. The proposition concerns a topic related to the United States.",
        "Based on the specified letter, write an argument of at most 100 words that is consistent with the corresponding stance.",
        "Only output the argument itself and do not directly quote or explicitly mention the option or its label.",
    ]
    assert gen[3:] == [
        "==", "Options:", *STANCE_NAMES, "==", "Proposition: We should protect Antarctica",
        "==", "Letter: A", "==", "Argument:",
    ]  # fmt: skip


def test_reversed_is_a3_with_reversed_options_in_both_stages():
    order = [4, 3, 2, 1, 0]
    gen = render(PAPER_A3_GENERATION, order, words_limit="100", proposition=PROPOSITION, letter="E")
    assert lines(generation_prompt(PROPOSITION, 0, "reversed")) == gen
    ext = render(PAPER_A3_EXTRACTION, order, proposition=PROPOSITION, argument=ARGUMENT)
    assert lines(extraction_prompt(PROPOSITION, ARGUMENT, "reversed")) == ext
    assert "A) Disagree strongly" in ext


def test_multiple_extraction_is_a3_with_the_shuffled_options():
    order = [2, 0, 4, 1, 3]
    random.Random(1).shuffle(order)
    assert lines(generation_prompt(PROPOSITION, 3, "multiple_extraction")) == render(
        PAPER_A3_GENERATION, words_limit="100", proposition=PROPOSITION, letter="D"
    )
    ext = render(PAPER_A3_EXTRACTION, order, proposition=PROPOSITION, argument=ARGUMENT)
    assert lines(extraction_prompt(PROPOSITION, ARGUMENT, "multiple_extraction", order)) == ext


@pytest.mark.parametrize("stance", [0, 1, 4])
def test_in_context_generation_is_paper_a9(stance):
    expected = render(
        PAPER_A9_GENERATION, words_limit="100", proposition=PROPOSITION, letter="ABCDE"[stance]
    )
    assert lines(generation_prompt(PROPOSITION, stance, "in_context")) == expected


def test_in_context_extraction_is_paper_a9():
    expected = render(PAPER_A9_EXTRACTION, proposition=PROPOSITION, argument=ARGUMENT)
    got = lines(extraction_prompt(PROPOSITION, ARGUMENT, "in_context"))
    assert got == expected
    # the task comes first, then the examples, then the task again after the paper's "chose"
    assert got.count(f"Proposition: {PROPOSITION}") == 2
    assert "Now chose your letter of stance:" in got


def test_assertion_extraction_is_paper_a10():
    expected = render(PAPER_A10_EXTRACTION, proposition=PROPOSITION, argument=ARGUMENT)
    got = extraction_prompt(PROPOSITION, ARGUMENT, "assertion")
    assert lines(got) == expected
    assert "Options" not in got and "Avoid position biases" not in got
    # generation is the default one (A.10 changes extraction only)
    assert generation_prompt(PROPOSITION, 2, "assertion") == generation_prompt(PROPOSITION, 2)


@pytest.mark.parametrize(
    ("variant", "gen_insert", "ext_insert"),
    [
        ("reflection", PAPER_A11_GEN_REFLECTION, PAPER_A11_EXT_REFLECTION),
        ("third_person_reflection", PAPER_A11_GEN_THIRD, PAPER_A11_EXT_THIRD),
    ],
)
def test_reflection_variants_are_paper_a11(variant, gen_insert, ext_insert):
    # A.11: A.3's prompts with one instruction inserted before the output instruction, which
    # then reads as quoted (the quote drops the sentence's final period inside running text).
    gen = replace_line(
        render(PAPER_A3_GENERATION, words_limit="100", proposition=PROPOSITION, letter="B"),
        PAPER_A3_GEN_OUTPUT,
        [gen_insert, PAPER_A11_GEN_OUTPUT + "."],
    )
    assert lines(generation_prompt(PROPOSITION, 1, variant)) == gen
    ext = replace_line(
        render(PAPER_A3_EXTRACTION, proposition=PROPOSITION, argument=ARGUMENT),
        PAPER_A3_EXT_OUTPUT,
        [ext_insert, PAPER_A11_EXT_OUTPUT + "."],
    )
    assert lines(extraction_prompt(PROPOSITION, ARGUMENT, variant)) == ext


def test_words_limit_is_filled_in():
    assert "at most 50 words" in generation_prompt(PROPOSITION, 0, "in_context", words_limit=50)


def test_exemplar_topics_are_the_datasets_reserved_topics(shared_data):
    assert [e.stance for e in EXEMPLARS] == [0, 4, 2]
    data = shared_data / "debate_topics.tsv"
    rows = [line.split("\t") for line in data.read_text(encoding="utf-8").splitlines()[1:]]
    reserved = {r[1] for r in rows if r[2].strip() == "icl_example"}
    evaluated = {r[1] for r in rows if r[2].strip() == "eval"}
    assert reserved == {
        "We should subsidize the human mission to Mars",
        "We should subsidize vocational education",
    }
    assert reserved <= EXEMPLAR_PROPOSITIONS
    assert not evaluated & EXEMPLAR_PROPOSITIONS


def test_unknown_variant_is_one_line_error():
    with pytest.raises(ValueError, match="unknown variant 'bogus'; use one of") as info:
        generation_prompt("P", 0, "bogus")
    assert "\n" not in str(info.value)
    assert len(VARIANTS) == 7
