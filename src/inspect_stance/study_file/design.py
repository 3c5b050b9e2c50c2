"""Sizes from a study's design: explicit, a target standard error, or a budget in calls.

Each method has one size parameter, the number of items its headline's standard error is taken
over (its :attr:`~inspect_stance.study.protocol.StudyTask.size`); the other sizes stay as given
(or the task's default).

- ``target_se: h``: ``n = ceil((sd / h)^2)`` items, the standard error ``sd / sqrt(n)`` of a mean
  over ``n`` independent items, capped at the method's item set (under its filters: the
  ``items`` of its :class:`~inspect_stance.study.protocol.StudySize`). ``sd`` is the per-item standard
  deviation of the headline, by default the largest a value in its range can have (half the
  range: a share in [0, 1] has ``sd <= 0.5``, a mean rank in [1, 3] ``sd <= 1``), so the plan
  errs on the side of more items; ``design: {sd: {stance_drift: 0.15}}`` uses a pilot's figure.
- ``budget_calls: B``: the budget is split equally over the runs (targets x methods) and each
  run gets the most items whose calls (:mod:`.calls`) fit its share.

Methods whose standard error is over an item set fixed by their data keep it under
``target_se`` (``press``: the statements; ``prompt_construction`` and ``prompt_validation``: the
settings, topics x intents x stances, chosen by ``topics``); the plan says so. Under
``budget_calls`` these two scale their prompts per setting instead (``press`` stays).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from inspect_stance.errors import InputError
from inspect_stance.study.registry import study_tasks
from inspect_stance.study_file.calls import plan_run
from inspect_stance.study_file.checks import checked_options
from inspect_stance.study_file.spec import StudySpec


@dataclass(frozen=True)
class Sizing:
    """The task arguments each method runs with and one line per method saying why."""

    args: dict[str, dict[str, Any]]
    notes: list[str]


def sizes(spec: StudySpec) -> Sizing:
    """Task arguments per method after the design (module docstring)."""
    args = {m: dict(a) for m, a in spec.methods.items()}
    if spec.design == "explicit":
        return Sizing(args, [])
    value = float(spec.design_value or 0)
    notes: list[str] = []
    runs = len(spec.targets) * len(spec.methods)
    for method in spec.methods:
        size = study_tasks()[method].size
        param, most, sd0 = (size.param, size.most, size.sd) if size else (None, 0, 0.0)
        if param is None or size is None or (spec.design == "target_se" and not size.se_items):
            notes.append(f"{method}: its standard error is over items fixed by its data "
                         "(statements or settings); size unchanged")  # fmt: skip
            continue
        if size.items is not None:  # the items the task has under its (checked) filters
            most = min(most, size.items(checked_options(method, args[method])))
        if spec.design == "target_se":
            sd = spec.sd.get(method, sd0)
            # sd / sqrt(most) > value: the cap is reached (and (sd / value)^2 may overflow)
            n = (
                most
                if sd > value * math.sqrt(most)
                else min(most, max(2, math.ceil((sd / value) ** 2)))
            )
            why = f"sd {sd:g} / target se {value:g}"
            if (sd / math.sqrt(n)) > value:
                why += f"; capped at {most}, predicted se {sd / math.sqrt(n):.3g}"
        else:
            n = _fit_budget(spec, method, param, most, value / runs)
            why = f"budget {value / runs:,.0f} calls per run"
        args[method][param] = n
        notes.append(f"{method}: {param}={n} ({why})")
    return Sizing(args, notes)


def _fit_budget(spec: StudySpec, method: str, param: str, most: int, share: float) -> int:
    """The most values of ``param`` (1..most) whose largest run's calls fit ``share``."""

    def calls(n: int) -> int:
        args = {**spec.methods[method], param: n}
        return max(plan_run(t, method, ms[method], args, spec.roles_for(method)).total
                   for t, ms in spec.targets.items())  # fmt: skip

    if calls(1) > share:
        raise InputError(f"study: design.budget_calls: {method} needs {calls(1):,} calls per "
                         f"run at its smallest size; raise the budget or drop {method}")  # fmt: skip
    lo, hi = 1, most
    while lo < hi:  # calls grow with n: the largest n with calls(n) <= share
        mid = (lo + hi + 1) // 2
        lo, hi = (mid, hi) if calls(mid) <= share else (lo, mid - 1)
    return lo
