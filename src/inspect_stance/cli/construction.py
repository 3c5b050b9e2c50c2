"""``inspect-stance construction-report LOG... [--out DIR] [--human-labels FILE] [--json]``."""

from __future__ import annotations

import argparse
import json
from typing import Any


def _run(args: argparse.Namespace) -> int:
    import sys

    from inspect_stance.construction.report import build_report
    from inspect_stance.paths import check_out_dir
    from inspect_stance.runs import parse_labels

    labels = parse_labels(args.label)
    check_out_dir(args.out)
    summary = build_report(args.logs, args.out, args.human_labels, args.partial, labels)
    if summary.get("skipped"):
        print(f"inspect-stance construction-report: {summary['skipped']}", file=sys.stderr)
    print_summary(summary, args.json)
    return 0


def print_summary(summary: dict[str, Any], as_json: bool) -> None:
    """Print a report's summary: as indented JSON, or the line ``wrote FILES to DIR``."""
    if as_json:
        print(json.dumps(summary, indent=2))
    else:
        print(f"wrote {', '.join(summary['files'])} to {summary['out_dir']}")


def register(subparsers: Any) -> None:
    """Add ``construction-report`` to the ``inspect-stance`` command."""
    parser = subparsers.add_parser(
        "construction-report",
        help="prompt-construction study: per-setting leans, neutral comparison, judge agreement",
        description=(
            "Report on prompt_construction (and judge_validation) eval logs: settings.csv, "
            "comparison.csv, direction.csv, agreement.csv, prompts.csv (reusable with "
            "-T prompts_from=), lean_by_setting.png and construction_report.md. Folders may "
            "hold other tasks' logs: they are skipped and counted on stderr. Runs of one model "
            "under both rubric thresholds are reported side by side."
        ),
    )
    parser.add_argument(
        "logs", nargs="+", help="eval log files or folders of logs (other tasks' logs skipped)"
    )
    parser.add_argument(
        "--out", default="construction_report", help="output folder (default: %(default)s)"
    )
    parser.add_argument(
        "--human-labels",
        default=None,
        help=(
            "CSV/TSV/JSONL with columns id,label (1-5 or refusal) and, for logs of several "
            "models, model: recompute with human labels"
        ),
    )
    parser.add_argument("--json", action="store_true", help="print the summary as JSON")
    from inspect_stance.shards import PARTIAL_HELP

    parser.add_argument("--partial", action="store_true", help=PARTIAL_HELP)
    from inspect_stance.cli.types import add_label_argument

    add_label_argument(parser)  # a labelled log's run group is the label
    from inspect_stance.cli.html import add_html_argument, with_html

    add_html_argument(parser)
    parser.set_defaults(func=with_html(_run, "construction-report", "logs"))
