"""The prompt-construction report's numbers: records in, per-run-group tables out.

:func:`group_reports` splits the records by run group and computes, per group
(:func:`model_report`), the setting table, the neutral-setting comparison (from the judges and,
with human labels, from people and from the judges on the same subset), per-method counts and
judge agreement; the ``*_frame`` functions lay those out as the report's CSV tables. Nothing
here formats text or writes files.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from typing import Any

import pandas as pd

from inspect_stance.construction.agreement import NOMINAL, ORDINAL, human_agreement, judge_alpha
from inspect_stance.construction.comparison import (
    DIRECTIONS,
    direction_counts,
    human_outcome,
    method_counts,
    neutral_comparison,
    setting_table,
)
from inspect_stance.construction.records import Record
from inspect_stance.construction.rubric import OK, OUT_OF_SCALE
from inspect_stance.construction.settings import INTENTS, METHODS, USER_STANCES

#: the run-group fields every group's report carries, from its first record's ``extra``
GROUP_FIELDS = ("target_model", "rubric_threshold", "judge_sees_prompt")


def by_run_group(records: Sequence[Record]) -> dict[str, list[Record]]:
    """The records of each run group (``Record.model``), in order of first appearance."""
    groups: dict[str, list[Record]] = defaultdict(list)
    for r in records:
        groups[r.model].append(r)
    return groups


def group_reports(by_model: dict[str, list[Record]]) -> dict[str, dict[str, Any]]:
    """:func:`model_report` of each run group, with its :data:`GROUP_FIELDS`."""
    reports = {}
    for group, recs in by_model.items():
        rep = model_report(recs)
        for key in GROUP_FIELDS:
            rep[key] = recs[0].extra.get(key)
        reports[group] = rep
    return reports


def _setting_order(table: pd.DataFrame) -> pd.DataFrame:
    """Rows by topic, then intent, stance and method in their canonical order."""
    table = table.copy()
    table["_i"] = table["intent"].map({k: i for i, k in enumerate(INTENTS)})
    table["_s"] = table["stance"].map({k: i for i, k in enumerate(USER_STANCES)})
    table["_m"] = table["method"].map({k: i for i, k in enumerate(METHODS)})
    return table.sort_values(["topic_id", "_i", "_s", "_m"]).drop(columns=["_i", "_s", "_m"])


def settings_with_human(construction: list[Record]) -> pd.DataFrame:
    """The setting table in report order; with human labels, the human-label lean
    (``human_lean``, ``human_n_scored``) of the labelled subset beside it."""
    table = _setting_order(setting_table(construction))
    labelled = [r for r in construction if r.human_label is not None]
    if not labelled:
        return table
    human = setting_table(labelled, human_outcome)
    if human.empty:
        return table
    human = human[["topic_id", "intent", "stance", "method", "n_scored", "lean"]].rename(
        columns={"n_scored": "human_n_scored", "lean": "human_lean"}
    )
    return table.merge(human, on=["topic_id", "intent", "stance", "method"], how="left")


def comparisons(construction: list[Record]) -> dict[str, dict[str, Any]]:
    """The neutral comparison by label source (``judges``; with human labels also
    ``humans_on_labelled`` and ``judges_on_labelled``), each with its direction counts
    ``<method>_<direction>``."""
    out = {"judges": neutral_comparison(construction).as_dict()}
    lab_c = [r for r in construction if r.human_label is not None]
    if lab_c:
        out["humans_on_labelled"] = neutral_comparison(lab_c, human_outcome).as_dict()
        out["judges_on_labelled"] = neutral_comparison(lab_c).as_dict()
    for source, recs, how in (
        ("judges", construction, None),
        ("humans_on_labelled", lab_c, human_outcome),
        ("judges_on_labelled", lab_c, None),
    ):
        if source in out:
            counts = direction_counts(recs, how) if how else direction_counts(recs)
            for method in METHODS:
                for direction in DIRECTIONS:
                    out[source][f"{method}_{direction}"] = counts[method][direction]
    return out


def agreement(records: list[Record]) -> dict[str, dict[str, Any]]:
    """Per method (``validation`` for judge-validation records): responses, judges,
    Krippendorff's alpha among the judges (ordinal, nominal), judge answers off the scale or
    unparsable, and with human labels the judges' agreement with people."""
    groups: dict[str, list[Record]] = defaultdict(list)
    for r in records:
        groups[r.method if r.extra.get("task") != "judge_validation" else "validation"].append(r)
    out: dict[str, Any] = {}
    for group, recs in groups.items():
        statuses = [s for r in recs for s in r.judge_status]
        entry: dict[str, Any] = {
            "n_responses": len(recs),
            "n_judges": max((len(r.judges) for r in recs), default=0),
            "judges": list(recs[0].judges) if recs else [],
            "alpha_ordinal": judge_alpha([r for r in recs if r.judge_labels], ORDINAL),
            "alpha_nominal": judge_alpha([r for r in recs if r.judge_labels], NOMINAL),
            "judge_answers": len(statuses),
            "judge_out_of_scale": statuses.count(OUT_OF_SCALE),
            "judge_unparsable": sum(s not in (OK, OUT_OF_SCALE) for s in statuses),
        }
        lab = [r for r in recs if r.human_label is not None]
        if lab:
            entry["human"] = human_agreement(lab).as_dict()
        out[group] = entry
    return out


def model_report(records: list[Record]) -> dict[str, Any]:
    """Every table and figure input for one run group's records: ``n_records``, and for
    ``prompt_construction`` records ``settings``, ``comparison`` and ``methods``; always
    ``agreement``."""
    construction = [
        r for r in records if r.extra.get("task", "prompt_construction") == "prompt_construction"
    ]
    out: dict[str, Any] = {"n_records": len(records)}
    if construction:
        out["settings"] = settings_with_human(construction)
        out["comparison"] = comparisons(construction)
        out["methods"] = {m: s.as_dict() for m, s in method_counts(construction).items()}
    out["agreement"] = agreement(records)
    return out


def settings_frame(reports: dict[str, dict[str, Any]]) -> pd.DataFrame:
    """Every run group's setting table, one frame, ``model`` first."""
    settings = [rep["settings"].assign(model=m) for m, rep in reports.items() if "settings" in rep]
    frame = pd.concat(settings, ignore_index=True) if settings else pd.DataFrame()
    if not frame.empty:
        frame = frame[["model"] + [c for c in frame.columns if c != "model"]]
    return frame


def prompts_table(records: Sequence[Record]) -> pd.DataFrame:
    """Every distinct prompt (replicate 0) in ``prompts_from`` format."""
    rows = [
        {
            "topic_id": r.setting.topic_id,
            "intent": r.setting.intent,
            "stance": r.setting.stance,
            "method": r.method,
            "slot": r.slot,
            "prompt_text": r.prompt_text,
        }
        for r in records
        if r.prompt_text
        and r.replicate == 0
        and r.extra.get("task") != "judge_validation"
        and "@e" not in r.sample_id
    ]
    if not rows:
        return pd.DataFrame(
            columns=["topic_id", "intent", "stance", "method", "slot", "prompt_text"]
        )
    return pd.DataFrame(rows).drop_duplicates(["topic_id", "intent", "stance", "method", "slot"])


def direction_frame(reports: dict[str, dict[str, Any]]) -> pd.DataFrame:
    """One row per run group and neutral setting: the filler's pole, and per method the lean
    and whether it points toward that pole, away from it, or is a tie."""
    rows = []
    for model, rep in reports.items():
        table = rep.get("settings")
        if table is None or table.empty:
            continue
        neutral = table[table["stance"] == "neutral"]
        for (topic_id, intent), grp in neutral.groupby(["topic_id", "intent"], sort=False):
            row: dict[str, Any] = {
                "model": model,
                "topic_id": topic_id,
                "topic": grp["topic"].iloc[0],
                "intent": intent,
                "filler_pole": grp["filler_pole"].iloc[0],
            }
            for method in METHODS:
                sub = grp[grp["method"] == method]
                row[f"lean_{method}"] = sub["lean"].iloc[0] if len(sub) else None
                row[f"direction_{method}"] = sub["direction"].iloc[0] if len(sub) else None
            rows.append(row)
    return pd.DataFrame(rows)


def comparison_frame(reports: dict[str, dict[str, Any]]) -> pd.DataFrame:
    """One row per model and label source with the neutral comparison."""
    rows = []
    for model, rep in reports.items():
        for source, c in rep.get("comparison", {}).items():
            rows.append(
                {
                    "model": model,
                    "target_model": rep.get("target_model", model),
                    "rubric_threshold": rep.get("rubric_threshold"),
                    "judge_sees_prompt": rep.get("judge_sees_prompt"),
                    "labels": source,
                    **{k: v for k, v in c.items() if k != "unpaired"},
                    "unpaired": ";".join(c["unpaired"]),
                }
            )
    return pd.DataFrame(rows)


def agreement_frame(reports: dict[str, dict[str, Any]]) -> pd.DataFrame:
    """One row per model and method with judge agreement and judge-human agreement."""
    rows = []
    for model, rep in reports.items():
        for group, a in rep["agreement"].items():
            row: dict[str, Any] = {
                "model": model,
                "method": group,
                "n_responses": a["n_responses"],
                "n_judges": a["n_judges"],
                "alpha_ordinal": a["alpha_ordinal"],
                "alpha_nominal": a["alpha_nominal"],
                "judge_out_of_scale": a["judge_out_of_scale"],
                "judge_unparsable": a["judge_unparsable"],
            }
            if "human" in a:
                h = a["human"]
                row.update(
                    {
                        "n_human_labelled": h["n_labelled"],
                        "n_no_ensemble_label": h["n_no_ensemble_label"],
                        "human_exact": h["ensemble"]["exact"],
                        "human_within1": h["ensemble"]["within1"],
                        "human_alpha_ordinal": h["ensemble"]["alpha_ordinal"],
                    }
                )
                for name, pj in h["per_judge"].items():
                    row[f"{name} exact"] = pj["exact"]
                    row[f"{name} within1"] = pj["within1"]
            rows.append(row)
    return pd.DataFrame(rows)
