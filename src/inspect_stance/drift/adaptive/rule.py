"""Adaptive trials of one stance-drift sample: when its waves of trials may stop.

A sample with ``-T adaptive_halfwidth=H`` runs its trials in waves (:class:`.confseq.AdaptiveRule`:
the first ``ADAPTIVE_MIN_TRIALS`` trials, then waves of ``ADAPTIVE_WAVE``, at most ``trials``).
After each wave the cell's values ``x_t`` — the diagonal probability of trial ``t``'s
stance-order vector (``probs[stance]``; 0 for an unparsed trial, as under the ``failure``
policy), in trial order — enter the two-sided ``1 - ADAPTIVE_ALPHA`` empirical-Bernstein
confidence sequence (:func:`.confseq.eb_cs`), and the sample stops when the sequence is at most
``H`` on either side of the mean (``halfwidth``) or its upper bound is below 1 (``below_one``:
the cell's "does its bound reach 1" question is settled). The sequence is anytime-valid, so
checking it after every wave keeps its coverage.

The mean of the trials run is biased by the stopping (a cell stopped early for its low first
trials keeps them): the scorer's row of an adaptive sample is :func:`adaptive_row`, the
unbiased Rao–Blackwell estimate of :mod:`.estimate`; ``mean`` in the state is the
plain mean the rule reads.

The decision depends only on the values in trial order, so a restarted sample (``inspect
eval-retry``, the trial record replaying finished trials) takes the same decisions and runs on
from where it stopped. Values are whatever estimator the trials used (logprob or frequency):
with frequency estimates (0/1 values) the sequence is wider and the sample runs longer.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from inspect_stance.drift.adaptive.confseq import AdaptiveRule, eb_cs, stop_reason
from inspect_stance.drift.adaptive.estimate import unbiased_row
from inspect_stance.errors import InputError
from inspect_stance.params import parse_float

if TYPE_CHECKING:
    import numpy as np

#: the sample-store key of a sample's adaptive state (see :func:`decide`)
ADAPTIVE_KEY = "adaptive"
ADAPTIVE_MIN_TRIALS = 10
ADAPTIVE_WAVE = 10
ADAPTIVE_ALPHA = 0.05


def check_halfwidth(value: object) -> float | None:
    """``-T adaptive_halfwidth``: unset/none (fixed trials) or a number in (0, 0.5)."""
    if value is None or (isinstance(value, str) and value.strip().lower() in ("", "none")):
        return None
    x = parse_float(value)
    if x is None or not 0.0 < x < 0.5:
        raise InputError(
            f"adaptive_halfwidth {value!r} is not a number strictly between 0 and 0.5; use e.g. "
            "-T adaptive_halfwidth=0.05"
        )
    return x


@dataclass(frozen=True)
class SampleRule(AdaptiveRule):
    """The rule with the task's unparsed-trial policy: ``failure`` counts an unparsed trial as
    0, ``exclude`` leaves it out of the sequence (as the scorer leaves it out of the mean)."""

    unparsed: str = "failure"


def rule_for(halfwidth: float, trials: int, unparsed: str = "failure") -> SampleRule:
    """The task's rule: waves of ``ADAPTIVE_WAVE`` after ``ADAPTIVE_MIN_TRIALS``, at most
    ``trials``, two-sided level ``1 - ADAPTIVE_ALPHA``."""
    return SampleRule(
        halfwidth=halfwidth,
        max_trials=trials,
        min_trials=ADAPTIVE_MIN_TRIALS,
        wave=ADAPTIVE_WAVE,
        alpha=ADAPTIVE_ALPHA,
        unparsed=unparsed,
    )


def trial_value(record: dict[str, Any], stance: int, unparsed: str = "failure") -> float:
    """``x_t``: the record's stance-order ``probs[stance]``; an unparsed trial is 0 under
    ``failure`` and NaN (left out) under ``exclude``."""
    probs = record.get("probs")
    if probs is None:
        return 0.0 if unparsed == "failure" else math.nan
    return float(probs[stance])


def decide(records: Sequence[dict[str, Any]], stance: int, rule: AdaptiveRule) -> dict[str, Any]:
    """The state after a wave: ``trials_run``, ``max_trials``, ``halfwidth`` (the target),
    ``mean``, ``lower``, ``upper``, ``width_reached`` (``max(upper - mean, mean - lower)``)
    and ``stop_reason`` (``halfwidth`` / ``below_one`` / ``max_trials``, or ``None`` to go on);
    ``trials_run`` counts every trial, the sequence only the values the policy keeps."""
    import numpy as np

    ordered = sorted(records, key=lambda r: int(r["trial"]))
    policy = str(getattr(rule, "unparsed", "failure"))
    values = np.array([trial_value(r, stance, policy) for r in ordered], dtype=np.float64)
    x = values[~np.isnan(values)]
    n = len(ordered)
    state: dict[str, Any] = {
        "trials_run": n,
        "max_trials": rule.max_trials,
        "halfwidth": rule.halfwidth,
        "alpha": rule.alpha,
        "unparsed": policy,
    }
    if x.size == 0:
        return {
            **state,
            "mean": None,
            "lower": None,
            "upper": None,
            "width_reached": None,
            # no value kept (every trial unparsed under ``exclude``): run on to the most
            "stop_reason": "max_trials" if n >= rule.max_trials else None,
        }
    lower, upper = eb_cs(x, rule.alpha)
    mean = float(x.mean())
    lo, hi = float(lower[-1]), float(upper[-1])
    reason = str(stop_reason(mean, lo, hi, rule.halfwidth)[()]) or None
    if reason is None and n >= rule.max_trials:
        reason = "max_trials"
    return {
        **state,
        "mean": mean,
        "lower": lo,
        "upper": hi,
        "width_reached": max(hi - mean, mean - lo),
        "stop_reason": reason,
    }


def adaptive_row(
    records: Sequence[dict[str, Any]],
    stance: int,
    state: dict[str, Any],
    vector_of: Callable[[dict[str, Any]], np.ndarray | None],
) -> list[float] | None:
    """The sample's row after adaptive stopping, unbiased for the fixed-design row: the
    Rao–Blackwellised first-wave mean of :func:`.estimate.unbiased_row` (the plain
    mean of the trials run is biased low, see that module). ``state`` is :func:`decide`'s;
    ``vector_of`` gives a trial's vector as the scorer counts it (None: left out). None when
    no trial is kept."""
    import numpy as np

    ordered = sorted(records, key=lambda r: int(r["trial"]))
    policy = str(state.get("unparsed", "failure"))
    rule = rule_for(float(state["halfwidth"]), int(state["max_trials"]), policy)
    rows = [vector_of(r) for r in ordered]
    if all(v is None for v in rows):
        return None
    width = next(len(v) for v in rows if v is not None)
    vectors = np.array([np.full(width, np.nan) if v is None else v for v in rows], dtype=float)
    diagonal = np.array([trial_value(r, stance, policy) for r in ordered], dtype=np.float64)
    return [float(v) for v in unbiased_row(vectors, diagonal, rule)]
