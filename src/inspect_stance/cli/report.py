"""``inspect-stance report PATH... [--out DIR] [--json] [--html FILE]`` over logs of any
method: the inputs are sorted by method (:func:`inspect_stance.study.inputs.sort_inputs`) and
each method present writes its report to ``DIR/<task>/`` by its report function
(:attr:`~inspect_stance.study.protocol.Method.report`, called directly; its own report command
is an alias built from the same function by :mod:`inspect_stance.cli.method_reports`), given
the ``--label RUN=NAME`` of its own runs, ``--partial`` and its own options' defaults. A method
whose report fails says so in one line; the others are still written. Inputs holding only the
runs of the method whose report command is ``report`` itself get that method's report, with its
options (:attr:`~inspect_stance.study.protocol.Method.report_cli`) on this command.

With ``--html FILE`` (:func:`report_html`): one method present gives that method's page (its
:attr:`~inspect_stance.study.protocol.Method.page`); several give one page with a section per
method, in registry order, after a contents list. Nothing here names a method."""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from inspect_stance.analysis.run_headlines import run_headlines
from inspect_stance.cli.html import check_html_path, one_page, sorted_for_html, with_html
from inspect_stance.cli.method_reports import (
    SHARED,
    add_shared_options,
    print_lines,
    request_of,
)
from inspect_stance.errors import InputError, internal_error_text
from inspect_stance.html import study_section, write_page, write_sections_page
from inspect_stance.html.studies import method_page, page_of_command
from inspect_stance.paths import check_out_dir
from inspect_stance.printable import printable, printable_lines
from inspect_stance.runs import check_labels, labels_of, parse_labels
from inspect_stance.study.inputs import SortedInputs
from inspect_stance.study.protocol import Method, ReportRequest
from inspect_stance.study.registry import methods

DEFAULT_OUT = "report"
#: the title of the page of several methods
PAGE_TITLE = "Study report"
#: what a report's lines say instead of a temporary folder's path
KEPT = "a temporary folder (removed; pass --out DIR to keep the files)"


@dataclass
class Written:
    """One method's report: where it went, the runs it read and their ``--label`` names."""

    method: Method
    folder: Path
    files: list[str]
    labels: dict[str, str]


def own_method() -> Method | None:
    """The method whose report command is ``report`` itself (its options are this command's)."""
    return next((m for m in methods() if m.report_command == SHARED and m.report), None)


def register(subparsers: Any) -> None:
    """Add ``report``: every method's logs, with the options of the method it reports itself."""
    own = own_method()
    cli = own.report_cli if own else None
    others = ", ".join(m.report_command for m in methods()
                       if m.report is not None and m.report_command != SHARED)  # fmt: skip
    own_text = f"{own.label} runs: {cli.description} " if cli and own else ""
    p = subparsers.add_parser(
        SHARED,
        help="report on runs of any method (logs or folders)",
        description=f"Report on runs. {own_text}With --out DIR, inputs holding other methods' "
        f"logs give one report per method in DIR/<task>/ (as the methods' own report commands: "
        f"{others}), and --html FILE one page with a section per method. A folder's logs that "
        "no method reads, repeats, runs of other settings than the rest of their method and "
        "adaptive runs beside fixed ones are set aside with one line each.",
    )
    p.add_argument("paths", nargs="+", metavar="PATH",
                   help=cli.paths_help if cli else "logs or folders")  # fmt: skip
    p.add_argument("--out", metavar="DIR", help="write the report's files here (inputs holding "
                   "other methods' logs: one report per method in DIR/<task>/)")  # fmt: skip
    p.add_argument("--strict", action="store_true",
                   help="refuse inputs holding a log no method reads (a repeat, a run of other "
                   "settings, an adaptive run beside fixed ones) instead of setting it aside")  # fmt: skip
    if cli is None or not cli.json:
        p.add_argument("--json", action="store_true", help="print each run's headline as JSON")
    add_shared_options(p, cli)
    p.set_defaults(func=report_command)


def report_command(args: argparse.Namespace) -> int:
    """``report``, with ``--html FILE``: inputs holding only the runs of the method whose
    command this is give that method's page (:func:`inspect_stance.cli.html.one_page`), others
    one page of every method present (:func:`report_html`)."""
    html = getattr(args, "html", None)
    if html:
        check_html_path(html)  # before any work: a run of minutes must not end in a crash
    if html and (found := sorted_for_html(args)) is not None:
        present = found.methods()
        if len(present) != 1 or present[0].report_command != SHARED:
            return report_html(args, found)
        page = page_of_command(SHARED)
        return one_page(cmd_report, args, page, found.by_method[present[0].name])
    return with_html(cmd_report, SHARED, "paths")(args)


def cmd_report(args: argparse.Namespace) -> int:
    """``inspect-stance report``: inputs holding other methods' runs get one report per method
    under ``--out DIR/<task>/`` (:func:`report_methods`), or with ``--json`` each run's
    headline (:func:`report_json`); the runs of the method whose command this is get its report
    (printed, ``--json``, and written to ``--out``)."""
    own = own_method()
    found = sorted_for_html(args)
    names = [m.name for m in found.methods()] if found is not None else []
    others = bool(names) and names != [own.name if own else None]
    if found is not None and others and args.json and not args.out:
        print(json.dumps(report_json(found, args.partial), indent=2, allow_nan=False))
        return 0
    if found is not None and others and args.json:  # --out too: the reports written, their
        with contextlib.redirect_stdout(sys.stderr):  # lines on stderr, the JSON on stdout
            code = report_methods(found, args.out, parse_labels(args.label or []), args.partial)
        print(json.dumps(report_json(found, args.partial), indent=2, allow_nan=False))
        return code
    if found is not None and (others and args.out or own is None):
        return report_methods(found, args.out, parse_labels(args.label or []), args.partial)
    if own is None or own.report is None:
        raise InputError("no method reads these inputs; give logs of a registered method")
    inputs = list(args.paths)
    if found is not None and names == [own.name] and found.differing:
        for line in found.differing:  # settings differ, or an adaptive run beside fixed ones
            print(f"inspect-stance report: {line}", file=sys.stderr)
        inputs = [str(p) for p in found.by_method[own.name]]
    print_lines(own.report(request_of(own, args, inputs)))
    return 0


def report_methods(
    found: SortedInputs,
    out: str | None,
    labels: dict[str, str] | None = None,
    partial: bool = False,
) -> int:
    """Write each method's report under ``out`` (default ``report``); the largest exit code."""
    code, _ = write_methods(found, Path(out or DEFAULT_OUT), labels or {}, partial=partial)
    return code


def write_methods(
    found: SortedInputs,
    root: Path,
    labels: dict[str, str],
    quiet_root: str | None = None,
    partial: bool = False,
) -> tuple[int, list[Written]]:
    """Call each method's report function on its runs into ``root/<folder>``, each given the
    labels of its own runs (a label naming no run is refused first), ``--partial`` when asked
    and its own options' defaults. Returns the largest exit code and the reports written.
    ``quiet_root``: ``root`` is a temporary folder; the reports' lines say so instead of naming
    it."""
    check_labels([p for m in found.methods() for p in found.by_method[m.name]], labels)
    for line in found.set_aside:
        print(f"inspect-stance report: {line}", file=sys.stderr)
    code, written = 0, []
    for method in found.methods():
        files = [str(p) for p in found.by_method[method.name]]
        own = labels_of(files, labels)
        target = root / method.folder
        shown = str(target).replace(quiet_root, "(temporary folder)") if quiet_root else target
        print(f"{method.name}: {len(files)} log(s) -> {shown}", flush=True)
        defaults = method.report_cli.defaults() if method.report_cli else {}
        request = ReportRequest(tuple(files), str(target), own, partial, options=defaults)
        rc = _call_report(method, request, quiet_root)
        if rc:
            print(f"inspect-stance report: {method.name} report not written (exit {rc})",
                  file=sys.stderr)  # fmt: skip
        else:
            written.append(Written(method, target, files, own))
        code = max(code, rc)
    return code, written


def _call_report(method: Method, request: ReportRequest, tmp: str | None) -> int:
    """``method.report(request)`` with its lines printed (the temporary folder ``tmp`` named as
    such); 2 with one line on stderr when it fails (as the method's own command says it)."""

    if method.report is None:
        print(f"inspect-stance report: {method.name} declares no report", file=sys.stderr)
        return 2
    try:
        check_out_dir(request.out)
        lines = method.report(request)
    except InputError as ex:
        print(printable(f"inspect-stance {method.report_command}: error: {ex}"), file=sys.stderr)
        return 2
    except Exception as ex:  # one method's failure leaves the others' reports
        if os.environ.get("INSPECT_STANCE_DEBUG"):
            raise
        print(printable(internal_error_text(method.report_command, ex)), file=sys.stderr)
        return 2
    for line in lines:
        print(printable_lines(line.replace(tmp, KEPT) if tmp else line))
    return 0


def report_html(args: argparse.Namespace, found: SortedInputs) -> int:
    """``report PATH... --html FILE`` over runs of any method but the one ``report`` reports
    itself (alone, it writes its own page): each method's report into ``--out DIR/<folder>`` (a
    temporary folder without ``--out``), then the page (module docstring). No page when every
    report failed; the reports that failed are named on the page."""
    labels = parse_labels(getattr(args, "label", None) or [])
    tmp = None if args.out else tempfile.TemporaryDirectory(prefix="inspect-stance-html-")
    try:
        root = Path(args.out) if tmp is None else Path(tmp.name)
        code, written = write_methods(found, root, labels, tmp.name if tmp else None,
                                      getattr(args, "partial", False))  # fmt: skip
        if not written:
            return code
        path = _write_page(args.html, found, written)
        print(f"wrote {path}")
        return code
    finally:
        if tmp is not None:
            tmp.cleanup()


def _write_page(html: str, found: SortedInputs, written: list[Written]) -> Path:
    """The page of one method's report, or of several (a section each, registry order)."""

    failed = [m for m in found.methods() if m not in [w.method for w in written]]
    if len(written) == 1 and not failed:
        (w,) = written
        return write_page(html, method_page(w.method), w.folder, w.files, w.labels)
    sections = [study_section(method_page(w.method), w.folder, w.files, w.labels, w.method.name)
                for w in written]  # fmt: skip
    notes = [f"Not reported: {m.label} (its report failed; see the command's output)"
             for m in failed]  # fmt: skip
    return write_sections_page(html, PAGE_TITLE, sections, notes)


def report_json(found: SortedInputs, partial: bool = False) -> dict[str, Any]:
    """``report PATH... --json`` over runs of several methods: per method present, its runs'
    headlines (:func:`run_headlines`) and, with one run, that run's ``headline`` at the top
    of the method's object."""
    out: dict[str, Any] = {}
    for method in found.methods():
        runs = run_headlines([str(p) for p in found.by_method[method.name]], partial)
        entry: dict[str, Any] = {"runs": runs}
        if len(runs) == 1:
            entry["headline"] = runs[0]["headline"]
        out[method.name] = entry
    return {"methods": out}
