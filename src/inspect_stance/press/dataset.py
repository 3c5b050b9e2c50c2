"""The PReSS tasks' samples: one Inspect ``Sample`` per statement (Inspect-facing)."""

from __future__ import annotations

import hashlib
from dataclasses import asdict
from pathlib import Path
from typing import TYPE_CHECKING, Any

from inspect_ai.dataset import Sample

from inspect_stance.press.statements import Statement
from inspect_stance.shards import select, shard_metadata, study_fingerprint

if TYPE_CHECKING:
    from inspect_stance.press.options import PressArgumentsOptions, PressOptions

#: options that change how a run computes, not what it measures (left out of the study)
_OPERATIONAL = ("statements", "nli_device", "nli_batch_size")


def shard_statements(
    items: list[Statement], opts: PressOptions | PressArgumentsOptions, task: str = "press"
) -> tuple[list[Statement], dict[str, Any]]:
    """``-T shard``'s statements (by text, :func:`inspect_stance.shards.select`) and the task
    metadata entry naming the shard and the study of ``task`` (every statement and the other
    settings)."""
    mine = select(items, lambda st: st.text, opts.shard)
    settings = {k: v for k, v in asdict(opts).items() if k not in _OPERATIONAL}
    given = settings.get("arguments")
    if opts.shard is not None and isinstance(given, str) and Path(given).is_dir():
        from inspect_stance.press.arguments import folder_identity

        settings["arguments"] = {"arguments": folder_identity(given)}  # by content, not mtime
    study = study_fingerprint(task, [st.text for st in items], settings)
    return mine, shard_metadata(opts.shard, study, len(items), len(mine))


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
