"""Naming, identity and settings checks of the runs to compare (inspect_stance.runs)."""

from __future__ import annotations

import pytest

from inspect_stance.errors import InputError
from inspect_stance.runs import (
    RunInfo,
    check_settings,
    dedupe,
    name_runs,
    parse_labels,
    run_names,
)


def _info(src, model, run_id=None, tags=(), **args):
    return RunInfo(source=src, run_id=run_id or src, model=model, task_args=args, tags=list(tags))


def test_names_model_then_differing_args_then_tags_then_labels():
    infos = [
        _info("a.eval", "m1", variant="default", trials=3),
        _info("b.eval", "m1", variant="reversed", trials=3),
        _info("c.eval", "m2", variant="default", trials=3),
        _info("d.eval", "m3", tags=["release-2"]),
    ]
    assert name_runs(infos) == [
        "m1 [variant=default]", "m1 [variant=reversed]", "m2", "release-2"
    ]  # fmt: skip
    assert name_runs(infos, parse_labels(["c.eval=candidate"]))[2] == "candidate"
    with pytest.raises(InputError, match="no such run"):
        name_runs(infos, {"zzz.eval": "x"})
    with pytest.raises(InputError, match="RUN=NAME"):
        parse_labels(["nolabel"])


def test_identical_names_told_apart_by_identity_whatever_the_order():
    infos = [_info("x/a.eval", "m", "eval:aaaa1111zz", trials=3),
             _info("y/a.eval", "m", "eval:bbbb2222zz", trials=3)]  # fmt: skip
    names, notes = run_names(infos)
    assert names == ["m [run aaaa1111]", "m [run bbbb2222]"]
    assert run_names(infos[::-1])[0] == names[::-1]
    assert len(notes) == 1 and "--label" in notes[0]


def test_labels_that_collide_are_made_unique():
    infos = [_info("a.eval", "m1", "eval:aaaa1111"), _info("b.eval", "m2", "eval:bbbb2222")]
    names = name_runs(infos, parse_labels(["a.eval=X", "b.eval=X"]))
    assert len(set(names)) == 2 and all(n.startswith("X [run ") for n in names)


def test_model_args_and_base_url_host_set_runs_apart_without_credentials():
    a, b = _info("a.eval", "vllm/m", "eval:1"), _info("b.eval", "vllm/m", "eval:2")
    a.model_args, b.model_args = {"seed": 1, "api_key": "s1"}, {"seed": 3, "api_key": "s2"}
    assert name_runs([a, b]) == ["vllm/m [seed=1]", "vllm/m [seed=3]"]
    a.model_args = b.model_args = {}
    a.base_url = "http://user:pw@gpu1:8000/v1"
    b.base_url = "http://gpu2:8000/v1"
    names = name_runs([a, b])
    assert names == ["vllm/m [base_url=gpu1:8000]", "vllm/m [base_url=gpu2:8000]"]


def test_control_characters_in_names_are_escaped():
    infos = [_info("a.eval", "m\n::warning::x", "eval:1"), _info("b.eval", "n", "eval:2",
             tags=["t\r\n::error::y\x1b[2J"])]  # fmt: skip
    names = name_runs(infos, parse_labels(["a.eval=L\n::warning::z"]))
    assert names == ["L\\n::warning::z", "t\\r\\n::error::y\\x1b[2J"]
    assert all(n.isprintable() for n in names)


def test_same_run_twice_counted_once():
    infos = [_info("a.eval", "m", "eval:1"), _info("copy.eval", "m", "eval:1"),
             _info("b.eval", "m", "eval:2")]  # fmt: skip
    keep, line = dedupe(infos)
    assert keep == [0, 2]
    assert "copy.eval (same run as a.eval)" in line


def test_different_settings_refused_unless_allowed():
    a, b = _info("a", "m"), _info("b", "m")
    a.settings, b.settings = {"variant": "default"}, {"variant": "reversed"}
    with pytest.raises(InputError, match="variant differs.*--allow-different-settings"):
        check_settings([a, b], ["A", "B"])
    notes = check_settings([a, b], ["A", "B"], allow=True)
    assert notes and "variant" in notes[0]
    b.settings = {"variant": "default"}
    assert check_settings([a, b], ["A", "B"]) == []
