"""Each run's headline among a set of logs, as ``report --json`` prints it: read, never
recomputed (:func:`run_headlines`)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from inspect_stance.analysis.headline import path_headline
from inspect_stance.analysis.pooled import pooled_headline
from inspect_stance.logfile import task_name
from inspect_stance.shards.layout import group_logs
from inspect_stance.study.registry import log_header_task


def run_headlines(paths: list[str], partial: bool = False) -> list[dict[str, Any]]:
    """One object per run among the logs ``paths`` (the shards of one study are one run, as
    :func:`inspect_stance.shards.layout.group_logs` groups them): ``logs``, ``task`` and
    ``headline`` (:meth:`~inspect_stance.stats.headline.Headline.to_json`) read by the
    contract, never recomputed: a single log's headline as its scorer wrote it, a set of
    shards' its method's pooled run's (:func:`~inspect_stance.analysis.pooled.pooled_headline`);
    ``null`` when its method declares no
    headline for the task, or a log lacks it. ``.npz`` arrays have no log and no entry."""
    logs = [Path(p) for p in paths if Path(p).suffix in (".eval", ".json")]
    if not logs:
        return []
    groups, suffix = group_logs(logs, partial=True)
    out: list[dict[str, Any]] = []
    for members in groups:
        files = [str(p) for p in members]
        task = task_name(log_header_task(files[0]) or "")
        pooled = len(files) > 1 or members[0] in suffix
        h = pooled_headline(task, files) if pooled else path_headline(files[0])
        out.append({"task": task, "logs": files, "headline": h.to_json() if h else None})
    return out
