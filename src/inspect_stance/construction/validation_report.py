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

This module also holds the functions the task's metrics call (``*_of``); they import nothing
heavy at module level.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from inspect_stance.construction.annotation import (
    ERROR,
    FIELDS,
    SOURCES,
    UNPARSED,
    Annotation,
)
from inspect_stance.errors import InputError

if TYPE_CHECKING:
    from inspect_ai.log import EvalLog

TASKS: tuple[str, ...] = ("prompt_validation",)
WHAT = "prompt_validation run"
LLM = "llm"
HUMAN = "human"
UNKNOWN = "unknown"


# ----- log records -> rows (also used by the task's metrics) -----


def rows_from_records(records: Iterable[dict[str, Any]]) -> list[Annotation]:
    """One :class:`Annotation` per annotator and prompt, from score metadata records."""
    rows: list[Annotation] = []
    for rec in records:
        items = {x["item_id"]: x for x in rec.get("items", [])}
        for ann in rec.get("annotations", []):
            ranks = ann.get("ranks") or {}
            labels = ann.get("labels") or {}
            for item_id, item in items.items():
                label = labels.get(item_id, {})
                rank = ranks.get(item_id)
                rows.append(
                    Annotation(
                        annotator=str(ann["annotator"]),
                        setting=str(rec.get("setting")),
                        item_id=item_id,
                        source=str(item["source"]),
                        intended_intent=item.get("intended_intent"),
                        intended_stance=item.get("intended_stance"),
                        rank=float(rank) if rank is not None else None,
                        intent=label.get("intent"),
                        stance=label.get("stance"),
                        side=label.get("side"),
                        filler_pole=item.get("filler_pole"),
                    )
                )
    return rows


def annotator_order(records: Iterable[dict[str, Any]]) -> list[str]:
    """Annotator names in the order they were bound (first appearance)."""
    names: list[str] = []
    for rec in records:
        for ann in rec.get("annotations", []):
            if ann["annotator"] not in names:
                names.append(str(ann["annotator"]))
    return names


def _sources(rows: Sequence[Annotation]) -> list[str]:
    return [s for s in SOURCES if any(r.source == s for r in rows)]


def realism_of(rows: Sequence[Annotation]) -> dict[str, float]:
    """:func:`inspect_stance.construction.realism.realism_summary`."""
    from inspect_stance.construction.realism import realism_summary

    return realism_summary(rows)


def clarity_of(rows: Sequence[Annotation], annotators: Sequence[str]) -> dict[str, float]:
    """:func:`inspect_stance.construction.clarity.clarity_summary` over the sources present."""
    from inspect_stance.construction.clarity import clarity_summary

    return clarity_summary(rows, _sources(rows), annotators)


def detection_of(rows: Sequence[Annotation]) -> dict[str, float]:
    """:func:`inspect_stance.construction.detection.detection_summary` over the sources present."""
    from inspect_stance.construction.detection import detection_summary

    return detection_summary(rows, _sources(rows))


def annotation_counts_of(records: Sequence[dict[str, Any]]) -> dict[str, float]:
    """Unparsed answers per question, failed calls, missing generated prompts, prompts.

    ``unparsed_<question>`` counts answers in no accepted format *and* failed calls (an answer
    that cannot be used either way); ``failed_calls`` counts the calls that raised.
    """
    out = {f"unparsed_{q}": 0.0 for q in ("ranking", *FIELDS)}
    out["failed_calls"] = 0.0
    out["missing_prompts"] = 0.0
    out["prompts"] = 0.0
    for rec in records:
        out["missing_prompts"] += len(rec.get("missing", []))
        out["prompts"] += len(rec.get("items", []))
        for ann in rec.get("annotations", []):
            status = ann.get("ranking_status")
            out["unparsed_ranking"] += status in (UNPARSED, ERROR)
            out["failed_calls"] += status == ERROR
            for label in (ann.get("labels") or {}).values():
                statuses = label["status"]
                for f in FIELDS:
                    out[f"unparsed_{f}"] += statuses[f] in (UNPARSED, ERROR)
                out["failed_calls"] += statuses[FIELDS[0]] == ERROR
    return out


# ----- reading logs and the human file -----


def _score_records(log: EvalLog) -> list[dict[str, Any]]:
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


_HUMAN_VALUES: dict[str, dict[str, str]] = {
    "intent": {
        "writing": "writing",
        "writing assistance": "writing",
        "information": "information",
        "information seeking": "information",
        "opinion": "opinion",
        "opinion sharing": "opinion",
    },
    "stance": {
        "neutral": "neutral",
        "pole_a": "pole_a",
        "a": "pole_a",
        "pole_b": "pole_b",
        "b": "pole_b",
    },
    "side": {
        "none": "none",
        "neither": "none",
        "pole_a": "pole_a",
        "a": "pole_a",
        "pole_b": "pole_b",
        "b": "pole_b",
    },
}


def load_human(path: str | Path, items: dict[str, dict[str, Any]]) -> tuple[list[Annotation], int]:
    """Human annotations as rows, and the number of file rows whose ``item_id`` is in no log.

    One-line :class:`InputError` for a missing file or column, a bad value (naming the row and
    the allowed values), two ranks or labels for one annotator and prompt, or a file whose ids
    match no prompt of the logs.
    """
    import pandas as pd

    p = Path(path)
    if not p.is_file():
        raise InputError(f"human annotations {p}: no such file; pass a CSV/TSV of annotations")
    sep = "\t" if p.suffix.lower() == ".tsv" else ","
    try:
        table = pd.read_csv(p, sep=sep, dtype=str, keep_default_na=False)
    except Exception as ex:  # noqa: BLE001
        raise InputError(f"human annotations {p}: cannot be read ({type(ex).__name__})") from ex
    missing = [c for c in ("annotator", "item_id") if c not in table.columns]
    answers = [c for c in ("rank", *FIELDS) if c in table.columns]
    if missing or not answers:
        raise InputError(
            f"human annotations {p}: needs columns annotator, item_id and at least one of "
            f"rank, intent, stance, side (missing {missing or 'an answer column'})"
        )
    rows: list[Annotation] = []
    unmatched = 0
    seen: set[tuple[str, str]] = set()
    for i, rec in enumerate(table.to_dict("records"), start=1):
        item = items.get(str(rec["item_id"]).strip())
        if item is None:
            unmatched += 1
            continue
        who = str(rec["annotator"]).strip()
        if not who:
            raise InputError(f"human annotations {p}: row {i} has no annotator")
        if (who, item["item_id"]) in seen:
            raise InputError(
                f"human annotations {p}: row {i}: annotator {who!r} annotated "
                f"{item['item_id']} twice; keep one row per annotator and prompt"
            )
        seen.add((who, item["item_id"]))
        rank: float | None = None
        raw_rank = str(rec.get("rank", "")).strip()
        if raw_rank:
            try:
                rank = float(raw_rank)
            except ValueError:
                rank = float("nan")
            if math.isnan(rank) or rank < 1:
                raise InputError(
                    f"human annotations {p}: row {i} has rank {raw_rank!r}; use a number >= 1 "
                    f"(1 = most likely written by a real user) or leave it empty"
                )
        labels: dict[str, str | None] = {}
        for f in FIELDS:
            raw = str(rec.get(f, "")).strip()
            if not raw:
                labels[f] = None
                continue
            value = _HUMAN_VALUES[f].get(raw.lower())
            if value is None:
                raise InputError(
                    f"human annotations {p}: row {i} has {f} {raw!r}; use one of "
                    f"{', '.join(dict.fromkeys(_HUMAN_VALUES[f].values()))} or leave it empty"
                )
            labels[f] = value
        rows.append(
            Annotation(
                annotator=who,
                setting=str(item["setting"]),
                item_id=item["item_id"],
                source=str(item["source"]),
                intended_intent=item.get("intended_intent"),
                intended_stance=item.get("intended_stance"),
                rank=rank,
                intent=labels["intent"],
                stance=labels["stance"],
                side=labels["side"],
                filler_pole=item.get("filler_pole"),
            )
        )
    if not rows:
        raise InputError(
            f"human annotations {p}: no item_id matches a prompt of the logs; use the ids in "
            f"prompts.csv of this report"
        )
    return _mid_ranks(rows), unmatched


def _mid_ranks(rows: list[Annotation]) -> list[Annotation]:
    """Each annotator's ranks within a setting as mid-ranks (``1, 2, 2, 4`` -> ``1, 2.5, 2.5,
    4``), so a tie means the same whichever way the file writes it."""
    from dataclasses import replace

    from scipy.stats import rankdata

    groups: dict[tuple[str, str], list[int]] = {}
    for i, r in enumerate(rows):
        if r.rank is not None:
            groups.setdefault((r.annotator, r.setting), []).append(i)
    out = list(rows)
    for idx in groups.values():
        for i, rank in zip(idx, rankdata([rows[i].rank for i in idx]), strict=True):
            out[i] = replace(rows[i], rank=float(rank))
    return out


# ----- the report -----


def group_summary(rows: Sequence[Annotation], annotators: Sequence[str]) -> dict[str, float]:
    """Every figure of one annotator group (realism, clarity, detection, unparsed answers)."""
    out = {**realism_of(rows), **clarity_of(rows, annotators), **detection_of(rows)}
    out["annotators"] = float(len(annotators))
    out["answers"] = float(len(rows))
    for f in ("rank", *FIELDS):
        out[f"missing_{f}"] = float(sum(getattr(r, f) is None for r in rows))
    return out


def _annotator_table(
    rows: Sequence[Annotation], group: str, judges: set[str] | None
) -> list[dict[str, Any]]:
    from inspect_stance.construction.clarity import kappa_per_annotator

    out = []
    names = list(dict.fromkeys(r.annotator for r in rows))
    sources = _sources(rows)
    kappas = {
        (f, s): kappa_per_annotator([r for r in rows if r.source == s], f)
        for f in ("intent", "stance")
        for s in sources
    }
    for name in names:
        mine = [r for r in rows if r.annotator == name]
        base = name.split("#")[0]
        if group == HUMAN:
            also = "no"
        elif judges is None:
            also = UNKNOWN
        else:
            also = "yes" if base in judges else "no"
        row: dict[str, Any] = {
            "annotator": name,
            "group": group,
            "answers": len(mine),
            "no_rank": sum(r.rank is None for r in mine),
            **{f"no_{f}": sum(getattr(r, f) is None for r in mine) for f in FIELDS},
            "also_judge": also,
        }
        for (f, s), values in kappas.items():
            row[f"{f}_kappa_{s}"] = values.get(name, float("nan"))
        out.append(row)
    return out


def build_validation_report(
    logs: Sequence[str],
    out_dir: str | Path,
    human: str | None = None,
    judges_logs: Sequence[str] = (),
) -> dict[str, Any]:
    """Write the report files (module docstring) and return a JSON-able summary."""
    import pandas as pd

    from inspect_stance.logfile import find_task_logs, read_task_log
    from inspect_stance.markdown import md_table

    found = find_task_logs(logs, TASKS, WHAT)
    for line in (found.skipped_line(), found.repeated_line()):
        if line:
            print(f"validation-report: {line}", file=sys.stderr)
    records: list[dict[str, Any]] = []
    linked: list[str] = []
    for path in found.paths:
        log = read_task_log(path, TASKS, WHAT)
        records.extend(_score_records(log))
        linked.extend((log.eval.metadata or {}).get("construction_judges") or [])
    if not records:
        raise InputError(f"no scored prompt_validation samples in {', '.join(map(str, logs))}")
    for j in judges_logs:
        linked.extend(judges_of_log(j))
    judges = set(linked) if (judges_logs or linked) else None

    items: dict[str, dict[str, Any]] = {}
    for rec in records:
        for x in rec.get("items", []):
            items[x["item_id"]] = {**x, "setting": rec.get("setting")}
    llm_rows = rows_from_records(records)
    groups: dict[str, dict[str, float]] = {LLM: group_summary(llm_rows, annotator_order(records))}
    annotator_rows = _annotator_table(llm_rows, LLM, judges)
    unmatched = 0
    if human:
        human_rows, unmatched = load_human(human, items)
        names = list(dict.fromkeys(r.annotator for r in human_rows))
        groups[HUMAN] = group_summary(human_rows, names)
        annotator_rows += _annotator_table(human_rows, HUMAN, judges)
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
    prompts = pd.DataFrame(
        [
            {
                k: x.get(k)
                for k in (
                    "item_id",
                    "setting",
                    "source",
                    "intended_intent",
                    "intended_stance",
                    "text",
                )
            }
            for x in items.values()
        ]
    )
    prompts.to_csv(out / "prompts.csv", index=False)
    from inspect_stance.construction.validation_plots import realism_figure, recovery_figure

    realism_figure(summary, out / "realism.png")
    recovery_figure(summary, out / "recovery.png")
    sections = {
        "Realism (rank 1 = most likely written by a real user)": [
            k for k in summary.index if k.startswith(("mean_rank", "kendall", "friedman"))
        ],
        "Construct clarity": [
            k for k in summary.index if k.startswith(("intent_", "stance_")) and "_kappa_" not in k
        ],
        "Detection (intended-neutral prompts)": [
            k for k in summary.index if k.startswith("neutral_")
        ],
        "Answers": [
            k for k in summary.index if k.startswith(("annotators", "answers", "missing_"))
        ],
    }
    lines = ["# Prompt validation", ""]
    lines.append(
        f"Logs: {len(found.paths)}; settings: {len(records)}; prompts: {len(items)}; "
        f"LLM annotators: {len(annotator_order(records))}"
        + (f"; human annotators: {int(groups[HUMAN]['annotators'])}" if HUMAN in groups else "")
    )
    for title, keys in sections.items():
        lines += ["", f"## {title}", "", md_table(summary.loc[keys], index="figure")]
    lines += ["", "## Figures", "", "![realism](realism.png)", "", "![recovery](recovery.png)"]
    lines += ["", "## Annotators", ""]
    lines.append(
        "`also_judge`: the annotator model is one of the judges of the linked "
        "prompt_construction run (`unknown`: no run linked; pass --judges-log LOG)."
    )
    lines += ["", md_table(annotators)]
    (out / "validation_report.md").write_text("\n".join(lines) + "\n", encoding="utf-8")
    files = ["validation_summary.csv", "annotators.csv", "prompts.csv", "validation_report.md"]
    files += ["realism.png", "recovery.png"]
    return {
        "out_dir": str(out),
        "files": files,
        "logs": [str(p) for p in found.paths],
        "human_unmatched_rows": unmatched,
        "groups": {
            g: {k: (None if isinstance(v, float) and math.isnan(v) else v) for k, v in s.items()}
            for g, s in groups.items()
        },
        "annotators": json.loads(annotators.to_json(orient="records")),
    }


def _run(args: argparse.Namespace) -> int:
    from inspect_stance.paths import check_out_dir

    check_out_dir(args.out)
    summary = build_validation_report(args.logs, args.out, args.human, args.judges_log or ())
    if args.json:
        print(json.dumps(summary, indent=2))
    else:
        print(f"wrote {', '.join(summary['files'])} to {summary['out_dir']}")
    return 0


def register(subparsers: Any) -> None:
    """Add ``validation-report`` to the ``inspect-stance`` command."""
    parser = subparsers.add_parser(
        "validation-report",
        help="prompt-validation study: realism, clarity, detection; humans beside LLM annotators",
        description=(
            "Report on prompt_validation eval logs: validation_summary.csv (one column per "
            "annotator group), annotators.csv, prompts.csv and validation_report.md."
        ),
    )
    parser.add_argument("logs", nargs="+", help="prompt_validation eval logs or folders")
    parser.add_argument(
        "--human",
        default=None,
        help="CSV/TSV of human annotations: annotator,item_id,rank,intent,stance,side",
    )
    parser.add_argument(
        "--judges-log",
        action="append",
        default=None,
        help="a prompt_construction log whose judges are compared with the annotators (repeatable)",
    )
    parser.add_argument(
        "--out", default="validation_report", help="output folder (default: %(default)s)"
    )
    parser.add_argument("--json", action="store_true", help="print the summary as JSON")
    from inspect_stance.html.cli import add_html_argument, with_html

    add_html_argument(parser)
    parser.set_defaults(func=with_html(_run, "validation-report", "logs"))
