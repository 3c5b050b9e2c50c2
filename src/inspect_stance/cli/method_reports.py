"""The report command of every method that declares its report as a function
(:attr:`~inspect_stance.study.protocol.Method.report`), built from the registry: ``COMMAND
PATH... [--out DIR] [--label RUN=NAME] [--partial] [--html FILE]``. Nothing here names a
method."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import Any

from inspect_stance.study.protocol import Method, ReportRequest


def register(subparsers: Any) -> None:
    """Add the report command of every method that declares its report as a function
    (:attr:`~inspect_stance.study.protocol.Method.report`): ``COMMAND PATH... [--out DIR]
    [--label RUN=NAME] [--partial] [--html FILE]``."""
    from inspect_stance.cli.html import add_html_argument, with_html
    from inspect_stance.cli.types import add_label_argument
    from inspect_stance.shards import PARTIAL_HELP
    from inspect_stance.study.registry import methods

    for method in methods():
        if method.report is None:
            continue
        p = subparsers.add_parser(method.report_command, help=f"{method.label}: its report",
                                  description=f"The {method.label} report of one or more "
                                  "logs or folders of one study's shards.")  # fmt: skip
        p.add_argument("paths", nargs="+", metavar="LOG", help=f"{method.label} logs or folders")
        p.add_argument("--out", default=f"{method.folder}_report", help="output folder")
        add_label_argument(p)
        p.add_argument("--partial", action="store_true", help=PARTIAL_HELP)
        add_html_argument(p)
        p.set_defaults(func=with_html(_method_report(method), method.report_command))


def _method_report(method: Method) -> Callable[[argparse.Namespace], int]:
    """The command function of ``method``'s declared report."""

    def run(args: argparse.Namespace) -> int:
        from inspect_stance.paths import check_out_dir
        from inspect_stance.runs import parse_labels

        check_out_dir(args.out)
        request = ReportRequest(tuple(args.paths), args.out, parse_labels(args.label or []),
                                args.partial)  # fmt: skip
        assert method.report is not None
        for line in method.report(request):
            print(line)
        return 0

    return run
