"""Rank probabilities and tied groups of the targets on each method's headline, from the same
statistics as ``inspect-stance compare`` (:mod:`inspect_stance.stats.family`): the items every
target has are paired, each pair of targets gets a paired test (``paired_delta``), the p-values
of the family are Holm-adjusted, and :func:`~inspect_stance.stats.ranking.rank_runs` gives the
bootstrap rank probabilities and the groups with no significant difference inside.

Item-level headline values (one per item, the mean over its samples):

- ``stance_drift``: the kept probability, per proposition (mean over its initial stances: the
  proposition's SPR);
- ``press``: ``stable / K`` per statement (its topic stability ``S_t``);
- ``even_handedness``: the pair's even-handedness (0 or 1).

``prompt_construction`` and ``prompt_validation`` have no single item-level headline value
(a gap between paired conditions, a rank within a setting): their cards rank by value only and
say so; ``inspect-stance compare`` compares their runs.
"""

from __future__ import annotations

from typing import Any

#: per method: the items_df score holding the item-level headline, and a divisor argument
ITEM_SCORES: dict[str, tuple[str, str | None]] = {
    "stance_drift": ("stance_drift_scorer", None),
    "press": ("stable", "argument_sets"),
    "even_handedness": ("even_handedness_scorer", None),
}


def item_values(items: Any, method: str, settings: dict[str, Any]) -> dict[str, float]:
    """``item -> headline value`` of one run's rows of ``items_df`` (module docstring)."""
    score, divisor = ITEM_SCORES[method]
    rows = items[items["score"] == score]
    values = rows.groupby("item")["value"].mean()
    scale = float(settings.get(divisor, 3)) if divisor else 1.0
    return {str(k): float(v) / scale for k, v in values.items()}


def rank_targets(per_target: dict[str, dict[str, float]], higher_is_better: bool,
                 alpha: float = 0.05) -> dict[str, Any] | None:  # fmt: skip
    """Rank probabilities (``target -> [P(rank 1), ...]``), tied groups and the number of
    shared items; ``None`` with fewer than two targets or two shared items."""
    from inspect_stance.stats.family import (
        MetricSpec,
        RunItems,
        adjust_family,
        item_comparisons,
        rankings,
    )

    if len(per_target) < 2:
        return None
    runs = [RunItems(t, {"headline": v}) for t, v in per_target.items()]
    spec = MetricSpec("headline", higher_is_better, (0.0, 1.0))
    comparisons = adjust_family(item_comparisons(runs, [spec]), "holm")
    ranked = rankings(runs, [spec], comparisons, alpha).get("headline")
    if ranked is None:
        return None
    return {
        "order": ranked.order,
        "rank_probabilities": ranked.rank_probabilities,
        "tied_groups": ranked.tied_groups,
        "n_items": ranked.n_items,
        "pairs": [c.to_json() for c in comparisons],
    }
