"""The prompt-validation report: model annotators (from logs) and human annotators (a CSV).

    inspect-stance validation-report LOG_OR_DIR... [--human FILE] [--judges-log LOG...]
        [--out DIR] [--json] [--partial]

Reads ``prompt_validation`` logs (folders are searched; other tasks' logs are skipped and
counted; the shards of one study are one run, :mod:`inspect_stance.validation.logs`, an
incomplete set refused unless ``--partial``), optionally a CSV/TSV of human annotations of
the same prompts, and optionally the log(s) of a linked ``prompt_construction`` run. Writes to ``--out`` (default
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
:mod:`inspect_stance.validation.plots`; this module reads the logs and has
:func:`inspect_stance.report_doc.write_report` write the files.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from inspect_stance.errors import InputError
from inspect_stance.logfile import find_task_logs
from inspect_stance.report_doc import write_report
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
from inspect_stance.validation.figures import rank_headline
from inspect_stance.validation.human import load_human
from inspect_stance.validation.logs import read_validation_runs
from inspect_stance.validation.render import build, json_summary

if TYPE_CHECKING:
    from inspect_stance.validation.logs import ValidationLogRun

FILES = (
    "validation_summary.csv",
    "annotators.csv",
    "prompts.csv",
    "validation_report.md",
    "realism.png",
    "recovery.png",
)


def judges_of_log(path: str | Path) -> list[str]:
    """The models of role ``judges`` of a ``prompt_construction`` log (header only)."""
    from inspect_ai.log import read_eval_log

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
    logs: Sequence[str], judges_logs: Sequence[str] = (), partial: bool = False
) -> tuple[list[ValidationLogRun], list[dict[str, Any]], set[str] | None]:
    """The runs read (the shards of one study pooled into one run,
    :func:`inspect_stance.validation.logs.read_validation_runs`; ``partial``: an incomplete
    set too), their score records, and the judges of the linked ``prompt_construction`` run
    (the logs' ``construction_judges`` and ``judges_logs``; None when none is linked)."""

    runs, found = read_validation_runs(logs, partial)
    for line in found.passed_over():
        print(f"validation-report: {line}", file=sys.stderr)
    records = [r for run in runs for r in run.records]
    linked = [j for run in runs for j in run.metadata.get("construction_judges") or []]
    if not records:
        raise InputError(f"no scored prompt_validation samples in {', '.join(map(str, logs))}")
    for j in judges_logs:
        linked.extend(judges_of_log(j))
    judges = set(linked) if (judges_logs or linked) else None
    return runs, records, judges


def run_rows(runs: Sequence[ValidationLogRun]) -> list[dict[str, Any]]:
    """Per run read: its logs and, for shards pooled, ``shards`` (``"2 of 2"``) and
    ``partial`` (an incomplete set read with ``--partial``)."""
    out = []
    for run in runs:
        n = len(run.paths)
        shards = run.suffix.strip(" ()").removesuffix(" shards") or (
            f"{n} of {n}" if n > 1 else None
        )
        out.append({"logs": [str(p) for p in run.paths], "shards": shards,
                    "partial": bool(run.suffix)})  # fmt: skip
    return out


def report_counts(
    runs: Sequence[ValidationLogRun], records: Sequence[dict[str, Any]], prompts: int
) -> dict[str, Any]:
    """The report's counts: logs, settings (records), prompts, LLM annotators, and per run of
    pooled shards its ``shards`` text (``2 of 2``, ``1 of 2 (partial)``)."""
    rows = run_rows(runs)
    return {
        "logs": sum(len(r["logs"]) for r in rows),
        "settings": len(records),
        "prompts": prompts,
        "llm_annotators": len(annotator_order(records)),
        "shards": [r["shards"] + (" (partial)" if r["partial"] else "") for r in rows
                   if r["shards"]],
    }  # fmt: skip


def build_validation_report(
    logs: Sequence[str],
    out_dir: str | Path,
    human: str | None = None,
    judges_logs: Sequence[str] = (),
    partial: bool = False,
) -> dict[str, Any]:
    """Write the report files (module docstring) and return a JSON-able summary (``partial``:
    report an incomplete set of one study's shards as the shards given)."""
    import pandas as pd

    runs, records, judges = read_validation_logs(logs, judges_logs, partial)
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
    summary = pd.DataFrame(groups)
    summary.index.name = "figure"
    annotators = pd.DataFrame(annotator_rows)
    counts = report_counts(runs, records, len(items))
    write_report(build(summary, annotators, pd.DataFrame(prompt_rows(items)), counts), out)
    return {
        "out_dir": str(out),
        "files": list(FILES),
        "logs": [str(p) for run in runs for p in run.paths],
        "runs": run_rows(runs),
        # the headline over the runs read (the scorer's: validation.figures.rank_headline)
        "headline": rank_headline(llm_rows).to_json(),
        "human_unmatched_rows": unmatched,
        **json_summary(groups, annotators),
    }
