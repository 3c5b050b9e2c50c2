"""One-line user-facing errors.

Every error that a user causes with a bad ``-T`` / ``-M`` value, input file or missing model role
is an :class:`InputError`, a ``ValueError`` (so ``except ValueError`` and
``pytest.raises(ValueError)`` keep working) whose message is one line that names the problem and
the fix. This module imports nothing from Inspect, so the method cores that raise it stay
Inspect-free; :func:`install_excepthook` (installed when one of the package's tasks is created or one of its errors is raised) is
what prints it as that one line, without a traceback, under ``inspect eval``.
"""

from __future__ import annotations

from typing import Any


class InputError(ValueError):
    """A bad parameter, file or role, reported as one line (no traceback) by the CLIs."""

    def __init__(self, message: str) -> None:
        message = " ".join(str(message).split())  # one line, whatever the caller built
        super().__init__(message)
        self.message = message
        # the one-line hook is set up by the package's own errors only (a task, a provider, a
        # command raising one), never by loading the entry point
        install_excepthook()

    def __str__(self) -> str:
        return str(self.message)


def _root_input_error(exc: BaseException) -> InputError | None:
    """The :class:`InputError` that ``exc`` is, wraps (an exception group) or was caused by."""
    seen: set[int] = set()
    stack = [exc]
    while stack:
        e = stack.pop()
        if id(e) in seen:
            continue
        seen.add(id(e))
        if isinstance(e, InputError):
            return e
        if isinstance(e, BaseExceptionGroup):
            stack.extend(e.exceptions)
        for nxt in (e.__cause__, e.__context__):
            if nxt is not None:
                stack.append(nxt)
    return None


def install_excepthook() -> None:
    """Print an uncaught :class:`InputError` as its one line on stderr (exit status 1).

    Inspect's own hook prints a traceback for an exception it does not know (and, with
    ``--display none``, its own one-line errors not at all); a CI job then sees a bare exit
    status. This hook (installed when one of the package's tasks is created) handles our
    errors the same way in every display mode and hands every other exception to the hook it
    replaced.
    """
    import sys

    previous = sys.excepthook
    if getattr(previous, "_inspect_stance", False):
        return

    def hook(exc_type: type[BaseException], exc: BaseException, tb: Any) -> None:
        err = _root_input_error(exc)
        if err is None:
            previous(exc_type, exc, tb)
            return
        # the process's own stderr: Inspect may have swapped sys.stderr for a display wrapper
        stream = sys.__stderr__ or sys.stderr
        stream.write(f"{err.message}\n")
        stream.flush()

    hook._inspect_stance = True  # type: ignore[attr-defined]
    sys.excepthook = hook


def internal_error_text(command: str, exc: BaseException) -> str:
    """The one line a command prints for an error no check foresaw (a bug, not bad input): its
    first line of text, without the exception's class, and how to get the traceback."""
    first = str(exc).splitlines()[0] if str(exc) else "no message"
    return (f"inspect-stance {command}: internal error ({first}); this is a bug, not your "
            "input: rerun with INSPECT_STANCE_DEBUG=1 for a traceback and report it")  # fmt: skip
