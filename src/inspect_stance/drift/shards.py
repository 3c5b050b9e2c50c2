"""Pool the shards of one stance-drift study into one :class:`~inspect_stance.drift.run.DriftRun`.

The shards hold disjoint propositions (:func:`inspect_stance.shards.select`), so the pooled
run's arrays are the shards' arrays stacked along the proposition axis, in shard order; a
shard with fewer trials is padded with missing trials. Inspect's own shards (a selection of
the task's samples each, :mod:`inspect_stance.shards.layout`) may split one proposition's
initial stances between shards: they fill its row together. Every figure of the report is a mean
over propositions (or a sum over trials), so the pooled run's figures are the unsharded run's
wherever the model answered the same (the simulators with logprobs: exactly, up to the
floating-point order of a sum).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from inspect_stance.drift.expand import expand_inputs
from inspect_stance.drift.inputs import load_input
from inspect_stance.drift.logs import read_drift_log
from inspect_stance.drift.run import DriftRun
from inspect_stance.errors import InputError
from inspect_stance.provenance import merge
from inspect_stance.shards import group_shards, superseded


def _pad(arr: np.ndarray | None, n_trials: int, fill: object) -> np.ndarray | None:
    """``arr`` (``(P, T, ...)``) padded to ``n_trials`` along axis 1 with ``fill``."""
    if arr is None or arr.shape[1] == n_trials:
        return arr
    widths = [(0, 0), (0, n_trials - arr.shape[1])] + [(0, 0)] * (arr.ndim - 2)
    return np.pad(arr, widths, constant_values=fill)  # type: ignore[call-overload]


def _padded(arr: np.ndarray, n_trials: int, fill: object) -> np.ndarray:
    out = _pad(arr, n_trials, fill)
    assert out is not None
    return out


def _fill(
    ordered: Sequence[DriftRun], n_trials: int
) -> tuple[list[str], list[str], np.ndarray, np.ndarray, list[np.ndarray | None]]:
    """Propositions, topic ids, ``probs``, ``missing`` and the two per-trial count arrays of the
    union of the shards: each (proposition, trial, initial stance) from the shard that holds
    it (not missing there). A proposition is usually in one shard (``-T shard`` splits by
    proposition); Inspect's sample-selection shards may split its initial stances, which fill
    one row together. The same trial in two shards is an ``InputError`` (overlapping shards)."""
    index: dict[str, int] = {}
    topics: list[str] = []
    for r in ordered:
        for prop, topic in zip(r.propositions, r.topic_ids, strict=True):
            if prop not in index:
                index[prop] = len(index)
                topics.append(topic)
    shape = (len(index), n_trials)
    probs = np.full(shape + ordered[0].probs.shape[2:], np.nan)
    missing = np.ones(shape + ordered[0].probs.shape[2:3], dtype=bool)
    counts: list[np.ndarray | None] = [
        None if any(getattr(r, a) is None for r in ordered) else np.zeros(missing.shape, int)
        for a in ("unparsed_extractions", "label_mismatches")
    ]
    for r in ordered:
        rows = [index[p] for p in r.propositions]
        have = ~_padded(r.missing_mask, n_trials, True)
        if (have & ~missing[rows]).any():
            raise InputError(
                f"{r.source}: holds trials another shard holds (overlapping shards); pass "
                "each shard's log once"
            )
        probs[rows] = np.where(have[..., None], _padded(r.probs, n_trials, np.nan), probs[rows])
        missing[rows] &= ~have
        for c, attr in zip(counts, ("unparsed_extractions", "label_mismatches"), strict=True):
            if c is not None:
                c[rows] += np.where(have, _padded(getattr(r, attr), n_trials, 0), 0)
    return list(index), topics, probs, missing, counts


def merge_drift_shards(runs: Sequence[DriftRun]) -> DriftRun:
    """One run from the shards of one study (checked by :func:`group_shards`): the union of
    their propositions (:func:`_fill`), trials padded to the longest shard, estimator counts
    and incomplete samples summed. A complete set is the whole study (``shard`` ``None``); a
    partial one (``--partial``) keeps its first shard's ``ShardInfo`` and says "k of N
    shards" in its name."""
    ordered = sorted(runs, key=lambda r: r.shard.k if r.shard else 0)
    n_trials = max(r.n_trials for r in ordered)
    props, topics, probs, missing, (unparsed, mismatches) = _fill(ordered, n_trials)
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
        probs=probs,
        propositions=props,
        topic_ids=topics,
        source=first.source,  # a path: the report reads the log again for its settings
        missing=missing,
        estimator_counts=estimators,
        status=first.status if len(statuses) == 1 else "partial",
        incomplete_samples=sum(r.incomplete_samples for r in ordered),
        unparsed_extractions=unparsed,
        label_mismatches=mismatches,
        shard=None if complete else first.shard,
        provenance=merge([e for r in ordered for e in r.provenance]),
        n_replayed=sum(r.n_replayed for r in ordered),
        replayed_since=min((r.replayed_since for r in ordered if r.replayed_since), default=None),
    )


def pool_drift_runs(runs: Sequence[DriftRun], partial: bool = False) -> list[DriftRun]:
    """The runs with the shards of each study pooled into one (at the first shard's place);
    unsharded runs unchanged. One-line ``InputError`` for shards that do not pool (see
    :func:`inspect_stance.shards.group_shards`; ``partial`` reports an incomplete set)."""
    drop = superseded([r.shard for r in runs], [r.status for r in runs], [r.source for r in runs])
    runs = [r for i, r in enumerate(runs) if i not in drop]
    groups = group_shards([r.shard for r in runs], partial)
    out: list[DriftRun] = []
    for members in groups:
        if len(members) == 1 and runs[members[0]].shard is None:
            out.append(runs[members[0]])
        else:
            out.append(merge_drift_shards([runs[i] for i in members]))
    return out


def pool_loaded(loaded: Sequence[Any], partial: bool = False) -> list[Any]:
    """:func:`pool_drift_runs` for the comparison layer's runs
    (:class:`~inspect_stance.drift.compare.LoadedDrift`: a run and its :class:`RunInfo`): a
    pooled run keeps its first shard's info, without the ``shard`` task argument and with the
    study as its identity (``shards:<study>``), so that it is named and checked as one run."""
    runs = [x.run for x in loaded]
    drop = superseded([r.shard for r in runs], [r.status for r in runs], [r.source for r in runs])
    loaded = [x for i, x in enumerate(loaded) if i not in drop]
    groups = group_shards([x.run.shard for x in loaded], partial)
    out: list[Any] = []
    for members in groups:
        first = loaded[members[0]]
        if len(members) == 1 and first.run.shard is None:
            out.append(first)
            continue
        run = merge_drift_shards([loaded[i].run for i in members])
        info = dataclasses.replace(
            first.info,
            run_id=f"shards:{first.run.shard.study}"
            + ("" if run.shard is None else f"/{len(members)}"),
            task_args={k: v for k, v in first.info.task_args.items() if k != "shard"},
        )
        out.append(dataclasses.replace(first, run=run, info=info))
    return out


def load_folder_run(
    folder: str | Path, unparsed: str = "failure", partial: bool = False, adaptive_ok: bool = False
) -> tuple[DriftRun, Path]:
    """The one stance-drift run a folder holds (the shards of one study pooled, or a single
    run) and its first log, for the commands that take one run (``gate``, ``plan``); a
    one-line ``InputError`` when the folder holds several runs."""

    paths, _skipped = expand_inputs([str(folder)])

    def read(p: Path) -> DriftRun:
        return (
            read_drift_log(p, unparsed, adaptive_ok=True)
            if adaptive_ok
            else load_input(p, unparsed)
        )

    runs = pool_drift_runs([read(p) for p in paths], partial)
    if len(runs) != 1:
        raise InputError(
            f"{folder}: holds {len(runs)} stance-drift runs, not one study; name one run's log "
            "or a folder of one study's shards"
        )
    return runs[0], paths[0]


def pool_shards(runs: Sequence[DriftRun], partial: bool = False) -> list[DriftRun]:
    """The runs with the shards of each study pooled into one run (at its first shard's
    place), unsharded runs unchanged; a one-line ``InputError`` for shards that do not pool
    (:func:`inspect_stance.shards.group_shards`), ``partial`` to pool an incomplete set."""
    return list(pool_drift_runs(runs, partial))
