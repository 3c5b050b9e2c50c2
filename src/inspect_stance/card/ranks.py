"""Rank probabilities and tied groups of the targets on each method's headline, from the same
clustered model and tests as ``inspect-stance compare``, over the targets ``compare`` would
compare.

Which targets are ranked: each target's logs are read by the method's ``compare`` loader
(:class:`~inspect_stance.study.protocol.Comparer`) and the settings it records (task arguments
that must match, PReSS's arguments fingerprint, ...) checked as ``compare`` checks them
(:func:`inspect_stance.runs.check_settings`). The largest group of targets with equal settings
is ranked (on a tie in size, the group holding the best value); every other target is set
apart, with ``compare``'s own one-line refusal as the reason.

The items and their clusters: each target's run as its method's run class reads it
(``TaskHeadline.load``, the shards merged) and its ``items`` of the headline's metric (item ->
(cluster, value)). A task whose headline has no item-level value (``TaskHeadline.item_level``
false, or no run declared): its card ranks by value only and says so; ``inspect-stance
compare`` compares its runs.

Over the items every ranked target has: the pairwise two-sided clustered paired tests (CR1, t
with ``G - 1`` df: :func:`~inspect_stance.stats.paired.clustered_paired_test`), Holm-adjusted
together, give the tied groups; the rank probabilities come from the clustered model of the
means (:func:`~inspect_stance.stats.ranking.rank_runs`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from inspect_stance.errors import InputError
from inspect_stance.runs import check_settings
from inspect_stance.stats.multiplicity import adjust_pvalues
from inspect_stance.stats.paired import clustered_paired_test
from inspect_stance.stats.ranking import rank_runs, shared_ranks
from inspect_stance.study.protocol import CompareRequest
from inspect_stance.study.registry import method_of_task, task_headline

#: an item's (cluster, value)
ItemValue = tuple[str, float]


def rank_targets(per_target: Mapping[str, Mapping[str, ItemValue | float]],
                 higher_is_better: bool, alpha: float = 0.05) -> dict[str, Any] | None:  # fmt: skip
    """Rank probabilities (``target -> [P(rank 1), ...]``), shared ranks, tied groups, the
    pairwise tests and the number of shared items and clusters; ``None`` with fewer than two
    targets or two shared items. A value given without a cluster is its own cluster."""
    import numpy as np

    if len(per_target) < 2:
        return None
    norm = {t: {k: v if isinstance(v, tuple) else (k, float(v)) for k, v in items.items()}
            for t, items in per_target.items()}  # fmt: skip
    names = list(norm)
    first = norm[names[0]]
    keys = [k for k in first if all(k in norm[t] for t in names)]
    if len(keys) < 2:
        return None
    values = np.array([[norm[t][k][1] for t in names] for k in keys], dtype=np.float64)
    clusters = [first[k][0] for k in keys]
    pairs = [(i, j) for i in range(len(names)) for j in range(i + 1, len(names))]
    tests = [clustered_paired_test(values[:, j] - values[:, i], clusters) for i, j in pairs]
    adjusted = adjust_pvalues([1.0 if np.isnan(r.p) else r.p for r in tests], "holm")
    p_adj = {frozenset((names[i], names[j])): p for (i, j), p in zip(pairs, adjusted, strict=True)}
    try:
        ranked = rank_runs(names, values, p_adj, higher_is_better, alpha, clusters=clusters)
    except ValueError:
        return None
    return {
        "order": ranked.order,
        "ranks": ranked.ranks,
        "rank_probabilities": ranked.rank_probabilities,
        "tied_groups": ranked.tied_groups,
        "n_items": ranked.n_items,
        "n_clusters": ranked.n_clusters,
        "test": "paired over shared items, cluster-robust (CR2) over clusters, t with "
        "Bell-McCaffrey df, Holm over the pairs",
        "pairs": [
            {
                "a": names[i],
                "b": names[j],
                "delta": r.delta,
                "ci": list(r.ci),
                "p": r.p,
                "p_adjusted": p,
                "n_items": r.n_items,
                "n_clusters": r.n_clusters,
            }
            for (i, j), r, p in zip(pairs, tests, adjusted, strict=True)
        ],  # fmt: skip
    }


def comparable(method: str, logs: Mapping[str, Sequence[str]],
               values: Mapping[str, float], higher_is_better: bool
               ) -> tuple[list[str], dict[str, str]]:  # fmt: skip
    """The targets ``compare`` would compare (module docstring) and, for each one set apart,
    why. ``logs``: target -> its log paths; ``values``: target -> its headline value."""

    found = method_of_task(method)
    if found is None or found.comparer is None:
        return list(logs), {}
    infos: dict[str, Any] = {}
    settings: dict[str, dict[str, Any]] = {}
    apart: dict[str, str] = {}
    for target, paths in logs.items():
        try:
            loaded = found.comparer.load(list(paths), CompareRequest(tuple(paths), partial=True))
        except (ValueError, InputError) as ex:
            apart[target] = f"compare cannot read its runs: {ex}"
            continue
        if len(loaded.runs) != 1:
            apart[target] = f"compare reads {len(loaded.runs)} runs from its logs, not one"
            continue
        infos[target] = loaded.infos[0]
        settings[target] = loaded.runs[0].settings()

    def key(target: str) -> str:
        s = settings[target]
        return repr(sorted((k, "default" if v is None else str(v)) for k, v in s.items()))

    groups: dict[str, list[str]] = {}
    for target in infos:
        groups.setdefault(key(target), []).append(target)
    if not groups:
        return [], apart
    sign = 1.0 if higher_is_better else -1.0
    best = max(groups.values(), key=lambda g: (len(g), max(sign * values.get(t, 0.0) for t in g)))
    for target in infos:
        if target in best:
            continue
        anchor = best[0]
        try:
            check_settings([infos[anchor], infos[target]], [anchor, target])
            apart[target] = f"its settings differ from {anchor}'s"
        except InputError as ex:
            apart[target] = f"compare refuses it beside {anchor}: {ex}"
    return best, apart


def board_ranking(method: str, entries: Mapping[str, Mapping[str, Any]],
                  higher_is_better: bool
                  ) -> tuple[dict[str, Any] | None, str, dict[str, str]]:  # fmt: skip
    """The leaderboard's ranking of one method (``entries``: target -> its card entry, with
    ``logs``, ``eval_ids``, ``settings`` and ``value``) over the targets ``compare`` would
    compare (``None`` when there is none), a note saying why there is none and which targets
    were set apart, and the targets set apart (target -> why)."""

    logs = {t: [str(x) for x in (e.get("logs") or [e["log"]])] for t, e in entries.items()}
    values = {t: float(e["value"]) for t, e in entries.items() if e.get("value") is not None}
    kept, apart = comparable(method, logs, values, higher_is_better)
    apart_note = "".join(f"; {t} set apart: {why}" for t, why in apart.items())
    declared = task_headline(method)
    per: dict[str, Mapping[str, ItemValue | float]] = {}
    if declared is not None and declared.load is not None and declared.item_level:
        per = {t: declared.load(logs[t], True).items(declared.metric) for t in kept}
    else:
        return None, (f"{method} has no single item-level headline value; inspect-stance "
                      f"compare compares its runs{apart_note}"), apart  # fmt: skip
    if len(kept) < 2:
        return None, f"fewer than two targets that compare would compare{apart_note}", apart
    ranked = rank_targets(per, higher_is_better)
    if ranked is None:
        return None, f"fewer than two items shared by every ranked target{apart_note}", apart
    ranked["set_apart"] = apart
    return ranked, apart_note.lstrip("; "), apart


def rank_rows(rows: list[dict[str, Any]], higher_is_better: bool) -> None:
    """Sort leaderboard ``rows`` (each with ``model`` and ``value``) best first and give each
    its ``rank``: equal values share the better rank (``1, 1, 3``)."""

    rows.sort(key=lambda r: r["value"], reverse=higher_is_better)
    ranks = shared_ranks({str(k): float(r["value"]) for k, r in enumerate(rows)}, higher_is_better)
    for k, r in enumerate(rows):
        r["rank"] = ranks[str(k)]
