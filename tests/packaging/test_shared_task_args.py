"""-T names across tasks: a name no task of the package has is a one-line error (a typo); a
name another of the package's tasks has is what one ``inspect eval-set`` command line running
several tasks passes, and is ignored with Inspect's own warning, as Inspect does itself."""

from __future__ import annotations

import logging
import subprocess
import sys
from pathlib import Path

import pytest
from inspect_stance.tasks.press_arguments import press_arguments
from inspect_stance.tasks.stance_drift import stance_drift

import inspect_stance._registry  # noqa: F401  (registers the tasks)
from inspect_stance.errors import InputError

ROOT = Path(__file__).resolve().parents[2]


def test_a_typo_is_still_an_error():
    with pytest.raises(InputError, match=r"-T tirals \(did you mean trials\?\)"):
        stance_drift(tirals=5)


def test_another_tasks_parameter_is_ignored_with_inspects_warning(caplog):
    with caplog.at_level(logging.WARNING):
        task = press_arguments(trials=5)
    assert task.name.endswith("press_arguments")
    assert "param 'trials' not used by task 'press_arguments'" in caplog.text


def test_a_typo_beside_a_shared_name_is_an_error():
    with pytest.raises(InputError) as info:
        press_arguments(trials=5, argument_set=2)
    assert "argument_set" in str(info.value) and "-T trials" not in str(info.value)


@pytest.mark.slow
def test_eval_set_of_two_tasks_with_one_tasks_parameter(tmp_path):
    r = subprocess.run(
        [
            *(sys.executable, "-m", "inspect_ai._cli.main"),
            *("eval-set", "inspect_stance/stance_drift", "inspect_stance/press_arguments"),
            *("--model", "press_sim/target", "-T", "trials=2", "-T", "limit_propositions=1"),
            *("--limit", "1", "--log-dir", str(tmp_path), "--display", "none"),
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert r.returncode == 0, r.stderr[-3000:]
    assert len(list(tmp_path.glob("*.eval"))) == 2
