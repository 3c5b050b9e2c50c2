"""``inspect-stance report PATH... --out DIR`` over logs of any method: the inputs are sorted by
method (:func:`inspect_stance.study.inputs.sort_inputs`) and each method present writes its
report to ``DIR/<task>/`` with its own report command (``report`` for stance drift,
``press-report``, ``construction-report``, ``validation-report``: they stay as commands).
A method whose report fails says so in one line; the others are still written. ``--partial``
goes to every method's report command that takes it (an incomplete set of one study's shards
reported as the shards given)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from inspect_stance.study.inputs import SortedInputs

DEFAULT_OUT = "report"


def takes_partial(command: str) -> bool:
    """Whether the ``inspect-stance`` subcommand ``command`` has a ``--partial`` option."""
    from inspect_stance.cli import build_parser

    for action in build_parser()._actions:
        if isinstance(action, argparse._SubParsersAction) and command in action.choices:
            return "--partial" in action.choices[command]._option_string_actions
    return False


def report_methods(found: SortedInputs, out: str | None, partial: bool = False) -> int:
    """Write each method's report under ``out`` (default ``report``); the largest exit code.
    ``partial``: ``--partial`` to each report command that takes it."""
    from inspect_stance.cli import main

    root = Path(out or DEFAULT_OUT)
    for line in found.set_aside:
        print(f"inspect-stance report: {line}", file=sys.stderr)
    code = 0
    for method in found.methods():
        files = [str(p) for p in found.by_method[method.name]]
        target = root / method.folder
        print(f"{method.name}: {len(files)} log(s) -> {target}", flush=True)
        extra = ["--partial"] if partial and takes_partial(method.report_command) else []
        rc = main([method.report_command, *files, "--out", str(target), *extra])
        if rc:
            print(f"inspect-stance report: {method.name} report not written (exit {rc})",
                  file=sys.stderr)  # fmt: skip
        code = max(code, rc)
    return code
