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
