"""Scorer and metrics of the prompt-validation study.

``validation_record`` copies a setting's prompts (source, intended intent and stance) and every
annotator's answers from the store into ``Score.metadata`` (``items``, ``annotations``,
``missing``), so the metrics and ``inspect-stance validation-report`` work from the scores
alone. ``Score.value`` is the share of the setting's answers that were parsed (ranking plus
three labels per prompt and annotator).

Metrics (Inspect's panel): ``mean_rank_generated``, the headline (with ``stderr``, ``ci_low``,
``ci_high``, ``n_items``, ``n_clusters``: :func:`inspect_stance.validation.figures.rank_headline`,
clustered by setting), and :func:`realism`: ``mean_rank_real``, ``mean_rank_templated``,
``unparsed_ranking``, ``failed_calls``. Every other figure (Kendall's W, Friedman, intent and
stance recovery, kappas, neutral-leaning detection, the other counts) is computed from the
same scores by :func:`inspect_stance.validation.figures.figures`, which the report and the
card's breakdown read.

Both metrics take every epoch's score (``scores="unreduced"``): with ``--epochs N`` each
epoch's annotations are more rankings and labels of the same setting (the headline's cluster),
as the report reads the log (:func:`inspect_stance.validation.logs.score_records`); the epoch
reducer, whichever ``--epochs-reducer`` names, changes no figure.
"""

from __future__ import annotations

from typing import Any

from inspect_ai.scorer import Metric, SampleScore, Score, Scorer, Target, metric, scorer
from inspect_ai.solver import TaskState

from inspect_stance.construction.keys import STORE_ANNOTATIONS, STORE_ITEMS, STORE_MISSING
from inspect_stance.explain import validation_explanation
from inspect_stance.stats.headline import metric_values
from inspect_stance.validation.figures import PANEL_KEYS, rank_headline

ITEM_KEYS: tuple[str, ...] = (
    "item_id",
    "source",
    "intended_intent",
    "intended_stance",
    "filler_pole",
    "text",
    "slot",
    "template_id",
)
META_KEYS: tuple[str, ...] = ("setting", "topic_id", "intent", "stance")


def _records(scores: list[SampleScore]) -> list[dict[str, Any]]:
    return [
        s.score.metadata for s in scores if s.score.metadata and "annotations" in s.score.metadata
    ]


@metric(name="mean_rank_generated", scores="unreduced")
def realism_headline() -> Metric:
    """The task's headline: the generated prompts' mean realism rank, its standard error
    clustered by setting and t interval with ``settings - 1`` df
    (:func:`inspect_stance.validation.figures.rank_headline`)."""

    def compute(scores: list[SampleScore]) -> dict[str, float]:
        from inspect_stance.validation.analysis import rows_from_records

        return metric_values(rank_headline(rows_from_records(_records(scores))))

    return compute


@metric(scores="unreduced")
def realism() -> Metric:
    """The figures a reader of the panel needs beside the headline: the real and templated
    prompts' mean ranks, unparsed rankings and failed calls. Kendall's W, the Friedman test,
    clarity, detection and the other counts are in
    :func:`inspect_stance.validation.figures.figures` (the report, the card's breakdown)."""

    def compute(scores: list[SampleScore]) -> dict[str, float]:
        records = _records(scores)
        from inspect_stance.validation.analysis import (
            annotation_counts_of,
            realism_of,
            rows_from_records,
        )

        out = {**realism_of(rows_from_records(records)), **annotation_counts_of(records)}
        return {k: out[k] for k in PANEL_KEYS}

    return compute


def _parsed_share(annotations: list[dict[str, Any]]) -> float:
    ok = total = 0
    for a in annotations:
        if a.get("ranking_status") != "skipped":
            total += 1
            ok += a.get("ranking_status") == "ok"
        for label in a.get("labels", {}).values():
            for status in label["status"].values():
                total += 1
                ok += status == "ok"
    return ok / total if total else 0.0


@scorer(metrics=[realism_headline(), realism()])
def validation_record() -> Scorer:
    """Copy the setting's prompts and annotations into the score (see module docstring)."""

    async def score(state: TaskState, target: Target) -> Score:  # noqa: ARG001
        meta = state.metadata
        items = state.store.get(STORE_ITEMS) or []
        annotations = state.store.get(STORE_ANNOTATIONS) or []
        metadata: dict[str, Any] = {k: meta.get(k) for k in META_KEYS}
        metadata["items"] = [{k: x.get(k) for k in ITEM_KEYS} for x in items]
        metadata["annotations"] = annotations
        metadata["missing"] = state.store.get(STORE_MISSING) or []
        share = _parsed_share(annotations)
        return Score(
            value=share,
            explanation=validation_explanation(metadata["items"], annotations, share),
            metadata=metadata,
        )

    return score
