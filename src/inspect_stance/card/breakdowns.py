"""The card's breakdown of a run's headline, as its method declares it.

A method gives its breakdown with :attr:`inspect_stance.study.protocol.TaskHeadline.breakdown`
(groups of ``(title, [BreakdownRow(label, value, count)])`` read from one log, or from one
study's shard logs); the card shows it as ``[{title, rows: [[label, value, is_count]]}]``.
A task whose method declares none has no breakdown on the card (``inspect-stance report``
has the run's full figures). Counts print as integers.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from inspect_stance.study.registry import task_headline


def card_breakdown(task: str, paths: Sequence[str]) -> list[dict[str, Any]]:
    """The breakdown groups of task ``task``'s run at ``paths`` (a log, or one study's
    shards) as the card stores them; ``[]`` when its method declares no breakdown. A group
    whose rows are all absent is left out."""

    spec = task_headline(task)
    if spec is None or spec.breakdown is None or not paths:
        return []
    out = []
    for title, rows in spec.breakdown(list(paths)):
        present = [[r.label, r.value, r.count] for r in rows if r.value is not None]
        if present:
            out.append({"title": title, "rows": present})
    return out


def task_args_of(log_path: str) -> dict[str, Any]:
    """The task arguments in the header of the log at ``log_path``."""
    from inspect_ai.log import read_eval_log

    return dict(read_eval_log(log_path, header_only=True).eval.task_args or {})


def value_text(value: float | None, is_count: bool = False) -> str:
    """A metric value as text: counts as integers, others to three decimals."""
    if value is None or not math.isfinite(value):
        return "n/a"
    return f"{int(round(value)):,}" if is_count else f"{value:.3f}"
