"""Every method's report command, built from the registry: ``COMMAND PATH... [--out DIR]
[--label RUN=NAME] [--partial] [--json] [--html FILE]`` plus the method's own options
(:attr:`~inspect_stance.study.protocol.Method.report_cli`), each calling the method's report
function (:attr:`~inspect_stance.study.protocol.Method.report`) as ``report`` does. The
method whose command is ``report`` itself gets it from :mod:`inspect_stance.cli.report`.
Nothing here names a method."""

from __future__ import annotations

import argparse
from collections.abc import Callable, Sequence
from typing import Any

from inspect_stance.cli.html import add_html_argument, with_html
from inspect_stance.cli.types import LABEL_HELP, add_label_argument, cli_float
from inspect_stance.errors import InputError
from inspect_stance.paths import check_out_dir
from inspect_stance.printable import printable_lines
from inspect_stance.runs import parse_labels
from inspect_stance.shards import PARTIAL_HELP
from inspect_stance.study.protocol import Method, ReportCommand, ReportOption, ReportRequest
from inspect_stance.study.registry import methods

#: the command every method's logs can be given to (:mod:`inspect_stance.cli.report`)
SHARED = "report"
_KINDS: dict[str, dict[str, Any]] = {
    "text": {},
    "number": {"type": cli_float},
    "integer": {"type": int},
    "flag": {"action": "store_true"},
    "repeat": {"action": "append"},
}


def register(subparsers: Any) -> None:
    """Add the report command of every method whose command is not ``report`` itself."""
    for method in methods():
        if method.report is None or method.report_command == SHARED:
            continue
        cli = method.report_cli or ReportCommand(
            f"{method.label}: its report",
            f"The {method.label} report of one or more logs or folders of one study's shards.",
            f"{method.label} logs or folders",
        )
        p = subparsers.add_parser(method.report_command, help=cli.help,
                                  description=cli.description)  # fmt: skip
        p.add_argument("paths", nargs="+", metavar="LOG", help=cli.paths_help)
        p.add_argument("--out", default=cli.out or f"{method.folder}_report",
                       help="output folder (default: %(default)s)")  # fmt: skip
        add_shared_options(p, cli)
        p.set_defaults(func=with_html(_method_report(method), method.report_command))


def add_shared_options(p: argparse.ArgumentParser, cli: ReportCommand | None) -> None:
    """``--label``, ``--partial``, ``--json`` (when the method prints JSON), the method's own
    options and ``--html`` on a report command's parser."""
    add_label_argument(p, (cli.label_help if cli else "") or LABEL_HELP)
    p.add_argument("--partial", action="store_true", help=PARTIAL_HELP)
    if cli is not None and cli.json:
        p.add_argument("--json", action="store_true", help="print one JSON object instead")
    for option in cli.options if cli else ():
        add_option(p, option)
    add_html_argument(p)


def add_option(p: argparse.ArgumentParser, option: ReportOption) -> None:
    """One of a method's report options on ``p`` (its kind as argparse's ``type``/``action``)."""
    extra = dict(_KINDS[option.kind])
    if option.required:
        extra["required"] = True
    if option.kind != "flag":
        extra["default"] = option.default
        if option.metavar:
            extra["metavar"] = option.metavar
    p.add_argument(option.flag, dest=option.dest, help=option.help, **extra)


def add_method_options(
    p: argparse.ArgumentParser, declared: list[tuple[str, tuple[ReportOption, ...]]]
) -> None:
    """The options methods declare for a shared command (``(method label, options)`` each),
    each added once, its help headed by the method's label."""
    from dataclasses import replace

    seen: set[str] = set()
    for label, options in declared:
        for option in options:
            if option.flag not in seen:
                seen.add(option.flag)
                add_option(p, replace(option, help=f"{label}: {option.help}"))


def own_options(
    args: argparse.Namespace,
    label: str,
    own: tuple[ReportOption, ...],
    declared: list[tuple[str, tuple[ReportOption, ...]]],
) -> dict[str, Any]:
    """The values of the options of the method labelled ``label`` (``own``) by ``dest``; a
    one-line ``InputError`` for another method's option given (``declared`` as for
    :func:`add_method_options`)."""

    flags = {o.flag for o in own}
    for other, options in declared:
        for o in options:
            if o.flag not in flags and getattr(args, o.dest, o.value) != o.value:
                raise InputError(f"{o.flag} is an option of {other} runs, not of {label} "
                                 "runs; drop it")  # fmt: skip
    return {o.dest: getattr(args, o.dest, o.value) for o in own}


def request_of(method: Method, args: argparse.Namespace, paths: Sequence[str]) -> ReportRequest:
    """The report request of a parsed command line: ``paths``, ``--out`` (``""``: none),
    ``--label``, ``--partial``, ``--json`` and the method's own options."""
    options = method.report_cli.options if method.report_cli else ()
    return ReportRequest(tuple(paths), args.out or "", parse_labels(args.label or []),
                         args.partial, bool(getattr(args, "json", False)),
                         {o.dest: getattr(args, o.dest) for o in options})  # fmt: skip


def print_lines(lines: list[str]) -> None:
    """A report's lines on stdout (control characters shown, not sent)."""
    for line in lines:
        print(printable_lines(line))


def _method_report(method: Method) -> Callable[[argparse.Namespace], int]:
    """The command function of ``method``'s declared report."""

    def run(args: argparse.Namespace) -> int:

        check_out_dir(args.out)
        assert method.report is not None
        print_lines(method.report(request_of(method, args, args.paths)))
        return 0

    return run
