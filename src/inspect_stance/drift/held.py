"""The trial records of the samples running in this process, held outside the sample store
until the sample ends.

Inspect copies, diffs and logs the whole store at the end of every span (the solver's, the
solvers', the scorers' and the solver's state change): a sample's 100 trial records written to
the store while it runs would be logged three more times as events, beside the sample's final
store, and that logging costs more than the stance-drift arithmetic. So the solvers append each
finished record to a list held here under the sample's uuid (:func:`hold`), the scorer reads it
(:func:`held`), and the task's cleanup, which runs after scoring on every path (success, sample
limit, error) and outside any span, moves it into the store (:func:`release`): the log's
``sample.store["trials"]`` is as before, written once.
"""

from __future__ import annotations

from typing import Any

_HELD: dict[str, list[dict[str, Any]]] = {}


def hold(sample_uuid: str) -> list[dict[str, Any]]:
    """A new, empty list of trial records for the sample ``sample_uuid`` (a retried sample
    starts again from an empty one); the solver appends to it as trials finish."""
    records: list[dict[str, Any]] = []
    _HELD[sample_uuid] = records
    return records


def held(sample_uuid: str) -> list[dict[str, Any]] | None:
    """The records held for ``sample_uuid``, or None (none held: e.g. a sample re-scored from
    a log, whose records are in its store)."""
    return _HELD.get(sample_uuid)


def release(sample_uuid: str) -> list[dict[str, Any]] | None:
    """The records held for ``sample_uuid``, no longer held (None when none were)."""
    return _HELD.pop(sample_uuid, None)
