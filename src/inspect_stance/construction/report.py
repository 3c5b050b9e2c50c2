"""``inspect-stance construction-report``: tables, test, agreement and plot from eval logs.

Reads ``prompt_construction`` (and ``judge_validation``) logs: files, or folders in which the
logs of other tasks are skipped and counted (:func:`inspect_stance.logfile.find_task_logs`),
each in one pass; turns every scored sample into a
:class:`~inspect_stance.construction.records.Record` and reports per *run group*: target model
x rubric threshold x whether the judges saw the prompt (so runs of one model under both
thresholds are reported side by side, and the headline comparison is shown under each
threshold):

- ``settings.csv``: per setting x method, counts (samples, judged, scored N, refusals,
  no-majority, ...), refusal rate, lean, its standard error and the distance from neutral;
  with human labels also the human-label lean on the labelled subset;
- ``comparison.csv``: the neutral-setting comparison (mean distance per method, mean paired
  difference, Wilcoxon signed-rank, direction counts, unpaired settings), from the judges and,
  with human labels, from the human labels and from the judges on the same subset;
- ``direction.csv``: per neutral setting, the pole the topic's filler encodes and whether each
  method's lean points toward it, away from it, or is a tie; the counts are in
  ``comparison.csv`` (``<method>_toward`` ...) and the markdown;
- ``agreement.csv``: Krippendorff's alpha among judges per method (ordinal; nominal with
  refusal), judge answer problems, and with human labels the ensemble's and each judge's
  agreement with people per method;
- ``prompts.csv``: every prompt used (reusable with ``-T prompts_from=prompts.csv``);
- ``lean_by_setting.png``: dot plot of lean by setting and method (+-1.96 SE bars);
- ``construction_report.md``: all of the above as markdown; ``--json`` prints a summary.

The logs are read in :mod:`inspect_stance.construction.report_records`, the numbers computed in
:mod:`inspect_stance.construction.report_analysis`, the text rendered in
:mod:`inspect_stance.construction.report_render`, the figure drawn in
:mod:`inspect_stance.construction.plots` and the judge section in
:mod:`inspect_stance.construction.judge_report`; this module reads and computes, and
:func:`inspect_stance.report_doc.write_report` writes the files.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from inspect_stance.construction.figures import group_headline
from inspect_stance.construction.judge_report import judge_blocks, judge_section
from inspect_stance.construction.plots import plot_leans
from inspect_stance.construction.report_analysis import (
    agreement_frame,
    by_run_group,
    comparison_frame,
    direction_frame,
    group_reports,
    model_report,
    prompts_table,
    settings_frame,
)
from inspect_stance.construction.report_records import (
    ReportInputError,
    attach_human_labels,
    read_records,
    run_group,
)
from inspect_stance.construction.report_render import build, json_summary
from inspect_stance.report_doc import write_report

# the report's entry points, importable from here
__all__ = [
    "ReportInputError",
    "attach_human_labels",
    "build_report",
    "model_report",
    "plot_leans",
    "read_records",
    "run_group",
]


def build_report(
    logs: Sequence[str | Path],
    out_dir: str | Path,
    human_labels: str | Path | None = None,
    partial: bool = False,
    labels: Mapping[str, str] | None = None,
) -> dict[str, Any]:
    """Write every report file into ``out_dir``; returns the JSON summary (``partial``: report
    an incomplete set of shards; ``labels``: ``--label RUN=NAME``, a log's run group name;
    :func:`read_records`)."""
    records, info = read_records(logs, partial, labels)
    if human_labels:
        records, info["human_label_matching"] = attach_human_labels(records, human_labels)
    by_model = by_run_group(records)
    reports = group_reports(by_model)

    out = Path(out_dir)
    tables = {
        "settings": settings_frame(reports),
        "comparison": comparison_frame(reports),
        "direction": direction_frame(reports),
        "agreement": agreement_frame(reports),
    }
    judges = judge_section(by_model)  # controls, audits, per-judge bias, Dawid-Skene, PPI
    doc = build(info, tables, prompts_table(records), judge_blocks(judges),
                lambda path: plot_leans(reports, path))  # fmt: skip
    write_report(doc, out)
    return json_summary(
        {
            "out_dir": str(out),
            "files": sorted(p.name for p in out.iterdir()),
            **info,
            "models": {
                m: {k: v for k, v in rep.items() if k != "settings"} for m, rep in reports.items()
            },
            # each run group's headline, the scorer's (construction.figures.group_headline)
            "headline": {m: group_headline(recs).to_json() for m, recs in by_model.items()},
            "judges": {k: t.to_dict(orient="records") for k, t in judges.tables.items()},
        }
    )
