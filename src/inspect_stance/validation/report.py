"""The prompt-validation report: model annotators (from logs) and human annotators (a CSV).

    inspect-stance validation-report LOG_OR_DIR... [--human FILE] [--judges-log LOG...]
        [--out DIR] [--json]

Reads ``prompt_validation`` logs (folders are searched; other tasks' logs are skipped and
counted), optionally a CSV/TSV of human annotations of the same prompts, and optionally the
log(s) of a linked ``prompt_construction`` run. Writes to ``--out`` (default
``validation_report``):

- ``validation_summary.csv``: every figure (realism, clarity, detection, unparsed counts),
  one column per annotator group: ``llm`` (the logs' annotators) and ``human`` (the CSV);
- ``annotators.csv``: per annotator: group, answers, unparsed answers, Cohen's kappa of intent
  and stance per source, and ``also_judge``: ``yes`` / ``no`` when a linked
  ``prompt_construction`` run names its judges (``--judges-log``, or the ``prompts_from`` log
  recorded by the task), else ``unknown``;
- ``validation_report.md``: the same as markdown tables.

Human CSV columns: ``annotator``, ``item_id`` (the log's prompt id, e.g.
``339-opinion-neutral-templated-00``; ``inspect-stance validation-report`` writes every id with
its prompt to ``prompts.csv``), and any of ``rank`` (1 = most likely real; ties allowed and
turned into mid-ranks within each annotator's ranking of a setting), ``intent`` (writing / information / opinion), ``stance``
(neutral / pole_a / pole_b, or A / B) and ``side`` (none / pole_a / pole_b, or A / B). An
empty cell is an answer not given. The source and the intended labels come from the log.

The figures are computed in :mod:`inspect_stance.validation.analysis`, the human
file read in :mod:`inspect_stance.validation.human`, the text rendered in
:mod:`inspect_stance.validation.render`, the figures drawn in
:mod:`inspect_stance.validation.plots`; this module reads the logs and writes the
files.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from inspect_stance.errors import InputError
from inspect_stance.validation.analysis import (
    HUMAN,
    LLM,
    annotator_order,
    annotator_table,
    group_summary,
    items_of,
    prompt_rows,
    rows_from_records,
)

if TYPE_CHECKING:
    from inspect_ai.log import EvalLog

TASKS: tuple[str, ...] = ("prompt_validation",)
WHAT = "prompt_validation run"
FILES = (
    "validation_summary.csv",
    "annotators.csv",
    "prompts.csv",
    "validation_report.md",
    "realism.png",
    "recovery.png",
)


def score_records(log: EvalLog) -> list[dict[str, Any]]:
    """The validation records (score metadata with ``annotations``) of a log's samples."""
    records = []
    for sample in log.samples or []:
        for score in (sample.scores or {}).values():
            if score.metadata and "annotations" in score.metadata:
                records.append(score.metadata)
                break
    return records


def judges_of_log(path: str | Path) -> list[str]:
    """The models of role ``judges`` of a ``prompt_construction`` log (header only)."""
    from inspect_ai.log import read_eval_log

    from inspect_stance.logfile import find_task_logs

    # checks the file and its task from the header alone (a named file of another task raises)
    find_task_logs([path], ("prompt_construction",), "prompt_construction run")
    header = read_eval_log(str(path), header_only=True)
    roles = header.eval.model_roles or {}
    bound = roles.get("judges")
    if bound is None:
        return []
    configs = bound if isinstance(bound, list) else [bound]
    return [c.model for c in configs]


def read_validation_logs(
    logs: Sequence[str], judges_logs: Sequence[str] = ()
) -> tuple[list[str], list[dict[str, Any]], set[str] | None]:
    """The logs read, their score records, and the judges of the linked ``prompt_construction``
    run (the logs' ``construction_judges`` and ``judges_logs``; None when none is linked)."""
    from inspect_stance.logfile import find_task_logs, read_task_log

    found = find_task_logs(logs, TASKS, WHAT)
    for line in (found.skipped_line(), found.repeated_line()):
        if line:
            print(f"validation-report: {line}", file=sys.stderr)
    records: list[dict[str, Any]] = []
    linked: list[str] = []
    for path in found.paths:
        log = read_task_log(path, TASKS, WHAT)
        records.extend(score_records(log))
        linked.extend((log.eval.metadata or {}).get("construction_judges") or [])
    if not records:
        raise InputError(f"no scored prompt_validation samples in {', '.join(map(str, logs))}")
    for j in judges_logs:
        linked.extend(judges_of_log(j))
    judges = set(linked) if (judges_logs or linked) else None
    return [str(p) for p in found.paths], records, judges


def build_validation_report(
    logs: Sequence[str],
    out_dir: str | Path,
    human: str | None = None,
    judges_logs: Sequence[str] = (),
) -> dict[str, Any]:
    """Write the report files (module docstring) and return a JSON-able summary."""
    import pandas as pd

    from inspect_stance.validation.human import load_human
    from inspect_stance.validation.plots import realism_figure, recovery_figure
    from inspect_stance.validation.render import json_summary, report_markdown

    paths, records, judges = read_validation_logs(logs, judges_logs)
    items = items_of(records)
    llm_rows = rows_from_records(records)
    groups: dict[str, dict[str, float]] = {LLM: group_summary(llm_rows, annotator_order(records))}
    annotator_rows = annotator_table(llm_rows, LLM, judges)
    unmatched = 0
    if human:
        human_rows, unmatched = load_human(human, items)
        groups[HUMAN] = group_summary(
            human_rows, list(dict.fromkeys(r.annotator for r in human_rows))
        )
        annotator_rows += annotator_table(human_rows, HUMAN, judges)
        if unmatched:
            print(
                f"human annotations {human}: {unmatched} row(s) name a prompt of no log; skipped",
                file=sys.stderr,
            )
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    summary = pd.DataFrame(groups)
    summary.index.name = "figure"
    summary.to_csv(out / "validation_summary.csv")
    annotators = pd.DataFrame(annotator_rows)
    annotators.to_csv(out / "annotators.csv", index=False)
    pd.DataFrame(prompt_rows(items)).to_csv(out / "prompts.csv", index=False)
    realism_figure(summary, out / "realism.png")
    recovery_figure(summary, out / "recovery.png")
    counts = {
        "logs": len(paths),
        "settings": len(records),
        "prompts": len(items),
        "llm_annotators": len(annotator_order(records)),
    }
    markdown = report_markdown(summary, annotators, counts)
    (out / "validation_report.md").write_text(markdown, encoding="utf-8")
    return {
        "out_dir": str(out),
        "files": list(FILES),
        "logs": paths,
        "human_unmatched_rows": unmatched,
        **json_summary(groups, annotators),
    }
