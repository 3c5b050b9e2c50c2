"""``--html FILE`` for the report commands: one wrapper around each command's ``func``.

The wrapped command runs as before (into ``--out``, or into a temporary folder when only
``--html`` is given); the page is then built from that folder by
:func:`inspect_stance.html.write_page`, as the page of the method whose report command it is
declares it (:attr:`inspect_stance.study.protocol.Method.page`; ``compare``'s page is
:data:`inspect_stance.html.studies.COMPARE`). A command that exits 2 (unusable input) writes no
page. ``report`` over runs of several methods writes one page of all of them
(:func:`inspect_stance.cli.report.report_html`).
"""

from __future__ import annotations

import argparse
import contextlib
import io
import sys
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from inspect_stance.errors import InputError
from inspect_stance.html import write_page
from inspect_stance.html.studies import page_of_command
from inspect_stance.logfile import task_name
from inspect_stance.runs import parse_labels
from inspect_stance.study import sort_inputs
from inspect_stance.study.registry import log_header_task

if TYPE_CHECKING:
    from inspect_stance.study import SortedInputs
    from inspect_stance.study.page import Page

__all__ = ["add_html_argument", "with_html"]


def add_html_argument(parser: argparse.ArgumentParser) -> None:
    """Add ``--html FILE`` to a report command's parser."""
    parser.add_argument(
        "--html",
        metavar="FILE",
        help="also write one self-contained HTML page: the tables, every figure (embedded) "
        "with how to read it, the runs and links to their logs",
    )


def study_logs(inputs: Sequence[str], tasks: tuple[str, ...]) -> list[Path]:
    """The Inspect logs among ``inputs`` (files, or folders searched recursively) whose task is
    one of ``tasks`` (any task when empty)."""

    found: list[Path] = []
    for item in inputs:
        p = Path(item)
        candidates = sorted(p.rglob("*.eval")) if p.is_dir() else [p]
        for c in candidates:
            if c.suffix not in (".eval", ".json") or not c.is_file():
                continue
            task = log_header_task(c)  # None: not a log, which the command itself reports
            if task is not None and (not tasks or task_name(task) in tasks):
                found.append(c)
    return list(dict.fromkeys(found))


def check_html_path(path: str) -> None:
    """One-line InputError when ``--html PATH`` cannot be written: a folder, a missing folder
    above it, or a folder that is not writable."""
    import os

    p = Path(path)
    if p.is_dir():
        raise InputError(f"--html {p}: is a folder; give a file path such as {p / 'study.html'}")
    if not p.parent.is_dir():
        raise InputError(f"--html {p}: folder {p.parent} does not exist; create it first")
    if not os.access(p.parent, os.W_OK) or (p.exists() and not os.access(p, os.W_OK)):
        raise InputError(f"--html {p}: not writable; give a path you can write")


def sorted_for_html(args: argparse.Namespace) -> SortedInputs | None:
    """``report``'s inputs sorted by method (``None`` when they cannot be sorted: the
    stance-drift report then says what is wrong with them; ``--strict`` raises)."""

    try:
        return sort_inputs(list(args.paths), strict=getattr(args, "strict", False))
    except InputError:
        if getattr(args, "strict", False):
            raise
        return None


def with_html(
    func: Callable[[argparse.Namespace], int], command: str, inputs: str = "paths"
) -> Callable[[argparse.Namespace], int]:
    """``func`` followed by the page of ``command`` when ``--html`` is given (see the module
    docstring)."""

    def run(args: argparse.Namespace) -> int:
        html = getattr(args, "html", None)
        if not html:
            return func(args)
        check_html_path(html)  # before any work: a run of minutes must not end in a crash

        page = page_of_command(command)
        return one_page(func, args, page, study_logs(list(getattr(args, inputs)), page.tasks))

    return run


def one_page(
    func: Callable[[argparse.Namespace], int],
    args: argparse.Namespace,
    page: Page,
    logs: Sequence[Path],
) -> int:
    """Run the report ``func`` (into ``--out``, or a temporary folder), then write ``page``
    over its folder listing ``logs``; no page when the report exits 2."""

    tmp = None
    if not getattr(args, "out", None):
        tmp = tempfile.TemporaryDirectory(prefix="inspect-stance-html-")
        args.out = tmp.name
    try:
        if tmp is None:
            code = func(args)
        else:  # the files go to a folder removed below: say so where the command names it
            buffer = io.StringIO()
            with contextlib.redirect_stdout(buffer):
                code = func(args)
            kept = "a temporary folder (removed; pass --out DIR to keep the files)"
            print(buffer.getvalue().replace(tmp.name, kept), end="")
        if code == 2:
            return code
        labels = parse_labels(getattr(args, "label", None) or [])
        path = write_page(args.html, page, args.out, logs, labels)
        print(f"wrote {path}", file=sys.stderr if getattr(args, "json", False) else sys.stdout)
        return code
    finally:
        if tmp is not None:
            tmp.cleanup()
