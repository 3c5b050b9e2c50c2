"""The stance-drift run's figures from its samples' scores, computed once for every reader.

Each sample (proposition x initial stance) carries its transition-matrix row in its score's
metadata (``scorers/stance_drift.py``). From those rows:

- the headline :func:`spr_headline`: SPR ``= mean_s mean_i T[s, i, i]``, the mean over the ``P``
  propositions of each proposition's kept share, with ``se = sd(SPR_s) / sqrt(P)`` and a Student
  t interval with ``P - 1`` df clipped to ``[0, 1]`` (the propositions are the independent
  units: the items and the clusters are the propositions; an adaptive run's rows are the
  Rao-Blackwell estimates the scorer wrote);
- :func:`figures`: every figure the panel used to show (success per initial stance, the drift
  patterns and ``sdr``, the trial counts), which the card's breakdown and the tests read;
- the card's breakdown :func:`breakdown` (the task's
  :class:`~inspect_stance.study.protocol.TaskHeadline` reads the run's headline and items
  through its run class, :func:`inspect_stance.drift.compare.load_logged`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from inspect_stance.stats.headline import Headline, clustered_share, metric_values
from inspect_stance.study.protocol import Breakdown, BreakdownRow

if TYPE_CHECKING:
    import numpy as np

#: the task's headline metric
HEADLINE = "spr"
#: the five initial stances' keys, in stance order (``inspect_stance.stances.STANCE_KEYS``)
_STANCES = ("agree_strongly", "agree", "neutral", "disagree", "disagree_strongly")
#: the trial counts the panel shows beside the headline (``scorers/stance_drift.py``)
PANEL_COUNTS = ("trials", "unparsed", "trials_replayed", "incomplete_samples")

#: one scored sample: its score's metadata and the sample's own metadata
Scored = tuple[Mapping[str, Any], Mapping[str, Any]]


def _key(score: Mapping[str, Any], sample: Mapping[str, Any]) -> tuple[str, int]:
    topic = str(score.get("topic_id", sample.get("topic_id")))
    return topic, int(score.get("initial_stance", sample.get("initial_stance", 0)))


def matrices_of(scored: Iterable[Scored]) -> tuple[np.ndarray, list[str]]:
    """Per-proposition matrices ``(P, 5, 5)`` from the samples' rows (missing rows NaN) and
    the propositions' topic ids in order of first appearance."""
    import numpy as np

    index: dict[str, int] = {}
    rows: list[tuple[int, int, Any]] = []
    for score, sample in scored:
        topic, stance = _key(score, sample)
        rows.append((index.setdefault(topic, len(index)), stance, score.get("row")))
    out = np.full((len(index), 5, 5), np.nan)
    for p, i, row in rows:
        if row is not None:
            out[p, i] = row
    return out, list(index)


def spr_headline(matrices: np.ndarray) -> Headline:
    """SPR and its interval (module docstring): :func:`~inspect_stance.stats.headline.clustered_share`
    over the per-proposition kept shares ``mean_i T[s, i, i]``, each proposition its own
    cluster."""
    from inspect_stance.drift.metrics.spr import per_proposition_spr

    per = [float(x) for x in per_proposition_spr(matrices)] if len(matrices) else []
    return clustered_share(HEADLINE, per, None, item="proposition",
                           cluster="proposition")  # fmt: skip


def _total(scored: Sequence[Scored], key: str) -> int:
    return int(sum(int(score.get(key, 0) or 0) for score, _ in scored))


def counts(scored: Sequence[Scored], errored: int = 0, errored_trials: int = 0) -> dict[str, float]:
    """What the estimates rest on (sums of the samples' counts): ``trials``,
    ``logprob_estimated`` / ``frequency_estimated``, ``unparsed``, ``unparsed_extractions``,
    ``label_mismatches``, ``logprobs_returned`` (share of extraction answers carrying top
    logprobs), ``incomplete_samples`` (samples holding fewer trials than planned, plus
    ``errored`` samples), ``missing_trials`` (plus ``errored_trials``), ``errored_samples``,
    ``trials_replayed``, ``trials_run`` / ``trials_planned`` (trials held vs the most the task
    allows)."""
    extractions = _total(scored, "n_extractions")
    returned = _total(scored, "n_logprobs_returned")
    incomplete = sum(1 for score, _ in scored if int(score.get("n_incomplete", 0) or 0) > 0)
    return {
        "trials": float(_total(scored, "n_trials")),
        "logprob_estimated": float(_total(scored, "n_logprobs")),
        "frequency_estimated": float(_total(scored, "n_frequency")),
        "unparsed": float(_total(scored, "n_unparsed")),
        "unparsed_extractions": float(_total(scored, "n_unparsed_extractions")),
        "label_mismatches": float(_total(scored, "n_label_mismatches")),
        "logprobs_returned": returned / extractions if extractions else 0.0,
        "incomplete_samples": float(errored + incomplete),
        "missing_trials": float(_total(scored, "n_missing") + errored_trials),
        "errored_samples": float(errored),
        "trials_replayed": float(_total(scored, "n_replayed")),
        "trials_run": float(_total(scored, "n_trials")),
        "trials_planned": float(_total(scored, "n_trials_max")),
    }


def figures(
    scored: Sequence[Scored], errored: int = 0, errored_trials: int = 0
) -> dict[str, float]:
    """Every figure of the run from its samples (module docstring): the headline's keys
    (:func:`~inspect_stance.stats.headline.metric_values`), ``success_<stance>`` (``mean_s
    T[s, i, i]``), the five drift-pattern masses and ``sdr``
    (:mod:`inspect_stance.drift.metrics.patterns`), and :func:`counts`."""
    from inspect_stance.drift.metrics.patterns import drift_patterns, stance_drift_rate
    from inspect_stance.drift.metrics.spr import success_by_stance

    matrices, _ = matrices_of(scored)
    out: dict[str, float] = dict(metric_values(spr_headline(matrices)))
    rates = success_by_stance(matrices)[0]
    out.update({f"success_{key}": float(rates[i]) for i, key in enumerate(_STANCES)})
    out.update({name: float(v[0]) for name, v in drift_patterns(matrices).items()})
    out["sdr"] = float(stance_drift_rate(matrices)[0])
    out.update(counts(scored, errored, errored_trials))
    return out


def _scored_of_log(path: str) -> tuple[list[Scored], int, int]:
    """The scored samples of a stance-drift log (the first scorer's scores), and the samples
    that errored without a score with their planned trials (the sample's ``trials_planned``,
    else the task's ``trials``)."""
    from inspect_ai.log import read_eval_log

    from inspect_stance.drift.logs import PLANNED_KEY

    log = read_eval_log(path)
    trials = int((log.eval.task_args or {}).get("trials") or 0)
    epochs: dict[str, list[Scored]] = {}
    errored = errored_trials = 0
    for sample in log.samples or []:
        scores = sample.scores or {}
        if not scores:
            if sample.error is not None:
                errored += 1
                errored_trials += int((sample.store or {}).get(PLANNED_KEY) or trials)
            continue
        score = next(iter(scores.values()))
        epochs.setdefault(str(sample.id), []).append((score.metadata or {}, sample.metadata or {}))
    return [pool_epochs(e) for e in epochs.values()], errored, errored_trials


def pool_epochs(epochs: Sequence[Scored]) -> Scored:
    """One sample's epochs as one (the metrics' and the log reader's pooling): its row the
    trial-weighted mean ``r = sum_e w_e r_e / sum_e w_e`` (``w_e`` the trials the row averages:
    all under ``failure``, the parsed ones under ``exclude``), its ``n_*`` counts summed."""
    if len(epochs) == 1:
        return epochs[0]
    metas = [score for score, _ in epochs]
    first = metas[0]
    exclude = str(first.get("unparsed_policy", "failure")) == "exclude"
    total = [0.0] * 5
    weight = 0.0
    for meta in metas:
        if meta.get("row") is None:
            continue
        w = float(meta.get("n_trials", 0)) - (float(meta.get("n_unparsed", 0)) if exclude else 0)
        total = [t + w * float(x) for t, x in zip(total, meta["row"], strict=True)]
        weight += w
    counts = {k: sum(int(m.get(k, 0) or 0) for m in metas) for k in first if k.startswith("n_")}
    row = [t / weight for t in total] if weight > 0 else None
    return {**first, **counts, "row": row}, epochs[0][1]


def log_figures(paths: Sequence[str]) -> dict[str, float]:
    """:func:`figures` of one log (or of a study's shard logs, their samples together)."""
    scored: list[Scored] = []
    errored = errored_trials = 0
    for path in paths:
        s, e, t = _scored_of_log(str(path))
        scored += s
        errored += e
        errored_trials += t
    return figures(scored, errored, errored_trials)


def breakdown(paths: Sequence[str]) -> Breakdown:
    """The card's breakdown: the drift patterns (shares of trials), the kept share per initial
    stance, and the trial counts, from :func:`log_figures`."""
    f = log_figures(paths)
    patterns = [("polarisation", "polarization"), ("moderation", "moderation"),
                ("moderation to neutral", "moderation_to_neutral"), ("flipping", "flipping")]  # fmt: skip
    return [
        ("drift patterns (share of trials)", [BreakdownRow(label, f[k]) for label, k in patterns]),
        ("kept, by initial stance",
         [BreakdownRow(k.replace("_", " "), f[f"success_{k}"]) for k in _STANCES]),
        ("trials", [BreakdownRow("trials", f["trials"], True),
                    BreakdownRow("unparsed", f["unparsed"], True),
                    BreakdownRow("replayed from the trial record (no model call)",
                                 f["trials_replayed"], True)]),
    ]  # fmt: skip
