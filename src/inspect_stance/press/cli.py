"""``inspect-stance press-report`` and ``inspect-stance press-compare``."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any


def _names(values: list[str] | None) -> list[str]:
    return [n.strip() for v in values or [] for n in v.split(",") if n.strip()]


def _report(args: argparse.Namespace) -> int:
    from inspect_stance.cli import InputError
    from inspect_stance.press.logs import read_press_log
    from inspect_stance.press.report import write_report

    try:
        runs = [read_press_log(p) for p in args.logs]
        result = write_report(runs, args.out, _names(args.left), _names(args.right))
    except ValueError as ex:
        raise InputError(str(ex)) from ex
    if args.json:
        json.dump(result, sys.stdout, indent=2, default=str)
        print()
    else:
        print(
            f"press-report: wrote {result['out_dir']}/report.md, heatmap.png, stability.png and CSV tables"
        )
    return 0


def _compare(args: argparse.Namespace) -> int:
    from inspect_stance.cli import InputError
    from inspect_stance.press.compare import transitions
    from inspect_stance.press.logs import read_press_log
    from inspect_stance.press.report import _md

    try:
        before, after = read_press_log(args.before), read_press_log(args.after)
        result = transitions(before.records, after.records, args.persona)
    except ValueError as ex:
        raise InputError(str(ex)) from ex
    table = result["table"]
    if args.csv:
        table.to_csv(args.csv)
    if args.json:
        out: dict[str, Any] = {
            "before": before.path,
            "after": after.path,
            "table": {
                str(i): {str(c): int(table.loc[i, c]) for c in table.columns} for i in table.index
            },
            "summary": result["summary"],
            "changes": result["changes"],
        }
        json.dump(out, sys.stdout, indent=2)
        print()
        return 0
    print(f"PReSS label transitions ({before.model} -> {after.model}, persona {args.persona})\n")
    print(_md(table.reset_index()))
    print()
    for k, v in result["summary"].items():
        print(f"- {k}: {v}")
    return 0


def register(subparsers: Any) -> None:
    """Add ``press-report`` and ``press-compare`` to ``subparsers``."""
    p = subparsers.add_parser(
        "press-report",
        help="PReSS heatmap, stability chart and tables over one or more logs (one model each)",
        description="Label x model heatmap, S_t chart, label distribution by model group with 95%% CIs, SF/SU/ID and AUROC tables (CSV, PNG, markdown).",
    )
    p.add_argument("logs", nargs="+", metavar="LOG", help="PReSS .eval logs, one model each")
    p.add_argument("--out", default="press_report", help="output folder (default: press_report)")
    p.add_argument(
        "--left",
        action="append",
        metavar="MODEL[,MODEL]",
        help="models in the left group (model name as in the log)",
    )
    p.add_argument(
        "--right", action="append", metavar="MODEL[,MODEL]", help="models in the right group"
    )
    p.add_argument("--json", action="store_true", help="print the tables as JSON")
    p.set_defaults(func=_report)

    c = subparsers.add_parser(
        "press-compare",
        help="PReSS label transition table between two runs (e.g. before / after fine-tuning)",
    )
    c.add_argument("before", metavar="BEFORE", help="PReSS .eval log of the first run")
    c.add_argument("after", metavar="AFTER", help="PReSS .eval log of the second run")
    c.add_argument(
        "--persona",
        default="none",
        choices=("none", "left", "right"),
        help="persona condition to compare (default none)",
    )
    c.add_argument("--csv", metavar="PATH", help="also write the transition table as CSV")
    c.add_argument("--json", action="store_true", help="print JSON instead of markdown")
    c.set_defaults(func=_compare)
