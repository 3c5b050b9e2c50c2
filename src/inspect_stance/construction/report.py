"""``inspect-stance construction-report``: tables, test, agreement and plot from eval logs.

Reads ``prompt_construction`` logs (files or folders of logs) in one pass each
(:func:`inspect_stance.logfile.read_log`, one pass), turns every scored sample into a
:class:`~inspect_stance.construction.records.Record` and reports, per target model:

- ``settings.csv``: per setting x method, counts (samples, judged, scored N, refusals,
  no-majority, ...), refusal rate, lean, its standard error and the distance from neutral;
  with human labels also the human-label lean on the labelled subset;
- ``comparison.csv``: the neutral-setting comparison (mean distance per method, mean paired
  difference, Wilcoxon signed-rank, direction counts, unpaired settings), from the judges and,
  with human labels, from the human labels and from the judges on the same subset;
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
    human_outcome,
    method_counts,
    neutral_comparison,
    setting_table,
)
from inspect_stance.construction.human_labels import load_model_labels
from inspect_stance.construction.records import Record, record_from_score_metadata
from inspect_stance.construction.rubric import OK, OUT_OF_SCALE
from inspect_stance.construction.settings import INTENTS, METHODS, USER_STANCES

SCORER = "stance_ensemble"
TASKS = ("prompt_construction", "judge_validation")
LOG_SUFFIXES = (".eval", ".json")


class ReportInputError(ValueError):
    """Unusable report input (turned into the CLI's one-line error)."""


def _log_files(paths: Sequence[str | Path]) -> list[Path]:
    files: list[Path] = []
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            found = sorted(p for p in path.iterdir() if p.suffix in LOG_SUFFIXES)
            if not found:
                raise ReportInputError(f"log folder {path}: no .eval/.json logs in it")
            files.extend(found)
        elif path.is_file():
            files.append(path)
        else:
            raise ReportInputError(f"log {path}: no such file or folder")
    return files


def read_records(paths: Sequence[str | Path]) -> tuple[list[Record], dict[str, Any]]:
    """Records of every scored sample in the logs, and counts of what could not be used.

    A sample scored over several epochs gives one record per epoch (id suffix ``@e<k>``).
    Raises :class:`ReportInputError` for unreadable logs, logs of other tasks, and the same
    model's sample id appearing in two logs (pass only the retried log).
    """
    from inspect_stance.logfile import read_log

    records: list[Record] = []
    info: dict[str, Any] = {"logs": [], "errored_samples": 0, "unscored_samples": 0}
    seen: dict[tuple[str, str], str] = {}
    for path in _log_files(paths):
        try:
            log = read_log(path)
        except Exception as ex:
            raise ReportInputError(
                f"log {path}: cannot be read ({type(ex).__name__}: {ex})"
            ) from ex
        task = log.eval.task.split("/")[-1]
        if task not in TASKS:
            raise ReportInputError(f"log {path}: task {log.eval.task!r} is not prompt_construction")
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
            key = (f"{task}:{model}", sid)
            if key in seen:
                raise ReportInputError(
                    f"log {path}: sample {sid} of {model} is also in {seen[key]}; pass one log "
                    f"per model and task (after eval-retry, the retried log)"
                )
            seen[key] = str(path)
            rec = record_from_score_metadata(sid, score.value, score.metadata, model=model)
            records.append(replace(rec, extra={"task": task}))
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
    if not by_model:
        models = sorted({r.model for r in records})
        if len(models) > 1:
            raise ReportInputError(
                f"human labels file {path}: the logs hold {len(models)} models "
                f"({', '.join(models)}) with the same sample ids; add a 'model' column naming "
                f"each label's target model"
            )

    def key(r: Record) -> tuple[str | None, str]:
        return (r.model if by_model else None, r.sample_id)

    keys = {key(r) for r in records}
    matched = {k for k in labels if k in keys}
    if not matched:
        if by_model:
            models = sorted({r.model for r in records})
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


def plot_leans(reports: dict[str, dict[str, Any]], path: Path) -> None:
    """Dot plot: one row per setting, lean by method (+-1.96 SE), one panel per model."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    panels = [
        (m, r["settings"])
        for m, r in reports.items()
        if "settings" in r and not r["settings"].empty
    ]
    if not panels:
        return
    n_rows = max(len(t[["topic_id", "intent", "stance"]].drop_duplicates()) for _, t in panels)
    fig, axes = plt.subplots(
        1, len(panels), figsize=(6.5 * len(panels), 1.2 + 0.24 * n_rows), sharex=True, squeeze=False
    )
    styles = {"templated": ("o", "tab:red", -0.15), "generated": ("s", "tab:blue", 0.15)}
    for ax, (model, table) in zip(axes[0], panels, strict=True):
        keys = (
            table[["topic_id", "topic", "intent", "stance"]]
            .drop_duplicates()
            .reset_index(drop=True)
        )
        ypos = {(r.topic_id, r.intent, r.stance): i for i, r in keys.iterrows()}
        for i, r in keys.iterrows():
            if r.stance == "neutral":
                ax.axhspan(i - 0.5, i + 0.5, color="0.92", zorder=0)
        for key, grp in table.groupby(["topic_id", "intent", "stance"]):
            if len(grp) == 2 and grp["lean"].notna().all():
                ax.plot(grp["lean"], [ypos[key]] * 2, color="0.6", lw=0.8, zorder=1)
        for method, (marker, color, dy) in styles.items():
            sub = table[(table["method"] == method) & table["lean"].notna()]
            y = [ypos[(r.topic_id, r.intent, r.stance)] + dy for r in sub.itertuples()]
            err = (1.96 * sub["lean_se"]).fillna(0.0)
            ax.errorbar(
                sub["lean"],
                y,
                xerr=err,
                fmt=marker,
                color=color,
                ms=4,
                lw=0.8,
                capsize=0,
                label=method,
                zorder=2,
                mfc=color if method == "templated" else "white",
            )
        labels = [f"{str(r.topic)[:36]} | {r.intent} | {r.stance}" for r in keys.itertuples()]
        ax.set_yticks(range(len(keys)), labels, fontsize=7)
        ax.set_ylim(len(keys) - 0.5, -0.5)
        ax.axvline(0, color="k", lw=0.8)
        ax.set_xlim(-2.3, 2.3)
        ax.set_xlabel("lean = mean stance - 3\n(< 0: pole A / pro, > 0: pole B / con)", fontsize=8)
        ax.set_title(model, fontsize=9)
    handles, names = axes[0][0].get_legend_handles_labels()
    fig.suptitle("Lean by setting and prompt construction (grey rows: neutral user)", fontsize=10)
    fig.legend(handles, names, loc="upper right", ncol=2, fontsize=8, frameon=False)
    fig.tight_layout(rect=(0, 0, 1, 0.97))
    fig.savefig(path, dpi=130)
    plt.close(fig)


def _fmt(value: Any, digits: int = 3) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "-"
    if isinstance(value, float):
        return f"{value:.{digits}g}" if abs(value) < 1e-3 and value != 0 else f"{value:.{digits}f}"
    return str(value)


def _md_table(frame: pd.DataFrame) -> str:
    cols = list(frame.columns)
    lines = ["| " + " | ".join(cols) + " |", "|" + "---|" * len(cols)]
    for row in frame.itertuples(index=False):
        lines.append("| " + " | ".join(_fmt(v) for v in row) + " |")
    return "\n".join(lines)


def comparison_frame(reports: dict[str, dict[str, Any]]) -> pd.DataFrame:
    """One row per model and label source with the neutral comparison."""
    rows = []
    for model, rep in reports.items():
        for source, c in rep.get("comparison", {}).items():
            rows.append(
                {
                    "model": model,
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
    reports = {model: model_report(recs) for model, recs in by_model.items()}

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
            _md_table(
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
    md += [
        "",
        "## Judge agreement",
        "",
        "Krippendorff's alpha among judges: ordinal on 1-5 (refusal = missing) and nominal on "
        "1-5 + refusal. Judge answers off the scale / unparsable are counted, not used.",
        "",
    ]
    md.append(_md_table(agree))
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
        md.append(_md_table(settings_frame[cols]))
    (out / "construction_report.md").write_text("\n".join(md) + "\n", encoding="utf-8")

    summary = {
        "out_dir": str(out),
        "files": sorted(p.name for p in out.iterdir()),
        **info,
        "models": {
            m: {k: v for k, v in rep.items() if k != "settings"} for m, rep in reports.items()
        },
    }
    return _nan_to_none(json.loads(json.dumps(summary, default=str)))
