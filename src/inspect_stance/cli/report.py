"""``inspect-stance report PATH... --out DIR`` over logs of any method: the inputs are sorted by
method (:func:`inspect_stance.study.inputs.sort_inputs`) and each method present writes its
report to ``DIR/<task>/`` with its own report command
(:attr:`~inspect_stance.study.protocol.Method.report_command`: they stay as commands), given
the ``--label RUN=NAME`` of its own runs and ``--partial`` (an incomplete set of one study's
shards reported as the shards given; every method's report command takes it). A method whose
report fails says so in one line; the others are still written.

With ``--html FILE`` (:func:`report_html`): one method present gives that method's page (its
:attr:`~inspect_stance.study.protocol.Method.page`); several give one page with a section per
method, in registry order, after a contents list. Nothing here names a method."""

from __future__ import annotations

import argparse
import contextlib
import io
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from inspect_stance.study.inputs import SortedInputs
from inspect_stance.study.protocol import Method, ReportRequest

DEFAULT_OUT = "report"
#: the title of the page of several methods
PAGE_TITLE = "Study report"


@dataclass
class Written:
    """One method's report: where it went, the runs it read and their ``--label`` names."""

    method: Method
    folder: Path
    files: list[str]
    labels: dict[str, str]


def _label_args(labels: dict[str, str]) -> list[str]:
    return [a for run, name in labels.items() for a in ("--label", f"{run}={name}")]


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
    """Run each method's report command on its runs into ``root/<folder>``, each given the labels
    of its own runs (a label naming no run is refused first) and ``--partial`` when asked.
    Returns the largest exit code and the reports written. ``quiet_root``: ``root`` is a
    temporary folder; the commands' output says so instead of naming it."""
    from inspect_stance.cli import main
    from inspect_stance.runs import check_labels, labels_of

    check_labels([p for m in found.methods() for p in found.by_method[m.name]], labels)
    for line in found.set_aside:
        print(f"inspect-stance report: {line}", file=sys.stderr)
    code, written = 0, []
    for method in found.methods():
        files = [str(p) for p in found.by_method[method.name]]
        own = labels_of(files, labels)
        target = root / method.folder
        argv = [method.report_command, *files, "--out", str(target), *_label_args(own)]
        argv += ["--partial"] if partial else []
        shown = str(target).replace(quiet_root, "(temporary folder)") if quiet_root else target
        print(f"{method.name}: {len(files)} log(s) -> {shown}", flush=True)
        if method.report is not None:
            request = ReportRequest(tuple(files), str(target), own, partial)
            rc = _call_report(method, request, quiet_root)
        else:
            rc = _run_quietly(argv, quiet_root) if quiet_root else main(argv)
        if rc:
            print(f"inspect-stance report: {method.name} report not written (exit {rc})",
                  file=sys.stderr)  # fmt: skip
        else:
            written.append(Written(method, target, files, own))
        code = max(code, rc)
    return code, written


def _call_report(method: Method, request: ReportRequest, tmp: str | None) -> int:
    """``method.report(request)`` with its lines printed (the temporary folder ``tmp`` named as
    such); 2 with the one-line error of bad input."""
    from inspect_stance.errors import InputError
    from inspect_stance.printable import printable

    try:
        lines = method.report(request) if method.report else []
    except InputError as ex:
        print(printable(f"inspect-stance {method.report_command}: error: {ex}"), file=sys.stderr)
        return 2
    kept = "a temporary folder (removed; pass --out DIR to keep the files)"
    for line in lines:
        print(printable(line.replace(tmp, kept) if tmp else line))
    return 0


def _run_quietly(argv: list[str], tmp: str) -> int:
    """``main(argv)`` with the temporary folder ``tmp`` named as such in what it prints."""
    from inspect_stance.cli import main

    buffer = io.StringIO()
    with contextlib.redirect_stdout(buffer):
        rc = main(argv)
    kept = "a temporary folder (removed; pass --out DIR to keep the files)"
    print(buffer.getvalue().replace(tmp, kept), end="")
    return rc


def report_html(args: argparse.Namespace, found: SortedInputs) -> int:
    """``report PATH... --html FILE`` over runs of any method but the one ``report`` reports
    itself (alone, it writes its own page): each method's report into ``--out DIR/<folder>`` (a
    temporary folder without ``--out``), then the page (module docstring). No page when every
    report failed; the reports that failed are named on the page."""
    from inspect_stance.runs import parse_labels

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
    from inspect_stance.html import study_section, write_page, write_sections_page
    from inspect_stance.html.studies import method_page

    failed = [m for m in found.methods() if m not in [w.method for w in written]]
    if len(written) == 1 and not failed:
        (w,) = written
        return write_page(html, method_page(w.method), w.folder, w.files, w.labels)
    sections = [study_section(method_page(w.method), w.folder, w.files, w.labels, w.method.name)
                for w in written]  # fmt: skip
    notes = [f"Not reported: {m.label} (its report failed; see the command's output)"
             for m in failed]  # fmt: skip
    return write_sections_page(html, PAGE_TITLE, sections, notes)


def run_headlines(paths: list[str], partial: bool = False) -> list[dict[str, Any]]:
    """One object per run among the logs ``paths`` (the shards of one study are one run, as
    :func:`inspect_stance.shards.layout.group_logs` groups them): ``logs``, ``task`` and
    ``headline`` (:meth:`~inspect_stance.stats.headline.Headline.to_json`) read by the
    contract, never recomputed: a single log's headline as its scorer wrote it, a set of
    shards' from its method's ``TaskHeadline.pooled``; ``null`` when its method declares no
    headline for the task, or a log lacks it. ``.npz`` arrays have no log and no entry."""
    from inspect_stance.analysis.headline import path_headline
    from inspect_stance.analysis.pooled import pooled_headline
    from inspect_stance.logfile import task_name
    from inspect_stance.shards.layout import group_logs
    from inspect_stance.study.registry import log_header_task

    logs = [Path(p) for p in paths if Path(p).suffix in (".eval", ".json")]
    if not logs:
        return []
    groups, suffix = group_logs(logs, partial=True)
    out: list[dict[str, Any]] = []
    for members in groups:
        files = [str(p) for p in members]
        task = task_name(log_header_task(files[0]) or "")
        pooled = len(files) > 1 or members[0] in suffix
        h = pooled_headline(task, files) if pooled else path_headline(files[0])
        out.append({"task": task, "logs": files, "headline": h.to_json() if h else None})
    return out


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
