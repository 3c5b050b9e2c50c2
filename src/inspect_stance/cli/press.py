"""``inspect-stance press-report`` and ``inspect-stance press-compare``.

Every bad input is one line on stderr and exit 2 (option values are checked here rather than by
argparse, whose errors print a usage block).
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING, Any, cast

from inspect_stance.cli.types import add_label_argument
from inspect_stance.press.factor_analysis import FACTOR_METHODS, MISSING_RULES
from inspect_stance.press.prompts import PERSONAS

if TYPE_CHECKING:
    import pandas as pd

    from inspect_stance.press.logs import PressRun


def _names(values: list[str] | None) -> list[str]:
    return [n.strip() for v in values or [] for n in v.split(",") if n.strip()]


def _choice(option: str, value: str, choices: tuple[str, ...]) -> str:
    from inspect_stance.errors import InputError

    if value not in choices:
        raise InputError(f"{option} {value!r}; use one of {', '.join(choices)}")
    return value


def _set_index(value: str) -> int:
    from inspect_stance.errors import InputError

    try:
        k = int(value)
    except ValueError:
        k = -1
    if k < 0 or str(k) != value.strip():
        raise InputError(f"--table2-set {value!r}; use an argument-set index 0, 1, ... (default 0)")
    return k


def _report(args: argparse.Namespace) -> int:
    from inspect_stance.errors import InputError
    from inspect_stance.press.logs import find_press_logs
    from inspect_stance.press.report import write_report
    from inspect_stance.press.report_tables import CI_METHODS

    ci = _choice("--ci", args.ci, CI_METHODS)
    method = _choice("--factor-method", args.factor_method, FACTOR_METHODS)
    missing = _choice("--factor-missing", args.factor_missing, MISSING_RULES)
    table2_set = _set_index(args.table2_set)
    from inspect_stance.paths import check_out_dir
    from inspect_stance.runs import parse_labels

    labels = parse_labels(args.label)

    check_out_dir(args.out)
    try:
        runs, skipped = find_press_logs(args.logs, args.partial)
        if skipped:
            print(f"press-report: {skipped}", file=sys.stderr)
        from inspect_stance.provenance import warn_provenance

        warn_provenance(runs, "press-report")  # calls of one model from several backends?
        result = write_report(
            runs,
            args.out,
            _names(args.left),
            _names(args.right),
            table2_set=table2_set,
            ci=cast(Any, ci),
            factor_method=cast(Any, method),
            factor_missing=cast(Any, missing),
            labels=labels,
        )
    except ValueError as ex:
        raise InputError(str(ex)) from ex
    for warning in result.get("warnings", []):
        print(f"press-report: warning: {warning}", file=sys.stderr)
    if args.json:
        json.dump(result, sys.stdout, indent=2, default=str)
        print()
    else:
        # the scree plot is written only when the analysis ran (not for observations alone)
        ran = set(result["factor_analysis"]) - {"factor_observations"}
        factor = " and the factor analysis (scree.png)" if ran else ""
        print(
            f"press-report: {len(runs)} log(s); wrote {result['out_dir']}/report.md, heatmap.png, "
            f"stability.png, CSV tables{factor}"
        )
    return 0


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

    persona = _choice("--persona", args.persona, PERSONAS)
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
    """Add ``press-report`` and ``press-compare`` to ``subparsers``."""
    _add_report_parser(subparsers)
    _add_compare_parser(subparsers)


def _add_report_parser(subparsers: Any) -> None:
    """The ``press-report`` subcommand and its options."""
    p = subparsers.add_parser(
        "press-report",
        help="PReSS heatmap, stability chart, Table 2, factor analysis and tables over logs",
        description="Label x model heatmap, S_t chart, Table-2 label distribution by model "
        "group with 95%% CIs, SF/SU/ID and AUROC tables, and the Appendix-B factor analysis "
        "(CSV, PNG, markdown). Folders are searched for PReSS logs; other tasks' logs are "
        "skipped and counted.",
    )
    p.add_argument(
        "logs", nargs="+", metavar="LOG", help="PReSS .eval logs (one model each) or folders"
    )
    p.add_argument("--out", default="press_report", help="output folder (default: press_report)")
    p.add_argument(
        "--left",
        action="append",
        metavar="MODEL[,MODEL]",
        help="models in the left group (model name as in the log, or its --label name)",
    )
    p.add_argument(
        "--right", action="append", metavar="MODEL[,MODEL]", help="models in the right group"
    )
    p.add_argument(
        "--table2-set",
        default="0",
        metavar="K",
        help="the single argument set of the Table-2 label shares (default 0, the first)",
    )
    p.add_argument(
        "--ci",
        default="normal",
        metavar="normal|t",
        help="Table-2 CI: normal (p +- 1.96 sqrt(p(1-p)/n), the paper's; default) or t",
    )
    p.add_argument(
        "--factor-method",
        default="pf",
        metavar="pf|pc",
        help="factor analysis: pf = principal factors (the paper's; default), "
        "pc = principal components",
    )
    p.add_argument(
        "--factor-missing",
        default="drop",
        metavar="drop|zero",
        help="a neither / unclassified factor draw: drop its observation (default) or keep as 0",
    )
    p.add_argument("--json", action="store_true", help="print the tables as JSON")
    from inspect_stance.shards import PARTIAL_HELP

    p.add_argument("--partial", action="store_true", help=PARTIAL_HELP)
    add_label_argument(p)
    from inspect_stance.cli.html import add_html_argument, with_html

    add_html_argument(p)
    p.set_defaults(func=with_html(_report, "press-report", "logs"))


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
