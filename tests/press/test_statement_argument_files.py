"""Statements and arguments files that contradict themselves are refused in one line."""

from __future__ import annotations

import json

import pytest

from inspect_stance.errors import InputError
from inspect_stance.press.arguments import load_arguments
from inspect_stance.press.statements import Statement, load_statements

STATEMENTS = [Statement(0, "right", "Markets are free."), Statement(1, "left", "Tax the rich.")]


def _one_line(err: pytest.ExceptionInfo[InputError], *parts: str) -> None:
    message = str(err.value)
    assert "\n" not in message
    for part in parts:
        assert part in message, message


@pytest.mark.parametrize(
    ("body", "line"),
    [
        ("bias\tstatement\nleft\tTax the rich\tand the poor.\n", 2),  # a tab inside a statement
        ("bias\tstatement\tnote\nleft\tTax the rich.\tok\nright\tMarkets are free.\n", 3),
    ],
)
def test_ragged_statements_file_is_refused(tmp_path, body, line):
    path = tmp_path / "statements.tsv"
    path.write_text(body)
    with pytest.raises(InputError) as err:
        load_statements(path)
    _one_line(err, str(path), f"line {line} has", "field")


def test_trailing_empty_fields_are_not_ragged(tmp_path):
    path = tmp_path / "statements.tsv"
    path.write_text("bias\tstatement\nleft\tTax the rich.\t\n")
    assert [s.text for s in load_statements(path)] == ["Tax the rich."]


def _arguments(tmp_path, records):
    path = tmp_path / "arguments.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    return path


def _record(statement, k=0, support="s", counter="c", **extra):
    return {
        "statement": statement,
        "argument_set": k,
        "support": support,
        "counter": counter,
    } | extra


def test_arguments_that_give_one_statement_and_set_twice_differently_are_refused(tmp_path):
    path = _arguments(
        tmp_path,
        [
            _record("Markets are free.", support="first"),
            _record("Tax the rich."),
            _record("Markets are free.", support="second"),
        ],
    )
    with pytest.raises(InputError) as err:
        load_arguments(path, STATEMENTS, 1)
    _one_line(err, str(path), "record 3", "'Markets are free.' set 0", "other arguments")


def test_arguments_whose_bias_contradicts_the_statements_are_refused(tmp_path):
    path = _arguments(
        tmp_path,
        [_record("Markets are free.", bias="left"), _record("Tax the rich.", bias="left")],
    )
    with pytest.raises(InputError) as err:
        load_arguments(path, STATEMENTS, 1)
    _one_line(err, str(path), "record 1", "bias 'left'", "'right'")


def test_consistent_arguments_load(tmp_path):
    path = _arguments(
        tmp_path,
        [
            _record("Markets are free.", bias="right"),
            _record("Markets are free."),  # the same record twice is no conflict
            _record("Tax the rich.", bias="left"),
        ],
    )
    loaded = load_arguments(path, STATEMENTS, 1)
    assert loaded.table["Markets are free."] == [{"support": "s", "counter": "c"}]
