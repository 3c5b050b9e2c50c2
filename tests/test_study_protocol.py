"""The method protocol's registrations: every method's hooks resolve to real functions of the
right shape, a task belongs to one method, and "which method reads this log?" has one answer."""

from __future__ import annotations

import importlib
import inspect

import pytest

from inspect_stance.errors import InputError
from inspect_stance.stats.family import MetricSpec
from inspect_stance.study import method_named, method_of_task, methods
from inspect_stance.study.protocol import Method, register_method


def test_every_comparer_module_implements_the_interface():
    comparers = [m for m in methods() if m.comparer is not None]
    assert {m.name for m in comparers} >= {"stance_drift", "press", "construction",
                                          "prompt_validation"}  # fmt: skip
    for m in comparers:
        assert m.comparer is not None
        specs = list(m.comparer.metrics())
        assert specs and all(isinstance(s, MetricSpec) for s in specs), m.name
        assert len({s.name for s in specs}) == len(specs), m.name
        if m.comparer.module:
            core = importlib.import_module(m.comparer.module)
            assert list(inspect.signature(core.read_runs).parameters) == ["paths", "request"]
            assert list(inspect.signature(core.compare_runs).parameters) == [
                "runs", "names", "metrics", "request"]  # fmt: skip
            if m.comparer.sections is not None:
                assert list(inspect.signature(core.compare_sections).parameters) == [
                    "runs", "names", "request"]  # fmt: skip


def test_gates_name_their_floor_and_default_metric():
    gated = {m.name: m.gate for m in methods() if m.gate is not None}
    assert gated["stance_drift"].min_flag == "--min-spr"  # type: ignore[union-attr]
    assert gated["press"].metrics[0] == "share_stable"  # type: ignore[union-attr]


@pytest.mark.parametrize(
    "task, method",
    [("press", "press"), ("inspect_stance/press", "press"), ("judge_validation", "construction"),
     ("prompt_validation", "prompt_validation"), ("other_task", None)],
)  # fmt: skip
def test_one_answer_to_which_method_reads_a_task(task, method):
    found = method_of_task(task)
    assert (found.name if found else None) == method


def test_a_task_belongs_to_one_method_and_names_resolve():
    with pytest.raises(ValueError, match="already"):
        register_method(Method(name="copy", tasks=("press",), report_command="x"))
    assert method_named("prompt_construction").name == "construction"  # an alias
    with pytest.raises(InputError, match="no method 'nope'"):
        method_named("nope")


def test_gate_takes_the_methods_own_floor(tmp_path, capsys):
    import numpy as np

    from inspect_stance.cli import main

    run = tmp_path / "run.npz"
    rng = np.random.default_rng(0)
    np.savez(run, probs=rng.dirichlet(np.ones(5), size=(3, 4, 5)))
    assert main(["gate", str(run), "--min-share-stable", "0.5"]) == 2
    err = capsys.readouterr().err
    assert "--min-share-stable is not for stance_drift runs; use --min-spr" in err
    assert main(["gate", str(run), "--min-spr", "0.0"]) == 0


def test_plan_and_gate_say_which_runs_they_read(tmp_path, capsys):
    from inspect_stance.cli import main

    text = tmp_path / "notes.txt"
    text.write_text("not a log")
    assert main(["plan", str(text)]) == 2
    err = capsys.readouterr().err
    assert "which plan does not read" in err or "not a run of a known task" in err
    assert main(["gate", str(text), "--min-spr", "0.5"]) == 2
    assert (
        "not readable as an Inspect log; pass a log of stance_drift, press"
        in capsys.readouterr().err
    )


@pytest.mark.parametrize("method", [m.name for m in methods()])
def test_every_report_command_takes_what_report_passes_on(method, capsys):
    """``report --out DIR`` runs each method's report command with ``--label`` and
    ``--partial``: every registered method's command must take both."""
    from inspect_stance.cli import main

    with pytest.raises(SystemExit) as ex:
        main([method_named(method).report_command, "--help"])
    assert ex.value.code == 0
    text = capsys.readouterr().out
    assert "--partial" in text and "--label" in text


def test_a_headline_has_one_road_to_its_run():
    """A task's headline reads its run through one loader (``TaskHeadline.load``: the method's
    run class, shards pooled by its ``merge``), never through per-surface hooks of its own
    (``pooled`` / ``items``); every declared headline has one."""
    import dataclasses

    from inspect_stance.study.protocol import TaskHeadline

    names = {f.name for f in dataclasses.fields(TaskHeadline)}
    assert "load" in names and not {"pooled", "items"} & names
    for m in methods():
        for task, spec in m.headlines.items():
            assert spec.load is not None, f"{m.name}: {task} declares no run loader"
