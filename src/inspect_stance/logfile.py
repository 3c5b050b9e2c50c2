"""Reading Inspect logs for reports: one pass, without the parts reports never use.

Every report, reuse (``arguments_from``, ``prompts_from``, PReSS ``arguments``) and gate reads
sample metadata, stores and scores only, so the per-sample messages, events and attachments —
most of a log's size — are skipped (``exclude_fields``; ``.json`` logs are read whole).
Streaming sample reads are avoided: they are quadratic in the sample count.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

SKIP_FIELDS: frozenset[str] = frozenset({"messages", "events", "attachments"})


def read_log(path: str | Path) -> Any:
    """The ``EvalLog`` at ``path`` with samples, minus :data:`SKIP_FIELDS`."""
    from inspect_ai.log import read_eval_log

    return read_eval_log(str(path), exclude_fields=set(SKIP_FIELDS))
