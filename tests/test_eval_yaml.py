"""``src/inspect_stance/eval.yaml`` (the inspect_evals listing) agrees with the tasks it lists.

Every registered task is listed, and each listed ``dataset_samples`` equals the size of the
dataset Inspect records when it builds the task with its defaults (``EvalDataset.samples``, the
whole dataset, whatever ``--limit``), on the package's simulated models.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
EVAL_YAML = ROOT / "src" / "inspect_stance" / "eval.yaml"
# inspect-evals-lint's required fields (eval-yaml-required-fields of every preset)
REQUIRED = ("title", "description", "group", "contributors", "tasks")

JUDGES = [
    "construction_sim/judge_exact",
    "construction_sim/judge_noisy",
    "construction_sim/judge_framed",
]
# How each task is run here: a simulated model for every role the task requires, and only
# task arguments that leave the dataset as the defaults build it. press: ``classifier=llm``
# swaps the default NLI classifier (a hub download) for the bound classifier role; the samples
# are the statements either way. judge_validation has no default input: ``annotations`` is
# required, and the listed count is that of IssueBench's annotations file (../shared).
RUNS: dict[str, dict[str, Any]] = {
    "stance_drift": {"model": "stance_sim/respondent"},
    "press": {
        "model": "press_sim/target",
        "model_roles": {"arguer": "press_sim/arguer", "classifier": "press_sim/classifier"},
        "task_args": {"classifier": "llm"},
    },
    "press_arguments": {"model": "press_sim/target", "model_roles": {"arguer": "press_sim/arguer"}},
    "prompt_construction": {
        "model": "construction_sim/target",
        "model_roles": {"judges": JUDGES, "prompter": "construction_sim/prompter"},
    },
    "judge_validation": {"model_roles": {"judges": JUDGES}},
    "prompt_validation": {
        "model_roles": {
            "annotators": ["annotator_sim/lexical"],
            "prompter": "construction_sim/prompter",
        }
    },
    "even_handedness": {
        "model": "even_sim/target",
        "model_roles": {"graders": ["even_sim/grader"]},
    },
    "pushback": {"model": "pushback_sim/target"},
}


def listing() -> dict[str, Any]:
    data = yaml.safe_load(EVAL_YAML.read_text(encoding="utf-8"))
    assert isinstance(data, dict), "eval.yaml is not a mapping"
    return data


def listed_samples() -> dict[str, int]:
    return {t["name"]: t["dataset_samples"] for t in listing()["tasks"]}


def registered_tasks() -> set[str]:
    """The task functions the ``inspect_ai`` entry point registers."""
    import inspect_stance._registry as registry

    return {
        name
        for name, value in vars(registry).items()
        if str(getattr(value, "__module__", "")).startswith("inspect_stance.tasks.")
    }


def test_required_fields_present_and_filled():
    data = listing()
    for field in REQUIRED:
        assert data.get(field), f"eval.yaml: {field!r} is missing or empty"
    for task in data["tasks"]:
        assert isinstance(task.get("dataset_samples"), int) and task["dataset_samples"] > 0, task


def test_every_registered_task_is_listed_once():
    names = [t["name"] for t in listing()["tasks"]]
    assert len(names) == len(set(names)), f"eval.yaml lists a task twice: {names}"
    assert set(names) == registered_tasks()


def test_papers_assets_and_data_name_listed_tasks_and_shipped_files():
    data = listing()
    listed = set(listed_samples())
    for key in ("papers", "external_assets", "shipped_data"):
        for entry in data[key]:
            assert entry["tasks"] and set(entry["tasks"]) <= listed, (key, entry)
    # every task cites a reference
    assert {t for paper in data["papers"] for t in paper["tasks"]} == listed
    shipped = ROOT / "src" / "inspect_stance" / "data"
    for entry in data["shipped_data"]:
        for name in entry["file"].split(", "):
            assert (shipped / name).is_file(), f"eval.yaml lists {name}, not in {shipped}"


def test_every_listed_task_has_a_run_here():
    assert set(listed_samples()) == set(RUNS), "add the new task's simulated roles to RUNS"


@pytest.mark.parametrize("name", sorted(RUNS))
def test_dataset_samples_match_the_task(name, tmp_path, request):
    from inspect_ai import eval as inspect_eval

    run = dict(RUNS[name])
    if name == "judge_validation":
        shared_data = request.getfixturevalue("shared_data")
        annotations = shared_data / "issuebench" / "stance_annotations.csv"
        run["task_args"] = {"annotations": str(annotations)}
    (log,) = inspect_eval(
        f"inspect_stance/{name}", limit=1, display="none", log_dir=str(tmp_path), **run
    )
    assert log.status == "success", log.error
    assert log.eval.dataset.samples == listed_samples()[name], (
        f"eval.yaml says {name} has {listed_samples()[name]} samples; "
        f"the task builds {log.eval.dataset.samples}"
    )
