"""The report's judge section: controls, audits, per-judge bias, Dawid-Skene, PPI.

:func:`judge_section` computes, per run group, the tables of
:mod:`~inspect_stance.construction.controls` (lean moves under a hidden / swapped prompt and the
reversed rubric), :mod:`~inspect_stance.construction.judge_audit` (order and family audits),
:mod:`~inspect_stance.construction.ensemble` (per-judge offsets, Dawid-Skene beside majority)
and :mod:`~inspect_stance.construction.ppi_lean` (the lean corrected with human labels).
:func:`judge_blocks` lays them out as report blocks (markdown tables in
``construction_report.md``, and CSV files).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import pandas as pd

from inspect_stance.construction.comparison import method_counts, neutral_comparison
from inspect_stance.construction.controls import control_summary, lean_moves
from inspect_stance.construction.ensemble import Ensemble, judge_bias, with_ensemble
from inspect_stance.construction.judge_audit import (
    FLIP_FLAG,
    family_audit,
    length_audit,
    reversal_audit,
)
from inspect_stance.construction.ppi_lean import ppi_setting_table, ppi_summary
from inspect_stance.construction.records import Record
from inspect_stance.construction.settings import METHODS
from inspect_stance.report_doc import Block, Heading, Table, Text

FILES = {
    "controls": "judge_controls.csv",
    "moves": "judge_control_moves.csv",
    "bias": "judge_bias.csv",
    "confusion": "judge_confusion.csv",
    "ensembles": "judge_ensembles.csv",
    "reversal": "judge_reversal.csv",
    "family": "judge_family.csv",
    "length": "judge_length.csv",
    "ppi": "ppi_settings.csv",
    "ppi_summary": "ppi_summary.csv",
}


@dataclass
class JudgeSection:
    """Every table of the section, one frame per kind with a ``model`` (run group) column."""

    tables: dict[str, pd.DataFrame] = field(default_factory=dict)


def _ensembles(records: Sequence[Record]) -> list[dict[str, Any]]:
    rows = []
    hows: tuple[Ensemble, ...] = ("majority", "dawid_skene")
    for how in hows:
        recs = with_ensemble(records, how)
        counts = method_counts(recs)
        row: dict[str, Any] = {"ensemble": how}
        for m in METHODS:
            row[f"lean_{m}"] = counts[m].lean if m in counts else float("nan")
        c = neutral_comparison(recs)
        row.update(
            distance_templated=c.distance_templated,
            distance_generated=c.distance_generated,
            mean_difference=c.mean_difference,
            wilcoxon_p=c.wilcoxon_p,
        )
        rows.append(row)
    return rows


def _confusion_rows(bias: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    return [
        {"judge": b["judge"], "true": true, "given": given, "p": p}
        for b in bias
        for true, row in b["confusion"].items()
        for given, p in row.items()
    ]


def _ppi_summary_rows(summary: Mapping[str, Any]) -> list[dict[str, Any]]:
    rows = []
    for m in METHODS:
        if m in summary:
            s = summary[m]
            rows.append(
                {
                    "quantity": f"lean_{m}",
                    "judges": s["judges_lean"],
                    "ppi": s["ppi_lean"],
                    "ppi_ci_low": s["ppi_ci_low"],
                    "ppi_ci_high": s["ppi_ci_high"],
                    "ppi_se": s["ppi_se"],
                    "n_labelled": s["n_labelled"],
                    "n_unlabelled": s["n_unlabelled"],
                    "warning": s["ppi_warning"],
                }
            )
    for key in ("lean_difference", "distance_difference"):
        if key in summary:
            row = dict(summary[key])
            row["warning"] = row.pop("ppi_warning", "")
            rows.append({"quantity": key, **row})
    return rows


def _group_tables(records: Sequence[Record]) -> dict[str, pd.DataFrame]:
    target = next((str(r.extra.get("target_model")) for r in records if r.extra), None)
    prompters = Counter(r.prompter for r in records if r.prompter)
    prompter = prompters.most_common(1)[0][0] if prompters else None
    bias = judge_bias(records)
    return {
        "controls": control_summary(records),
        "moves": lean_moves(records),
        "bias": pd.DataFrame([{k: v for k, v in b.items() if k != "confusion"} for b in bias]),
        "confusion": pd.DataFrame(_confusion_rows(bias)),
        "ensembles": pd.DataFrame(_ensembles(records)),
        "reversal": pd.DataFrame(reversal_audit(records)),
        "family": pd.DataFrame(family_audit(records, target, prompter)),
        "length": pd.DataFrame(length_audit(records)),
        "ppi": ppi_setting_table(records),
        "ppi_summary": pd.DataFrame(_ppi_summary_rows(ppi_summary(records))),
    }


def judge_section(groups: Mapping[str, Sequence[Record]]) -> JudgeSection:
    """The section's tables for every run group (prompt-construction records only)."""
    frames: dict[str, list[pd.DataFrame]] = {k: [] for k in FILES}
    for model, recs in _by_judge_list(groups).items():
        for key, frame in _group_tables(recs).items():
            if not frame.empty:
                frames[key].append(frame.assign(model=model)[["model", *frame.columns]])
    return JudgeSection({k: pd.concat(v, ignore_index=True) for k, v in frames.items() if v})


def _by_judge_list(groups: Mapping[str, Sequence[Record]]) -> dict[str, list[Record]]:
    """Prompt-construction records per run group, split further when logs of one group used
    different judge lists (named ``GROUP [judges: A, B, C]``): per-judge statistics need one
    judge list. Responses no judge rated go with the group's first judge list."""
    out: dict[str, list[Record]] = {}
    for model, recs in groups.items():
        recs = [
            r for r in recs if r.extra.get("task", "prompt_construction") == "prompt_construction"
        ]
        lists = list(dict.fromkeys(r.judges for r in recs if r.judge_labels))
        for judges in lists:
            name = model if len(lists) == 1 else f"{model} [judges: {', '.join(judges)}]"
            out[name] = [
                r for r in recs if r.judges == judges or (not r.judge_labels and judges == lists[0])
            ]
    return out


_TEXT = {
    "controls": (
        "Judge controls: the same responses rated with the prompt hidden (`none`), the "
        "opposite stance's prompt (`swapped`; neutral prompts have none: `n_not_applicable`) "
        "or the rubric's labels reversed (`reversed`, read back as 6 - label), over the responses "
        "with a label under both (`n_without_label`: the others). `mean_move` = "
        "mean over settings x methods of lean(control) - lean(run's rating); "
        "`mean_difference_*`: the neutral templated - generated distance under each. Per "
        "setting: `judge_control_moves.csv`."
    ),
    "bias": (
        "Per-judge offset on the 1-5 scale (refusals left out): vs the strict majority (95 % "
        "interval), Dawid-Skene's (posterior-weighted, anchored on the human labels where there "
        "are any: `dawid_skene_anchored`; `accuracy_dawid_skene`: its chance of "
        "giving the latent true class), vs human labels where present. "
        "`biased`: the majority interval excludes 0 and |offset| >= 0.2. Dawid-Skene "
        "confusion matrices: `judge_confusion.csv`."
    ),
    "ensembles": "The run's statistics under each ensemble (strict majority: the paper's).",
    "reversal": (
        f"Order audit: `flip_rate` = share of responses whose rating changes when the rubric's "
        f"labels are reversed (read back); flagged above {FLIP_FLAG:g}."
    ),
    "family": (
        "Family audit: each judge's model family (the series of the model name with its vendor, "
        "e.g. openai/gpt-4o-mini -> openai gpt) and whether it is the target's or the "
        "prompter's; the lean and the neutral difference with and without the judge (strict "
        "majority of the others)."
    ),
    "length": (
        "Length audit: over every two responses of one setting that the judge placed on the "
        "scale, the share where it rates the longer one further from neutral minus the share "
        "where it rates the shorter one so (ties and equal lengths: 0 / left out; the same "
        "measure as the even-handedness graders' length preference). 0: length plays no part; "
        "the judges rate the same responses, so a judge that stands apart from the others "
        "reads length."
    ),
    "ppi_summary": (
        "Lean corrected with human labels: prediction-powered (classic PPI, 95 %) estimates "
        "beside the judges-only ones; `distance_difference` is the neutral templated - "
        "generated distance with a conservative interval (at least 95 % whatever the leans: a "
        "distance is biased upward near neutral). Per setting: `ppi_settings.csv`."
    ),
}
_TITLES = {
    "controls": "Judge controls: how far the lean moves",
    "bias": "Per-judge bias",
    "ensembles": "Majority vote vs Dawid-Skene",
    "reversal": "Judge audit: reversed rubric",
    "family": "Judge audit: model family",
    "length": "Judge audit: response length",
    "ppi_summary": "Lean corrected with human labels (PPI)",
}


def judge_blocks(section: JudgeSection) -> list[Block]:
    """The section's report blocks: one heading, text and table per table that has rows (in
    the order of :data:`_TITLES`), every table written as its CSV (:data:`FILES`)."""
    tables = section.tables
    shown = [k for k in _TITLES if k in tables and not tables[k].empty]
    blocks: list[Block] = []
    for key in shown:
        blocks += [Heading(_TITLES[key]), Text(_TEXT[key]), Table(tables[key], csv=FILES[key])]
    blocks += [Table(f, csv=FILES[k], shown=False) for k, f in tables.items() if k not in shown]
    return blocks
