"""IssueBench loading on the shared files, topic selection, templates, generation parsing."""

from __future__ import annotations

import pytest

from inspect_stance.construction.generation import generator_instructions, parse_generated_prompts
from inspect_stance.construction.issuebench import load_issues, load_table, load_templates
from inspect_stance.construction.prompts import build_specs, load_prompts
from inspect_stance.construction.settings import INTENTS, USER_STANCES
from inspect_stance.construction.templates import (
    INFORMATION_TEMPLATES,
    OPINION_TEMPLATES,
    Template,
    fill,
    has_slot,
    sample_templates,
    templates_from_file,
    templates_from_issuebench,
)
from inspect_stance.construction.topics import (
    DEFAULT_TOPIC_IDS,
    Topic,
    load_topics_file,
    select_topics,
)


@pytest.fixture(scope="module")
def issues(shared_data):
    return load_issues(shared_data / "issuebench" / "issues.csv")


def test_issues_load_through_datasets_csv_builder(issues, shared_data):
    raw = load_table(shared_data / "issuebench" / "issues.csv", "issues")
    assert len(raw) == len(issues) == 396
    # tag_exclude == 1 rows are flagged, counted by hand in the file: 184
    assert int(issues["excluded"].sum()) == 184


def test_default_topics_are_usable_issues(issues):
    topics = select_topics(None, issues)
    assert [t.topic_id for t in topics] == list(DEFAULT_TOPIC_IDS)
    abortion = topics[0]
    assert (abortion.neutral, abortion.pro, abortion.con) == (
        "the ethics of abortion",
        "abortion being morally justifiable",
        "abortion being morally wrong",
    )
    assert all(t.seeds for t in topics)  # real user prompts for the generator
    assert "What is your opinion on abortion?" in abortion.seeds


def test_topic_selection_errors(issues):
    with pytest.raises(ValueError, match="unknown topic id 99999"):
        select_topics("68,99999", issues)
    with pytest.raises(ValueError, match="excluded upstream"):
        select_topics(-1, issues)  # the unassigned cluster is tag_exclude == 1
    with pytest.raises(ValueError, match="is not a topic id"):
        select_topics("68,abortion", issues)
    assert [t.topic_id for t in select_topics([59, 18], issues)] == [59, 18]


TOPIC_HEADER = "topic_id,topic_neutral,topic_pro,topic_con,tag_exclude\n"


def test_topics_file_counts_excluded_rows_and_rejects_an_all_excluded_file(tmp_path):
    path = tmp_path / "topics.csv"
    path.write_text(TOPIC_HEADER + "1,a,a good,a bad,0\n2,b,b good,b bad,1\n3,c,c good,c bad,\n")
    topics, excluded = load_topics_file(path)
    assert [t.topic_id for t in topics] == [1, 3] and excluded == ["2"]
    assert [t.topic_id for t in select_topics(str(path), None)] == [1, 3]
    path.write_text(TOPIC_HEADER + "2,b,b good,b bad,1\n5,e,e good,e bad,1\n")
    with pytest.raises(ValueError, match=r"every topic is excluded upstream .*: ids 2, 5;"):
        load_topics_file(path)


def test_issuebench_templates_keep_slot_templates_and_count_the_rest(shared_data):
    table = load_templates(shared_data / "issuebench" / "templates_sample.csv")
    assert len(table) == 999  # one row is annotated "out of scope"
    assert table.attrs["out of scope"] == 1  # counted, not silently dropped
    templates, dropped = templates_from_issuebench(table)
    assert dropped == 1  # "...about Xin the style of..." has no standalone X
    assert len(templates) == 998 and all(has_slot(t.text) for t in templates)


def test_builtin_templates_fill_grammatically():
    assert len(INFORMATION_TEMPLATES) >= 10 and len(OPINION_TEMPLATES) >= 10
    for text in INFORMATION_TEMPLATES + OPINION_TEMPLATES:
        assert text.count("X") == 1 and has_slot(text)
    assert fill("What do you think about X?", "gun laws") == "What do you think about gun laws?"
    assert fill("Xylophones and X", "t") == "Xylophones and t"  # only the standalone X


def test_template_without_slot_is_a_one_line_error(tmp_path):
    path = tmp_path / "t.csv"
    path.write_text("template\nWhat about X?\nTell me everything.\n")
    with pytest.raises(ValueError, match=r"row 2 .* has no X slot"):
        templates_from_file(path, "opinion")
    with pytest.raises(ValueError, match="has no X slot"):
        fill("no slot here", "x")


def test_template_sampling_is_reproducible_and_shared_by_stances():
    pool = [Template(f"t{i}", f"T{i} X") for i in range(30)]
    a = sample_templates(pool, 10, 0, "writing")
    assert a == sample_templates(pool, 10, 0, "writing") and len(set(a)) == 10
    assert a != sample_templates(pool, 10, 1, "writing")
    assert sample_templates(pool, 50, 0, "writing") == pool


def test_build_specs_counts_and_ids():
    topic = Topic(7, "the thing", "the thing being good", "the thing being bad", ("seed one?",))
    templates = {
        i: [Template(f"{i}-a", "About X."), Template(f"{i}-b", "X, please.")] for i in INTENTS
    }
    specs = build_specs(
        topics=[topic],
        intents=INTENTS,
        stances=USER_STANCES,
        methods=("templated", "generated"),
        templates=templates,
        prompts_per_setting=3,
        responses_per_prompt=2,
    )
    # 9 settings x (2 templates + 3 generated slots) x 2 replicates
    assert len(specs) == 9 * (2 + 3) * 2
    assert len({s.sample_id for s in specs}) == len(specs)
    first = specs[0]
    assert first.sample_id == "7-writing-neutral-templated-00-r0"
    assert first.prompt_text == "About the thing."
    pole_b = [s for s in specs if s.setting.stance == "pole_b" and s.method == "templated"][0]
    assert pole_b.prompt_text == "About the thing being bad."
    generated = [s for s in specs if s.method == "generated"]
    assert all(
        s.prompt_text is None and "seed one?" in s.generation_instructions for s in generated
    )


def test_prompts_file_round_trip_and_errors(tmp_path):
    path = tmp_path / "p.csv"
    path.write_text(
        "topic_id,intent,stance,method,slot,prompt_text\n"
        "7,opinion,neutral,generated,0,first\n7,opinion,neutral,generated,2,third\n"
    )
    reused = load_prompts(path)
    ((key, slots),) = reused.items()
    assert key[0].key == "7-opinion-neutral" and slots == {0: "first", 2: "third"}
    topic = Topic(7, "n", "p", "c")
    specs = build_specs(
        topics=[topic],
        intents=["opinion"],
        stances=["neutral"],
        methods=["generated"],
        templates={},
        prompts_per_setting=10,
        responses_per_prompt=1,
        reused=reused,
    )
    assert [(s.sample_id, s.prompt_text) for s in specs] == [
        ("7-opinion-neutral-generated-00-r0", "first"),
        ("7-opinion-neutral-generated-02-r0", "third"),
    ]
    with pytest.raises(ValueError, match="no generated prompts for setting 7-opinion-pole_a"):
        build_specs(
            topics=[topic],
            intents=["opinion"],
            stances=["pole_a"],
            methods=["generated"],
            templates={},
            prompts_per_setting=1,
            responses_per_prompt=1,
            reused=reused,
        )
    bad = tmp_path / "bad.csv"
    bad.write_text("topic_id,intent,stance,slot,prompt_text\n7,poetry,neutral,0,x\n")
    with pytest.raises(ValueError, match="row 1 has intent/stance/method"):
        load_prompts(bad)


PROMPT_ROW = (
    '{"topic_id": 7, "intent": "opinion", "stance": "neutral", "slot": 0, "prompt_text": "hi"}'
)


@pytest.mark.parametrize(
    ("lines", "message"),
    [
        ([PROMPT_ROW, '{"topic_id": 7, "intent": '], r"row 2: not valid JSON"),
        ([PROMPT_ROW, '["a list"]'], r"row 2: not a JSON object"),
        ([PROMPT_ROW.replace("7", '"seven"')], r"row 1: topic_id 'seven' is not a whole number"),
        ([PROMPT_ROW.replace('"slot": 0', '"slot": 1.5')], r"row 1: slot 1.5 is not a whole"),
    ],
)
def test_prompts_jsonl_bad_rows_are_one_line_errors(tmp_path, lines, message):
    path = tmp_path / "p.jsonl"
    path.write_text("\n".join(lines) + "\n")
    with pytest.raises(ValueError, match=f"^prompts_from {path}: {message}"):
        load_prompts(path)


def test_prompts_csv_non_integer_slot_is_a_one_line_error(tmp_path):
    path = tmp_path / "p.csv"
    path.write_text("topic_id,intent,stance,slot,prompt_text\n7,opinion,neutral,first,x\n")
    with pytest.raises(ValueError, match="row 1: slot 'first' is not a whole number"):
        load_prompts(path)


def test_generated_prompt_parsing():
    assert parse_generated_prompts('Sure!\n```json\n["a b", "c", "a b", ""]\n```') == ["a b", "c"]
    assert parse_generated_prompts("1. first one\n2) second one\n- third") == [
        "first one",
        "second one",
        "third",
    ]
    assert parse_generated_prompts("I will not do that.") == []
    # a bracketed preamble before the array: the first list of strings wins
    assert parse_generated_prompts('Here are [10] prompts: ["one?", "two?"]') == ["one?", "two?"]


def test_generator_instructions_carry_setting_and_seeds():
    topic = Topic(1, "the thing", "the thing being good", "the thing being bad", ("how thing?",))
    text = generator_instructions(topic, "information", "pole_b", 7, topic.seeds)
    assert "Write 7 different user prompts" in text and '"how thing?"' in text
    assert "holds the view of the thing being bad" in text and "INFORMATION SEEKING" in text
    neutral = generator_instructions(topic, "opinion", "neutral", 3, [])
    assert "NO position" in neutral and "OPINION SHARING" in neutral
