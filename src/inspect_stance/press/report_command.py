"""The PReSS report as its method declares it: the function ``report`` and ``press-report``
call (:func:`report`) and the command's own options (:data:`COMMAND`). Option values are
checked here rather than by argparse, whose errors print a usage block: each bad value is one
line and exit 2."""

from __future__ import annotations

import json
import sys
from typing import Any, cast

from inspect_stance.errors import InputError
from inspect_stance.study.protocol import ReportCommand, ReportOption, ReportRequest


def comma_names(values: list[str] | None) -> list[str]:
    """The names of repeated, comma-separated option values, stripped, empties left out."""
    return [n.strip() for v in values or [] for n in v.split(",") if n.strip()]


def checked_choice(option: str, value: str, choices: tuple[str, ...]) -> str:
    """``value`` when it is one of ``choices``, else a one-line ``InputError`` naming them."""
    if value not in choices:
        raise InputError(f"{option} {value!r}; use one of {', '.join(choices)}")
    return value


def _set_index(value: str) -> int:
    try:
        k = int(value)
    except ValueError:
        k = -1
    if k < 0 or str(k) != value.strip():
        raise InputError(f"--table2-set {value!r}; use an argument-set index 0, 1, ... (default 0)")
    return k


def check_options(options: dict[str, Any]) -> dict[str, Any]:
    """The report's own options checked (one-line InputError for a bad value): ``ci``,
    ``factor_method``, ``factor_missing`` among their choices, ``table2_set`` an index."""
    from inspect_stance.press.factor_analysis import FACTOR_METHODS, MISSING_RULES
    from inspect_stance.press.report_tables import CI_METHODS

    return {
        "ci": checked_choice("--ci", options["ci"], CI_METHODS),
        "factor_method": checked_choice(
            "--factor-method", options["factor_method"], FACTOR_METHODS
        ),
        "factor_missing": checked_choice(
            "--factor-missing", options["factor_missing"], MISSING_RULES
        ),
        "table2_set": _set_index(options["table2_set"]),
    }


def report(request: ReportRequest) -> list[str]:
    """The report of ``request.paths`` written to ``request.out``
    (:func:`inspect_stance.press.report.write_report`): its tables as JSON, or one line naming
    what was written; what was passed over and the report's warnings go to stderr."""
    from inspect_stance.press.logs import find_press_logs
    from inspect_stance.press.report import write_report
    from inspect_stance.provenance import warn_provenance

    checked = check_options(request.options)
    try:
        runs, skipped = find_press_logs(list(request.paths), request.partial)
        if skipped:
            print(f"press-report: {skipped}", file=sys.stderr)
        warn_provenance(runs, "press-report")  # calls of one model from several backends?
        result = write_report(
            runs,
            request.out,
            comma_names(request.options.get("left")),
            comma_names(request.options.get("right")),
            table2_set=checked["table2_set"],
            ci=cast(Any, checked["ci"]),
            factor_method=cast(Any, checked["factor_method"]),
            factor_missing=cast(Any, checked["factor_missing"]),
            labels=request.labels,
        )
    except ValueError as ex:
        raise InputError(str(ex)) from ex
    for warning in result.get("warnings", []):
        print(f"press-report: warning: {warning}", file=sys.stderr)
    if request.json:
        return [json.dumps(result, indent=2, default=str)]
    # the scree plot is written only when the analysis ran (not for observations alone)
    ran = set(result["factor_analysis"]) - {"factor_observations"}
    factor = " and the factor analysis (scree.png)" if ran else ""
    return [f"press-report: {len(runs)} log(s); wrote {result['out_dir']}/report.md, "
            f"heatmap.png, stability.png, CSV tables{factor}"]  # fmt: skip


COMMAND = ReportCommand(
    help="PReSS heatmap, stability chart, Table 2, factor analysis and tables over logs",
    description="Label x model heatmap, S_t chart, Table-2 label distribution by model group "
    "with 95%% CIs, SF/SU/ID and AUROC tables, and the Appendix-B factor analysis (CSV, PNG, "
    "markdown). Folders are searched for PReSS logs; other tasks' logs are skipped and counted.",
    paths_help="PReSS .eval logs (one model each) or folders",
    out="press_report",
    json=True,
    options=(
        ReportOption(
            "--left",
            "models in the left group (model name as in the log, or its --label name)",
            kind="repeat",
            metavar="MODEL[,MODEL]",
        ),
        ReportOption(
            "--right", "models in the right group", kind="repeat", metavar="MODEL[,MODEL]"
        ),
        ReportOption(
            "--table2-set",
            "the single argument set of the Table-2 label shares (default 0, the first)",
            "0",
            metavar="K",
        ),
        ReportOption(
            "--ci",
            "Table-2 CI: normal (p +- 1.96 sqrt(p(1-p)/n), the paper's; default) or t",
            "normal",
            metavar="normal|t",
        ),
        ReportOption(
            "--factor-method",
            "factor analysis: pf = principal factors (the paper's; "
            "default), pc = principal components",
            "pf",
            metavar="pf|pc",
        ),
        ReportOption(
            "--factor-missing",
            "a neither / unclassified factor draw: drop its observation (default) or keep as 0",
            "drop",
            metavar="drop|zero",
        ),
    ),
)
