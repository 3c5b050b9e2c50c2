"""The ensemble options (``-T ensemble=majority|dawid_skene``) and each judge's bias.

``majority`` (the paper's, default): the strict majority per response
(:mod:`inspect_stance.construction.majority`). ``dawid_skene``: a Dawid-Skene model
(:mod:`inspect_stance.stats.dawid_skene`) fitted to every judged response of the run (or
run group) at once; each response's outcome is its most probable class. A response no judge
answered stays ``no_valid_judge``; responses without a judge rating (``no_response``,
``no_prompt``) are left as they are. DS always picks a class, so there is no ``no_majority``.

Per judge (:func:`judge_bias`), on the 1..5 scale (refusals left out):

- ``offset_vs_majority``: mean(judge - majority) over responses with a scale majority, with its
  95 % interval ``+- t_{n-1, 0.975} sd / sqrt(n)`` (t, not 1.96: a small run's few responses
  must not flag a judge on noise);
- ``offset_dawid_skene``: the DS offset (posterior-weighted mean error), from a fit anchored on
  the human labels where there are any (``dawid_skene_anchored``; they fix the latent classes,
  which otherwise follow the majority: ``benchmarks/ppi_coverage.py``);
- ``offset_vs_human``: mean(judge - human label) where human labels exist;
- ``accuracy_dawid_skene``: ``sum_c p_c P(judge says c | true c)`` under the DS fit;
- ``confusion``: the DS confusion matrix, ``P(judge says k | true c)``.

A judge is flagged ``biased`` when its majority-relative interval excludes 0 and
``|offset_vs_majority| >= 0.2`` (a fifth of a scale step).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import replace
from typing import Literal

from inspect_stance.construction.labels import LABELS, NO_VALID_JUDGE, SCORES, label_score
from inspect_stance.construction.records import Record
from inspect_stance.errors import InputError
from inspect_stance.stats.dawid_skene import DawidSkeneFit, fit_dawid_skene

Ensemble = Literal["majority", "dawid_skene"]
ENSEMBLES: tuple[str, ...] = ("majority", "dawid_skene")
BIAS_FLAG = 0.2


def check_ensemble(value: object) -> Ensemble:
    """``-T ensemble`` as one of :data:`ENSEMBLES`; a one-line ``InputError`` otherwise."""
    if value == "majority":
        return "majority"
    if value == "dawid_skene":
        return "dawid_skene"
    raise InputError(f"ensemble={value!r}: choose -T ensemble=majority (default) or dawid_skene")


def judged(records: Sequence[Record]) -> list[Record]:
    """Records the judges rated (they carry per-judge labels)."""
    return [r for r in records if r.judge_labels]


def fit_records(records: Sequence[Record], anchored: bool = False) -> DawidSkeneFit | None:
    """Dawid-Skene fitted to the judged records (None when no judge answered any); judges are
    matched by name, so records must share one judge list. ``anchored``: the records' human
    labels are gold labels (:func:`~inspect_stance.stats.dawid_skene.fit_dawid_skene`)."""
    rated = judged(records)
    if not rated or not any(x is not None for r in rated for x in r.judge_labels):
        return None
    names = rated[0].judges
    if any(r.judges != names for r in rated):
        raise ValueError("records with different judge lists cannot share one Dawid-Skene fit")
    gold = [r.human_label for r in rated] if anchored else None
    return fit_dawid_skene(
        [list(r.judge_labels) for r in rated], names, gold=gold, classes=LABELS, scores=SCORES
    )


def with_ensemble(records: Sequence[Record], ensemble: Ensemble) -> list[Record]:
    """Records with the chosen ensemble's outcomes (module docstring)."""
    if ensemble == "majority":
        return list(records)
    fit = fit_records(records)
    if fit is None:
        return list(records)
    labels = iter(fit.labels())
    out = []
    for r in records:
        if r.judge_labels:
            label = next(labels)
            out.append(replace(r, outcome=label if label is not None else NO_VALID_JUDGE))
        else:
            out.append(r)
    return out


def mean_ci(diffs: Sequence[float]) -> tuple[float, float, float, int]:
    """``(mean, low, high, n)``: the mean of ``diffs`` and its 95 % t interval
    ``mean +- t_{n-1, 0.975} sd / sqrt(n)`` (NaN bounds for ``n < 2``)."""
    import numpy as np
    from scipy import stats

    n = len(diffs)
    if n == 0:
        return math.nan, math.nan, math.nan, 0
    m = float(np.mean(diffs))
    sd = float(np.std(diffs, ddof=1)) if n > 1 else math.nan
    half = float(stats.t.ppf(0.975, n - 1)) * sd / math.sqrt(n) if n > 1 else math.nan
    return m, m - half, m + half, n


def judge_bias(records: Sequence[Record]) -> list[dict[str, object]]:
    """One row per judge (module docstring): offsets, interval, flag, DS confusion."""
    rated = judged(records)
    if not rated:
        return []
    names = rated[0].judges
    anchored = any(r.human_label is not None for r in rated)
    fit = fit_records(rated, anchored=anchored)
    rows: list[dict[str, object]] = []
    for j, name in enumerate(names):
        vs_major, vs_human = [], []
        for r in rated:
            if j >= len(r.judge_labels):
                continue
            mine = label_score(r.judge_labels[j] or "")
            major = label_score(r.outcome)
            human = label_score(r.human_label or "")
            if mine is not None and major is not None:
                vs_major.append(mine - major)
            if mine is not None and human is not None:
                vs_human.append(mine - human)
        m, low, high, n = mean_ci(vs_major)
        h, _, _, n_h = mean_ci(vs_human)
        rows.append(
            {
                "judge": name,
                "n_rated": n,
                "offset_vs_majority": m,
                "offset_ci_low": low,
                "offset_ci_high": high,
                "offset_dawid_skene": fit.offsets[j] if fit else math.nan,
                "accuracy_dawid_skene": fit.accuracy(j) if fit else math.nan,
                "dawid_skene_anchored": anchored,
                "n_human": n_h,
                "offset_vs_human": h,
                "biased": bool(n > 1 and not (low <= 0 <= high) and abs(m) >= BIAS_FLAG),
                "confusion": fit.confusion(j) if fit else {},
            }
        )
    return rows
