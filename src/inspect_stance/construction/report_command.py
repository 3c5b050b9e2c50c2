"""The prompt-construction report as its method declares it: the function ``report`` and
``construction-report`` call (:func:`report`) and the command's own options
(:data:`COMMAND`)."""

from __future__ import annotations

import json
import sys

from inspect_stance.study.protocol import ReportCommand, ReportOption, ReportRequest


def report(request: ReportRequest) -> list[str]:
    """The report of ``request.paths`` written to ``request.out``
    (:func:`inspect_stance.construction.report.build_report`, recomputed with
    ``--human-labels`` when given): the summary as JSON, or the line ``wrote FILES to DIR``;
    the logs of other tasks passed over are counted on stderr."""
    from inspect_stance.construction.report import build_report

    summary = build_report(list(request.paths), request.out,
                           request.options.get("human_labels"), request.partial,
                           request.labels)  # fmt: skip
    if summary.get("skipped"):
        print(f"inspect-stance construction-report: {summary['skipped']}", file=sys.stderr)
    if request.json:
        return [json.dumps(summary, indent=2)]
    return [f"wrote {', '.join(summary['files'])} to {summary['out_dir']}"]


COMMAND = ReportCommand(
    help="prompt-construction study: per-setting leans, neutral comparison, judge agreement",
    description="Report on prompt_construction (and judge_validation) eval logs: settings.csv, "
    "comparison.csv, direction.csv, agreement.csv, prompts.csv (reusable with "
    "-T prompts_from=), lean_by_setting.png and construction_report.md. Folders may hold other "
    "tasks' logs: they are skipped and counted on stderr. Runs of one model under both rubric "
    "thresholds are reported side by side.",
    paths_help="eval log files or folders of logs (other tasks' logs skipped)",
    out="construction_report",
    json=True,
    options=(
        ReportOption(
            "--human-labels",
            "CSV/TSV/JSONL with columns id,label (1-5 or refusal) and, "
            "for logs of several models, model: recompute with human labels",
        ),
    ),
)
