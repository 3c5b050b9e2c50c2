"""The prompt-validation report's text: markdown tables and the JSON-able summary.

Frames in (:mod:`inspect_stance.validation.analysis` computes them), text and
plain data out; nothing here reads logs or writes files.
"""

from __future__ import annotations

import json
import math
from typing import TYPE_CHECKING, Any

from inspect_stance.validation.analysis import HUMAN

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


def report_markdown(summary: pd.DataFrame, annotators: pd.DataFrame, counts: dict[str, Any]) -> str:
    """``validation_report.md``: the run's counts (``logs``, ``settings``, ``prompts``,
    ``llm_annotators``; ``shards``: per run of pooled shards, e.g. ``2 of 2`` or ``1 of 2
    (partial)``), one table per section, the figures, and the annotators table."""
    from inspect_stance.markdown import md_table

    lines = ["# Prompt validation", ""]
    lines.append(
        f"Logs: {counts['logs']}; settings: {counts['settings']}; prompts: {counts['prompts']}; "
        f"LLM annotators: {counts['llm_annotators']}"
        + (
            f"; human annotators: {int(summary.loc['annotators', HUMAN])}"
            if HUMAN in summary.columns
            else ""
        )
        + (f"; shards pooled: {', '.join(counts['shards'])}" if counts.get("shards") else "")
    )
    for title, keys in sections(summary.index).items():
        lines += ["", f"## {title}", "", md_table(summary.loc[keys], index="figure")]
    lines += ["", "## Figures", "", "![realism](realism.png)", "", "![recovery](recovery.png)"]
    lines += ["", "## Annotators", ""]
    lines.append(
        "`also_judge`: the annotator model is one of the judges of the linked "
        "prompt_construction run (`unknown`: no run linked; pass --judges-log LOG)."
    )
    lines += ["", md_table(annotators)]
    return "\n".join(lines) + "\n"


def json_summary(groups: dict[str, dict[str, float]], annotators: pd.DataFrame) -> dict[str, Any]:
    """Each group's figures (NaN as null) and the annotators table as records."""
    return {
        "groups": {
            g: {k: (None if isinstance(v, float) and math.isnan(v) else v) for k, v in s.items()}
            for g, s in groups.items()
        },
        "annotators": json.loads(annotators.to_json(orient="records")),
    }
