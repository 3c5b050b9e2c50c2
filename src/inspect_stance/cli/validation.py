"""``inspect-stance validation-report LOG_OR_DIR... [--human FILE] [--judges-log LOG...]
[--out DIR] [--json] [--partial]``: the prompt-validation report
(:func:`inspect_stance.validation.report.build_validation_report`)."""

from __future__ import annotations

import argparse
from typing import Any

from inspect_stance.cli.construction import print_summary


def _check_labels(logs: list[str], values: list[str] | None) -> None:
    """``--label RUN=NAME``: each RUN names one of the prompt_validation logs (one-line
    InputError otherwise). The report pools its logs, so the name shows in the ``--html``
    page's run table."""
    from inspect_stance.runs import check_labels, parse_labels

    labels = parse_labels(values)
    if labels:
        from inspect_stance.logfile import find_task_logs
        from inspect_stance.validation.logs import TASKS, WHAT

        check_labels(find_task_logs(logs, TASKS, WHAT).paths, labels)


def _run(args: argparse.Namespace) -> int:
    from inspect_stance.paths import check_out_dir
    from inspect_stance.validation.report import build_validation_report

    _check_labels(args.logs, args.label)
    check_out_dir(args.out)
    summary = build_validation_report(
        args.logs, args.out, args.human, args.judges_log or (), args.partial
    )
    print_summary(summary, args.json)
    return 0


def register(subparsers: Any) -> None:
    """Add ``validation-report`` to the ``inspect-stance`` command."""
    parser = subparsers.add_parser(
        "validation-report",
        help="prompt-validation study: realism, clarity, detection; humans beside LLM annotators",
        description=(
            "Report on prompt_validation eval logs: validation_summary.csv (one column per "
            "annotator group), annotators.csv, prompts.csv and validation_report.md."
        ),
    )
    parser.add_argument("logs", nargs="+", help="prompt_validation eval logs or folders")
    parser.add_argument(
        "--human",
        default=None,
        help="CSV/TSV of human annotations: annotator,item_id,rank,intent,stance,side",
    )
    parser.add_argument(
        "--judges-log",
        action="append",
        default=None,
        help="a prompt_construction log whose judges are compared with the annotators (repeatable)",
    )
    parser.add_argument(
        "--out", default="validation_report", help="output folder (default: %(default)s)"
    )
    parser.add_argument("--json", action="store_true", help="print the summary as JSON")
    from inspect_stance.shards import PARTIAL_HELP

    parser.add_argument("--partial", action="store_true", help=PARTIAL_HELP)
    from inspect_stance.cli.types import add_label_argument

    add_label_argument(parser, "name a run in the --html page's run table (RUN: its path as "
                       "given or file name; the report's tables pool the runs)")  # fmt: skip
    from inspect_stance.cli.html import add_html_argument, with_html

    add_html_argument(parser)
    parser.set_defaults(func=with_html(_run, "validation-report", "logs"))
