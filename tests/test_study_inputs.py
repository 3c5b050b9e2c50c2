"""A folder of logs sorted by method (:func:`inspect_stance.study.sort_inputs`): a run whose
settings differ from the other runs of its method and an adaptive run beside fixed ones are set
aside, one line each, and the rest reported; ``--strict`` refuses; a file named is kept."""

from __future__ import annotations

import json
import shutil

import pytest
from inspect_ai import eval as inspect_eval
from inspect_ai.log import read_eval_log, write_eval_log
from inspect_stance.tasks.stance_drift import stance_drift

from inspect_stance.cli import main
from inspect_stance.errors import InputError
from inspect_stance.study import sort_inputs

pytestmark = pytest.mark.slow  # one stance-drift run (~15 s on 2 busy cores), copied four times


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    """Four stance-drift logs in a folder: ``a`` and ``b`` alike, ``c`` of another prompt
    variant, ``d`` adaptive (copies of one small run with their headers changed)."""
    root = tmp_path_factory.mktemp("sorted")
    [log] = inspect_eval(stance_drift(limit_propositions=2, trials=2),
                         model="stance_sim/respondent", log_dir=str(root / "logs"),
                         display="none")  # fmt: skip
    full = read_eval_log(log.location)
    runs = root / "runs"
    runs.mkdir()
    base = dict(full.eval.task_args or {})
    changes = {"a": {}, "b": {}, "c": {"variant": "reversed"}, "d": {"adaptive_halfwidth": 0.2}}
    for name, change in changes.items():
        full.eval.eval_id = f"run-{name}"
        full.eval.task_args = {**base, **change}
        write_eval_log(full, str(runs / f"{name}.eval"))
    return runs


def test_differing_settings_and_adaptive_runs_are_set_aside(folder):
    found = sort_inputs([str(folder)])
    assert [p.name for p in found.by_method["stance_drift"]] == ["a.eval", "b.eval"]
    lines = found.set_aside
    assert len(lines) == 2 and lines == found.differing
    (adaptive,) = [x for x in lines if "d.eval" in x]
    assert "an adaptive run beside 3 fixed stance_drift run(s)" in adaptive
    (other,) = [x for x in lines if "c.eval" in x]
    assert "settings differ" in other and "variant='reversed'" in other


def test_strict_refuses_and_a_named_file_is_kept(folder, tmp_path):
    with pytest.raises(InputError, match="set aside"):
        sort_inputs([str(folder)], strict=True)
    alike = tmp_path / "alike"
    alike.mkdir()
    for name in ("a", "b"):
        shutil.copy(folder / f"{name}.eval", alike)
    found = sort_inputs([str(alike), str(folder / "c.eval")])
    assert [p.name for p in found.by_method["stance_drift"]] == ["a.eval", "b.eval", "c.eval"]
    assert not found.set_aside


def test_report_on_the_folder_says_what_it_set_aside(folder, capsys):
    assert main(["report", str(folder), "--json"]) == 0
    captured = capsys.readouterr()
    assert len(json.loads(captured.out)["runs"]) == 2
    aside = [x for x in captured.err.splitlines() if "set aside" in x]
    assert len(aside) == 2
    assert main(["report", str(folder), "--strict"]) == 2
