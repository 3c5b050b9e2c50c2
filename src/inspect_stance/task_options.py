"""Each task's ``-T`` options, declared once: name, type, default, check and doc line.

A task's options are the fields of its frozen options dataclass (e.g.
:class:`inspect_stance.drift.options.DriftOptions`), each declared with :func:`option`:

    trials: int = option(TRIALS, "trials per sample, at least 1", check=integer(example=TRIALS))

The field's annotation is the checked type, its default the task's default (from the method's
``defaults.py``), ``check(name, raw) -> value`` turns a raw ``-T`` value (it may be a string)
into that type with a one-line :class:`~inspect_stance.errors.InputError`, and ``doc`` is the
line of the parameter tables. From this one declaration:

- :func:`checked_values` parses a task's raw arguments by keyword (the options class's
  ``parse(**raw)`` adds the checks that span several options);
- :func:`parameter_table` gives the docs' and ``inspect-stance params``' table;
- :func:`signature_mismatches` compares the task function's signature with it (a test runs it
  for every task: Inspect reads the parameters from the signature, so the signature stays
  written out, and the test keeps it in step).
"""

from __future__ import annotations

import dataclasses
import inspect
from collections.abc import Callable, Mapping
from typing import Any

from inspect_stance.errors import InputError
from inspect_stance.params import as_bool, as_int
from inspect_stance.paths import user_path
from inspect_stance.study.registry import methods

#: ``check(name, raw value) -> checked value``; raises a one-line ``InputError``
Check = Callable[[str, object], Any]

_DOC = "doc"
_CHECK = "check"


def option(default: Any, doc: str, check: Check | None = None) -> Any:
    """A declared option: a dataclass field with its doc line and check (``None``: the raw value
    is taken as is)."""
    return dataclasses.field(default=default, metadata={_DOC: " ".join(doc.split()), _CHECK: check})


def integer(minimum: int = 1, example: int = 3, optional: bool = False) -> Check:
    """Check of an integer option (``as_int``: at least ``minimum``); ``optional``: ``None``
    passes as ``None``."""

    def check(name: str, value: object) -> int | None:
        if optional and value is None:
            return None
        return as_int(name, value, minimum=minimum, example=example)

    return check


def boolean(name: str, value: object) -> bool:
    """Check of a boolean option (``as_bool``: ``true``/``false`` words too)."""
    return as_bool(name, value)


def file_path(name: str, value: object) -> str | None:
    """Check of an optional file option: resolved from the working directory (``-T`` paths are
    relative to the shell's directory, not ``tasks/``); ``None`` when unset."""
    return user_path(str(value)) if value else None


def one_of(choices: tuple[str, ...], example: str | None = None) -> Check:
    """Check of a choice option: one of ``choices`` (the error lists them)."""

    def check(name: str, value: object) -> str:
        if value not in choices:
            raise InputError(
                f"unknown {name} {value!r}; use -T {name}=NAME, NAME one of {', '.join(choices)}"
            )
        return str(value)

    return check


def declared(cls: type) -> tuple[dataclasses.Field[Any], ...]:
    """The declared options of an options dataclass, in declaration order."""
    return tuple(f for f in dataclasses.fields(cls) if _DOC in f.metadata)


def defaults(cls: type) -> dict[str, Any]:
    """Option name -> declared default."""
    return {f.name: f.default for f in declared(cls)}


def task_arguments(cls: type, given: Mapping[str, object]) -> dict[str, object]:
    """The task's options as given: the entries of ``given`` (the task function's ``locals()``,
    taken as its first statement, so its parameters only) that are declared options of ``cls``.
    The task's signature lists the same names (Inspect reads it for ``-T``;
    ``tests/test_task_options.py`` checks that the two agree), so no option is written a third
    time to hand it on."""
    names = {f.name for f in declared(cls)}
    return {k: v for k, v in given.items() if k in names}


def checked_values(cls: type, raw: Mapping[str, object]) -> dict[str, Any]:
    """Each declared option of ``cls`` checked, by keyword: ``raw[name]`` (the default when
    absent) through the option's check. A name that is no option is a ``TypeError`` (a
    programming error: the task's ``**unknown`` catches users' typos first)."""
    fields = declared(cls)
    unknown = set(raw) - {f.name for f in fields}
    if unknown:
        raise TypeError(f"{cls.__name__}: no option(s) {', '.join(sorted(unknown))}")
    from inspect_stance.size_bounds import check_size

    out: dict[str, Any] = {}
    for f in fields:
        value = raw.get(f.name, f.default)
        check = f.metadata[_CHECK]
        out[f.name] = check(f.name, value) if check is not None else value
        check_size(f.name, out[f.name], dict(raw))  # the size's bound, before any work
    return out


def _default_cell(value: Any) -> str:
    if value is None:
        return "—"
    if isinstance(value, bool):
        return f"`{str(value).lower()}`"  # as typed on the command line: -T cache=true
    return f"`{value!r}`" if isinstance(value, str) else f"`{value}`"


def parameter_table(cls: type) -> str:
    """Markdown table ``parameter | default | meaning`` of the declared options."""
    from inspect_stance.size_bounds import MAX_SIZES

    rows = ["| parameter | default | meaning |", "| --- | --- | --- |"]
    for f in declared(cls):
        text = str(f.metadata[_DOC]).replace("|", "\\|")
        if f.name in MAX_SIZES:
            text += f" At most {MAX_SIZES[f.name][0]:,}."
        rows.append(f"| `{f.name}` | {_default_cell(f.default)} | {text} |")
    return "\n".join(rows) + "\n"


def signature_mismatches(fn: Callable[..., Any], cls: type) -> list[str]:
    """Where task function ``fn``'s parameters (names, order, defaults; ``**unknown`` left out)
    differ from ``cls``'s declared options; empty when they agree."""
    params = {
        n: p.default
        for n, p in inspect.signature(fn).parameters.items()
        if p.kind is not inspect.Parameter.VAR_KEYWORD
    }
    declared_defaults = defaults(cls)
    out = []
    if list(params) != list(declared_defaults):
        out.append(f"names: signature {list(params)} != declared {list(declared_defaults)}")
    for name in params.keys() & declared_defaults.keys():
        if params[name] != declared_defaults[name] or type(params[name]) is not type(
            declared_defaults[name]
        ):
            out.append(f"{name}: signature default {params[name]!r} != {declared_defaults[name]!r}")
    return out


def declared_options() -> dict[str, type[Any]]:
    """Task name -> its options dataclass (every method's ``options``)."""

    return {task: cls for m in methods() for task, cls in m.options.items()}


def options_class(task: str) -> type[Any] | None:
    """The options dataclass declaring ``task``'s options (``None``: not declared)."""
    return declared_options().get(task)


def task_parameters(task: str) -> list[str]:
    """The ``-T`` parameters of ``task``, in order: its options class's fields (the task
    function's signature is held equal to them by :func:`inspect_stance.task_options.
    signature_mismatches`); one-line ``InputError`` for a task no method declares."""
    cls = options_class(task)
    if cls is None:
        known = ", ".join(declared_options())
        raise InputError(f"unknown task {task!r}; known: {known}")
    return list(defaults(cls))


def task_names() -> tuple[str, ...]:
    """Every task the registered methods ship (each a module of ``inspect_stance.tasks``
    defining a task function of the same name), in method order."""

    return tuple(task for m in methods() for task in m.options)


def _parameters(fn: Callable[..., object]) -> list[str]:
    import inspect

    return [
        n
        for n, p in inspect.signature(fn).parameters.items()
        if p.kind is not inspect.Parameter.VAR_KEYWORD
    ]


def sibling_parameters(task: str) -> set[str]:
    """Parameters of the package's other tasks (those ``inspect eval-set`` may run beside
    ``task`` on one command line): their declared options."""
    return {p for other in task_names() if other != task for p in task_parameters(other)}


def reject_unknown_args(task: str, unknown: dict[str, object], fn: Callable[..., object]) -> None:
    """Raise a one-line error for task parameters the task does not have.

    Inspect passes every ``-T name=value`` to a task function that takes ``**kwargs`` (and only
    logs a warning, invisible under ``--display none``, for names a task without them does not
    take), so each task collects the rest in ``**unknown`` and calls this first: a typo such as
    ``-T tirals=5`` fails before any model call instead of silently running the default.

    A name that is a parameter of another of the package's tasks is what one command line
    running several tasks passes (``inspect eval-set tasks/stance_drift.py tasks/press.py -T
    trials=5``): it is ignored with Inspect's own warning (``param 'x' not used by task 'y'``),
    as Inspect does for tasks without ``**kwargs``.

    Each task calls :func:`inspect_stance.inspect_cli.enter_task` just before it (the
    package's excepthook, its check of Inspect's options and its end-of-run line).
    """
    if not unknown:
        return
    import difflib
    import logging

    shared = sibling_parameters(task) & set(unknown)
    for name in sorted(shared):
        logging.getLogger(__name__).warning(f"param '{name}' not used by task '{task}'")
    typos = sorted(set(unknown) - shared)
    if not typos:
        return
    known = _parameters(fn)
    hints = []
    for name in typos:
        close = difflib.get_close_matches(name, known, n=1)
        hints.append(f"-T {name}" + (f" (did you mean {close[0]}?)" if close else ""))
    raise InputError(
        f"{task}: unknown parameter(s) {', '.join(hints)}; its parameters are {', '.join(known)}"
    )
