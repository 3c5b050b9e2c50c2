"""The PReSS tasks' samples: one Inspect ``Sample`` per statement (Inspect-facing)."""

from __future__ import annotations

import hashlib
from typing import Any

from inspect_ai.dataset import Sample

from inspect_stance.press.statements import Statement


def _sample_id(st: Statement) -> str:
    """``s<position>-<first 8 hex of sha256(statement)>``: an edited statements file cannot
    reuse another statement's finished sample on ``eval-retry``."""
    digest = hashlib.sha256(st.text.encode("utf-8")).hexdigest()[:8]
    return f"s{st.id:02d}-{digest}"


def statement_samples(items: list[Statement], extra: dict[str, Any] | None = None) -> list[Sample]:
    """One sample per statement: input = the statement text (what the viewer's sample list
    shows), id = :func:`_sample_id`, metadata statement_id / statement / bias (+ ``extra``)."""
    return [
        Sample(
            id=_sample_id(st),
            input=st.text,
            metadata={
                "statement_id": st.id,
                "statement": st.text,
                "bias": st.bias,
                **(extra or {}),
            },
        )
        for st in items
    ]
