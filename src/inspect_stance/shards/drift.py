"""Pool the shards of one stance-drift study into one :class:`~inspect_stance.drift.run.DriftRun`.

The shards hold disjoint propositions (:func:`inspect_stance.shards.select`), so the pooled
run's arrays are the shards' arrays stacked along the proposition axis, in shard order; a
shard with fewer trials is padded with missing trials. Every figure of the report is a mean
over propositions (or a sum over trials), so the pooled run's figures are the unsharded run's
wherever the model answered the same (the simulators with logprobs: exactly, up to the
floating-point order of a sum).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

import numpy as np

from inspect_stance.drift.run import DriftRun
from inspect_stance.shards import group_shards


def _pad(arr: np.ndarray | None, n_trials: int, fill: object) -> np.ndarray | None:
    """``arr`` (``(P, T, ...)``) padded to ``n_trials`` along axis 1 with ``fill``."""
    if arr is None or arr.shape[1] == n_trials:
        return arr
    widths = [(0, 0), (0, n_trials - arr.shape[1])] + [(0, 0)] * (arr.ndim - 2)
    return np.pad(arr, widths, constant_values=fill)  # type: ignore[call-overload]


def _stack(parts: list[np.ndarray | None]) -> np.ndarray | None:
    return None if any(p is None for p in parts) else np.concatenate(parts, axis=0)  # type: ignore[arg-type]


def merge_drift_shards(runs: Sequence[DriftRun]) -> DriftRun:
    """One run from the shards of one study (checked by :func:`group_shards`): ``probs``,
    ``missing`` and the per-trial counts stacked over propositions, trials padded to the
    longest shard, estimator counts and incomplete samples summed. A complete set is the whole
    study (``shard`` ``None``); a partial one (``--partial``) keeps its first shard's
    ``ShardInfo`` and says "k of N shards" in its name."""
    ordered = sorted(runs, key=lambda r: r.shard.k if r.shard else 0)
    n_trials = max(r.n_trials for r in ordered)
    probs = [_pad(r.probs, n_trials, np.nan) for r in ordered]
    missing = [_pad(r.missing_mask, n_trials, True) for r in ordered]
    estimators: dict[str, int] = {}
    for r in ordered:
        for k, v in r.estimator_counts.items():
            estimators[k] = estimators.get(k, 0) + v
    first = ordered[0]
    n = first.shard.n if first.shard else 1
    complete = len(ordered) == n
    statuses = {r.status for r in ordered}
    return dataclasses.replace(
        first,
        name=first.name if complete else f"{first.name} ({len(ordered)} of {n} shards)",
        probs=np.concatenate(probs, axis=0),  # type: ignore[arg-type]
        propositions=[p for r in ordered for p in r.propositions],
        topic_ids=[t for r in ordered for t in r.topic_ids],
        source=first.source,  # a path: the report reads the log again for its settings
        missing=np.concatenate(missing, axis=0),  # type: ignore[arg-type]
        estimator_counts=estimators,
        status=first.status if len(statuses) == 1 else "partial",
        incomplete_samples=sum(r.incomplete_samples for r in ordered),
        unparsed_extractions=_stack([_pad(r.unparsed_extractions, n_trials, 0) for r in ordered]),
        label_mismatches=_stack([_pad(r.label_mismatches, n_trials, 0) for r in ordered]),
        shard=None if complete else first.shard,
    )


def pool_drift_runs(runs: Sequence[DriftRun], partial: bool = False) -> list[DriftRun]:
    """The runs with the shards of each study pooled into one (at the first shard's place);
    unsharded runs unchanged. One-line ``InputError`` for shards that do not pool (see
    :func:`inspect_stance.shards.group_shards`; ``partial`` reports an incomplete set)."""
    groups = group_shards([r.shard for r in runs], partial)
    out: list[DriftRun] = []
    for members in groups:
        if len(members) == 1 and runs[members[0]].shard is None:
            out.append(runs[members[0]])
        else:
            out.append(merge_drift_shards([runs[i] for i in members]))
    return out
