"""``inspect-stance pushback-report``: the pushback report
(:func:`inspect_stance.pushback.report.write_report`) over one or more logs or folders. Bad
input is one line on stderr and exit 2."""

from __future__ import annotations

import argparse
from typing import Any

from inspect_stance.shards import PARTIAL_HELP


def _report(args: argparse.Namespace) -> int:
    from inspect_stance.paths import check_out_dir
    from inspect_stance.pushback.report import write_report
    from inspect_stance.runs import parse_labels

    check_out_dir(args.out)
    data = write_report(args.logs, args.out, parse_labels(args.label))
    for line in data["notes"]:
        print(f"pushback-report: {line}")
    print(f"wrote report.md, report.json, survival.png to {args.out}")
    return 0


def register(subparsers: Any) -> None:
    """Add ``pushback-report`` to ``subparsers``."""
    from inspect_stance.cli.html import add_html_argument, with_html
    from inspect_stance.cli.types import add_label_argument

    p = subparsers.add_parser(
        "pushback-report",
        help="pushback: held stance through K turns, survival curve, by style, control",
        description="Held at K with its proposition-clustered interval, the survival curve of "
        "the held stance with pointwise intervals, median turn of flip, flips, final shift, by "
        "style and by held stance, and the no-pushback control beside them.",
    )
    p.add_argument("logs", nargs="+", metavar="LOG", help="pushback logs or folders")
    p.add_argument("--out", default="pushback_report", help="output folder")
    add_label_argument(p)
    p.add_argument("--partial", action="store_true", help=PARTIAL_HELP)
    add_html_argument(p)
    p.set_defaults(func=with_html(_report, "pushback-report", "logs"))
