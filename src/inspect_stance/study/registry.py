"""The registered methods, looked up by name or task (the package's own four registered on first
use by :mod:`inspect_stance.study.builtin`)."""

from __future__ import annotations

from inspect_stance.errors import InputError
from inspect_stance.study.protocol import Method, registered


def methods() -> list[Method]:
    """Every registered method, in registration order."""
    import inspect_stance.study.builtin  # noqa: F401 - registers the package's methods

    return registered()


def method_named(name: str) -> Method:
    """The method called ``name`` (or one of its aliases); one-line InputError otherwise."""
    for m in methods():
        if name == m.name or name in m.aliases:
            return m
    raise InputError(f"no method {name!r}; use one of {', '.join(m.name for m in methods())}")


def method_of_task(task: str) -> Method | None:
    """The method reading logs of ``task`` (``inspect_stance/press`` and ``press`` alike)."""
    short = task.rsplit("/", 1)[-1]
    return next((m for m in methods() if short in m.tasks), None)
