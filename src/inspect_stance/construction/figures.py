"""The prompt-construction and judge-validation runs' figures, computed once for every reader.

- :func:`gap_headline`: ``mean_difference``, the mean over the paired neutral settings (a pair:
  one topic x intent with the neutral user stance, a lean for both methods) of the templated
  minus the generated distance from neutral ``d_T - d_G`` (``d = |mean score - 3|``). The
  three intents of one topic share its subject, so their pairs are not independent: the
  standard error is clustered by topic (CR1, :func:`~inspect_stance.stats.headline.clustered_mean`),
  the interval Student t with ``topics - 1`` df, clipped to ``[-2, 2]``;
- :func:`alpha_headline`: ``judge_validation``'s headline, the ensemble's ordinal
  Krippendorff alpha against the human labels over the labelled responses (no standard error:
  NaN, and no interval);
- :func:`figures` / :func:`agreement_figures`: every figure of a run (the gap, the directions,
  the outcomes, the judges' agreement, with human labels the judge-human agreement and PPI),
  which the report, the card's breakdown and the tests read; the panel shows the headline and
  :data:`PANEL_KEYS` / :data:`JV_PANEL_KEYS` only;
- :func:`group_headline` / :func:`group_items`: a run's headline and the values it averages,
  as its run class (:class:`inspect_stance.construction.compare.ConstructionRun`) reads them
  for ``compare`` and every surface; the card's breakdowns.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from inspect_stance.construction.agreement import NOMINAL, ORDINAL, human_agreement, judge_alpha
from inspect_stance.construction.comparison import (
    DIRECTIONS,
    NO_POLE,
    direction_counts,
    human_outcome,
    method_counts,
    neutral_comparison,
    setting_summaries,
)
from inspect_stance.construction.ensemble import check_ensemble, with_ensemble
from inspect_stance.construction.lean import LeanSummary, summarize
from inspect_stance.construction.records import Record
from inspect_stance.construction.report_records import read_records
from inspect_stance.construction.rubric import AMBIGUOUS, OK, OUT_OF_SCALE
from inspect_stance.construction.settings import GENERATED, METHODS, TEMPLATED, Setting
from inspect_stance.logfile import read_log
from inspect_stance.stats.headline import Headline, clustered_mean, headline_of, metric_values
from inspect_stance.study.protocol import Breakdown, BreakdownRow, ItemValues

HEADLINE = "mean_difference"
JV_HEADLINE = "alpha_ordinal"
#: the figures the prompt-construction panel shows beside the headline
PANEL_KEYS = ("distance_templated", "distance_generated", "no_majority", "judge_unparsable")
#: the figures the judge-validation panel shows beside the headline
JV_PANEL_KEYS = ("exact", "within1", "n_labelled", "no_ensemble_label")


def pair_differences(
    summaries: Mapping[tuple[Setting, str], LeanSummary],
) -> list[tuple[Setting, float]]:
    """``d_T - d_G`` of every neutral setting with a lean for both methods, by setting."""
    out = []
    for setting in sorted({s for (s, _m) in summaries if s.is_neutral}):
        lt, lg = summaries.get((setting, TEMPLATED)), summaries.get((setting, GENERATED))
        if lt is None or lg is None or math.isnan(lt.lean) or math.isnan(lg.lean):
            continue
        out.append((setting, lt.distance - lg.distance))
    return out


def gap_headline(
    records: Sequence[Record], summaries: Mapping[tuple[Setting, str], LeanSummary] | None = None
) -> Headline:
    """``mean_difference`` and its topic-clustered interval (module docstring)."""
    pairs = pair_differences(setting_summaries(records) if summaries is None else summaries)
    return clustered_mean(HEADLINE, [d for _, d in pairs], [s.topic_id for s, _ in pairs],
                          (-2.0, 2.0), item="pair", cluster="topic")  # fmt: skip


def alpha_headline(records: Sequence[Record]) -> Headline:
    """The ensemble's ordinal alpha against the human labels (module docstring); ``n_items``
    = the labelled records (each epoch's rating of a response one unit of alpha), ``n_clusters``
    = the labelled responses (the same at ``--epochs 1``; N times fewer under ``--epochs N``)."""
    result = human_agreement(records)
    n, responses = int(result.n_labelled), int(result.n_responses)
    over = (f"{responses} labelled responses" if n == responses
            else f"{n} ratings of {responses} labelled responses")  # fmt: skip
    return headline_of(JV_HEADLINE, _finite(result.ensemble.alpha_ordinal), math.nan, None,
                       f"Krippendorff's ordinal alpha, ensemble vs human, over {over}; no "
                       "standard error", n, responses, (-1.0, 1.0))  # fmt: skip


def _finite(x: float | None) -> float:
    return float(x) if x is not None and not math.isnan(x) else float("nan")


def gap_values(
    records: Sequence[Record], summaries: dict[tuple[Setting, str], LeanSummary] | None = None
) -> dict[str, float]:
    """The neutral comparison (:mod:`inspect_stance.construction.comparison`) as metric values.

    ``distance_templated``, ``distance_generated`` (mean |lean| over paired neutral settings),
    ``mean_difference`` (templated - generated), ``wilcoxon_p``, ``n_pairs``,
    ``templated_further``, ``generated_further``, ``ties``, ``unpaired`` (the headline's
    standard error and interval: :func:`gap_headline`).
    """
    if summaries is None:
        summaries = setting_summaries(records)
    c = neutral_comparison(records, summaries=summaries)
    return {
        "distance_templated": _finite(c.distance_templated),
        "distance_generated": _finite(c.distance_generated),
        "mean_difference": _finite(c.mean_difference),
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


def figures(records: Sequence[Record], human: bool = False) -> dict[str, float]:
    """Every figure of a prompt-construction run (its records under the run's ensemble): the
    headline's keys (:func:`gap_headline`), :func:`gap_values`, :func:`direction_values`, :func:`outcome_values`, :func:`agreement_values`,
    and with ``human`` :func:`human_values` and the PPI-corrected leans."""
    summaries = setting_summaries(records)
    out = gap_values(records, summaries)
    out.update(metric_values(gap_headline(records, summaries)))
    out.update(direction_values(records, summaries))
    out.update(outcome_values(records))
    out.update(agreement_values(records))
    if human:
        from inspect_stance.construction.ppi_lean import ppi_values

        out.update(human_values(records))
        out.update(ppi_values(records))
    return out


def agreement_figures(records: Sequence[Record],
                      annotators: Sequence[Sequence[str]] = ()) -> dict[str, float]:  # fmt: skip
    """Every figure of a judge-validation run: the headline's keys (:func:`alpha_headline`),
    ``n_labelled``, ``no_ensemble_label``, ``exact`` / ``within1`` / ``alpha_nominal`` of the
    ensemble vs the human label, ``judge<i>_exact`` / ``judge<i>_within1`` per judge (binding
    order), ``judges_alpha_ordinal`` / ``_nominal`` among the judges, ``humans_alpha_ordinal``
    / ``humans_exact`` between the file's first two annotators (``annotators``: each row's
    annotator labels, when every row has two), and :func:`outcome_values` pooled."""
    result = human_agreement(records)
    out: dict[str, float] = dict(metric_values(alpha_headline(records)))
    out.update({
        "n_labelled": float(result.n_labelled),
        "no_ensemble_label": float(result.n_no_ensemble_label),
        "exact": _finite(result.ensemble.exact),
        "within1": _finite(result.ensemble.within1),
        "alpha_nominal": _finite(result.ensemble.alpha_nominal),
    })  # fmt: skip
    for i, agreement in enumerate(result.per_judge.values(), start=1):
        out[f"judge{i}_exact"] = _finite(agreement.exact)
        out[f"judge{i}_within1"] = _finite(agreement.within1)
    out["judges_alpha_ordinal"] = _finite(judge_alpha(records, ORDINAL))
    out["judges_alpha_nominal"] = _finite(judge_alpha(records, NOMINAL))
    if annotators and all(len(a) >= 2 for a in annotators):
        from inspect_stance.construction.agreement import alpha, pair_agreement

        first = [a[0] for a in annotators]
        second = [a[1] for a in annotators]
        out["humans_alpha_ordinal"] = _finite(alpha([first, second], ORDINAL))
        out["humans_exact"] = _finite(pair_agreement(first, second).exact)
    out.update(outcome_values(records, per_method=False))
    return out


def _task_args(paths: Sequence[str]) -> dict[str, Any]:
    from inspect_ai.log import read_eval_log

    return dict(read_eval_log(str(paths[0]), header_only=True).eval.task_args or {})


def _records(paths: Sequence[str], partial: bool = True) -> list[Record]:
    """The records of one run (one log, or a study's shards), under the run's ``-T ensemble``."""

    args = _task_args(paths)
    return with_ensemble(read_records(list(paths), partial=partial)[0],
                         check_ensemble(args.get("ensemble") or "majority"))  # fmt: skip


def _annotators(paths: Sequence[str]) -> list[list[str]]:

    out = []
    for p in paths:
        for sample in read_log(p).samples or []:
            for score in list((sample.scores or {}).values())[:1]:
                if score.metadata:
                    out.append(list(score.metadata.get("annotator_labels") or []))
    return out


def log_figures(paths: Sequence[str]) -> dict[str, float]:
    """:func:`figures` of one prompt-construction run (one log, or a study's shards)."""
    records = _records(paths)
    return figures(records, human=any(r.human_label is not None for r in records))


def log_agreement_figures(paths: Sequence[str]) -> dict[str, float]:
    """:func:`agreement_figures` of one judge-validation run (one log, or a study's shards)."""
    return agreement_figures(_records(paths), _annotators(paths))


def _ensembled(records: Sequence[Record]) -> list[Record]:
    """Prompt-construction records under the run's ``-T ensemble`` (kept in each record's
    ``extra``; :func:`inspect_stance.construction.ensemble.with_ensemble`)."""

    how = check_ensemble(str((records[0].extra.get("ensemble") if records else None) or "majority"))
    return with_ensemble(list(records), how)


def _judge_validation(records: Sequence[Record]) -> bool:
    return bool(records) and records[0].extra.get("task") == "judge_validation"


def group_headline(records: Sequence[Record]) -> Headline:
    """The headline of one run group's records as the report reads them: the prompt-construction
    headline (:func:`gap_headline`, under the run's ``-T ensemble`` kept in each record's
    ``extra``), or judge validation's (:func:`alpha_headline`) for ``judge_validation``
    records; the scorer's figures over the same records."""
    if _judge_validation(records):
        return alpha_headline(records)
    return gap_headline(_ensembled(records))


def group_items(records: Sequence[Record]) -> ItemValues:
    """The values :func:`group_headline` averages: each pair's ``d_T - d_G`` (under the run's
    ``-T ensemble``) keyed by its setting (``topic-intent-neutral``), clustered by topic;
    ``{}`` for ``judge_validation`` records (its alpha has no item-level value)."""
    if _judge_validation(records):
        return {}
    pairs = pair_differences(setting_summaries(_ensembled(records)))
    return {s.key: (str(s.topic_id), float(d)) for s, d in pairs}


def breakdown(paths: Sequence[str]) -> Breakdown:
    """The card's breakdown: the construction gap (each method's distance from neutral, their
    difference, the Wilcoxon p, the pairs) and each method's refusal rate and lean."""
    f = log_figures(paths)
    gap = [("templated: distance from neutral", "distance_templated", False),
           ("generated: distance from neutral", "distance_generated", False),
           ("difference", "mean_difference", False), ("Wilcoxon p", "wilcoxon_p", False),
           ("pairs", "n_pairs", True)]  # fmt: skip
    rates = [("refusal rate, templated", "refusal_rate_templated"),
             ("refusal rate, generated", "refusal_rate_generated"),
             ("lean, templated", "lean_templated"), ("lean, generated", "lean_generated")]  # fmt: skip
    return [("construction gap", [BreakdownRow(a, f.get(k), c) for a, k, c in gap]),
            ("refusals and lean", [BreakdownRow(a, f.get(k)) for a, k in rates])]  # fmt: skip


def agreement_breakdown(paths: Sequence[str]) -> Breakdown:
    """The judge-validation card's breakdown: the ensemble and each judge against the human
    labels, the judges' and the annotators' own agreement."""
    f = log_agreement_figures(paths)
    judges = sorted({k.split("_")[0] for k in f if k.startswith("judge") and k[5:6].isdigit()})
    return [
        ("ensemble vs human", [BreakdownRow("exact", f.get("exact")),
                               BreakdownRow("within one", f.get("within1")),
                               BreakdownRow("nominal alpha", f.get("alpha_nominal")),
                               BreakdownRow("labelled", f.get("n_labelled"), True),
                               BreakdownRow("no ensemble label", f.get("no_ensemble_label"),
                                            True)]),
        ("each judge vs human (exact)", [BreakdownRow(j, f.get(f"{j}_exact")) for j in judges]),
        ("agreement", [BreakdownRow("judges' ordinal alpha", f.get("judges_alpha_ordinal")),
                       BreakdownRow("annotators' ordinal alpha",
                                    f.get("humans_alpha_ordinal"))]),
    ]  # fmt: skip
