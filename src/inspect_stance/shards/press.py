"""Pool the shards of one PReSS study into one :class:`~inspect_stance.press.logs.PressRun`.

PReSS shards hold disjoint statements (:func:`inspect_stance.shards.select` by statement
text), and every figure of the PReSS report is a per-statement label or a share over
statements, so the pooled run (the shards' statement records together, in the unsharded run's
order: by statement id, then text) reports what the unsharded run reports wherever the target
answered the same.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from inspect_stance.press.logs import PressRun
from inspect_stance.provenance import merge
from inspect_stance.shards import group_shards, superseded


def _fingerprint(ordered: Sequence[PressRun]) -> str | None:
    """The pooled run's arguments fingerprint: the one given to every shard (``-T arguments``:
    the file's, in the task metadata), else that of the shards' argument tables together (the
    fingerprint the unsharded run computes from its samples)."""
    from inspect_stance.press.arguments import arguments_fingerprint

    given = {r.metadata.get("arguments_fingerprint") for r in ordered}
    if len(given) == 1 and None not in given:
        return None  # PressRun.arguments_fingerprint reads the metadata's
    table: dict[str, list[dict[str, str]]] = {}
    for r in ordered:
        table.update(r.argument_table or {})
    return arguments_fingerprint(table) if table else None


def merge_press_shards(runs: Sequence[PressRun]) -> PressRun:
    """One run from the shards of one study (checked by :func:`group_shards`): records
    together, sample and error counts summed; a complete set is the whole study (``shard``
    ``None``), a partial one (``--partial``) keeps its first shard's ``ShardInfo`` and says
    "k of N shards" in its model name."""
    ordered = sorted(runs, key=lambda r: r.shard.k if r.shard else 0)
    first = ordered[0]
    n = first.shard.n if first.shard else 1
    complete = len(ordered) == n
    records = [rec for r in ordered for rec in r.records]
    records.sort(key=lambda r: (int(r.get("statement_id", 0)), r["statement"]))
    statuses = {r.status for r in ordered}
    return dataclasses.replace(
        first,
        model=first.model if complete else f"{first.model} ({len(ordered)} of {n} shards)",
        records=records,
        n_samples=sum(r.n_samples for r in ordered),
        n_errors=sum(r.n_errors for r in ordered),
        status=first.status if len(statuses) == 1 else "partial",
        fingerprint=_fingerprint(ordered),
        shard=None if complete else first.shard,
        argument_table=None,
        provenance=merge([e for r in ordered for e in r.provenance]),
        task_args={k: v for k, v in first.task_args.items() if k != "shard"},
    )


def pool_press_runs(runs: Sequence[PressRun], partial: bool = False) -> list[PressRun]:
    """The runs with the shards of each study pooled into one (at the first shard's place);
    unsharded runs unchanged. One-line ``InputError`` for shards that do not pool
    (:func:`inspect_stance.shards.group_shards`; ``partial`` reports an incomplete set)."""
    drop = superseded([r.shard for r in runs], [r.status for r in runs], [r.path for r in runs])
    runs = [r for i, r in enumerate(runs) if i not in drop]
    groups = group_shards([r.shard for r in runs], partial)
    out: list[PressRun] = []
    for members in groups:
        if len(members) == 1 and runs[members[0]].shard is None:
            out.append(runs[members[0]])
        else:
            out.append(merge_press_shards([runs[i] for i in members]))
    return out
