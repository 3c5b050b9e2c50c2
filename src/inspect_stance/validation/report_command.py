"""The prompt-validation report as its method declares it: the function ``report`` and
``validation-report`` call (:func:`report`) and the command's own options
(:data:`COMMAND`)."""

from __future__ import annotations

import json

from inspect_stance.study.protocol import ReportCommand, ReportOption, ReportRequest


def report(request: ReportRequest) -> list[str]:
    """The report of ``request.paths`` written to ``request.out``
    (:func:`inspect_stance.validation.report.build_validation_report`, with ``--human``
    annotations and ``--judges-log`` judges when given): the summary as JSON, or the line
    ``wrote FILES to DIR``. A ``--label`` must name one of the prompt_validation logs (the
    report pools them; the name shows in the ``--html`` page's run table)."""
    from inspect_stance.runs import check_labels
    from inspect_stance.validation.report import build_validation_report

    if request.labels:
        from inspect_stance.logfile import find_task_logs
        from inspect_stance.validation.logs import TASKS, WHAT

        check_labels(find_task_logs(list(request.paths), TASKS, WHAT).paths, request.labels)
    summary = build_validation_report(list(request.paths), request.out,
                                      request.options.get("human"),
                                      request.options.get("judges_log") or (),
                                      request.partial)  # fmt: skip
    if request.json:
        return [json.dumps(summary, indent=2)]
    return [f"wrote {', '.join(summary['files'])} to {summary['out_dir']}"]


COMMAND = ReportCommand(
    help="prompt-validation study: realism, clarity, detection; humans beside LLM annotators",
    description="Report on prompt_validation eval logs: validation_summary.csv (one column per "
    "annotator group), annotators.csv, prompts.csv and validation_report.md.",
    paths_help="prompt_validation eval logs or folders",
    out="validation_report",
    json=True,
    label_help="name a run in the --html page's run table (RUN: its path as given or file name; "
    "the report's tables pool the runs)",
    options=(
        ReportOption(
            "--human", "CSV/TSV of human annotations: annotator,item_id,rank,intent,stance,side"
        ),
        ReportOption(
            "--judges-log",
            "a prompt_construction log whose judges are compared with the annotators (repeatable)",
            kind="repeat",
        ),
    ),
)
