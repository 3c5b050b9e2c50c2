"""The prompt-validation figures: annotation records in, rows and numbers out.

:func:`rows_from_records` turns ``prompt_validation`` score metadata into one
:class:`~inspect_stance.validation.annotation.Annotation` per annotator and prompt; the
``*_of`` functions (which the task's metrics call; they import nothing heavy at module level)
and :func:`group_summary` compute realism, clarity, detection and unparsed counts;
:func:`annotator_table` gives the per-annotator table of the report.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from inspect_stance.validation.annotation import (
    ERROR,
    FIELDS,
    SOURCES,
    UNPARSED,
    Annotation,
)
from inspect_stance.validation.clarity import clarity_summary, kappa_per_annotator
from inspect_stance.validation.detection import detection_summary
from inspect_stance.validation.realism import realism_summary

LLM = "llm"
HUMAN = "human"
UNKNOWN = "unknown"


def rows_from_records(records: Iterable[dict[str, Any]]) -> list[Annotation]:
    """One :class:`Annotation` per annotator and prompt, from score metadata records; the
    ``k``-th record of a setting (``--epochs N``: one per epoch) gives rows of ``epoch`` ``k``."""
    rows: list[Annotation] = []
    rounds: dict[str, int] = {}
    for rec in records:
        setting = str(rec.get("setting"))
        rounds[setting] = epoch = rounds.get(setting, 0) + 1
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
                        setting=setting,
                        item_id=item_id,
                        source=str(item["source"]),
                        intended_intent=item.get("intended_intent"),
                        intended_stance=item.get("intended_stance"),
                        rank=float(rank) if rank is not None else None,
                        intent=label.get("intent"),
                        stance=label.get("stance"),
                        side=label.get("side"),
                        filler_pole=item.get("filler_pole"),
                        epoch=epoch,
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


def sources_present(rows: Sequence[Annotation]) -> list[str]:
    """The sources (in :data:`SOURCES` order) that some row has."""
    return [s for s in SOURCES if any(r.source == s for r in rows)]


def realism_of(rows: Sequence[Annotation]) -> dict[str, float]:
    """:func:`inspect_stance.validation.realism.realism_summary`."""

    return realism_summary(rows)


def clarity_of(rows: Sequence[Annotation], annotators: Sequence[str]) -> dict[str, float]:
    """:func:`inspect_stance.validation.clarity.clarity_summary` over the sources present."""

    return clarity_summary(rows, sources_present(rows), annotators)


def detection_of(rows: Sequence[Annotation]) -> dict[str, float]:
    """:func:`inspect_stance.validation.detection.detection_summary` over the sources present."""

    return detection_summary(rows, sources_present(rows))


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


def group_summary(rows: Sequence[Annotation], annotators: Sequence[str]) -> dict[str, float]:
    """Every figure of one annotator group (realism, clarity, detection, unparsed answers)."""
    out = {**realism_of(rows), **clarity_of(rows, annotators), **detection_of(rows)}
    out["annotators"] = float(len(annotators))
    out["answers"] = float(len(rows))
    for f in ("rank", *FIELDS):
        out[f"missing_{f}"] = float(sum(getattr(r, f) is None for r in rows))
    return out


def annotator_table(
    rows: Sequence[Annotation], group: str, judges: set[str] | None
) -> list[dict[str, Any]]:
    """One row per annotator of ``group``: answers, answers not given, Cohen's kappa of intent
    and stance per source, and ``also_judge`` (:func:`also_judge`)."""

    out = []
    names = list(dict.fromkeys(r.annotator for r in rows))
    sources = sources_present(rows)
    kappas = {
        (f, s): kappa_per_annotator([r for r in rows if r.source == s], f)
        for f in ("intent", "stance")
        for s in sources
    }
    for name in names:
        mine = [r for r in rows if r.annotator == name]
        row: dict[str, Any] = {
            "annotator": name,
            "group": group,
            "answers": len(mine),
            "no_rank": sum(r.rank is None for r in mine),
            **{f"no_{f}": sum(getattr(r, f) is None for r in mine) for f in FIELDS},
            "also_judge": also_judge(name, group, judges),
        }
        for (f, s), values in kappas.items():
            row[f"{f}_kappa_{s}"] = values.get(name, float("nan"))
        out.append(row)
    return out


def also_judge(name: str, group: str, judges: set[str] | None) -> str:
    """``yes`` when the annotator's model (its name before ``#``) is one of the linked run's
    judges, ``no`` when not (always for humans), ``unknown`` when no run is linked."""
    if group == HUMAN:
        return "no"
    if judges is None:
        return UNKNOWN
    return "yes" if name.split("#")[0] in judges else "no"


def items_of(records: Sequence[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Every annotated prompt by ``item_id``, with its setting."""
    items: dict[str, dict[str, Any]] = {}
    for rec in records:
        for x in rec.get("items", []):
            items[x["item_id"]] = {**x, "setting": rec.get("setting")}
    return items


PROMPT_COLUMNS = ("item_id", "setting", "source", "intended_intent", "intended_stance", "text")


def prompt_rows(items: dict[str, dict[str, Any]]) -> list[dict[str, Any]]:
    """``prompts.csv``'s rows: each prompt's id, setting, source, intended labels and text."""
    return [{k: x.get(k) for k in PROMPT_COLUMNS} for x in items.values()]
