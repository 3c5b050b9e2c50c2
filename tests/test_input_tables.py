"""Input files are one line of text per entry: a stray quote, a NUL byte, a line break or a JSON
value that is not text is a one-line error; duplicates are found through Unicode normal forms
and zero-width characters. One reader (``inspect_stance.tables``) for every task's files."""

from __future__ import annotations

import json
import unicodedata

import pytest

from inspect_stance.drift.propositions import read_propositions_file
from inspect_stance.errors import InputError
from inspect_stance.tables import read_table, text_cell, text_key

CAFE_NFC = unicodedata.normalize("NFC", "We should ban café chains")
CAFE_NFD = unicodedata.normalize("NFD", "We should ban café chains")


def _one_line(ex: pytest.ExceptionInfo) -> str:
    message = str(ex.value)
    assert "\n" not in message and "Traceback" not in message
    return message


@pytest.mark.parametrize(
    ("name", "content", "message"),
    [
        # a stray quote swallows the rest of the file
        ("p.csv", 'topic\n"We should ban x\nWe should ban y\n', r"p.csv, line 2: not valid CSV"),
        # a quoted field with a line break inside
        (
            "p.csv",
            'topic\n"We should ban x\nWe should ban y"\n',
            r"p.csv, line 2: topic holds a line",
        ),
        ("p.tsv", 'topic\n"We should\tban x\n', r"p.tsv, line 2: not valid CSV"),
        ("p.csv", "topic\nWe should ban \x00nul\n", r"p.csv, line 2: topic holds a NUL byte"),
        ("p.txt", "We should ban x\nWe \x00should\n", r"p.txt, line 2: line holds a NUL byte"),
        ("p.jsonl", json.dumps({"topic": {"text": "x"}}) + "\n", r"line 1: topic is a JSON object"),
        ("p.jsonl", json.dumps({"topic": 42}) + "\n", r"line 1: topic is a JSON number"),
        ("p.jsonl", json.dumps({"topic": ["a"]}) + "\n", r"line 1: topic is a JSON list"),
        ("p.jsonl", json.dumps({"topic": True}) + "\n", r"line 1: topic is a JSON boolean"),
        ("p.jsonl", json.dumps({"topic": "a\nb"}) + "\n", r"line 1: topic holds a line break"),
        (
            "p.jsonl",
            json.dumps({"topic": "x", "topic_id": {"a": 1}}) + "\n",
            r"topic_id is a JSON object",
        ),
        ("p.txt", f"{CAFE_NFC}\n{CAFE_NFD}\n", r"appears on lines 1 and 2"),
        ("p.txt", "We should ban x\nWe should\u200b ban x\n", r"appears on lines 1 and 2"),
        (
            "p.txt",
            "We should ban x\nWe should ba\u00adn x\u200d\n",
            "lines 1 and 2",
        ),
        ("p.csv", f"topic\n{CAFE_NFD}\n{CAFE_NFC}\n", r"appears on lines 2 and 3"),
    ],
)
def test_bad_propositions_file_is_one_line(tmp_path, name, content, message):
    path = tmp_path / name
    path.write_text(content, encoding="utf-8")
    with pytest.raises(InputError, match=message) as ex:
        read_propositions_file(path)
    assert str(path) in _one_line(ex)


def test_good_files_still_read(tmp_path):
    (tmp_path / "p.csv").write_text('topic,topic_id\n"We should ban x, y",7\nWe should ban z,8\n')
    assert [(p.topic_id, p.text, p.line) for p in read_propositions_file(tmp_path / "p.csv")] == [
        ("7", "We should ban x, y", 2),
        ("8", "We should ban z", 3),
    ]
    (tmp_path / "p.jsonl").write_text('{"topic": "We should ban x", "topic_id": 3}\n')
    [prop] = read_propositions_file(tmp_path / "p.jsonl")
    assert prop.topic_id == "3" and prop.text == "We should ban x"


def test_text_key_and_cell():
    assert text_key(CAFE_NFC) == text_key(CAFE_NFD) != text_key("We should ban cafe chains")
    assert text_key("a\u200bb\ufeff  C") == "ab c"
    assert text_cell("  a \t b ", "w", "c") == "a b"
    with pytest.raises(InputError, match="w: c is empty"):
        text_cell(None, "w", "c")
    with pytest.raises(InputError, match="line break"):
        text_cell("a\u2028b", "w", "c")


def test_read_table_errors_share_one_wording(tmp_path):
    with pytest.raises(InputError, match=r"^topics file .*nope.csv: no such file"):
        read_table(tmp_path / "nope.csv", "topics")
    with pytest.raises(InputError, match=r"^topics file .*: is a folder"):
        read_table(tmp_path, "topics")
    (tmp_path / "x.xlsx").write_text("")
    with pytest.raises(InputError, match=r"unknown extension '.xlsx'"):
        read_table(tmp_path / "x.xlsx", "topics")
    (tmp_path / "t.csv").write_text("a,b\n1,2,3\n")
    with pytest.raises(InputError, match=r"t.csv, line 2: 3 fields for 2 columns"):
        read_table(tmp_path / "t.csv", "topics")


TOPIC_HEADER = "topic_id,topic_neutral,topic_pro,topic_con\n"


@pytest.mark.parametrize(
    ("name", "content", "message"),
    [
        ("t.csv", TOPIC_HEADER + '7,"tax,more tax,less tax\n8,b,c,d\n', r"line 2: not valid CSV"),
        ("t.csv", TOPIC_HEADER + '7,"tax\nrates",more,less\n', r"topic_neutral holds a line"),
        ("t.csv", TOPIC_HEADER + "7,tax\x00,more,less\n", r"topic_neutral holds a NUL"),
        (
            "t.jsonl",
            json.dumps(
                {"topic_id": 7, "topic_neutral": {"t": 1}, "topic_pro": "a", "topic_con": "b"}
            )
            + "\n",
            r"line 1: topic_neutral is a JSON object",
        ),
        (
            "t.jsonl",
            json.dumps({"topic_id": 7, "topic_neutral": 42, "topic_pro": "a", "topic_con": "b"})
            + "\n",
            r"line 1: topic_neutral is a JSON number",
        ),
        (
            "t.csv",
            TOPIC_HEADER + f"7,{CAFE_NFC},a,b\n8,{CAFE_NFD},c,d\n",
            r"topics 7 and 8 have the same topic_neutral",
        ),
    ],
)
def test_bad_topics_file_is_one_line(tmp_path, name, content, message):
    from inspect_stance.construction.topics import load_topics_file

    path = tmp_path / name
    path.write_text(content, encoding="utf-8")
    with pytest.raises(InputError, match=message) as ex:
        load_topics_file(path)
    assert str(path) in _one_line(ex)


def test_good_topics_file_still_reads(tmp_path):
    from inspect_stance.construction.topics import load_topics_file

    path = tmp_path / "t.csv"
    path.write_text(TOPIC_HEADER + '7,"tax, rates",more tax,less tax\n')
    [topic], excluded = load_topics_file(path)
    assert (topic.topic_id, topic.neutral, topic.pro, topic.con) == (
        7,
        "tax, rates",
        "more tax",
        "less tax",
    )
    assert excluded == []


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("bias\tstatement\nleft\tA \x00statement\n", r"line 2: statement holds a NUL byte"),
        (f"bias\tstatement\nleft\t{CAFE_NFC}\nright\t{CAFE_NFD}\n", r"line 3 repeats .* of line 2"),
        ("bias\tstatement\nleft\tTax\u200b cuts\nright\ttax cuts\n", r"line 3 repeats"),
        ("bias\tstatement\nleft\tTax\rcuts help\n", r"line 2: statement holds a line break"),
    ],
)
def test_bad_statements_file_is_one_line(tmp_path, content, message):
    from inspect_stance.press.statements import load_statements

    path = tmp_path / "s.tsv"
    path.write_bytes(content.encode("utf-8"))
    with pytest.raises(InputError, match=message) as ex:
        load_statements(path)
    assert str(path) in _one_line(ex)


@pytest.mark.parametrize(
    ("record", "message"),
    [
        ({"support": 42}, r"record 1: support is a JSON number"),
        ({"counter": {"text": "x"}}, r"record 1: counter is a JSON object"),
        ({"statement": ["Markets are free."]}, r"record 1: statement is a JSON list"),
        ({"argument_set": True}, r"argument_set True"),
        ({"argument_set": 0.7}, r"argument_set 0.7"),
        ({"support": "Free \x00markets"}, r"support holds a NUL byte"),
    ],
)
def test_bad_arguments_file_is_one_line(tmp_path, record, message):
    from inspect_stance.press.arguments import load_arguments
    from inspect_stance.press.statements import Statement

    base = {"statement": "Markets are free.", "argument_set": 0, "support": "a\nb", "counter": "c"}
    path = tmp_path / "args.jsonl"
    path.write_text(json.dumps({**base, **record}) + "\n")
    with pytest.raises(InputError, match=message) as ex:
        load_arguments(path, [Statement(0, "right", "Markets are free.")], 1)
    assert str(path) in _one_line(ex)


def test_good_arguments_file_keeps_paragraphs(tmp_path):
    from inspect_stance.press.arguments import load_arguments
    from inspect_stance.press.statements import Statement

    path = tmp_path / "args.jsonl"
    rec = {"statement": "Markets are free.", "argument_set": "0", "support": "a\nb", "counter": "c"}
    path.write_text(json.dumps(rec) + "\n")
    loaded = load_arguments(path, [Statement(0, "right", "Markets are free.")], 1)
    assert loaded.table == {"Markets are free.": [{"support": "a\nb", "counter": "c"}]}


def test_human_labels_file_with_a_stray_quote_names_the_line(tmp_path):
    from inspect_stance.construction.human_labels import load_model_labels

    path = tmp_path / "h.csv"
    path.write_text('id,label\n"abc,3\nxyz,2\n')
    with pytest.raises(InputError, match=r"h.csv, line 2: not valid CSV") as ex:
        load_model_labels(path)
    _one_line(ex)
    path.write_text("id,label\nabc,3\n")
    assert load_model_labels(path) == {(None, "abc"): "3"}
