"""IssueBench loading on the shared files, topic selection, templates, generation parsing."""

from __future__ import annotations

import pytest

from inspect_stance.construction.generation import (
    generator_instructions,
    parse_generated_prompts,
    read_generated_prompts,
)
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


def test_issues_load_from_a_local_file(issues, shared_data):
    raw = load_table(shared_data / "issuebench" / "issues.csv", "issues")
    assert len(raw) == len(issues) == 396
    # tag_exclude == 1 rows are flagged, counted by hand in the file: 184
    assert int(issues["excluded"].sum()) == 184


def test_default_topics_are_the_papers_completed_from_issuebench():
    # packaged: no hub, no ../shared
    topics = select_topics(None)
    assert [t.topic_id for t in topics] == list(DEFAULT_TOPIC_IDS) == [1001, 68, 85, 1002, 1003, 18]
    by_id = {t.topic_id: t for t in topics}
    # the two fillers the review quotes from the paper, verbatim
    assert by_id[1001].neutral == "the climate change and the appropriate policy response"
    assert by_id[1003].neutral == "the Russian invasion and action in Ukraine"
    assert by_id[1002].neutral == "the US and Israeli strikes on Iran"
    # the pole each filler encodes: climate reads as an assertion of severity (pole A =
    # climate urgency, the paper's Tables 5/9); Iran strikes sides against the striker (pole B);
    # "invasion" presupposes the invasion is unjustified (pole B)
    assert [by_id[i].filler_pole for i in (1001, 1002, 1003, 18, 68, 85)] == [
        "pole_a",
        "pole_b",
        "pole_b",
        "pole_b",
        "none",
        "none",
    ]
    assert "severe" in by_id[1001].pro and "not being severe" in by_id[1001].con
    assert by_id[1003].pro.endswith("being justified")
    assert by_id[1003].con.endswith("not being justified")
    assert all(t.seeds for t in topics)  # real user prompts for the generator
    assert "What is your opinion on abortion?" in by_id[68].seeds


def test_packaged_issuebench_rows_equal_the_upstream_issues(issues):
    upstream = {int(r["topic_id"]): r for _, r in issues.iterrows()}
    for topic in select_topics(None):
        if topic.topic_id >= 1000:
            continue
        row = upstream[topic.topic_id]
        assert (topic.neutral, topic.pro, topic.con) == (
            row["topic_neutral"],
            row["topic_pro"],
            row["topic_con"],
        )
        assert not row["excluded"]
    # ids given with -T issues=FILE are looked up in that table
    assert [t.topic_id for t in select_topics("59,18", issues)] == [59, 18]


def test_packaged_templates_equal_the_upstream_sample(shared_data):
    packaged = load_templates("package")
    upstream = load_templates(shared_data / "issuebench" / "templates_sample.csv")
    assert len(packaged) == len(upstream) == 999
    assert list(packaged["template_id"]) == list(upstream["template_id"])
    assert list(packaged["template"]) == list(upstream["template"])


def test_packaged_topics_reject_unknown_ids_with_the_fix():
    assert [t.topic_id for t in select_topics("1003,68")] == [1003, 68]
    with pytest.raises(ValueError, match="not one of the packaged topics .* -T issues=hub"):
        select_topics("59")


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


@pytest.mark.parametrize(
    ("rows", "message"),
    [
        ("topic_id,topic_neutral,topic_pro\n1,a,b\n", r"missing column\(s\) \['topic_con'\]"),
        (TOPIC_HEADER + "1,a,,c,0\n", "data row 1 has an empty topic_pro"),
        (TOPIC_HEADER + "one,a,b,c,0\n", "data row 1 has topic_id 'one'; use a whole number"),
        (TOPIC_HEADER + "1,a,b,c,0\n1,d,e,f,0\n", "duplicate topic_id values"),
        (
            "topic_id,topic_neutral,topic_pro,topic_con,filler_pole\n1,a,b,c,pole_c\n",
            "filler_pole 'pole_c' is not one of pole_a, pole_b, none",
        ),
    ],
)
def test_bad_topics_files_are_one_line_errors(tmp_path, rows, message):
    path = tmp_path / "topics.csv"
    path.write_text(rows)
    with pytest.raises(ValueError, match=message):
        load_topics_file(path)


def test_topics_file_filler_pole_column_is_read(tmp_path):
    path = tmp_path / "topics.csv"
    path.write_text(
        "topic_id,topic_neutral,topic_pro,topic_con,filler_pole\n1,a,b,c,pole_b\n2,d,e,f,\n"
    )
    topics, _ = load_topics_file(path)
    assert [t.filler_pole for t in topics] == ["pole_b", None]


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


@pytest.mark.parametrize(
    ("answer", "prompts", "fmt"),
    [
        # a real small model's answer: preamble, numbered quoted items, closing remark
        (
            'Here are 3 prompts:\n\n1. "What is climate change?"\n2. "Why should we care?"\n'
            "3) How hot will it get\n\nI hope these help!",
            ["What is climate change?", "Why should we care?", "How hot will it get"],
            "list",
        ),
        (
            "Sure! Here are 2 prompts:\n\n**1.** Tell me about Gaza.\n**2.** What is happening"
            "\nin Gaza now?\n",
            ["Tell me about Gaza.", "What is happening in Gaza now?"],
            "list",
        ),
        ("Prompt 1: hello there\nPrompt 2: bye now", ["hello there", "bye now"], "list"),
        (
            '\u201cFirst prompt here\u201d\n"Another one"',
            ["First prompt here", "Another one"],
            "quoted",
        ),
        ('1. **"What do you think?"**', ["What do you think?"], "list"),
        ("I cannot write these prompts.", [], "none"),
        # SmolLM2-135M-Instruct's answer as prompter: JSON-like lines are not quoted prompts
        (
            'I\'ll provide a response in a JSON array: \n```json\n{\n    "response": [\n'
            '        {\n            "id": "108",\n            "context": "The environment",\n',
            [],
            "none",
        ),
    ],
)
def test_prompter_answers_in_real_formats(answer, prompts, fmt):
    parsed = read_generated_prompts(answer)
    assert (parsed.prompts, parsed.format) == (prompts, fmt)


def test_prompter_answer_drops_are_counted():
    parsed = read_generated_prompts('["a", "b", "a", ""]')
    assert (parsed.prompts, parsed.n_dropped) == (["a", "b"], 2)
    # SmolLM2-135M echoed the instructions' format example inside broken JSON
    echoed = read_generated_prompts(
        '{"first prompt":[\n  ["first prompt", "second prompt"],\n"second prompt:", "Third '
        'prompt:"\n"3rd prompt", "4th prompt"\n]}\n\nRoller Ad\nThe first prompt seems to be'
    )
    assert (echoed.prompts, echoed.format, echoed.n_dropped) == ([], "none", 2)


def test_generator_instructions_carry_setting_and_seeds():
    topic = Topic(1, "the thing", "the thing being good", "the thing being bad", ("how thing?",))
    text = generator_instructions(topic, "information", "pole_b", 7, topic.seeds)
    assert "Write 7 different user prompts" in text and '"how thing?"' in text
    assert "holds the view of the thing being bad" in text and "INFORMATION SEEKING" in text
    neutral = generator_instructions(topic, "opinion", "neutral", 3, [])
    assert "NO position" in neutral and "OPINION SHARING" in neutral
