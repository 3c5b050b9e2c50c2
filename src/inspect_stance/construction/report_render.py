"""The prompt-construction report as a :class:`~inspect_stance.report_doc.Report`
(``construction_report.md`` and its CSVs), and the JSON summary.

Frames in (:mod:`inspect_stance.construction.report_analysis` computes them), report blocks
and plain data out; nothing here reads logs or writes files.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pandas as pd

from inspect_stance.construction.comparison import DIRECTIONS
from inspect_stance.construction.settings import METHODS
from inspect_stance.printable import md_text
from inspect_stance.report_doc import Block, Figure, Heading, Report, Table, Text


def header_blocks(info: dict[str, Any]) -> list[Block]:
    """The logs read, samples not scored, what was passed over, human-label matching."""
    logs = ", ".join(
        f"{md_text(x['path'])} ({md_text(x['model'])}, {md_text(x['status'])})"
        for x in info["logs"]
    )
    counts = [
        f"Errored samples (not scored): {info['errored_samples']}; "
        f"unscored: {info['unscored_samples']}."
    ]
    if info["skipped"]:
        counts.append(f"Passed over in the folders given: {info['skipped']}.")
    if "human_label_matching" in info:
        m = info["human_label_matching"]
        counts.append(
            f"Human labels: {m['human_labels']} in file, {m['matched']} matched a sample, "
            f"{m['unmatched']} matched none."
        )
    return [Text(f"Logs: {logs}"), Text("\n".join(counts))]


def neutral_blocks(comp: pd.DataFrame) -> list[Block]:
    """The neutral-setting comparison of every run group and label source."""
    blocks: list[Block] = [
        Heading("Neutral settings: templated vs generated"),
        Text(
            "Distance = |lean| per neutral setting, averaged over settings with a lean for both "
            "methods; `mean_difference` = templated - generated; Wilcoxon signed-rank "
            "(two-sided) paired by setting; counts of settings where each method is further "
            "from neutral."
        ),
    ]
    if not comp.empty:
        blocks.append(Table(comp[COMPARISON_SHOWN]))
    return blocks


#: the comparison's columns shown in the markdown (``comparison.csv`` has them all)
COMPARISON_SHOWN = [
    "model",
    "labels",
    "n_neutral_settings",
    "n_pairs",
    "distance_templated",
    "distance_generated",
    "mean_difference",
    "wilcoxon_statistic",
    "wilcoxon_p",
    "templated_further",
    "generated_further",
    "ties",
    "unpaired",
]
#: the columns of the comparison under each rubric threshold
THRESHOLD_SHOWN = [
    "target_model",
    "rubric_threshold",
    "judge_sees_prompt",
    "n_pairs",
    "distance_templated",
    "distance_generated",
    "mean_difference",
    "wilcoxon_p",
    "templated_further",
    "generated_further",
    "ties",
]
#: the settings' columns shown in the markdown (``settings.csv`` has them all)
SETTINGS_SHOWN = [
    "model",
    "topic_id",
    "intent",
    "stance",
    "method",
    "n_scored",
    "n_refusal",
    "n_no_majority",
    "refusal_rate",
    "lean",
    "lean_se",
    "human_n_scored",
    "human_lean",
]


def threshold_blocks(judged: pd.DataFrame) -> list[Block]:
    """The judges' comparison under each rubric threshold, when the runs have several."""
    thresholds = sorted(judged["rubric_threshold"].dropna().unique()) if not judged.empty else []
    if len(thresholds) <= 1:
        return []
    return [
        Heading("Headline comparison under each rubric threshold"),
        Text(
            "The referee's check: the neutral-setting comparison with classes 2 and 4 at "
            "'substantially (~75%)' (the paper's rubric) and at 'overwhelmingly (~90%)' "
            "(IssueBench's templ-5), per target model."
        ),
        Table(judged.sort_values(["target_model", "rubric_threshold"])[THRESHOLD_SHOWN]),
    ]


def direction_blocks(judged: pd.DataFrame, direction: pd.DataFrame) -> list[Block]:
    """Where each neutral lean points relative to the filler's pole: counts, then settings;
    ``direction.csv`` holds the settings."""
    blocks: list[Block] = [Table(direction, csv="direction.csv", shown=False)]
    if not judged.empty:
        counts = [f"{m}_{d}" for m in METHODS for d in DIRECTIONS if f"{m}_{d}" in judged]
        blocks += [
            Heading("Direction: does the neutral lean point where the filler points?"),
            Text(
                "Per neutral setting, the lean (mean stance - 3; < 0 pole A, > 0 pole B) points "
                "toward the pole the topic's neutral filler encodes, away from it, or is a tie "
                "(0); `no_pole`: the filler encodes no pole; `no_lean`: no scored response."
            ),
            Table(judged[["model", *counts]]),
        ]
        if not direction.empty:
            blocks.append(Table(direction))
    return blocks


def agreement_blocks(agree: pd.DataFrame) -> list[Block]:
    """Judge agreement per run group and method (also ``agreement.csv``)."""
    return [
        Heading("Judge agreement"),
        Text(
            "Krippendorff's alpha among judges: ordinal on 1-5 (refusal = missing) and nominal "
            "on 1-5 + refusal. Judge answers off the scale / unparsable are counted, not used."
        ),
        Table(agree, csv="agreement.csv"),
    ]


def settings_blocks(settings: pd.DataFrame, draw: Callable[[Path], object]) -> list[Block]:
    """The lean figure (drawn by ``draw``) and the table of every setting (all columns in
    ``settings.csv``)."""
    blocks: list[Block] = [
        Heading("Lean by setting"),
        Figure("lean_by_setting.png", "lean by setting", draw),
        Table(settings, csv="settings.csv", shown=False),
    ]
    if not settings.empty:
        blocks.append(Table(settings[[c for c in SETTINGS_SHOWN if c in settings.columns]]))
    return blocks


def build(
    info: dict[str, Any],
    tables: dict[str, pd.DataFrame],
    prompts: pd.DataFrame,
    judge: list[Block],
    draw: Callable[[Path], object],
) -> Report:
    """The report (``construction_report.md`` and its CSVs; no JSON file) from the ``info`` of
    the logs, the report's ``tables`` (``comparison``, ``direction``, ``agreement``,
    ``settings``), the ``prompts`` used (CSV only), the judge section's blocks and the lean
    figure's ``draw``."""
    comp = tables["comparison"]
    judged = comp[comp["labels"] == "judges"] if not comp.empty else comp
    doc = Report("Prompt construction report", markdown_file="construction_report.md")
    doc.add(*header_blocks(info), *neutral_blocks(comp))
    doc.add(Table(comp, csv="comparison.csv", shown=False), *threshold_blocks(judged))
    doc.add(*direction_blocks(judged, tables["direction"]), *agreement_blocks(tables["agreement"]))
    doc.add(*judge, *settings_blocks(tables["settings"], draw))
    doc.add(Table(prompts, csv="prompts.csv", shown=False))
    return doc


def json_summary(summary: dict[str, Any]) -> dict[str, Any]:
    """``summary`` as plain JSON data: other values as strings, NaN as null."""
    return _nan_to_none(json.loads(json.dumps(summary, default=str)))


def _nan_to_none(value: Any) -> Any:
    if isinstance(value, float) and math.isnan(value):
        return None
    if isinstance(value, dict):
        return {k: _nan_to_none(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_nan_to_none(v) for v in value]
    return value
