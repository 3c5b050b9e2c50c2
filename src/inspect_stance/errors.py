"""One-line user-facing errors.

Inspect prints a :class:`~inspect_ai._util.error.PrerequisiteError` raised while a task is built
(or inside a model provider's constructor) as its message alone, without a traceback. Every error
that a user causes with a bad ``-T`` / ``-M`` value, input file or missing model role is an
:class:`InputError`: a ``PrerequisiteError`` that is also a ``ValueError`` (so ``except
ValueError`` and ``pytest.raises(ValueError)`` keep working). Its message is one line that names
the problem and the fix.
"""

from __future__ import annotations

from inspect_ai._util.error import PrerequisiteError


class InputError(PrerequisiteError, ValueError):
    """A bad parameter, file or role, reported as one line (no traceback) by Inspect's CLI."""

    def __init__(self, message: str) -> None:
        message = " ".join(str(message).split())  # one line, whatever the caller built
        PrerequisiteError.__init__(self, message)
        ValueError.__init__(self, message)

    def __str__(self) -> str:
        return str(self.message)
