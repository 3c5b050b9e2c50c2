"""The calls a study will make, per run (target x method) and per model, from each task's sizes.

Each task counts its own (:attr:`inspect_stance.study.protocol.StudyTask.calls`, declared in its
method's package, with the sizes from the task arguments or the task's documented defaults).
The counts match the model calls the simulated runs log (``tests/study_file``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from inspect_stance.study.registry import study_tasks
from inspect_stance.study_file.spec import ModelSpec, StudySpec


@dataclass
class PlannedRun:
    """One run of a study: a target's model on one method, its items and calls per model."""

    target: str
    method: str
    model: ModelSpec
    items: int
    calls: dict[str, int] = field(default_factory=dict)  # model -> calls

    @property
    def total(self) -> int:
        """All calls of the run."""
        return sum(self.calls.values())


def plan_run(target: str, method: str, model: ModelSpec, args: dict[str, Any],
             roles: dict[str, list[ModelSpec]]) -> PlannedRun:  # fmt: skip
    """The :class:`PlannedRun` of ``target``'s ``model`` on ``method`` (module docstring)."""
    counter = study_tasks()[method].calls
    if counter is None:
        return PlannedRun(target, method, model, 0)
    items, calls = counter(args, model.model, {r: [m.model for m in ms] for r, ms in roles.items()})
    return PlannedRun(target, method, model, items, calls)


def plan_calls(spec: StudySpec, sizes: dict[str, dict[str, Any]]) -> list[PlannedRun]:
    """Every run of the study with its calls; ``sizes``: method -> task args to run with."""
    return [
        plan_run(target, method, models[method], sizes[method], spec.roles_for(method))
        for target, models in spec.targets.items()
        for method in spec.methods
    ]


def cost(runs: list[PlannedRun], prices: dict[str, float]) -> float | None:
    """Dollars for the runs at ``prices`` (per call, by model); ``None`` without any price."""
    if not prices:
        return None
    return sum(n * prices.get(model, 0.0) for run in runs for model, n in run.calls.items())
