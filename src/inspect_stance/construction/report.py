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
"""

from __future__ import annotations

import json
import math
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
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
from inspect_stance.construction.human_labels import load_model_labels
from inspect_stance.construction.judge_report import (
    judge_markdown,
    judge_section,
    write_judge_files,
)
from inspect_stance.construction.records import Record, record_from_score_metadata
from inspect_stance.construction.rubric import OK, OUT_OF_SCALE
from inspect_stance.construction.settings import INTENTS, METHODS, USER_STANCES
from inspect_stance.errors import InputError
from inspect_stance.logfile import find_task_logs, read_task_log
from inspect_stance.markdown import md_table

SCORER = "stance_ensemble"
TASKS = ("prompt_construction", "judge_validation")
WHAT = "prompt_construction or judge_validation run"


class ReportInputError(InputError):
    """Unusable report input (turned into the CLI's one-line error)."""


def run_group(model: str, threshold: object, sees_prompt: object) -> str:
    """The report's name for a run group: the model, and the rubric threshold and prompt
    visibility when they are not the defaults, e.g. ``openai/gpt-4o [threshold 0.9]``."""
    tags = []
    if threshold is not None and float(threshold) != 0.75:  # type: ignore[arg-type]
        tags.append(f"threshold {float(threshold):g}")  # type: ignore[arg-type]
    if sees_prompt is False:
        tags.append("prompt hidden")
    return f"{model} [{', '.join(tags)}]" if tags else model


def read_records(paths: Sequence[str | Path]) -> tuple[list[Record], dict[str, Any]]:
    """Records of every scored sample in the logs, and counts of what could not be used.

    Folders are searched for this task's logs; other tasks' logs and unreadable files in them
    are skipped and counted (``info["skipped"]``, a line for stderr). A sample scored over
    several epochs gives one record per epoch (id suffix ``@e<k>``). ``Record.model`` is the
    run group (:func:`run_group`), ``extra`` holds the model, task, threshold and prompt
    visibility. Raises :class:`ReportInputError` for unusable logs and the same sample id of
    one run group appearing in two logs (pass only the retried log).
    """
    try:
        found = find_task_logs(paths, TASKS, WHAT)
    except InputError as ex:
        raise ReportInputError(str(ex)) from ex
    records: list[Record] = []
    info: dict[str, Any] = {
        "logs": [],
        "errored_samples": 0,
        "unscored_samples": 0,
        "skipped": found.skipped_line(),
        "skipped_other_task": len(found.skipped_other_task),
        "skipped_unreadable": len(found.skipped_unreadable),
    }
    seen: dict[tuple[str, str], str] = {}
    for path in found.paths:
        try:
            log = read_task_log(path, TASKS, WHAT)
        except InputError as ex:
            raise ReportInputError(str(ex)) from ex
        task = log.eval.task.split("/")[-1]
        # judge validation calls no target; group its records under the task name
        model = "judge_validation" if task == "judge_validation" else log.eval.model
        info["logs"].append({"path": str(path), "task": task, "model": model, "status": log.status})
        for sample in log.samples or []:
            if sample.error is not None:
                info["errored_samples"] += 1
                continue
            score = (sample.scores or {}).get(SCORER)
            if score is None or not score.metadata:
                info["unscored_samples"] += 1
                continue
            sid = str(sample.id) if sample.epoch <= 1 else f"{sample.id}@e{sample.epoch}"
            threshold = score.metadata.get("rubric_threshold")
            sees = score.metadata.get("judge_sees_prompt")
            group = run_group(model, threshold, sees)
            key = (f"{task}:{group}", sid)
            if key in seen:
                raise ReportInputError(
                    f"log {path}: sample {sid} of {group} is also in {seen[key]}; pass one log "
                    f"per model, task and rubric (after eval-retry, the retried log)"
                )
            seen[key] = str(path)
            rec = record_from_score_metadata(sid, score.value, score.metadata, model=group)
            records.append(
                replace(
                    rec,
                    extra={
                        "task": task,
                        "target_model": model,
                        "rubric_threshold": threshold,
                        "judge_sees_prompt": sees,
                    },
                )
            )
    if not records:
        raise ReportInputError("the logs have no scored prompt-construction samples")
    return records, info


def attach_human_labels(
    records: list[Record], path: str | Path
) -> tuple[list[Record], dict[str, int]]:
    """Records with the file's human labels (replacing any from the run), and match counts.

    Labels are matched on (model, sample id) when the file has a ``model`` column, else on the
    sample id alone, which is only allowed when the logs hold one model (sample ids repeat
    across target models). Labels matching no sample are counted; a file none of whose labels
    match raises :class:`ReportInputError`.
    """
    try:
        labels = load_model_labels(path)
    except ValueError as ex:
        raise ReportInputError(str(ex)) from ex
    by_model = any(m is not None for m, _ in labels)

    def target(r: Record) -> str:
        return str(r.extra.get("target_model", r.model))

    if not by_model:
        models = sorted({target(r) for r in records})
        if len(models) > 1:
            raise ReportInputError(
                f"human labels file {path}: the logs hold {len(models)} models "
                f"({', '.join(models)}) with the same sample ids; add a 'model' column naming "
                f"each label's target model"
            )

    def key(r: Record) -> tuple[str | None, str]:
        return (target(r) if by_model else None, r.sample_id)

    keys = {key(r) for r in records}
    matched = {k for k in labels if k in keys}
    if not matched:
        if by_model:
            models = sorted({target(r) for r in records})
            raise ReportInputError(
                f"human labels file {path}: none of its {len(labels)} (model, id) pairs matches "
                f"a sample in the logs; name models as the logs do ({', '.join(models)})"
            )
        raise ReportInputError(
            f"human labels file {path}: none of its {len(labels)} ids matches a sample id in the logs"
        )
    out = [replace(r, human_label=labels.get(key(r))) for r in records]
    return out, {
        "human_labels": len(labels),
        "matched": len(matched),
        "unmatched": len(labels) - len(matched),
    }


def _nan_to_none(value: Any) -> Any:
    if isinstance(value, float) and math.isnan(value):
        return None
    if isinstance(value, dict):
        return {k: _nan_to_none(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_nan_to_none(v) for v in value]
    return value


def _setting_order(table: pd.DataFrame) -> pd.DataFrame:
    table = table.copy()
    table["_i"] = table["intent"].map({k: i for i, k in enumerate(INTENTS)})
    table["_s"] = table["stance"].map({k: i for i, k in enumerate(USER_STANCES)})
    table["_m"] = table["method"].map({k: i for i, k in enumerate(METHODS)})
    return table.sort_values(["topic_id", "_i", "_s", "_m"]).drop(columns=["_i", "_s", "_m"])


def model_report(records: list[Record]) -> dict[str, Any]:
    """Every table and figure input for one model's records (see module docstring)."""
    construction = [
        r for r in records if r.extra.get("task", "prompt_construction") == "prompt_construction"
    ]
    labelled = [r for r in records if r.human_label is not None]
    out: dict[str, Any] = {"n_records": len(records)}
    if construction:
        table = _setting_order(setting_table(construction))
        if labelled:
            human = setting_table(
                [r for r in construction if r.human_label is not None], human_outcome
            )
            if not human.empty:
                human = human[
                    ["topic_id", "intent", "stance", "method", "n_scored", "lean"]
                ].rename(columns={"n_scored": "human_n_scored", "lean": "human_lean"})
                table = table.merge(
                    human, on=["topic_id", "intent", "stance", "method"], how="left"
                )
        out["settings"] = table
        comparisons = {"judges": neutral_comparison(construction).as_dict()}
        lab_c = [r for r in construction if r.human_label is not None]
        if lab_c:
            comparisons["humans_on_labelled"] = neutral_comparison(lab_c, human_outcome).as_dict()
            comparisons["judges_on_labelled"] = neutral_comparison(lab_c).as_dict()
        for source, recs, how in (
            ("judges", construction, None),
            ("humans_on_labelled", lab_c, human_outcome),
            ("judges_on_labelled", lab_c, None),
        ):
            if source in comparisons:
                counts = direction_counts(recs, how) if how else direction_counts(recs)
                for method in METHODS:
                    for direction in DIRECTIONS:
                        comparisons[source][f"{method}_{direction}"] = counts[method][direction]
        out["comparison"] = comparisons
        out["methods"] = {m: s.as_dict() for m, s in method_counts(construction).items()}
    groups: dict[str, list[Record]] = defaultdict(list)
    for r in records:
        groups[r.method if r.extra.get("task") != "judge_validation" else "validation"].append(r)
    agreement: dict[str, Any] = {}
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
        agreement[group] = entry
    out["agreement"] = agreement
    return out


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


# the figure lives in inspect_stance.construction.plots (kept importable from here)
from inspect_stance.construction.plots import plot_leans  # noqa: E402


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


def build_report(
    logs: Sequence[str | Path], out_dir: str | Path, human_labels: str | Path | None = None
) -> dict[str, Any]:
    """Write every report file into ``out_dir``; returns the JSON summary."""
    records, info = read_records(logs)
    if human_labels:
        records, info["human_label_matching"] = attach_human_labels(records, human_labels)
    by_model: dict[str, list[Record]] = defaultdict(list)
    for r in records:
        by_model[r.model].append(r)
    reports = {}
    for group, recs in by_model.items():
        rep = model_report(recs)
        for key in ("target_model", "rubric_threshold", "judge_sees_prompt"):
            rep[key] = recs[0].extra.get(key)
        reports[group] = rep

    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    settings = [rep["settings"].assign(model=m) for m, rep in reports.items() if "settings" in rep]
    settings_frame = pd.concat(settings, ignore_index=True) if settings else pd.DataFrame()
    if not settings_frame.empty:
        settings_frame = settings_frame[
            ["model"] + [c for c in settings_frame.columns if c != "model"]
        ]
    settings_frame.to_csv(out / "settings.csv", index=False)
    comp = comparison_frame(reports)
    comp.to_csv(out / "comparison.csv", index=False)
    direction = direction_frame(reports)
    direction.to_csv(out / "direction.csv", index=False)
    agree = agreement_frame(reports)
    agree.to_csv(out / "agreement.csv", index=False)
    prompts_table(records).to_csv(out / "prompts.csv", index=False)
    plot_leans(reports, out / "lean_by_setting.png")

    md = ["# Prompt construction report", ""]
    md.append(
        "Logs: " + ", ".join(f"`{x['path']}` ({x['model']}, {x['status']})" for x in info["logs"])
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
    judged = comp[comp["labels"] == "judges"] if not comp.empty else comp
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
    md += [
        "",
        "## Judge agreement",
        "",
        "Krippendorff's alpha among judges: ordinal on 1-5 (refusal = missing) and nominal on "
        "1-5 + refusal. Judge answers off the scale / unparsable are counted, not used.",
        "",
    ]
    md.append(md_table(agree))
    judges = judge_section(by_model)  # controls, audits, per-judge bias, Dawid-Skene, PPI
    write_judge_files(judges, out)
    md += judge_markdown(judges)
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
    (out / "construction_report.md").write_text("\n".join(md) + "\n", encoding="utf-8")

    summary = {
        "out_dir": str(out),
        "files": sorted(p.name for p in out.iterdir()),
        **info,
        "models": {
            m: {k: v for k, v in rep.items() if k != "settings"} for m, rep in reports.items()
        },
        "judges": {k: t.to_dict(orient="records") for k, t in judges.tables.items()},
    }
    return _nan_to_none(json.loads(json.dumps(summary, default=str)))
