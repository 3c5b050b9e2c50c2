"""Each task's ``-T`` options are declared once (:mod:`inspect_stance.task_options`): the task
function's signature agrees with the declaration, the declared defaults pass their own checks
unchanged, and the docs' tables come from the declaration."""

from __future__ import annotations

import dataclasses
import inspect

import pytest

from inspect_stance import docgen, task_options
from inspect_stance.errors import InputError


def _task(name: str):
    for specs in docgen.documented_tasks().values():
        for spec in specs:
            if spec.endswith(f":{name}"):
                return docgen._load(spec)
    raise AssertionError(f"{name} is not documented")


DECLARED = sorted(task_options.declared_options())
#: options without a usable default (the task refuses to run without them)
REQUIRED = {"judge_validation": {"annotations": "labels.csv"}}


def test_the_seven_tasks_are_declared():
    assert set(DECLARED) >= {
        "stance_drift",
        "press",
        "press_arguments",
        "prompt_construction",
        "judge_validation",
        "prompt_validation",
        "even_handedness",
    }


@pytest.mark.parametrize("task", DECLARED)
def test_signature_agrees_with_the_declaration(task: str) -> None:
    fn, cls = _task(task), task_options.options_class(task)
    assert cls is not None
    assert task_options.signature_mismatches(fn, cls) == []
    # the docs come from the declaration, so the task's docstring holds no second copy
    assert "Args:" not in (inspect.getdoc(fn) or "")


@pytest.mark.parametrize("task", DECLARED)
def test_declared_defaults_pass_their_checks(task: str) -> None:
    cls = task_options.options_class(task)
    assert cls is not None
    for f in task_options.declared(cls):
        assert f.metadata["doc"], f"{task}.{f.name} has no doc line"
    parsed = cls.parse(**REQUIRED.get(task, {}))  # type: ignore[attr-defined]
    assert isinstance(parsed, cls)
    # a default the check keeps as it is stays the same (None for "all" becomes the list)
    for f in task_options.declared(cls):
        value = getattr(parsed, f.name)
        if f.default is not None and not isinstance(value, list):
            assert value == f.default, f"{task}.{f.name}: {f.default!r} parses to {value!r}"


def test_a_changed_default_or_order_is_found():
    @dataclasses.dataclass(frozen=True)
    class Opts:
        trials: int = task_options.option(100, "trials.", check=task_options.integer())
        seed: int = task_options.option(0, "seed.")

    def agrees(trials: int = 100, seed: int = 0, **unknown: object) -> None: ...
    def other_default(trials: int = 10, seed: int = 0) -> None: ...
    def other_order(seed: int = 0, trials: int = 100) -> None: ...
    def missing(trials: int = 100) -> None: ...
    def bool_for_int(trials: int = 100, seed: bool = False) -> None: ...

    assert task_options.signature_mismatches(agrees, Opts) == []
    assert task_options.signature_mismatches(other_default, Opts) == [
        "trials: signature default 10 != 100"
    ]
    assert task_options.signature_mismatches(other_order, Opts)[0].startswith("names:")
    assert task_options.signature_mismatches(missing, Opts)[0].startswith("names:")
    assert task_options.signature_mismatches(bool_for_int, Opts) == [
        "seed: signature default False != 0"
    ]


def test_values_are_checked_by_keyword():
    @dataclasses.dataclass(frozen=True)
    class Opts:
        trials: int = task_options.option(100, "trials.", check=task_options.integer(example=5))
        mode: str = task_options.option("a", "mode.", check=task_options.one_of(("a", "b")))

    assert task_options.checked_values(Opts, {"trials": "7"}) == {"trials": 7, "mode": "a"}
    with pytest.raises(InputError, match=r"trials 'x' is not an integer; use e.g. -T trials=5"):
        task_options.checked_values(Opts, {"trials": "x"})
    with pytest.raises(InputError, match=r"unknown mode 'c'; .* one of a, b"):
        task_options.checked_values(Opts, {"mode": "c"})
    with pytest.raises(TypeError, match="no option"):
        task_options.checked_values(Opts, {"trails": 3})


def test_a_signature_out_of_step_fails_the_table(monkeypatch):
    fn = _task("stance_drift")

    def stance_drift(variant: str = "default", trials: int = 99) -> None: ...

    assert docgen.parameter_table(fn).count("\n") > 10
    with pytest.raises(InputError, match="signature out of step with DriftOptions"):
        docgen.parameter_table(stance_drift)


def test_task_arguments_hand_on_the_declared_options_only() -> None:
    """What a task function's ``locals()`` hands on: its declared options, not the catch-all
    ``unknown`` or a name bound later."""
    from inspect_stance.even_handedness.options import EvenOptions
    from inspect_stance.task_options import task_arguments

    given = {"limit": 3, "threshold": 0.4, "unknown": {"x": 1}, "pair_responses": object()}
    assert task_arguments(EvenOptions, given) == {"limit": 3, "threshold": 0.4}
    assert EvenOptions.parse(**task_arguments(EvenOptions, given)).limit == 3
