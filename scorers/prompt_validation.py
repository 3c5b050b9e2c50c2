"""Scorer and metrics of the prompt-validation study.

``validation_record`` copies a setting's prompts (source, intended intent and stance) and every
annotator's answers from the store into ``Score.metadata`` (``items``, ``annotations``,
``missing``), so the metrics and ``inspect-stance validation-report`` work from the scores
alone. ``Score.value`` is the share of the setting's answers that were parsed (ranking plus
three labels per prompt and annotator).

Metrics (flat keys; the i-th annotator is ``a<i>`` in the order of ``--model-role
annotators=...``, names in the task metadata ``annotators``):

- :func:`realism`: ``mean_rank_<source>``, ``kendall_w`` (+ ``kendall_w_settings``),
  ``kendall_w_<s1>_<s2>``, ``friedman_chi2``, ``friedman_p``, ``friedman_blocks``
  (:mod:`inspect_stance.validation.realism`);
- :func:`clarity`: ``intent_accuracy_<source>``, ``stance_accuracy_<source>``,
  ``<field>_fleiss_<source>``, ``<field>_kappa_<source>_a<i>``, ``<field>_n_<source>``
  (:mod:`inspect_stance.validation.clarity`);
- :func:`detection`: ``neutral_leaning_<source>``, ``neutral_toward_a_<source>``,
  ``neutral_toward_b_<source>``, ``neutral_side_n_<source>``, ``neutral_toward_filler_<source>``,
  ``neutral_filler_n_<source>``
  (:mod:`inspect_stance.validation.detection`);
- :func:`annotation_counts`: ``unparsed_ranking``, ``unparsed_intent``, ``unparsed_stance``,
  ``unparsed_side`` (answers in no accepted format), ``failed_calls`` (calls that raised),
  ``missing_prompts`` (generated slots the prompter did not fill), ``prompts``.
"""

from __future__ import annotations

from typing import Any

from inspect_ai.scorer import Metric, SampleScore, Score, Scorer, Target, metric, scorer
from inspect_ai.solver import TaskState

from inspect_stance.construction.keys import STORE_ANNOTATIONS, STORE_ITEMS, STORE_MISSING
from inspect_stance.explain import validation_explanation
from inspect_stance.validation.analysis import (
    annotation_counts_of,
    annotator_order,
    clarity_of,
    detection_of,
    realism_of,
    rows_from_records,
)
from inspect_stance.validation.realism import generated_rank_stderr

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


@metric
def realism() -> Metric:
    """Mean rank per source, Kendall's W (overall and per source pair), Friedman test, and
    ``stderr``: :func:`generated_rank_stderr` of the headline ``mean_rank_generated`` (the
    name Inspect's ``evals_df`` reads as the headline's error)."""

    def compute(scores: list[SampleScore]) -> dict[str, float]:
        rows = rows_from_records(_records(scores))
        out = realism_of(rows)
        out["stderr"] = generated_rank_stderr(rows)
        return out

    return compute


@metric
def clarity() -> Metric:
    """Intent / stance recovery accuracy, Cohen's kappa per annotator, Fleiss' kappa."""

    def compute(scores: list[SampleScore]) -> dict[str, float]:
        records = _records(scores)
        return clarity_of(rows_from_records(records), annotator_order(records))

    return compute


@metric
def detection() -> Metric:
    """Share of intended-neutral prompts read as leaning, and toward which side."""

    def compute(scores: list[SampleScore]) -> dict[str, float]:
        return detection_of(rows_from_records(_records(scores)))

    return compute


@metric
def annotation_counts() -> Metric:
    """Unparsed answers per question, failed calls, missing generated prompts, prompts."""

    def compute(scores: list[SampleScore]) -> dict[str, float]:
        return annotation_counts_of(_records(scores))

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


@scorer(metrics=[realism(), clarity(), detection(), annotation_counts()])
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
