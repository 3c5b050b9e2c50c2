"""A run's headline as the surfaces read it: from one log's metrics, as its scorer wrote it.

:func:`log_headline` is the one reader of a finished log's headline for the dataframes, the
card and ``report --json`` (:func:`inspect_stance.study.registry.headline_of_metrics` over the
log's metric values, the first scorer winning a name); a set of shards is read through its
method's run (:attr:`~inspect_stance.study.protocol.TaskHeadline.load`, its ``headline()``:
:func:`inspect_stance.analysis.pooled.pooled_headline`). Nothing here computes a value, a
standard error or an interval.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import TYPE_CHECKING, Any

from inspect_stance.study.registry import headline_of_metrics

if TYPE_CHECKING:
    from inspect_stance.stats.headline import Headline

#: the columns a headline fills in ``runs_df`` (and their order)
HEADLINE_COLUMNS: tuple[str, ...] = (
    "headline_metric", "headline_value", "headline_stderr", "ci_lo", "ci_hi", "n_items",
    "n_clusters",
)  # fmt: skip


def log_headline(log: Any) -> Headline | None:
    """The headline of the finished log ``log`` (an ``EvalLog``, header enough) as its scorer
    wrote it; ``None`` for a task no method declares a headline for, or a log without it."""
    from inspect_stance.console_summary import log_metrics

    task, metrics = log_metrics(log)
    return headline_of_metrics(task, metrics) if metrics else None


def path_headline(path: str | Path) -> Headline | None:
    """:func:`log_headline` of the log file at ``path`` (its header only)."""
    from inspect_ai.log import read_eval_log

    return log_headline(read_eval_log(str(path), header_only=True))


def headline_columns(h: Headline | None, metric: str | None = None) -> dict[str, Any]:
    """The ``runs_df`` headline columns of ``h`` (NaN / ``None`` without one; ``metric``: the
    name to give then)."""
    if h is None:
        return {"headline_metric": metric, "headline_value": math.nan,
                "headline_stderr": math.nan, "ci_lo": math.nan, "ci_hi": math.nan,
                "n_items": None, "n_clusters": None}  # fmt: skip
    return {"headline_metric": h.metric, "headline_value": h.value, "headline_stderr": h.se,
            "ci_lo": h.interval[0], "ci_hi": h.interval[1], "n_items": h.n_items,
            "n_clusters": h.n_clusters}  # fmt: skip
