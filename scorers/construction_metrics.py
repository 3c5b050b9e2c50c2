"""The metrics of the prompt-construction study and of judge validation, from the scores.

Every metric reads the records :func:`score_records` parses from ``Score.metadata`` (written
by :func:`inspect_stance.scorers.prompt_construction.stance_ensemble`) and computes its
figures with the core (:mod:`inspect_stance.construction.figures`); a statistic without data
is NaN. Inspect's panel shows each task's headline (its value, ``stderr``, ``ci_low``,
``ci_high``, ``n_items``, ``n_clusters``) and four figures; every other figure (directions,
outcomes, the judges' agreement, per-judge and human-label figures) is in
:func:`inspect_stance.construction.figures.figures` /
:func:`~inspect_stance.construction.figures.agreement_figures`, which the report and the
card's breakdown read.

Every metric takes every epoch's score (``scores="unreduced"``), so ``--epochs N`` gives each
setting N times the responses and judgements, one record per sample and epoch, as the report
reads the log (:func:`inspect_stance.construction.report_records.read_records`); the epoch
reducer, whichever ``--epochs-reducer`` names, changes no figure.
"""

from __future__ import annotations

from inspect_ai.scorer import Metric, SampleScore, metric

from inspect_stance.construction.ensemble import check_ensemble, with_ensemble
from inspect_stance.construction.records import Record, record_from_score_metadata
from inspect_stance.stats.headline import metric_values

# The figures (inspect_stance.construction.figures, with the agreement statistics under it) load
# when a metric first computes, not with the entry point (benchmarks/import_time.py).


def score_records(scores: list[SampleScore]) -> list[Record]:
    """Records from sample scores (value = outcome, metadata from :func:`stance_ensemble`), one
    per sample and epoch."""
    return [
        record_from_score_metadata(s.sample_id, s.score.value, s.score.metadata or {})
        for s in scores
        if s.score.metadata and "method" in s.score.metadata
    ]


@metric(name="mean_difference", scores="unreduced")
def construction_headline(ensemble: str = "majority") -> Metric:
    """The prompt-construction headline: ``mean_difference`` over the paired neutral settings,
    its topic-clustered standard error and t interval
    (:func:`inspect_stance.construction.figures.gap_headline`), under ``ensemble``."""

    how = check_ensemble(ensemble)

    def compute(scores: list[SampleScore]) -> dict[str, float]:
        from inspect_stance.construction.figures import gap_headline

        return metric_values(gap_headline(with_ensemble(score_records(scores), how)))

    return compute


@metric(scores="unreduced")
def construction_metrics(human: bool = False, ensemble: str = "majority") -> Metric:
    """The figures a reader of the panel needs beside the headline: ``distance_templated``,
    ``distance_generated``, ``no_majority`` and ``judge_unparsable``, from
    :func:`inspect_stance.construction.figures.figures` (with ``ensemble="dawid_skene"``:
    the Dawid-Skene outcomes fitted to all scores, :mod:`inspect_stance.construction.ensemble`).
    ``human`` is accepted for the task's wiring; the human-label figures are in ``figures``."""

    how = check_ensemble(ensemble)

    def compute(scores: list[SampleScore]) -> dict[str, float]:
        from inspect_stance.construction.figures import PANEL_KEYS, figures

        every = figures(with_ensemble(score_records(scores), how))
        return {k: every[k] for k in PANEL_KEYS}

    return compute


@metric(name="alpha_ordinal", scores="unreduced")
def validation_headline() -> Metric:
    """The judge-validation headline: the ensemble's ordinal Krippendorff alpha against the
    human labels (:func:`inspect_stance.construction.figures.alpha_headline`; no standard
    error)."""

    def compute(scores: list[SampleScore]) -> dict[str, float]:
        from inspect_stance.construction.figures import alpha_headline

        return metric_values(alpha_headline(score_records(scores)))

    return compute


@metric(scores="unreduced")
def validation_agreement(with_outcomes: bool = False) -> Metric:
    """Judge validation against human labels, the figures a reader of the panel needs:
    ``exact`` and ``within1`` of the ensemble vs the human label, ``n_labelled`` and
    ``no_ensemble_label`` (labelled responses without a majority). The per-judge, among-judge,
    annotator and outcome figures are in
    :func:`inspect_stance.construction.figures.agreement_figures` (``with_outcomes`` is
    accepted for the task's wiring)."""

    def compute(scores: list[SampleScore]) -> dict[str, float]:
        from inspect_stance.construction.figures import JV_PANEL_KEYS, agreement_figures

        every = agreement_figures(score_records(scores))
        return {k: every[k] for k in JV_PANEL_KEYS}

    return compute
