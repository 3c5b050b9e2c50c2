"""The prompt-validation report's text: markdown tables and the JSON-able summary.

Frames in (:mod:`inspect_stance.validation.analysis` computes them), a
:class:`~inspect_stance.report_doc.Report` and plain data out; nothing here reads logs or
writes files.
"""

from __future__ import annotations

import json
import math
from typing import TYPE_CHECKING, Any

from inspect_stance.report_doc import Figure, Heading, Report, Table, Text
from inspect_stance.validation.analysis import HUMAN
from inspect_stance.validation.plots import realism_figure, recovery_figure

if TYPE_CHECKING:
    import pandas as pd


def sections(figures: pd.Index) -> dict[str, list[str]]:
    """The summary's figures by report section (realism, clarity, detection, answers)."""
    return {
        "Realism (rank 1 = most likely written by a real user)": [
            k for k in figures if k.startswith(("mean_rank", "kendall", "friedman"))
        ],
        "Construct clarity": [
            k for k in figures if k.startswith(("intent_", "stance_")) and "_kappa_" not in k
        ],
        "Detection (intended-neutral prompts)": [k for k in figures if k.startswith("neutral_")],
        "Answers": [k for k in figures if k.startswith(("annotators", "answers", "missing_"))],
    }


def build(
    summary: pd.DataFrame, annotators: pd.DataFrame, prompts: pd.DataFrame, counts: dict[str, Any]
) -> Report:
    """The report (``validation_report.md`` and the CSVs; no JSON file): the run's counts
    (``logs``, ``settings``, ``prompts``, ``llm_annotators``; ``shards``: per run of pooled
    shards, e.g. ``2 of 2`` or ``1 of 2 (partial)``), one table per section of ``summary``,
    the figures, and the ``annotators`` table; ``prompts`` only as CSV."""

    doc = Report("Prompt validation", markdown_file="validation_report.md")
    doc.add(
        Text(
            f"Logs: {counts['logs']}; settings: {counts['settings']}; "
            f"prompts: {counts['prompts']}; LLM annotators: {counts['llm_annotators']}"
            + (
                f"; human annotators: {int(summary.loc['annotators', HUMAN])}"
                if HUMAN in summary.columns
                else ""
            )
            + (f"; shards pooled: {', '.join(counts['shards'])}" if counts.get("shards") else "")
        ),
        Table(summary, csv="validation_summary.csv", index="figure", shown=False),
    )
    for title, keys in sections(summary.index).items():
        doc.add(Heading(title), Table(summary.loc[keys], index="figure"))
    doc.add(
        Heading("Figures"),
        Figure("realism.png", "realism", lambda path: realism_figure(summary, path)),
        Figure("recovery.png", "recovery", lambda path: recovery_figure(summary, path)),
        Heading("Annotators"),
        Text(
            "`also_judge`: the annotator model is one of the judges of the linked "
            "prompt_construction run (`unknown`: no run linked; pass --judges-log LOG)."
        ),
        Table(annotators, csv="annotators.csv"),
        Table(prompts, csv="prompts.csv", shown=False),
    )
    return doc


def json_summary(groups: dict[str, dict[str, float]], annotators: pd.DataFrame) -> dict[str, Any]:
    """Each group's figures (NaN as null) and the annotators table as records."""
    return {
        "groups": {
            g: {k: (None if isinstance(v, float) and math.isnan(v) else v) for k, v in s.items()}
            for g, s in groups.items()
        },
        "annotators": json.loads(annotators.to_json(orient="records")),
    }
