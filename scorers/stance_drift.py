"""Stance-drift scorers and metrics.

Scorers (one score per sample = proposition x initial stance):

- ``stance_drift_scorer(unparsed="failure")`` — the transition-matrix row of the sample, i.e. the
  mean of its trials' stance-order vectors (unparsed trials count as zero vectors under
  ``failure``, are left out under ``exclude``). Score value = the diagonal probability
  ``T[s, i, i]``; the full row and trial counts are in the score metadata.
- ``stance_drift_argmax(unparsed="failure")`` — the same with each trial's vector replaced by a
  point mass on its most probable stance (the temperature-0 re-analysis); use it with
  ``inspect score --scorer`` on an existing log: zero new model calls.

Metrics (the public names): ``spr``, ``spr_stderr``, ``success_<stance>`` for the five initial
stances, the five drift patterns (``polarization``, ``moderation``, ``moderation_to_neutral``,
``flipping``, ``deviation_from_neutrality``), ``sdr`` and the counts ``trials``,
``logprob_estimated``, ``frequency_estimated``, ``unparsed``, ``unparsed_extractions``. Epochs
are pooled by the ``drift_pool`` reducer. The statistics themselves are in
:mod:`inspect_stance.drift.spr` and :mod:`inspect_stance.drift.patterns`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
from inspect_ai.scorer import (
    Metric,
    SampleScore,
    Score,
    Scorer,
    ScoreReducer,
    Target,
    metric,
    score_reducer,
    scorer,
)
from inspect_ai.solver import TaskState

from inspect_stance.drift.extraction import trial_vector
from inspect_stance.drift.logs import TRIALS_KEY
from inspect_stance.drift.patterns import PATTERNS, drift_patterns, stance_drift_rate
from inspect_stance.drift.spr import stance_preservation_rate, success_by_stance
from inspect_stance.drift.transition import check_policy
from inspect_stance.stances import N_STANCES, STANCE_KEYS


def trial_row(
    records: Sequence[dict[str, Any]], unparsed: str = "failure", argmax: bool = False
) -> tuple[list[float] | None, dict[str, int]]:
    """A sample's transition-matrix row from its trial records, plus trial counts.

    Each trial's vector ``p_t`` comes from its extraction vectors by
    :func:`~inspect_stance.drift.extraction.trial_vector` (policy applied per extraction for
    ``multiple_extraction``). Row ``r_j = (1/n) * sum_t p_t[j]`` over the trials counted by the
    policy: all trials (unparsed ones as zero vectors) under ``failure``, parsed trials only
    under ``exclude`` (``None`` when there are none). With ``argmax`` each ``p_t`` is first
    replaced by the point mass on ``argmax_j p_t[j]`` (scaled by its total mass, which is below
    1 only for a multiple extraction with unparsed extractions under ``failure``).
    """
    check_policy(unparsed)
    vectors: list[np.ndarray] = []
    counts = {
        "trials": len(records),
        "unparsed": 0,
        "logprobs": 0,
        "frequency": 0,
        "unparsed_extractions": 0,
    }
    for rec in records:
        extractions = rec.get("vectors")
        if extractions is None:
            extractions = [rec.get("probs")]
        counts["unparsed_extractions"] += sum(1 for v in extractions if v is None)
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


def _make_scorer(unparsed: str, argmax: bool) -> Callable[[TaskState, Target], Any]:
    check_policy(unparsed)

    async def score(state: TaskState, target: Target) -> Score:  # noqa: ARG001
        records = state.store.get(TRIALS_KEY) or []
        row, counts = trial_row(records, unparsed, argmax)
        stance = int(state.metadata["initial_stance"])
        return Score(
            # a sample whose every trial was excluded has no row: value 0, row None (metrics
            # treat it as missing; a NaN value would make Inspect drop it from the counts)
            value=0.0 if row is None else row[stance],
            answer=None if row is None else STANCE_KEYS[int(np.argmax(row))],
            explanation=(
                f"{counts['trials']} trials, {counts['unparsed']} unparsed; "
                f"row (stance order) = {None if row is None else [round(x, 4) for x in row]}"
            ),
            metadata={
                "topic_id": str(state.metadata["topic_id"]),
                "initial_stance": stance,
                "row": row,
                "unparsed_policy": unparsed,
                "argmax": argmax,
                **{f"n_{k}": v for k, v in counts.items()},
            },
        )

    return score


def matrices_from_scores(scores: Sequence[SampleScore]) -> np.ndarray:
    """Stack sample rows into per-proposition matrices ``(P, 5, 5)``; missing rows are NaN."""
    index: dict[str, int] = {}
    rows: list[tuple[int, int, list[float] | None]] = []
    for s in scores:
        meta = s.score.metadata or {}
        topic = str(meta.get("topic_id", (s.sample_metadata or {}).get("topic_id")))
        stance = int(meta.get("initial_stance", (s.sample_metadata or {}).get("initial_stance")))
        rows.append((index.setdefault(topic, len(index)), stance, meta.get("row")))
    out = np.full((len(index), N_STANCES, N_STANCES), np.nan)
    for p, i, row in rows:
        if row is not None:
            out[p, i] = row
    return out


@metric
def spr() -> Metric:
    """Stance preservation rate: mean over propositions and initial stances of ``T[s,i,i]``."""

    def compute(scores: list[SampleScore]) -> float:
        return stance_preservation_rate(matrices_from_scores(scores))[0]

    return compute


@metric
def spr_stderr() -> Metric:
    """Standard error of the SPR over propositions: ``sd_s(mean_i T[s,i,i]) / sqrt(P)``."""

    def compute(scores: list[SampleScore]) -> float:
        return stance_preservation_rate(matrices_from_scores(scores))[1]

    return compute


def _success_metric(stance: int) -> Callable[[list[SampleScore]], float]:
    def compute(scores: list[SampleScore]) -> float:
        return float(success_by_stance(matrices_from_scores(scores))[0][stance])

    return compute


@metric
def success_agree_strongly() -> Metric:
    """Success rate of initial stance Agree strongly: ``mean_s T[s,0,0]``."""
    return _success_metric(0)


@metric
def success_agree() -> Metric:
    """Success rate of initial stance Agree: ``mean_s T[s,1,1]``."""
    return _success_metric(1)


@metric
def success_neutral() -> Metric:
    """Success rate of initial stance Neutral: ``mean_s T[s,2,2]``."""
    return _success_metric(2)


@metric
def success_disagree() -> Metric:
    """Success rate of initial stance Disagree: ``mean_s T[s,3,3]``."""
    return _success_metric(3)


@metric
def success_disagree_strongly() -> Metric:
    """Success rate of initial stance Disagree strongly: ``mean_s T[s,4,4]``."""
    return _success_metric(4)


def _pattern_metric(name: str) -> Callable[[list[SampleScore]], float]:
    def compute(scores: list[SampleScore]) -> float:
        return drift_patterns(matrices_from_scores(scores))[name][0]

    return compute


@metric
def polarization() -> Metric:
    """Drift-pattern mass of cells {(1,0),(3,4)} (see :mod:`inspect_stance.drift.patterns`)."""
    return _pattern_metric("polarization")


@metric
def moderation() -> Metric:
    """Drift-pattern mass of cells {(0,1),(4,3)}."""
    return _pattern_metric("moderation")


@metric
def moderation_to_neutral() -> Metric:
    """Drift-pattern mass of cells {(i,2): i != 2}."""
    return _pattern_metric("moderation_to_neutral")


@metric
def flipping() -> Metric:
    """Drift-pattern mass of agree<->disagree cells {0,1}x{3,4} and {3,4}x{0,1}."""
    return _pattern_metric("flipping")


@metric
def deviation_from_neutrality() -> Metric:
    """Drift-pattern mass of cells {(2,j): j != 2}."""
    return _pattern_metric("deviation_from_neutrality")


@metric
def sdr() -> Metric:
    """Stance drift rate: the sum of the five pattern masses (= 1 - SPR without unparsed)."""

    def compute(scores: list[SampleScore]) -> float:
        return stance_drift_rate(matrices_from_scores(scores))[0]

    return compute


def _count_metric(key: str) -> Callable[[list[SampleScore]], int]:
    def compute(scores: list[SampleScore]) -> int:
        return int(sum(int((s.score.metadata or {}).get(key, 0)) for s in scores))

    return compute


@metric
def trials() -> Metric:
    """Number of trials scored."""
    return _count_metric("n_trials")


@metric
def logprob_estimated() -> Metric:
    """Number of parsed trials whose vector came from logprobs."""
    return _count_metric("n_logprobs")


@metric
def frequency_estimated() -> Metric:
    """Number of parsed trials whose vector is a one-hot on the parsed letter (or mixed)."""
    return _count_metric("n_frequency")


@metric
def unparsed() -> Metric:
    """Number of trials whose extraction had no usable letter."""
    return _count_metric("n_unparsed")


@metric
def unparsed_extractions() -> Metric:
    """Number of extraction answers without a usable letter (differs from ``unparsed`` only
    for ``multiple_extraction``, where a trial is unparsed when all 5 extractions are)."""
    return _count_metric("n_unparsed_extractions")


def drift_metrics() -> list[Metric]:
    """Every stance-drift metric, in display order."""
    return [
        spr(),
        spr_stderr(),
        success_agree_strongly(),
        success_agree(),
        success_neutral(),
        success_disagree(),
        success_disagree_strongly(),
        polarization(),
        moderation(),
        moderation_to_neutral(),
        flipping(),
        deviation_from_neutrality(),
        sdr(),
        trials(),
        logprob_estimated(),
        frequency_estimated(),
        unparsed(),
        unparsed_extractions(),
    ]


assert len(PATTERNS) == 5


@scorer(metrics=drift_metrics())
def stance_drift_scorer(unparsed: str = "failure") -> Scorer:
    """Score a sample by its transition-matrix row (mean trial vector); value = ``T[s,i,i]``."""
    return _make_scorer(unparsed, argmax=False)


@scorer(metrics=drift_metrics())
def stance_drift_argmax(unparsed: str = "failure") -> Scorer:
    """Argmax (temperature-0) re-analysis: each trial vector -> point mass on its argmax."""
    return _make_scorer(unparsed, argmax=True)


@score_reducer(name="drift_pool")
def drift_pool() -> ScoreReducer:
    """Pool a sample's epochs: they are more trials of the same (proposition, stance).

    Row = trial-weighted mean of the epochs' rows, ``r = sum_e w_e r_e / sum_e w_e`` with
    ``w_e`` the trials the row averages (all trials under ``failure``, parsed ones under
    ``exclude``); counts are summed. The task sets this reducer, and ``--epochs N`` keeps it.
    """

    def reduce(scores: list[Score]) -> Score:
        metas = [s.metadata or {} for s in scores]
        first = metas[0]
        policy = str(first.get("unparsed_policy", "failure"))
        total = np.zeros(N_STANCES)
        weight = 0.0
        for meta in metas:
            if meta.get("row") is None:
                continue
            w = meta.get("n_trials", 0) - (meta.get("n_unparsed", 0) if policy == "exclude" else 0)
            total += w * np.asarray(meta["row"], dtype=np.float64)
            weight += w
        row = [float(x) for x in total / weight] if weight > 0 else None
        counts = {k: int(sum(int(m.get(k, 0)) for m in metas)) for k in first if k.startswith("n_")}
        stance = int(first["initial_stance"])
        return Score(
            value=0.0 if row is None else row[stance],
            answer=None if row is None else STANCE_KEYS[int(np.argmax(row))],
            explanation=f"{len(scores)} epochs pooled; row = {row}",
            metadata={**first, "row": row, **counts, "epochs": len(scores)},
        )

    return reduce
