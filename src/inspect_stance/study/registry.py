"""The registered methods, looked up by name, task or file (the package's own registered on
first use from the ``inspect_stance.methods`` entry points). "Which method reads this log?" has one
answer: :func:`method_of_task` (from the task in the log's header, :func:`method_of_path`)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from inspect_stance.errors import InputError
from inspect_stance.logfile import task_name
from inspect_stance.stats.headline import headline_from_metrics
from inspect_stance.study.protocol import (
    Method,
    StudyTask,
    TaskHeadline,
    register_method,
    registered,
)

if TYPE_CHECKING:
    from collections.abc import Sequence

    from inspect_stance.stats.headline import Headline
    from inspect_stance.study.protocol import ItemValues, Run


#: the entry-point group a distribution registers its methods in (``name = "module:METHOD"``)
GROUP = "inspect_stance.methods"
_loaded = False


def _load_entry_points() -> None:
    """Import every method registered in the :data:`GROUP` entry points, once (the first
    distribution on the path wins a name: an editable checkout before an installed copy)."""
    global _loaded
    if _loaded:
        return
    _loaded = True
    from importlib.metadata import entry_points

    seen: set[str] = set()
    for point in entry_points(group=GROUP):
        if point.name in seen:
            continue
        seen.add(point.name)
        method = point.load()
        if not isinstance(method, Method):
            raise TypeError(f"entry point {point.name} = {point.value} is not a Method")
        if all(m.name != method.name for m in registered()):
            register_method(method)


def methods() -> list[Method]:
    """Every registered method (the :data:`GROUP` entry points' and any registered by
    :func:`~inspect_stance.study.protocol.register_method` alone), by :attr:`Method.order`."""
    _load_entry_points()
    return sorted(registered(), key=lambda m: m.order)


def method_named(name: str) -> Method:
    """The method called ``name`` (or one of its aliases); one-line InputError otherwise."""
    for m in methods():
        if name == m.name or name in m.aliases:
            return m
    raise InputError(f"no method {name!r}; use one of {', '.join(m.name for m in methods())}")


def method_of_task(task: str) -> Method | None:
    """The method reading logs of ``task`` (``inspect_stance/press`` and ``press`` alike)."""

    short = task_name(task)
    return next((m for m in methods() if short in m.tasks), None)


def log_header_task(path: str | Path) -> str | None:
    """The task named in the header of the log at ``path`` (``None``: not a readable log)."""
    from inspect_ai.log import read_eval_log

    try:
        return str(read_eval_log(str(path), header_only=True).eval.task)
    except Exception:  # noqa: BLE001 - any unreadable file has no task; the caller says so
        return None


def method_of_path(path: str | Path) -> Method | None:
    """The method reading the run at ``path``: an ``.npz`` is the ``.npz`` method's, a log its
    task's method, a folder (one study's shards) its first log's (``None``: no such file, not
    readable, or no method reads its task)."""
    p = Path(path)
    if p.is_dir():
        from inspect_stance.shards.layout import log_files

        logs = log_files(p)
        return method_of_path(logs[0]) if logs else None
    if p.suffix == ".npz":
        return next((m for m in methods() if m.npz), None)
    if not p.is_file():
        return None
    task = log_header_task(p)
    return method_of_task(task) if task is not None else None


def task_headline(task: str) -> TaskHeadline | None:
    """The headline declared for ``task`` (``inspect_stance/press`` and ``press`` alike) by
    the method whose package declares it (``None``: no method declares one)."""

    short = task_name(task)
    return next((m.headlines[short] for m in methods() if short in m.headlines), None)


def subject_role(task: str) -> str | None:
    """The role a run of ``task`` measures when it calls no target model (its declared
    headline's :attr:`~inspect_stance.study.protocol.TaskHeadline.subject_role`; ``None``
    when it declares none)."""
    spec = task_headline(task)
    return spec.subject_role if spec is not None else None


def task_run(task: str, paths: Sequence[str | Path], partial: bool = True) -> Run | None:
    """The run of ``task`` in ``paths`` (one log, or one study's shard logs pooled by the run
    class's ``merge``; ``partial``: an incomplete set too) as its method's run class reads it
    (:attr:`~inspect_stance.study.protocol.TaskHeadline.load`): every surface reads its
    ``headline()`` and ``items(metric)`` there. ``None`` when no method declares a loader for
    ``task``."""
    spec = task_headline(task)
    if spec is None or spec.load is None:
        return None
    return spec.load([str(p) for p in paths], partial)


def task_items(task: str, paths: Sequence[str | Path]) -> ItemValues | None:
    """The item-level values the headline of ``task``'s run in ``paths`` averages, each with
    its cluster (:func:`task_run`'s ``items`` of the headline's metric); ``None`` when the
    task's headline has none (:attr:`~inspect_stance.study.protocol.TaskHeadline.item_level`)."""
    spec = task_headline(task)
    if spec is None or spec.load is None or not spec.item_level:
        return None
    return spec.load([str(p) for p in paths], True).items(spec.metric)


def headline_of_metrics(task: str, metrics: dict[str, float]) -> Headline | None:
    """The headline of a finished run of ``task`` read from its metric values, as its scorer
    wrote it (:func:`inspect_stance.stats.headline.metric_values`); ``None`` for a task with no
    declared headline or a log without it."""

    spec = task_headline(task)
    if spec is None:
        return None
    return headline_from_metrics(spec.metric, metrics, value_range=spec.range)


def study_tasks() -> dict[str, StudyTask]:
    """Every task a study file may run (``methods: {TASK: ...}``) -> its :class:`StudyTask`,
    in the methods' order."""
    return {task: st for m in methods() for task, st in m.study.items()}
