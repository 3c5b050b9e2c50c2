"""The method protocol: one :class:`Method` per study method, registered once in its own place.

A method says which tasks' logs it reads, whether it reads ``.npz`` runs, the name of its
report folder and command, how it builds a comparison of runs (``compare``) and which gate
metrics it has. The commands (``report``, ``compare``, ``gate``) run the shared steps once
(find the inputs, sort them by method, set aside what a method cannot use, name the runs) and
ask the method for the rest, so a new method is one :func:`register_method` call and no edit to
any command:

.. code-block:: python

    register_method(Method(
        name="even_handedness",
        tasks=("even_handedness",),
        report_command="even-handedness-report",   # its own report command (an alias)
        compare=my_compare,                         # args -> stats.family.CompareResult
        gate_metrics=("gap",),
    ))

Item-level values stay in :mod:`inspect_stance.stats.family` (``RunItems`` per run and
``MetricSpec`` per metric): a method's ``compare`` builds them from its runs and hands them to
``item_comparisons``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Method:
    """One study method as the commands see it.

    ``name``: the method's name (``--method``); ``tasks``: the Inspect tasks whose logs it reads
    (registry names without the package prefix); ``report_dir``: the folder name under
    ``report --out DIR`` (default the first task); ``npz``: whether ``.npz`` runs are this
    method's; ``report_command``: the method's own report command, which ``report`` runs with
    the method's inputs and ``--out DIR/<report_dir>``; ``compare``: builds the comparison of
    the runs named by a parsed ``compare`` command line (``None``: not comparable);
    ``gate_metrics``: the metrics ``gate --metric`` accepts; ``setting_keys``: the settings
    that must match for two runs to be comparable (documentation; each method's loader fills
    :attr:`inspect_stance.runs.RunInfo.settings` with them); ``plan``: the planner command
    (``None``: none yet).
    """

    name: str
    tasks: tuple[str, ...]
    report_command: str
    report_dir: str = ""
    npz: bool = False
    compare: Callable[[Any], Any] | None = None
    gate_metrics: tuple[str, ...] = ()
    setting_keys: tuple[str, ...] = ()
    plan: str | None = None
    aliases: tuple[str, ...] = field(default=())

    @property
    def folder(self) -> str:
        """The report folder name under ``report --out DIR``."""
        return self.report_dir or self.tasks[0]


_METHODS: dict[str, Method] = {}


def register_method(method: Method) -> Method:
    """Add ``method`` (a name or task already registered by another method is refused)."""
    for other in _METHODS.values():
        taken = set(other.tasks) & set(method.tasks)
        if other.name != method.name and taken:
            raise ValueError(f"task {sorted(taken)[0]} is already {other.name}'s")
    _METHODS[method.name] = method
    return method


def registered() -> list[Method]:
    """The methods registered so far (see :func:`inspect_stance.study.registry.methods`)."""
    return list(_METHODS.values())
