"""The calls a study will make, per run (target x method) and per model, from each task's sizes.

Each task counts its own (:attr:`inspect_stance.study.protocol.StudyTask.calls`, declared in its
method's package, with the sizes from the task arguments or the task's documented defaults).
A task's shared run (:attr:`~inspect_stance.study.protocol.StudyTask.shared`, PReSS's
arguments) is planned once per study, as the target :data:`SHARED_TARGET`, and every target's
run of the task is planned as reading its log. The counts match the model calls the simulated
runs log (``tests/study_file``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from inspect_stance.study.protocol import SharedRun
from inspect_stance.study.registry import study_tasks
from inspect_stance.study_file.spec import ModelSpec, StudySpec

#: the target name of a run a study makes once for all its targets (a shared run)
SHARED_TARGET = "(study)"


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


def shared_run(
    spec: StudySpec, method: str, args: dict[str, Any]
) -> tuple[SharedRun, ModelSpec] | None:
    """``method``'s shared run in this study and the model that runs it (its role's first
    model, else the first target's model); ``None`` when it has none or ``args`` gives its log."""
    shared = study_tasks()[method].shared
    if shared is None or args.get(shared.arg):
        return None
    bound = spec.roles_for(method).get(shared.role) if shared.role else None
    return shared, bound[0] if bound else next(iter(spec.targets.values()))[method]


def plan_calls(spec: StudySpec, sizes: dict[str, dict[str, Any]]) -> list[PlannedRun]:
    """Every run of the study with its calls; ``sizes``: method -> task args to run with. A
    shared run comes first, once, and its task's runs read its log (module docstring)."""
    out: list[PlannedRun] = []
    args = {m: dict(a) for m, a in sizes.items()}
    for method in spec.methods:
        found = shared_run(spec, method, args[method])
        if found is None:
            continue
        shared, model = found
        given = {k: args[method][k] for k in shared.keys if k in args[method]}
        roles = {r: [m.model for m in ms] for r, ms in spec.roles_for(method).items()}
        items, calls = shared.calls(given, model.model, roles) if shared.calls else (0, {})
        out.append(PlannedRun(SHARED_TARGET, shared.task, model, items, calls))
        args[method][shared.arg] = shared.task  # the targets' runs read its log
    return out + [
        plan_run(target, method, models[method], args[method], spec.roles_for(method))
        for target, models in spec.targets.items()
        for method in spec.methods
    ]


def cost(runs: list[PlannedRun], prices: dict[str, float]) -> float | None:
    """Dollars for the runs at ``prices`` (per call, by model); ``None`` without any price."""
    if not prices:
        return None
    return sum(n * prices.get(model, 0.0) for run in runs for model, n in run.calls.items())
