"""Stance-drift scorers and metrics.

Scorers (one score per sample = proposition x initial stance):

- ``stance_drift_scorer(unparsed="failure")`` — the transition-matrix row of the sample, i.e. the
  mean of its trials' stance-order vectors (unparsed trials count as zero vectors under
  ``failure``, are left out under ``exclude``). Score value = the diagonal probability
  ``T[s, i, i]``; the full row and trial counts are in the score metadata.
- ``stance_drift_argmax(unparsed="failure")`` — the same with each trial's vector replaced by a
  point mass on its most probable stance (the temperature-0 re-analysis); use it with
  ``inspect score --scorer`` on an existing log: zero new model calls.

Metrics (Inspect's panel): ``spr``, the headline (``spr``, ``stderr``, ``ci_low``, ``ci_high``,
``n_items``, ``n_clusters``: :func:`inspect_stance.drift.figures.spr_headline`), and ``counts``
(``trials``, ``unparsed``, ``trials_replayed``, ``incomplete_samples``). The success per
initial stance, the drift patterns and the other counts are computed from the same scores by
:func:`inspect_stance.drift.figures.figures` (the report and the card's breakdown read them).
Both metrics take every epoch's score (``scores="unreduced"``): a sample's epochs are further
trials of its (proposition, stance), pooled as the log reader pools them, so ``--epochs N`` and
any ``--epochs-reducer`` give the SPR of ``trials`` x N trials. The statistics themselves are in
:mod:`inspect_stance.drift.metrics.spr` and :mod:`inspect_stance.drift.metrics.patterns`.

A sample stopped by a limit is scored on its finished trials and flagged: score metadata
``n_planned``, ``n_missing`` and ``n_incomplete`` (1), and the ``incomplete_samples`` /
``missing_trials`` metrics.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Literal

from inspect_ai.scorer import (
    Metric,
    SampleScore,
    Score,
    Scorer,
    Target,
    Value,
    metric,
    scorer,
)
from inspect_ai.solver import TaskState

from inspect_stance.drift.adaptive.rule import ADAPTIVE_KEY, adaptive_row
from inspect_stance.drift.extraction import record_label_mismatches, trial_vector
from inspect_stance.drift.figures import (
    PANEL_COUNTS,
    counts,
    matrices_of,
    pool_epochs,
    spr_headline,
)
from inspect_stance.drift.held import held
from inspect_stance.drift.started import StartedSamples
from inspect_stance.drift.transition import FloatArray, check_policy
from inspect_stance.explain import drift_explanation, trial_argmax_counts
from inspect_stance.stances import N_STANCES, STANCE_KEYS
from inspect_stance.stats.headline import metric_values

if TYPE_CHECKING:
    from inspect_stance.drift.figures import Scored

#: decimals of the sample score shown by ``inspect view`` (the row in the metadata is exact)
VALUE_DIGITS = 3


def trial_row(
    records: Sequence[dict[str, Any]],
    unparsed: Literal["failure", "exclude"] | str = "failure",
    argmax: bool = False,
) -> tuple[list[float] | None, dict[str, int]]:
    """A sample's transition-matrix row from its trial records, plus trial counts.

    Each trial's vector ``p_t`` comes from its extraction vectors by
    :func:`~inspect_stance.drift.extraction.trial_vector` (policy applied per extraction for
    ``multiple_extraction``). Row ``r_j = (1/n) * sum_t p_t[j]`` over the trials counted by the
    policy: all trials (unparsed ones as zero vectors) under ``failure``, parsed trials only
    under ``exclude`` (``None`` when there are none). With ``argmax`` each ``p_t`` is first
    replaced by the point mass on ``argmax_j p_t[j]`` (scaled by its total mass, which is below
    1 only for a multiple extraction with unparsed extractions under ``failure``).

    Counts: ``trials``, ``unparsed``, ``logprobs`` / ``frequency`` (parsed trials by
    estimator), ``unparsed_extractions``, ``extractions`` (answers read) and
    ``logprobs_returned`` (answers whose response carried top logprobs) and ``label_mismatches``
    (answers whose letter and written label disagree; the letter is kept).
    """
    import numpy as np

    check_policy(unparsed)
    vectors: list[FloatArray] = []
    counts = {
        "trials": len(records),
        "unparsed": 0,
        "logprobs": 0,
        "frequency": 0,
        "unparsed_extractions": 0,
        "extractions": 0,
        "logprobs_returned": 0,
        "label_mismatches": 0,
        "replayed": sum(1 for rec in records if rec.get("replayed")),
    }
    for rec in records:
        counts["label_mismatches"] += record_label_mismatches(rec)
        extractions = rec.get("vectors")
        if extractions is None:
            extractions = [rec.get("probs")]
        counts["unparsed_extractions"] += sum(1 for v in extractions if v is None)
        counts["extractions"] += len(extractions)
        counts["logprobs_returned"] += sum(1 for r in rec.get("logprobs_returned") or [] if r)
        probs = trial_vector(extractions, unparsed)
        if probs is None:
            counts["unparsed"] += 1
            if unparsed == "failure":
                vectors.append(np.zeros(N_STANCES))
            continue
        vec = np.asarray(probs, dtype=np.float64)
        if argmax:
            vec = np.eye(N_STANCES)[int(np.argmax(vec))] * vec.sum()
        vectors.append(vec)
        if rec.get("estimator") == "logprobs":
            counts["logprobs"] += 1
        else:
            counts["frequency"] += 1
    if not vectors:
        return None, counts
    return [float(x) for x in np.mean(vectors, axis=0)], counts


def _vector(rec: dict[str, Any], unparsed: str, argmax: bool) -> FloatArray | None:
    """One trial's vector as :func:`trial_row` counts it (None: left out under ``exclude``)."""
    import numpy as np

    extractions = rec.get("vectors")
    probs = trial_vector([rec.get("probs")] if extractions is None else extractions, unparsed)
    if probs is None:
        return np.zeros(N_STANCES) if unparsed == "failure" else None
    vec = np.asarray(probs, dtype=np.float64)
    return np.eye(N_STANCES)[int(np.argmax(vec))] * vec.sum() if argmax else vec


def _make_scorer(unparsed: str, argmax: bool) -> Scorer:
    import numpy as np

    from inspect_stance.drift.logs import PLANNED_KEY, TRIALS_KEY

    check_policy(unparsed)

    async def score(state: TaskState, target: Target) -> Score:  # noqa: ARG001
        # held while the sample runs (drift.held); in the store when re-scored from a log
        records = held(state.uuid)
        if records is None:
            records = state.store.get(TRIALS_KEY) or []
        row, counts = trial_row(records, unparsed, argmax)
        planned = int(state.store.get(PLANNED_KEY) or len(records))
        missing = max(planned - len(records), 0)
        stance = int(state.metadata["initial_stance"])
        incomplete = (
            f"; INCOMPLETE: {missing} of {planned} planned trials did not finish "
            "(a sample limit stopped it)"
            if missing
            else ""
        )
        adaptive = state.store.get(ADAPTIVE_KEY)  # adaptive trials (drift.adaptive)
        if adaptive and adaptive.get("stop_reason") and not missing:
            incomplete = adaptive_note(adaptive)
            # the mean of the trials run is biased by the stopping: the unbiased estimate
            row = adaptive_row(records, stance, adaptive, lambda r: _vector(r, unparsed, argmax))
        most_probable = trial_argmax_counts(
            [trial_vector(rec.get("vectors") or [rec.get("probs")], unparsed) for rec in records]
        )
        return Score(
            # a sample whose every trial was excluded has no row: value 0, row None (metrics
            # treat it as missing; a NaN value would make Inspect drop it from the counts).
            # The value is rounded for display; the metrics read the full-precision row.
            value=0.0 if row is None else round(row[stance], VALUE_DIGITS),
            answer=None if row is None else STANCE_KEYS[int(np.argmax(row))],
            explanation=drift_explanation(
                stance, row, most_probable, counts, incomplete.lstrip("; ")
            ),
            metadata={
                "topic_id": str(state.metadata["topic_id"]),
                "initial_stance": stance,
                "row": row,
                "trial_argmax": most_probable,
                "unparsed_policy": unparsed,
                "argmax": argmax,
                **{f"n_{k}": v for k, v in counts.items()},
                "n_planned": planned,
                "n_trials_max": int(adaptive["max_trials"]) if adaptive else planned,
                "adaptive": adaptive,
                "n_missing": missing,
                "n_incomplete": int(missing > 0),
            },
        )

    return score


def _scored(scores: Sequence[SampleScore]) -> list[Scored]:
    """One (score metadata, sample metadata) per sample: the metrics take every epoch's score
    (``scores="unreduced"``), and a sample's epochs are pooled as further trials of its
    (proposition, stance) (:func:`inspect_stance.drift.figures.pool_epochs`, as the log reader
    does), whatever ``--epochs-reducer`` says."""

    epochs: dict[str, list[Scored]] = {}
    for s in scores:
        epochs.setdefault(str(s.sample_id), []).append(
            (s.score.metadata or {}, s.sample_metadata or {})
        )
    return [pool_epochs(e) for e in epochs.values()]


def matrices_from_scores(scores: Sequence[SampleScore]) -> FloatArray:
    """Stack sample rows into per-proposition matrices ``(P, 5, 5)``; missing rows are NaN
    (:func:`inspect_stance.drift.figures.matrices_of`)."""

    return matrices_of(_scored(scores))[0]


@metric(name="spr", scores="unreduced")
def spr_metric() -> Metric:
    """The task's headline: SPR ``= mean_s mean_i T[s,i,i]`` over the propositions, its
    standard error ``sd_s(mean_i T[s,i,i]) / sqrt(P)`` and t interval with ``P - 1`` df,
    clipped to [0, 1] (:func:`inspect_stance.drift.figures.spr_headline`), as ``spr``,
    ``stderr``, ``ci_low``, ``ci_high``, ``n_items`` and ``n_clusters`` (both the propositions
    with a value)."""

    def compute(scores: list[SampleScore]) -> Value:

        return metric_values(spr_headline(matrices_from_scores(scores)))

    return compute


def adaptive_note(adaptive: dict[str, Any]) -> str:
    """One sentence on an adaptive sample's stop: trials run of the most, why, the width."""
    why = {
        "halfwidth": f"interval within {adaptive['halfwidth']:g} of the mean",
        "below_one": "upper bound below 1",
        "max_trials": "ran every trial",
    }.get(str(adaptive.get("stop_reason")), str(adaptive.get("stop_reason")))
    width = adaptive.get("width_reached")
    text = f"adaptive: {adaptive['trials_run']} of {adaptive['max_trials']} trials ({why}"
    return text + (f"; half-width {width:.3f})" if width is not None else ")")


@metric(name="counts", scores="unreduced")
def counts_metric(started: StartedSamples | None = None) -> Metric:
    """The trial counts a reader of the panel needs beside SPR: ``trials`` scored,
    ``unparsed`` trials, ``trials_replayed`` from the trial record (no model call) and
    ``incomplete_samples`` (samples holding fewer trials than planned, or that started and
    errored: with ``started``, the task's :class:`StartedSamples`). Every other count, the
    success per initial stance and the drift patterns are in
    :func:`inspect_stance.drift.figures.figures` (the report, the card's breakdown)."""

    def compute(scores: list[SampleScore]) -> Value:
        # re-created from a log (inspect score), ``started`` is the class name: nothing started
        live = started if isinstance(started, StartedSamples) else None
        errored, errored_trials = live.missing(scores) if live is not None else (0, 0)

        every = counts(_scored(scores), errored, errored_trials)
        return {k: every[k] for k in PANEL_COUNTS}

    return compute


def drift_metrics(started: StartedSamples | None = None) -> list[Metric]:
    """Every stance-drift metric, in display order (SPR first); ``started``: the task's
    :class:`StartedSamples` (errored samples then count as incomplete)."""
    return [spr_metric(), counts_metric(started)]


@scorer(metrics=drift_metrics())
def stance_drift_scorer(unparsed: Literal["failure", "exclude"] = "failure") -> Scorer:
    """Score a sample by its transition-matrix row (mean trial vector); value = ``T[s,i,i]``."""
    return _make_scorer(unparsed, argmax=False)


@scorer(metrics=drift_metrics())
def stance_drift_argmax(unparsed: Literal["failure", "exclude"] = "failure") -> Scorer:
    """Argmax (temperature-0) re-analysis: each trial vector -> point mass on its argmax."""
    return _make_scorer(unparsed, argmax=True)
