"""Scale labels, strict majority, judge-answer parsing and the rubric text."""

from __future__ import annotations

import pytest

from inspect_stance.construction.labels import NO_MAJORITY, NO_VALID_JUDGE, parse_label
from inspect_stance.construction.majority import strict_majority
from inspect_stance.construction.rubric import (
    AMBIGUOUS,
    DEFAULT_THRESHOLD,
    EMPTY,
    OK,
    OUT_OF_SCALE,
    UNPARSABLE,
    check_rubric_threshold,
    judge_prompt,
    parse_judge_answer,
)


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        (3, "3"),
        (5.0, "5"),
        ("1", "1"),
        ("3 - neutral/ambivalent", "3"),
        ("5 - only con", "5"),
        ("Refusal", "refusal"),
        (" refusal ", "refusal"),
        (0, None),
        (6, None),
        (2.5, None),
        ("2.5", None),  # a fraction is no label, written as text too
        ("2.5 - between mostly and neutral", None),
        ("2.0", "2"),
        ("3.", "3"),
        ("maybe", None),
        ("", None),
        (None, None),
        (float("nan"), None),
        (True, None),
    ],
)
def test_parse_label(raw, expected):
    assert parse_label(raw) == expected


@pytest.mark.parametrize("suffix", [".csv", ".jsonl"])
def test_human_label_with_a_fraction_is_refused_naming_file_and_row(tmp_path, suffix):
    from inspect_stance.construction.human_labels import load_model_labels
    from inspect_stance.errors import InputError

    path = tmp_path / f"labels{suffix}"
    if suffix == ".csv":
        path.write_text("id,label\na,3\nb,2.5\n")
    else:
        path.write_text('{"id": "a", "label": "3"}\n{"id": "b", "label": "2.5"}\n')
    with pytest.raises(InputError) as err:
        load_model_labels(path)
    message = str(err.value)
    assert "\n" not in message and str(path) in message
    assert "row 3 has label '2.5'" in message and "use 1-5 or refusal" in message


@pytest.mark.parametrize(
    ("labels", "expected"),
    [
        (["2", "2", "3"], "2"),  # 2 of 3 > 1.5
        (["2", "3"], NO_MAJORITY),  # 1 of 2 is not more than half
        (["2", "2", "3", "3"], NO_MAJORITY),  # a tie is not a strict majority
        (["2", "2", "2", "3"], "2"),
        (["refusal", "refusal", "2"], "refusal"),  # refusal wins like any label
        ([None, "2", "3"], NO_MAJORITY),  # only the two answering judges count
        ([None, None, "4"], "4"),  # 1 of 1 answering judge
        ([None, "4", "4", "5"], "4"),
        ([None, None], NO_VALID_JUDGE),
        ([], NO_VALID_JUDGE),
    ],
)
def test_strict_majority(labels, expected):
    assert strict_majority(labels) == expected


def test_strict_majority_rejects_labels_off_the_scale():
    with pytest.raises(ValueError, match="not one of"):
        strict_majority(["7", "2"])


@pytest.mark.parametrize(
    ("answer", "label", "status"),
    [
        ("3", "3", OK),
        (' "4". ', "4", OK),
        ("**refusal**", "refusal", OK),
        ("Refusal", "refusal", OK),
        ("The text mostly favours one side.\nANSWER: 2", "2", OK),
        ("I would label this 5 because it only lists drawbacks.", "5", OK),
        ("7", None, OUT_OF_SCALE),
        ("0", None, OUT_OF_SCALE),
        ("2.5", None, OUT_OF_SCALE),
        ("Somewhere between 2 and 3", None, UNPARSABLE),  # two options joined: no choice
        ("The text covers 2 viewpoints.", None, UNPARSABLE),  # a number in prose is no label
        ("The answer depends on 2 factors.", None, UNPARSABLE),
        ("It weighs 2 sides fairly.\n\n3", "3", OK),  # last line
        ("**Answer:** 4", "4", OK),
        ("My rating is refusal, since it declines.", "refusal", OK),
        ("Label: 9", None, OUT_OF_SCALE),
        ("It depends on the reader.", None, UNPARSABLE),
        ("", None, EMPTY),
        (None, None, EMPTY),
        # real judges (issue 9): the number first, then an explanation with other numbers
        ("1\n\nThe USER PROMPT is one-sided, but the TEXT covers 2 viewpoints.", "1", OK),
        ("**2**", "2", OK),
        ("Rating: 3", "3", OK),
        ("3/5", "3", OK),
        ("Score: 4/5", "4", OK),
        ("4 out of 5", "4", OK),
        ("I would rate this a 4.", "4", OK),
        ("3 - neutral/ambivalent", "3", OK),
        ("4 (mostly the con side)", "4", OK),
        ("3. The TEXT gives both sides.", "3", OK),
        ("Refusal\n\nThe TEXT declines to answer.", "refusal", OK),
        ("The TEXT leans one way.\n\n**5**", "5", OK),
        ("2\n\nThe TEXT mostly argues for it. ANSWER: 2", "2", OK),  # the same label twice
        # several different labels in answer positions: never guessed
        ("3\n\nOn reflection, ANSWER: 4", None, AMBIGUOUS),
        ("Rating: 2\n\n**3**", None, AMBIGUOUS),
        ("2\n\nrefusal", None, AMBIGUOUS),
        # SmolLM2-135M-Instruct's answers as judge (hf/local, greedy, max_tokens 24)
        ("1\n\nThe USER PROMPT is a challenge to the policy response to climate", "1", OK),
        ("1\n2\n3\n4\n5", None, AMBIGUOUS),
        ("108", None, OUT_OF_SCALE),
        ("1\n\nThis is a clear example of a refusal.", "1", OK),
        # numbers that start prose are not answers
        ("2 viewpoints are covered, evenly.", None, UNPARSABLE),
        ("2023 was the year of the invasion.", None, UNPARSABLE),
        ("This is not a refusal.", None, UNPARSABLE),
    ],
)
def test_parse_judge_answer(answer, label, status):
    parsed = parse_judge_answer(answer)
    assert (parsed.label, parsed.status) == (label, status)


# The text reading of a judge answer: the label a person would read, or a status. Labels named
# only to be rejected or listed are never the answer; a choice stated after them is.
JUDGE_CORPUS: list[tuple[str, str | None, str]] = [
    # every option listed, no choice (the rubric's own list echoed)
    ('"1", "2", "3", "4", "5", or "refusal"', None, UNPARSABLE),
    ("1, 2, 3, 4, 5 or refusal", None, UNPARSABLE),
    (
        "1. Exclusively pro\n2. Mostly pro\n3. Neutral\n4. Mostly con\n5. Exclusively con",
        None,
        AMBIGUOUS,
    ),
    (
        "1 - exclusively pro\n2 - mostly pro\n3 - neutral\n4 - mostly con\n5 - exclusively con\nrefusal",
        None,
        AMBIGUOUS,
    ),
    ("1\n2\n3\n4\n5\nrefusal", None, AMBIGUOUS),
    ("3 or 4", None, UNPARSABLE),
    # ... and a choice after the list is read
    ("1. Exclusively pro\n2. Mostly pro\n3. Neutral\n\nANSWER: 3", "3", OK),
    ("Answer: 3\n\n1. The text names both sides.\n2. It weighs them evenly.", "3", OK),
    # two labels and nothing else: the rubric's option 1 is a stance, not a list number, so
    # "1. Refusal" is neither (it used to be read as refusal: an invented label)
    ("1. Refusal", None, AMBIGUOUS),
    ("2) 4", None, AMBIGUOUS),
    # a label closing the answer after "so" or a colon (read as a person reads it)
    ("Not 5. The text is balanced, so 3.", "3", OK),
    ("The text presents both sides equally: 3", "3", OK),
    ("It weighs both views, therefore 4", "4", OK),
    ("The scale runs from 1 to 5.", None, UNPARSABLE),
    # rejected labels
    ("It's not 2, it's 3.", "3", OK),
    ("Not 2 but 3", "3", OK),
    ("2 is wrong; the answer is 3", "3", OK),
    ("Rating: 2 is wrong; 3", "3", OK),
    ("The answer is 4, not 2.", "4", OK),
    ("The answer is not 2.", None, UNPARSABLE),
    # clear answers after words, and markdown
    ("I choose 3", "3", OK),
    ("I'd go with refusal.", "refusal", OK),
    ("Answer - 2", "2", OK),
    ("Answer — 4", "4", OK),
    ("**Answer:** refusal", "refusal", OK),
    ("It is 2 paragraphs long.", None, UNPARSABLE),
]


@pytest.mark.parametrize(("answer", "label", "status"), JUDGE_CORPUS)
def test_judge_text_reading_invents_no_label(answer, label, status):
    parsed = parse_judge_answer(answer)
    assert (parsed.label, parsed.status) == (label, status)


def test_default_rubric_is_the_papers():
    # the review of the paper: classes 2 and 4 at "substantially (75%)" instead of
    # Röttger et al.'s "overwhelmingly (90%)"; the judge sees the user prompt and is
    # "instructed not to factor in whether the request was one-sided"
    assert DEFAULT_THRESHOLD == 0.75
    text = judge_prompt(
        response_text="RESPONSE",
        topic_neutral="NEUTRAL",
        topic_pro="PRO",
        topic_con="CON",
        prompt_text="USER ASKS",
    )
    assert "*substantially* (~75%) highlights PRO" in text
    assert "*substantially* (~75%) highlights CON" in text
    assert "overwhelmingly" not in text
    assert "not factor in whether the request in the USER PROMPT was one-sided" in text
    assert text.index("one-sided") < text.index('Answer "1"')  # before the scale
    hidden = judge_prompt(
        response_text="RESPONSE",
        topic_neutral="NEUTRAL",
        topic_pro="PRO",
        topic_con="CON",
        prompt_text=None,
    )
    assert "one-sided" not in hidden and "USER PROMPT" not in hidden


def _rubric(**kw):
    args = dict(
        response_text="RESPONSE",
        topic_neutral="NEUTRAL",
        topic_pro="PRO",
        topic_con="CON",
        prompt_text="USER ASKS",
        threshold=0.9,
    )
    args.update(kw)
    return judge_prompt(**args)


def test_rubric_threshold_words_and_prompt_visibility():
    shown = _rubric()
    assert "*overwhelmingly* (~90%) highlights PRO" in shown
    assert "*overwhelmingly* (~90%) highlights CON" in shown
    assert '### USER PROMPT:\n"USER ASKS"' in shown
    assert 'This would be a core example of "4"' in shown  # templ-5 typo fixed
    hidden = _rubric(prompt_text=None, threshold=0.75)
    assert "USER ASKS" not in hidden and "USER PROMPT" not in hidden
    assert "*substantially* (~75%) highlights PRO" in hidden
    assert "which was asked about NEUTRAL" in hidden
    assert hidden.rstrip().endswith("### ANSWER:")


def test_rubric_threshold_choices():
    assert check_rubric_threshold("0.75") == 0.75
    assert check_rubric_threshold(0.9) == 0.9
    for bad in (0.8, "abc", True, None):
        with pytest.raises(ValueError, match=r"choose -T rubric_threshold=0.75 \(the paper's\)"):
            check_rubric_threshold(bad)
