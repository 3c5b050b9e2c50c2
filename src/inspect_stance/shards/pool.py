"""``pool_shards(runs) -> runs``: the shards of each study pooled, whatever the method.

The one entry point for the commands: it dispatches on the run type (a stance-drift
:class:`~inspect_stance.drift.run.DriftRun` today) to the method's pooling; runs of a type
without shards are returned unchanged.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, TypeVar

from inspect_stance.drift.run import DriftRun
from inspect_stance.shards.drift import pool_drift_runs

R = TypeVar("R")


def pool_shards(runs: Sequence[R], partial: bool = False) -> list[R]:
    """The runs with the shards of each study pooled into one run (at its first shard's
    place), unsharded runs unchanged; a one-line ``InputError`` for shards that do not pool
    (:func:`inspect_stance.shards.group_shards`), ``partial`` to pool an incomplete set."""
    if runs and all(isinstance(r, DriftRun) for r in runs):
        drift: Any = pool_drift_runs(runs, partial)  # type: ignore[arg-type]
        return list(drift)
    return list(runs)
