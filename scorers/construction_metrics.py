"""The metrics of the prompt-construction study and of judge validation, from the scores.

Every metric reads the records :func:`score_records` parses from ``Score.metadata`` (written
by :func:`inspect_stance.scorers.prompt_construction.stance_ensemble`) and computes its
statistics with the core (:mod:`inspect_stance.construction.comparison`,
:mod:`inspect_stance.construction.agreement`); a statistic without data is NaN.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from inspect_ai.scorer import Metric, SampleScore, metric

from inspect_stance.construction.agreement import NOMINAL, ORDINAL, human_agreement, judge_alpha
from inspect_stance.construction.comparison import (
    DIRECTIONS,
    NO_POLE,
    direction_counts,
    human_outcome,
    method_counts,
    neutral_comparison,
    paired_stderr,
    setting_summaries,
)
from inspect_stance.construction.lean import LeanSummary, summarize
from inspect_stance.construction.records import Record, record_from_score_metadata
from inspect_stance.construction.rubric import AMBIGUOUS, OK, OUT_OF_SCALE
from inspect_stance.construction.settings import GENERATED, METHODS, Setting


def score_records(scores: list[SampleScore]) -> list[Record]:
    """Records from sample scores (value = outcome, metadata from :func:`stance_ensemble`)."""
    return [
        record_from_score_metadata(s.sample_id, s.score.value, s.score.metadata or {})
        for s in scores
        if s.score.metadata and "method" in s.score.metadata
    ]


def _finite(x: float | None) -> float:
    return float(x) if x is not None and not math.isnan(x) else float("nan")


def gap_values(
    records: Sequence[Record], summaries: dict[tuple[Setting, str], LeanSummary] | None = None
) -> dict[str, float]:
    """The neutral comparison (:mod:`inspect_stance.construction.comparison`) as metric values.

    ``distance_templated``, ``distance_generated`` (mean |lean| over paired neutral settings),
    ``mean_difference`` (templated - generated), ``wilcoxon_p``, ``n_pairs``,
    ``templated_further``, ``generated_further``, ``ties``, ``unpaired``; ``stderr``: the
    standard error of ``mean_difference`` over the paired neutral settings,
    ``sd_ddof1(d_T - d_G) / sqrt(n_pairs)`` (the name Inspect's ``evals_df`` reads).
    """
    if summaries is None:
        summaries = setting_summaries(records)
    c = neutral_comparison(records, summaries=summaries)
    return {
        "distance_templated": _finite(c.distance_templated),
        "distance_generated": _finite(c.distance_generated),
        "mean_difference": _finite(c.mean_difference),
        "stderr": paired_stderr(summaries),
        "wilcoxon_p": _finite(c.wilcoxon_p),
        "n_pairs": float(c.n_pairs),
        "templated_further": float(c.templated_further),
        "generated_further": float(c.generated_further),
        "ties": float(c.ties),
        "unpaired": float(len(c.unpaired)),
    }


def direction_values(
    records: Sequence[Record], summaries: dict[tuple[Setting, str], LeanSummary] | None = None
) -> dict[str, float]:
    """Neutral settings by where their lean points relative to the filler's pole.

    ``filler_toward_<method>``, ``filler_away_<method>``, ``filler_tie_<method>``,
    ``filler_no_lean_<method>`` (neutral settings of that method), and ``filler_no_pole``
    (neutral settings whose topic's filler encodes no pole; the same for both methods).
    """
    counts = direction_counts(records, summaries=summaries)
    out: dict[str, float] = {}
    for method in METHODS:
        for direction in DIRECTIONS:
            if direction != NO_POLE:
                out[f"filler_{direction}_{method}"] = float(counts[method][direction])
    out["filler_no_pole"] = float(max(counts[m][NO_POLE] for m in METHODS))
    return out


def outcome_values(records: Sequence[Record], per_method: bool = True) -> dict[str, float]:
    """Refusal rate and overall lean (per method, or pooled), and every non-label outcome.

    ``refusal_rate_<method>`` and ``lean_<method>`` (all settings pooled; without the method
    suffix when ``per_method`` is false), ``no_majority``, ``no_valid_judge``, ``no_response``,
    ``no_prompt`` (samples), ``judge_out_of_scale``, ``judge_ambiguous`` and
    ``judge_unparsable`` (judge answers; the last counts every answer without a label that is
    not off the scale: unparsable, ambiguous, empty and failed calls), and
    ``prompter_unparsed_settings`` (settings whose generator answer gave no prompt at all).
    """
    out: dict[str, float] = {}
    if per_method:
        for method, summary in method_counts(records).items():
            out[f"refusal_rate_{method}"] = _finite(summary.refusal_rate)
            out[f"lean_{method}"] = _finite(summary.lean)
    else:
        pooled = summarize(r.outcome for r in records)
        out["refusal_rate"] = _finite(pooled.refusal_rate)
        out["lean"] = _finite(pooled.lean)
    for key in ("no_majority", "no_valid_judge", "no_response", "no_prompt"):
        out[key] = float(sum(r.outcome == key for r in records))
    statuses = [s for r in records for s in r.judge_status]
    out["judge_out_of_scale"] = float(statuses.count(OUT_OF_SCALE))
    out["judge_ambiguous"] = float(statuses.count(AMBIGUOUS))
    out["judge_unparsable"] = float(sum(s not in (OK, OUT_OF_SCALE) for s in statuses))
    if per_method:
        out["prompter_unparsed_settings"] = float(
            len(
                {
                    r.setting.key
                    for r in records
                    if r.method == GENERATED and r.generation_parsed == 0
                }
            )
        )
    return out


def agreement_values(records: Sequence[Record]) -> dict[str, float]:
    """Krippendorff's alpha among the judges, per method: ``alpha_ordinal_<method>`` (1-5,
    refusal missing) and ``alpha_nominal_<method>`` (1-5 and refusal)."""
    out: dict[str, float] = {}
    for method in METHODS:
        subset = [r for r in records if r.method == method and r.judge_labels]
        out[f"alpha_ordinal_{method}"] = _finite(judge_alpha(subset, ORDINAL))
        out[f"alpha_nominal_{method}"] = _finite(judge_alpha(subset, NOMINAL))
    return out


def human_values(records: Sequence[Record]) -> dict[str, float]:
    """Judge-human agreement per method and the neutral comparison redone with human labels.

    ``n_labelled``, ``exact_<method>``, ``within1_<method>``, ``alpha_<method>`` (ordinal,
    ensemble vs human), ``human_mean_difference`` / ``human_wilcoxon_p`` (the neutral comparison
    with human labels on the labelled subset) and ``judge_mean_difference_subset`` (the
    ensemble's on the same subset).
    """
    labelled = [r for r in records if r.human_label is not None]
    out: dict[str, float] = {"n_labelled": float(len(labelled))}
    for method in METHODS:
        agreement = human_agreement([r for r in labelled if r.method == method]).ensemble
        out[f"exact_{method}"] = _finite(agreement.exact)
        out[f"within1_{method}"] = _finite(agreement.within1)
        out[f"alpha_{method}"] = _finite(agreement.alpha_ordinal)
    human = neutral_comparison(labelled, human_outcome)
    judges = neutral_comparison(labelled)
    out["human_mean_difference"] = _finite(human.mean_difference)
    out["human_wilcoxon_p"] = _finite(human.wilcoxon_p)
    out["judge_mean_difference_subset"] = _finite(judges.mean_difference)
    return out


@metric
def construction_metrics(human: bool = False, ensemble: str = "majority") -> Metric:
    """Every metric of the prompt-construction study from one pass over the scores.

    The scores are parsed into records once and each statistic (the Wilcoxon test, the
    direction counts, Krippendorff's alpha) is computed once per pass, so Inspect's live
    recomputation stays cheap. Keys, in this order: :func:`gap_values`,
    :func:`direction_values`, :func:`outcome_values`, :func:`agreement_values`, and with
    ``human`` :func:`human_values` and the PPI-corrected leans
    (:func:`inspect_stance.construction.ppi_lean.ppi_values`). With
    ``ensemble="dawid_skene"`` every statistic uses the Dawid-Skene outcomes fitted to all
    scores (:mod:`inspect_stance.construction.ensemble`).
    """
    from inspect_stance.construction.ensemble import check_ensemble, with_ensemble

    how = check_ensemble(ensemble)

    def compute(scores: list[SampleScore]) -> dict[str, float]:
        records = with_ensemble(score_records(scores), how)
        summaries = setting_summaries(records)
        out = gap_values(records, summaries)
        out.update(direction_values(records, summaries))
        out.update(outcome_values(records))
        out.update(agreement_values(records))
        if human:
            # scipy.stats loads here, not when Inspect imports the entry point
            from inspect_stance.construction.ppi_lean import ppi_values

            out.update(human_values(records))
            out.update(ppi_values(records))
        return out

    return compute


@metric
def validation_agreement(with_outcomes: bool = False) -> Metric:
    """Judge validation against human labels (:mod:`inspect_stance.construction.agreement`),
    from one pass over the scores.

    Keys: ``n_labelled``, ``no_ensemble_label`` (labelled responses without a majority),
    ``exact`` / ``within1`` / ``alpha_ordinal`` / ``alpha_nominal`` of the ensemble vs the human
    label, ``judge<i>_exact`` / ``judge<i>_within1`` per judge (i = 1.. in binding order),
    ``judges_alpha_ordinal`` among the judges, and ``humans_alpha_ordinal`` / ``humans_exact``
    between the file's individual annotators (the human ceiling), when it has them. With
    ``with_outcomes``, also :func:`outcome_values` pooled over methods.
    """

    def compute(scores: list[SampleScore]) -> dict[str, float]:
        records = score_records(scores)
        result = human_agreement(records)
        out: dict[str, float] = {
            "n_labelled": float(result.n_labelled),
            "no_ensemble_label": float(result.n_no_ensemble_label),
            "exact": _finite(result.ensemble.exact),
            "within1": _finite(result.ensemble.within1),
            "alpha_ordinal": _finite(result.ensemble.alpha_ordinal),
            "alpha_nominal": _finite(result.ensemble.alpha_nominal),
        }
        for i, agreement in enumerate(result.per_judge.values(), start=1):
            out[f"judge{i}_exact"] = _finite(agreement.exact)
            out[f"judge{i}_within1"] = _finite(agreement.within1)
        out["judges_alpha_ordinal"] = _finite(judge_alpha(records, ORDINAL))
        out["judges_alpha_nominal"] = _finite(judge_alpha(records, NOMINAL))
        annotators = [
            (s.score.metadata or {}).get("annotator_labels") or []
            for s in scores
            if s.score.metadata
        ]
        if annotators and all(len(a) >= 2 for a in annotators):
            from inspect_stance.construction.agreement import alpha, pair_agreement

            first = [a[0] for a in annotators]
            second = [a[1] for a in annotators]
            out["humans_alpha_ordinal"] = _finite(alpha([first, second], ORDINAL))
            out["humans_exact"] = _finite(pair_agreement(first, second).exact)
        if with_outcomes:
            out.update(outcome_values(records, per_method=False))
        return out

    return compute
