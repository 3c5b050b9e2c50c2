"""Checks of Inspect's own command-line options that Inspect lets through silently.

``inspect eval ... --epochs 0`` runs one epoch without a word (Inspect's CLI reads ``0`` as
"not given"), and ``--epochs -1`` ends in a traceback. :func:`check_inspect_argv` turns such
values into one line on stderr and exit status 2. It runs from :func:`enter_task`, which each of
the package's tasks calls first (before :func:`inspect_stance.task_options.reject_unknown_args`), before
any model call: loading the entry point does nothing, so an ``inspect`` process running
only other packages' tasks keeps Inspect's own behaviour and excepthook.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping, Sequence

from inspect_stance.errors import InputError, install_excepthook

EVAL_COMMANDS: frozenset[str] = frozenset({"eval", "eval-set"})


def _option(argv: Sequence[str], name: str) -> str | None:
    """The value of ``--name V`` / ``--name=V`` in ``argv`` (the last one wins), or None."""
    value = None
    for k, arg in enumerate(argv):
        if arg == name and k + 1 < len(argv):
            value = argv[k + 1]
        elif arg.startswith(name + "="):
            value = arg.split("=", 1)[1]
    return value


def epochs_problem(argv: Sequence[str], environ: Mapping[str, str]) -> str | None:
    """The one-line error for an ``--epochs`` (or ``INSPECT_EVAL_EPOCHS``) value below 1 given
    to ``inspect eval`` / ``eval-set``, or None when there is none."""
    if not any(arg in EVAL_COMMANDS for arg in argv[1:3]):
        return None
    given = _option(argv, "--epochs")
    source = "--epochs"
    if given is None and environ.get("INSPECT_EVAL_EPOCHS"):
        given, source = environ["INSPECT_EVAL_EPOCHS"], "INSPECT_EVAL_EPOCHS"
    if given is None:
        return None
    try:
        epochs = int(given)
    except ValueError:
        return None  # Inspect's own option parser reports it
    if epochs >= 1:
        return None
    return (
        f"{source} {given}: the number of epochs must be at least 1 (Inspect would run "
        f"{'1 epoch' if epochs == 0 else 'nothing'}); use --epochs 1 or more, or -T trials "
        "for more trials per sample"
    )


def check_inspect_argv(
    argv: Sequence[str] | None = None, environ: Mapping[str, str] | None = None
) -> None:
    """Exit with status 2 and one line on stderr when :func:`epochs_problem` finds one.

    ``SystemExit`` (not an exception) because Inspect loads entry points inside
    ``except Exception`` and would only log a warning.
    """
    problem = epochs_problem(
        sys.argv if argv is None else argv, os.environ if environ is None else environ
    )
    if problem is not None:
        print(str(InputError(problem)), file=sys.stderr)
        raise SystemExit(2)


def enter_task() -> None:
    """What creating one of the package's tasks sets up in the ``inspect`` process: the
    one-line :class:`InputError` excepthook (:func:`inspect_stance.errors.install_excepthook`,
    installed once) and :func:`check_inspect_argv`."""
    from inspect_stance.hooks import ensure_compact_summary

    install_excepthook()
    check_inspect_argv()
    ensure_compact_summary()  # the compact end-of-run line (hooks.CompactSummary)
