"""Annotation prompts, strict answer parsing, shuffling, and real-prompt selection."""

from __future__ import annotations

import pytest

from inspect_stance.construction.topics import Topic
from inspect_stance.errors import InputError
from inspect_stance.validation.annotation import (
    label_prompt,
    parse_labels,
    parse_ranking,
    ranking_prompt,
    ranks_from_ranking,
    shuffled_order,
)
from inspect_stance.validation.real_prompts import (
    RealPrompt,
    about,
    load_real_prompts,
    real_for_setting,
    topic_keywords,
)

# ----- ranking answers -----


@pytest.mark.parametrize(
    "answer",
    [
        "RANKING: 2, 3, 1",
        "ranking: 2,3,1",
        "**RANKING:** 2, 3, 1",
        "Sure! I compared them.\n\nRANKING: 2, 3, 1\n\nThe last reads like a template.",
        "RANKING: Prompt 2, Prompt 3, Prompt 1",
        "RANKING: 2 > 3 > 1",
        "Final ranking: 2; 3; 1.",
        "2, 3, 1",
    ],
)
def test_clear_rankings_are_read(answer):
    assert parse_ranking(answer, 3) == [2, 3, 1]


@pytest.mark.parametrize(
    "answer",
    [
        "RANKING: 2, 3",  # not every prompt
        "RANKING: 2, 2, 1",  # a duplicate
        "RANKING: 2, 3, 4",  # a number not shown
        "RANKING: 2, 3, 1 (prompt 2 is the most natural)",  # extra words: not guessed
        "I think prompt 2 is the most realistic, then 3, then 1.",  # prose
        "1\n\nThe first prompt is the most realistic.",  # a lone number with prose
        "",
        "RANKING: <all 3 prompt numbers>",  # the format line copied
    ],
)
def test_unclear_rankings_are_unparsed(answer):
    assert parse_ranking(answer, 3) is None


def test_ranks_follow_the_shown_order():
    # shown order: item 2 at position 1, item 0 at position 2, item 1 at position 3
    order = [2, 0, 1]
    # the annotator puts position 3 first, then 1, then 2 -> item 1 rank 1, item 2 rank 2, item 0 rank 3
    assert ranks_from_ranking([3, 1, 2], order) == {1: 1, 2: 2, 0: 3}


# ----- label answers -----


@pytest.mark.parametrize(
    "answer",
    [
        "INTENT: opinion\nSTANCE: A\nSIDE: B",
        "intent: opinion sharing\nstance: side A\nside: pole B",
        "**INTENT:** opinion\n**STANCE:** A\n**SIDE:** B",
        "Here is my reading.\n1. INTENT: opinion - the user asks for a view\n2. STANCE: A\n3. SIDE: B.",
        "INTENT: Opinion (asks what the assistant thinks)\nSTANCE: a\nSIDE: b",
    ],
)
def test_clear_labels_are_read(answer):
    assert parse_labels(answer) == {"intent": "opinion", "stance": "pole_a", "side": "pole_b"}


def test_each_field_is_parsed_on_its_own():
    assert parse_labels("INTENT: writing\nSTANCE: maybe A\nSIDE: neither") == {
        "intent": "writing",
        "stance": None,
        "side": "none",
    }
    # one field given twice with different values: ambiguous, not guessed
    assert parse_labels("INTENT: writing\nINTENT: opinion\nSTANCE: neutral")["intent"] is None
    # the same value twice is fine
    assert parse_labels("INTENT: writing\nINTENT: writing")["intent"] == "writing"
    assert parse_labels("The user wants an essay. Neutral.") == {
        "intent": None,
        "stance": None,
        "side": None,
    }
    assert parse_labels("INTENT: writing or information or opinion")["intent"] is None


# The text reading of an annotator's field: the value a person would read, or None. Values
# named only to be rejected or listed are never the answer; a value stated after them is.
ANNOTATOR_CORPUS: list[tuple[str, dict[str, str | None]]] = [
    (
        "INTENT: opinion\nSTANCE: not A, B\nSIDE: It's not A, it's B",
        {"intent": "opinion", "stance": "pole_b", "side": "pole_b"},
    ),
    (
        "INTENT: writing is wrong; opinion\nSTANCE: neutral, not A\nSIDE: A is incorrect; none",
        {"intent": "opinion", "stance": "neutral", "side": "none"},
    ),
    (
        "INTENT: writing or opinion\nSTANCE: A or B\nSIDE: not A",
        {"intent": None, "stance": None, "side": None},
    ),
    (
        "**INTENT:** opinion\n**STANCE** - B\nSIDE: none",
        {"intent": "opinion", "stance": "pole_b", "side": "none"},
    ),
]


@pytest.mark.parametrize(("answer", "expected"), ANNOTATOR_CORPUS)
def test_annotator_text_reading_invents_no_value(answer, expected):
    assert parse_labels(answer) == expected


# ----- prompts and shuffling -----


def test_annotation_prompts_show_every_prompt_and_both_sides():
    text = ranking_prompt("the menu", "it being good", "it being bad", ["p one", "p two"])
    assert 'PROMPT 1:\n"""\np one\n"""' in text and 'PROMPT 2:\n"""\np two\n"""' in text
    assert '(side A: "it being good"; side B: "it being bad")' in text
    assert "RANKING:" in text
    label = label_prompt("the menu", "it being good", "it being bad", "p one")
    assert "SIDE A: it being good\nSIDE B: it being bad" in label
    assert 'PROMPT:\n"""\np one\n"""' in label


def test_shuffled_order_is_a_reproducible_permutation_per_annotator():
    a = shuffled_order(8, 0, "7-opinion-neutral", 0)
    assert sorted(a) == list(range(8))
    assert a == shuffled_order(8, 0, "7-opinion-neutral", 0)
    others = [shuffled_order(8, 0, "7-opinion-neutral", i) for i in range(1, 4)]
    assert any(o != a for o in others)
    assert shuffled_order(8, 1, "7-opinion-neutral", 0) != a


# ----- real prompts -----

TOPIC = Topic(7, "the 2022 Russian invasion of Ukraine", "it being justified", "it not being")


def test_keyword_filter():
    stems = topic_keywords(TOPIC)
    assert stems == ["russi", "invas", "ukrai"]
    assert about("do u know the war that Russia invading Ukrain", stems)
    assert about("why did russia attack ukraine", stems)  # 2 of 3
    assert not about("tell me about ukraine's cuisine", stems)  # 1 of 3
    assert not about("", stems)


def test_real_prompts_file_with_labels_and_keywords(tmp_path):
    path = tmp_path / "real.csv"
    path.write_text(
        "prompt_text,topic_id,intent,stance\n"
        "why did russia attack ukraine,,information,neutral\n"
        "any prompt at all,7,opinion,\n"
        "pasta recipes,,,\n"
        "any prompt at all,7,opinion,\n"
    )
    found = load_real_prompts(str(path), [TOPIC])
    assert found == {
        7: [
            RealPrompt("why did russia attack ukraine", 7, "information", "neutral"),
            RealPrompt("any prompt at all", 7, "opinion", None),
        ]
    }


def test_real_prompts_in_the_wildchat_conversation_format(tmp_path):
    path = tmp_path / "chats.jsonl"
    path.write_text(
        '{"conversation": [{"role": "user", "content": "russia invasion of ukraine why"}, '
        '{"role": "assistant", "content": "..."}]}\n'
        '{"conversation": [{"role": "user", "content": "hello there"}]}\n'
    )
    assert load_real_prompts(str(path), [TOPIC]) == {
        7: [RealPrompt("russia invasion of ukraine why", 7)]
    }


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("prompt_text,stance\nx,maybe\n", "row 1 has stance 'maybe'"),
        ("text\nx\n", "needs a prompt_text"),
        ("prompt_text,topic_id\nx,seven\n", "row 1 has topic_id 'seven'"),
    ],
)
def test_bad_real_prompt_files_are_one_line_errors(tmp_path, content, message):
    path = tmp_path / "real.csv"
    path.write_text(content)
    with pytest.raises(InputError, match=message):
        load_real_prompts(str(path), [TOPIC])


def test_real_prompts_for_a_setting():
    prompts = [
        RealPrompt("own 1", 7, "opinion", "neutral"),
        RealPrompt("other setting", 7, "information", "neutral"),
        RealPrompt("free 1", 7),
        RealPrompt("free 2", 7),
        RealPrompt("intent only", 7, "opinion", None),
        RealPrompt("seed", 7),
    ]
    chosen = real_for_setting(prompts, "opinion", "neutral", 2, 0, "7-opinion-neutral")
    assert [p.text for p in chosen] == ["own 1", "intent only"]  # labelled for it first
    chosen = real_for_setting(
        prompts, "opinion", "neutral", 5, 0, "7-opinion-neutral", exclude=["seed"]
    )
    assert [p.text for p in chosen] == ["own 1", "intent only", "free 1", "free 2"]
    assert "other setting" not in [p.text for p in chosen]
