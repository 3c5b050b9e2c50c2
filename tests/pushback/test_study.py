"""Pushback in a study file: its planned calls by hand, and its checks before any run."""

from __future__ import annotations

import pytest

from inspect_stance.errors import InputError
from inspect_stance.pushback.study import calls, check


def test_planned_calls_by_hand():
    # 3 propositions x 2 assigned stances x (6 styles + control) x 1 trial = 42
    # conversations, each (K + 1) replies and (K + 1) readings = 12 calls at K = 5
    assert calls({"limit_propositions": 3}, "m", {}) == (3, {"m": 42 * 12})
    # own stance, two styles, no control, K = 2, 3 trials: 4 x 1 x 2 x 3 = 24 x 6 calls
    args = {"limit_propositions": 4, "start": "own", "styles": "plain,expertise",
            "control": False, "turns": 2, "trials": 3}  # fmt: skip
    assert calls(args, "m", {}) == (4, {"m": 24 * 6})


def test_a_judge_reader_and_bad_values_are_refused_before_any_run():
    with pytest.raises(InputError, match="reader"):
        check({"reader": "judge"})
    with pytest.raises(InputError, match="turns"):
        check({"turns": "many"})
