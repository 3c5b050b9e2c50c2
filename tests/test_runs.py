"""Naming, identity and settings checks of the runs to compare (inspect_stance.runs)."""

from __future__ import annotations

import pytest

from inspect_stance.errors import InputError
from inspect_stance.runs import RunInfo, check_settings, dedupe, name_runs, parse_labels


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


def test_identical_names_get_a_counter():
    infos = [_info("x/a.eval", "m", trials=3), _info("y/a.eval", "m", trials=3)]
    assert name_runs(infos) == ["m", "m #2"]


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
