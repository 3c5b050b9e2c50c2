"""``--html FILE`` for the report commands: one wrapper around each command's ``func``.

The wrapped command runs as before (into ``--out``, or into a temporary folder when only
``--html`` is given); the page is then built from that folder by
:func:`inspect_stance.html.write_study_page`. A command that exits 2 (unusable input) writes no
page.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import sys
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path

from inspect_stance.html import write_study_page
from inspect_stance.html.studies import STUDIES, Study

__all__ = ["STUDIES", "Study", "add_html_argument", "with_html"]


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
    from inspect_stance.logfile import task_name
    from inspect_stance.study.registry import log_header_task

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

    from inspect_stance.errors import InputError

    p = Path(path)
    if p.is_dir():
        raise InputError(f"--html {p}: is a folder; give a file path such as {p / 'study.html'}")
    if not p.parent.is_dir():
        raise InputError(f"--html {p}: folder {p.parent} does not exist; create it first")
    if not os.access(p.parent, os.W_OK) or (p.exists() and not os.access(p, os.W_OK)):
        raise InputError(f"--html {p}: not writable; give a path you can write")


def routed_report(args: argparse.Namespace) -> list[str] | None:
    """For ``report PATH... --html FILE`` over the runs of one method other than stance drift:
    that method's own report command line (``--out DIR`` as ``DIR/<task>``, as ``report``
    writes it without ``--html``; ``--label`` and ``--html`` passed on), whose page is the
    method's; ``None`` otherwise (the stance-drift page, or inputs that
    cannot be sorted, which the report itself explains)."""
    from inspect_stance.errors import InputError
    from inspect_stance.study import sort_inputs

    try:
        found = sort_inputs(list(args.paths))
    except InputError:
        return None
    methods = found.methods()
    if len(methods) != 1 or methods[0].name == "stance_drift":
        return None
    method = methods[0]
    if method.report_command not in STUDIES:
        return None
    argv = [method.report_command, *(str(p) for p in found.by_method[method.name])]
    if getattr(args, "out", None):
        argv += ["--out", str(Path(args.out) / method.folder)]
    for label in getattr(args, "label", None) or []:
        argv += ["--label", label]
    return [*argv, "--html", str(args.html)]


def with_html(
    func: Callable[[argparse.Namespace], int], command: str, inputs: str = "paths"
) -> Callable[[argparse.Namespace], int]:
    """``func`` followed by the study page when ``--html`` is given (see module docstring)."""
    study = STUDIES[command]

    def run(args: argparse.Namespace) -> int:
        html = getattr(args, "html", None)
        if not html:
            return func(args)
        check_html_path(html)  # before any work: a run of minutes must not end in a crash
        if command == "report" and (argv := routed_report(args)) is not None:
            from inspect_stance.cli import main

            print(f"{argv[0]}: the runs are of one method; its own report and page")
            return main(argv)
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
            from inspect_stance.runs import parse_labels

            labels = parse_labels(getattr(args, "label", None) or [])
            logs = study_logs(list(getattr(args, inputs)), study.tasks)
            path = write_study_page(
                html, study.title, args.out, logs, study.notes, study.markdown, labels
            )
            print(f"wrote {path}", file=sys.stderr if getattr(args, "json", False) else sys.stdout)
            return code
        finally:
            if tmp is not None:
                tmp.cleanup()

    return run
