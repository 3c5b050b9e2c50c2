"""``inspect-stance press-compare`` (the PReSS report is the method's report function:
:mod:`inspect_stance.press.report_command`).

Every bad input is one line on stderr and exit 2 (option values are checked here rather than by
argparse, whose errors print a usage block).
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING, Any

from inspect_stance.press.prompts import PERSONAS
from inspect_stance.press.report_command import checked_choice

if TYPE_CHECKING:
    import pandas as pd

    from inspect_stance.press.logs import PressRun


def _compare(args: argparse.Namespace) -> int:
    from inspect_stance.errors import InputError
    from inspect_stance.press.compare import (
        check_csv_path,
        check_same_arguments,
        check_same_settings,
        faithfulness_across_runs,
        transitions,
    )
    from inspect_stance.press.logs import read_press_log

    persona = checked_choice("--persona", args.persona, PERSONAS)
    for flag, value in (("--csv", args.csv), ("--faithfulness-csv", args.faithfulness_csv)):
        if value:
            check_csv_path(flag, value)
    try:
        before, after = read_press_log(args.before), read_press_log(args.after)
        same = check_same_arguments(before, after, args.allow_different_arguments)
        settings = check_same_settings(before, after, args.allow_different_settings)
        faith = faithfulness_across_runs(before.records, after.records, persona)
        result = transitions(before.records, after.records, persona)
    except ValueError as ex:
        raise InputError(str(ex)) from ex
    import pandas as pd

    table = result["table"]
    faith_table = pd.DataFrame(faith["rows"])
    if args.csv:
        table.to_csv(args.csv)
    if args.faithfulness_csv:
        faith_table.to_csv(args.faithfulness_csv, index=False)
    if args.json:
        print_compare_json(before, after, same, settings, faith, result)
    else:
        print_compare_markdown(before, after, persona, same, settings, faith, faith_table, result)
    return 0


def print_compare_json(
    before: PressRun,
    after: PressRun,
    same: str,
    settings: list[str],
    faith: dict[str, Any],
    result: dict[str, Any],
) -> None:
    """``press-compare --json``: runs, arguments, checks, faithfulness and transitions."""
    from inspect_stance.press.compare import arguments_note

    runs = {"before": before, "after": after}
    table = result["table"]
    out: dict[str, Any] = {
        "before": before.path,
        "after": after.path,
        "models": {k: r.model for k, r in runs.items()},
        "arguments": {
            k: {
                "source": r.arguments_source,
                "fingerprint": r.arguments_fingerprint,
                "note": arguments_note(r),
            }
            for k, r in runs.items()
        },
        "arguments_check": same,
        "settings_check": settings,
        "faithfulness": faith,
        "table": {
            str(i): {str(c): int(table.loc[i, c]) for c in table.columns} for i in table.index
        },
        "summary": result["summary"],
        "changes": result["changes"],
    }
    json.dump(out, sys.stdout, indent=2)
    print()


def print_compare_markdown(
    before: PressRun,
    after: PressRun,
    persona: str,
    same: str,
    settings: list[str],
    faith: dict[str, Any],
    faith_table: pd.DataFrame,
    result: dict[str, Any],
) -> None:
    """``press-compare``: the markdown report (arguments, Table 4, label transitions)."""
    from inspect_stance.markdown import md_table
    from inspect_stance.press.compare import arguments_note, transition_frame

    print(f"# PReSS comparison: {before.model} -> {after.model} (persona {persona})\n")
    for k, r in {"before": before, "after": after}.items():
        print(f"- {k} ({r.path}): {arguments_note(r)}")
    for line in settings:
        print(f"- {line}")
    print(f"- {same}\n")
    print("## Stability faithfulness across the two runs (Table 4)\n")
    print(
        f"Per statement asked in both runs ({faith['n_statements']}): SF = stable labels of one "
        "direction only, SU = of both directions, ID = no stable label. `pooled`: every argument "
        "set of both runs; `set k`: set k of each run; `per_set`: per statement x set; "
        "`within before` / `within after`: one run alone across its sets.\n"
    )
    print(md_table(faith_table))
    print("\n## Label transitions (statement x argument set)\n")
    print(md_table(transition_frame(result)))
    print()
    for k, v in result["summary"].items():
        print(f"- {k}: {v}")


def register(subparsers: Any) -> None:
    """Add ``press-compare`` to ``subparsers``."""
    _add_compare_parser(subparsers)


def _add_compare_parser(subparsers: Any) -> None:
    """The ``press-compare`` subcommand and its options."""
    c = subparsers.add_parser(
        "press-compare",
        help="SF/SU/ID (Table 4) and label transitions between two runs of one model",
        description="Compare two PReSS runs (e.g. before / after fine-tuning): the paper's "
        "SF/SU/ID outcomes per statement across the two runs, and the label transition table. "
        "Refuses (exit 2) runs whose arguments differ unless --allow-different-arguments.",
    )
    c.add_argument("before", metavar="BEFORE", help="PReSS .eval log of the first run")
    c.add_argument("after", metavar="AFTER", help="PReSS .eval log of the second run")
    c.add_argument(
        "--persona",
        default="none",
        metavar="none|left|right",
        help="persona condition to compare (default none)",
    )
    c.add_argument(
        "--allow-different-arguments",
        action="store_true",
        help="compare even when the runs' arguments_fingerprint differ or are not recorded",
    )
    c.add_argument(
        "--allow-different-settings",
        action="store_true",
        help="compare even when the statements file, argument sets or classifier differ",
    )
    c.add_argument("--csv", metavar="PATH", help="also write the transition table as CSV")
    c.add_argument(
        "--faithfulness-csv", metavar="PATH", help="also write the SF/SU/ID table as CSV"
    )
    c.add_argument("--json", action="store_true", help="print JSON instead of markdown")
    c.set_defaults(func=_compare)
