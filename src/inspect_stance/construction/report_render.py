"""The prompt-construction report's text: ``construction_report.md`` and the JSON summary.

Frames in (:mod:`inspect_stance.construction.report_analysis` computes them), markdown lines
and plain data out; nothing here reads logs or writes files.
"""

from __future__ import annotations

import json
import math
from typing import Any

import pandas as pd

from inspect_stance.construction.comparison import DIRECTIONS
from inspect_stance.construction.settings import METHODS
from inspect_stance.markdown import md_table
from inspect_stance.printable import md_text


def header_lines(info: dict[str, Any]) -> list[str]:
    """The logs read, samples not scored, what was passed over, human-label matching."""
    md: list[str] = []
    md += ["# Prompt construction report", ""]
    md.append(
        "Logs: "
        + ", ".join(
            f"{md_text(x['path'])} ({md_text(x['model'])}, {md_text(x['status'])})"
            for x in info["logs"]
        )
    )
    md.append(
        f"\nErrored samples (not scored): {info['errored_samples']}; unscored: {info['unscored_samples']}."
    )
    if info["skipped"]:
        md.append(f"Passed over in the folders given: {info['skipped']}.")
    if "human_label_matching" in info:
        m = info["human_label_matching"]
        md.append(
            f"Human labels: {m['human_labels']} in file, {m['matched']} matched a sample, {m['unmatched']} matched none."
        )
    return md


def neutral_lines(comp: pd.DataFrame) -> list[str]:
    """The neutral-setting comparison of every run group and label source."""
    md: list[str] = []
    md += [
        "",
        "## Neutral settings: templated vs generated",
        "",
        "Distance = |lean| per neutral setting, averaged over settings with a lean for both "
        "methods; `mean_difference` = templated - generated; Wilcoxon signed-rank (two-sided) "
        "paired by setting; counts of settings where each method is further from neutral.",
        "",
    ]
    if not comp.empty:
        md.append(
            md_table(
                comp[
                    [
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
                ]
            )
        )
    return md


def threshold_lines(judged: pd.DataFrame) -> list[str]:
    """The judges' comparison under each rubric threshold, when the runs have several."""
    md: list[str] = []
    thresholds = sorted(judged["rubric_threshold"].dropna().unique()) if not judged.empty else []
    if len(thresholds) > 1:
        md += [
            "",
            "## Headline comparison under each rubric threshold",
            "",
            "The referee's check: the neutral-setting comparison with classes 2 and 4 at "
            "'substantially (~75%)' (the paper's rubric) and at 'overwhelmingly (~90%)' "
            "(IssueBench's templ-5), per target model.",
            "",
            md_table(
                judged.sort_values(["target_model", "rubric_threshold"])[
                    [
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
                ]
            ),
        ]
    return md


def direction_lines(judged: pd.DataFrame, direction: pd.DataFrame) -> list[str]:
    """Where each neutral lean points relative to the filler's pole: counts, then settings."""
    md: list[str] = []
    if not judged.empty:
        md += [
            "",
            "## Direction: does the neutral lean point where the filler points?",
            "",
            "Per neutral setting, the lean (mean stance - 3; < 0 pole A, > 0 pole B) points "
            "toward the pole the topic's neutral filler encodes, away from it, or is a tie "
            "(0); `no_pole`: the filler encodes no pole; `no_lean`: no scored response.",
            "",
            md_table(
                judged[
                    ["model"]
                    + [f"{m}_{d}" for m in METHODS for d in DIRECTIONS if f"{m}_{d}" in judged]
                ]
            ),
        ]
        if not direction.empty:
            md += ["", md_table(direction)]
    return md


def agreement_lines(agree: pd.DataFrame) -> list[str]:
    """Judge agreement per run group and method."""
    md: list[str] = []
    md += [
        "",
        "## Judge agreement",
        "",
        "Krippendorff's alpha among judges: ordinal on 1-5 (refusal = missing) and nominal on "
        "1-5 + refusal. Judge answers off the scale / unparsable are counted, not used.",
        "",
    ]
    md.append(md_table(agree))
    return md


def settings_lines(settings_frame: pd.DataFrame) -> list[str]:
    """The lean figure and the table of every setting."""
    md: list[str] = []
    md += ["", "## Lean by setting", "", "![lean by setting](lean_by_setting.png)", ""]
    if not settings_frame.empty:
        cols = [
            c
            for c in [
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
            if c in settings_frame.columns
        ]
        md.append(md_table(settings_frame[cols]))
    return md


def report_markdown(
    info: dict[str, Any],
    tables: dict[str, pd.DataFrame],
    judge_md: list[str],
) -> str:
    """``construction_report.md`` from the ``info`` of the logs, the report's ``tables``
    (``comparison``, ``direction``, ``agreement``, ``settings``) and the judge section's lines."""
    comp = tables["comparison"]
    judged = comp[comp["labels"] == "judges"] if not comp.empty else comp
    md = header_lines(info) + neutral_lines(comp) + threshold_lines(judged)
    md += direction_lines(judged, tables["direction"]) + agreement_lines(tables["agreement"])
    md += judge_md + settings_lines(tables["settings"])
    return "\n".join(md) + "\n"


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
