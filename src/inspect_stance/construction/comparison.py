"""Templated vs generated prompts over the neutral settings.

For every neutral setting ``s`` measured by both methods (at least one scale-labelled response
each), ``d_T(s) = |lean_templated(s)|`` and ``d_G(s) = |lean_generated(s)|``. Reported:

- mean distance from neutral per method, over the paired settings;
- the mean paired difference ``mean(d_T - d_G)`` (positive: templated prompts draw responses
  further from neutral);
- ``scipy.stats.wilcoxon(d_T, d_G)``, two-sided, ``zero_method="wilcox"`` (zero differences
  dropped, as in the signed-rank test's classic form); p is NaN when every difference is zero
  or there are no pairs;
- direction counts: settings where templated is further from neutral, generated is further,
  or both are equally far (``|d_T - d_G| <= 1e-12``).

Neutral settings that lack a lean for a method are listed as unpaired, never silently dropped.

*Direction* (the paper's claim that neutral templated responses lean "in the direction the
filler encodes"): for every neutral setting and method, with ``p`` the pole the topic's neutral
filler encodes (``filler_pole``), the lean points *toward* ``p`` (``lean < 0`` for pole A,
``lean > 0`` for pole B), *away* from it (the other sign), or is a *tie* (``|lean| <= 1e-12``).
Settings whose filler encodes no pole (or is not coded) count as ``no_pole``, settings without a
scored response as ``no_lean``.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING

from inspect_stance.construction.lean import LeanSummary, summarize
from inspect_stance.construction.records import Record
from inspect_stance.construction.settings import (
    GENERATED,
    METHODS,
    POLE_A,
    POLE_B,
    TEMPLATED,
    Setting,
)

if TYPE_CHECKING:
    import pandas as pd

TIE_TOLERANCE = 1e-12


def judge_outcome(record: Record) -> str | None:
    """The ensemble outcome of a record (the default label source)."""
    return record.outcome


def human_outcome(record: Record) -> str | None:
    """The human label of a record, None when unlabelled."""
    return record.human_label


def setting_summaries(
    records: Iterable[Record], outcome: Callable[[Record], str | None] = judge_outcome
) -> dict[tuple[Setting, str], LeanSummary]:
    """Lean summary per (setting, method); records whose ``outcome`` is None are left out."""
    groups: dict[tuple[Setting, str], list[str]] = defaultdict(list)
    for rec in records:
        value = outcome(rec)
        if value is not None:
            groups[(rec.setting, rec.method)].append(value)
    return {key: summarize(values) for key, values in sorted(groups.items())}


def setting_table(
    records: Sequence[Record], outcome: Callable[[Record], str | None] = judge_outcome
) -> pd.DataFrame:
    """One row per setting x method: counts, refusal rate, lean, its SE and distance, and for
    neutral settings the filler's pole and the lean's direction relative to it."""
    import pandas as pd

    poles = {r.setting.topic_id: r.filler_pole for r in records}
    topics = {r.setting.topic_id: r.topic for r in records}
    rows = []
    for (setting, method), summary in setting_summaries(records, outcome).items():
        rows.append(
            {
                "topic_id": setting.topic_id,
                "topic": topics.get(setting.topic_id, ""),
                "intent": setting.intent,
                "stance": setting.stance,
                "method": method,
                **summary.as_dict(),
                "filler_pole": poles.get(setting.topic_id) if setting.is_neutral else None,
                "direction": (
                    lean_direction(summary.lean, poles.get(setting.topic_id))
                    if setting.is_neutral
                    else None
                ),
            }
        )
    return pd.DataFrame(rows)


TOWARD = "toward"
AWAY = "away"
TIE = "tie"
NO_POLE = "no_pole"
NO_LEAN = "no_lean"
DIRECTIONS: tuple[str, ...] = (TOWARD, AWAY, TIE, NO_POLE, NO_LEAN)


def lean_direction(lean: float, filler_pole: str | None) -> str:
    """Where ``lean`` points relative to the filler's pole (module docstring): ``toward``,
    ``away``, ``tie``, ``no_pole`` (the filler encodes no pole) or ``no_lean`` (NaN lean)."""
    if filler_pole not in (POLE_A, POLE_B):
        return NO_POLE
    if lean is None or math.isnan(lean):
        return NO_LEAN
    if abs(lean) <= TIE_TOLERANCE:
        return TIE
    points_to = POLE_A if lean < 0 else POLE_B
    return TOWARD if points_to == filler_pole else AWAY


def direction_counts(
    records: Sequence[Record],
    outcome: Callable[[Record], str | None] = judge_outcome,
    summaries: dict[tuple[Setting, str], LeanSummary] | None = None,
) -> dict[str, dict[str, int]]:
    """Per method, the number of neutral settings in each direction of :data:`DIRECTIONS`.

    ``summaries`` (from :func:`setting_summaries` of the same records and outcome) saves
    recomputing them."""
    poles = {r.setting.topic_id: r.filler_pole for r in records}
    out = {m: dict.fromkeys(DIRECTIONS, 0) for m in METHODS}
    if summaries is None:
        summaries = setting_summaries(records, outcome)
    for (setting, method), summary in summaries.items():
        if setting.is_neutral and method in out:
            out[method][lean_direction(summary.lean, poles.get(setting.topic_id))] += 1
    return out


@dataclass(frozen=True)
class NeutralComparison:
    """Result of the neutral-setting comparison (see module docstring for the definitions)."""

    n_neutral_settings: int
    n_pairs: int
    distance_templated: float
    distance_generated: float
    mean_difference: float  # mean(d_T - d_G) over pairs
    wilcoxon_statistic: float
    wilcoxon_p: float
    templated_further: int
    generated_further: int
    ties: int
    unpaired: tuple[str, ...] = field(default=())  # setting keys lacking a lean for a method
    note: str = ""

    def as_dict(self) -> dict[str, object]:
        """Plain dict."""
        out = asdict(self)
        out["unpaired"] = list(self.unpaired)
        return out


def compare_distances(
    d_templated: Sequence[float], d_generated: Sequence[float]
) -> dict[str, float]:
    """Wilcoxon signed-rank test and direction counts for paired distances (module formulas)."""
    import numpy as np

    t = np.asarray(d_templated, dtype=float)
    g = np.asarray(d_generated, dtype=float)
    if t.shape != g.shape:
        raise ValueError("paired distances must have the same length")
    diff = t - g
    further_t = int(np.sum(diff > TIE_TOLERANCE))
    further_g = int(np.sum(diff < -TIE_TOLERANCE))
    ties = int(len(diff) - further_t - further_g)
    stat, p = math.nan, math.nan
    if further_t + further_g > 0:
        from scipy.stats import wilcoxon

        result = wilcoxon(t, g, zero_method="wilcox", alternative="two-sided")
        stat, p = float(result.statistic), float(result.pvalue)
    return {
        "mean_difference": float(diff.mean()) if len(diff) else math.nan,
        "wilcoxon_statistic": stat,
        "wilcoxon_p": p,
        "templated_further": further_t,
        "generated_further": further_g,
        "ties": ties,
    }


def neutral_comparison(
    records: Sequence[Record],
    outcome: Callable[[Record], str | None] = judge_outcome,
    summaries: dict[tuple[Setting, str], LeanSummary] | None = None,
) -> NeutralComparison:
    """Compare the two methods over the neutral settings (paired by setting); ``summaries``
    as in :func:`direction_counts`."""
    import numpy as np

    if summaries is None:
        summaries = setting_summaries(records, outcome)
    neutral = sorted({s for (s, _m) in summaries if s.is_neutral})
    pairs: list[tuple[float, float]] = []
    unpaired: list[str] = []
    for setting in neutral:
        lt = summaries.get((setting, TEMPLATED))
        lg = summaries.get((setting, GENERATED))
        if lt is None or lg is None or math.isnan(lt.lean) or math.isnan(lg.lean):
            unpaired.append(setting.key)
            continue
        pairs.append((lt.distance, lg.distance))
    d_t = [p[0] for p in pairs]
    d_g = [p[1] for p in pairs]
    stats = compare_distances(d_t, d_g)
    note = ""
    if not pairs:
        note = "no neutral setting has a lean for both methods"
    elif stats["templated_further"] + stats["generated_further"] == 0:
        note = "every paired difference is zero; the signed-rank test is undefined"
    return NeutralComparison(
        n_neutral_settings=len(neutral),
        n_pairs=len(pairs),
        distance_templated=float(np.mean(d_t)) if d_t else math.nan,
        distance_generated=float(np.mean(d_g)) if d_g else math.nan,
        mean_difference=float(stats["mean_difference"]),
        wilcoxon_statistic=float(stats["wilcoxon_statistic"]),
        wilcoxon_p=float(stats["wilcoxon_p"]),
        templated_further=int(stats["templated_further"]),
        generated_further=int(stats["generated_further"]),
        ties=int(stats["ties"]),
        unpaired=tuple(unpaired),
        note=note,
    )


def method_counts(records: Sequence[Record]) -> dict[str, LeanSummary]:
    """Outcome counts and overall lean per method (all settings pooled)."""
    return {m: summarize(r.outcome for r in records if r.method == m) for m in METHODS}


def paired_stderr(summaries: dict[tuple[Setting, str], LeanSummary]) -> float:
    """Standard error of the templated - generated distance difference over the neutral
    settings with a lean for both methods: ``sd_ddof1(d_T - d_G) / sqrt(n)`` (NaN for n < 2)."""
    diffs = []
    for setting in sorted({s for (s, _m) in summaries if s.is_neutral}):
        lt, lg = summaries.get((setting, TEMPLATED)), summaries.get((setting, GENERATED))
        if lt is None or lg is None or math.isnan(lt.lean) or math.isnan(lg.lean):
            continue
        diffs.append(lt.distance - lg.distance)
    import numpy as np  # not at module level: the entry point reaches this module

    from inspect_stance.stats.moments import mean_se

    se = float(mean_se(np.asarray(diffs, dtype=np.float64))[1]) if diffs else float("nan")
    return se if not math.isnan(se) else float("nan")
