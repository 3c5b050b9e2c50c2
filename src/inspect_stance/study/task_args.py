"""Reading a study's task arguments to count its planned calls (:class:`~inspect_stance.study.
protocol.StudyTask`'s ``calls``): integers with defaults, comma lists, and a tally per model."""

from __future__ import annotations

from typing import Any


def arg_int(args: dict[str, Any], key: str, default: int) -> int:
    """``args[key]`` as an integer (``default`` when absent or ``None``)."""
    value = args.get(key)
    return default if value is None else int(value)


def arg_int_or0(value: Any) -> int:
    """``value`` as an integer, 0 when it is not one."""
    try:
        return int(value)
    except (TypeError, ValueError):
        return 0


def arg_count(value: Any, default: int) -> int:
    """Entries of a comma list argument (``None`` or empty: ``default``)."""
    if value is None or value == "":
        return default
    if isinstance(value, list | tuple):
        return len(value)
    return len([v for v in str(value).split(",") if v.strip()])


def add_calls(calls: dict[str, int], model: str, n: int) -> None:
    """Add ``n`` calls of ``model`` to the tally ``calls`` (none added for ``n`` = 0)."""
    if n:
        calls[model] = calls.get(model, 0) + n
