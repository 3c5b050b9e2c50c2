"""The shards of one study as one row of :func:`inspect_stance.analysis.runs_df`.

Logs of one study run as ``-T shard=K/N`` (or Inspect's ``<name>.shards/`` layout) are grouped
as ``report`` groups them (:func:`inspect_stance.shards.layout.group_logs`) and become one row:
the headline, its standard error, interval, ``n_items`` and ``n_clusters`` of the pooled run
from the method's run (:attr:`~inspect_stance.study.protocol.TaskHeadline.load`: the shards merged
by the run class, its ``headline()`` the scorer's rule applied once, so the row equals the
unsharded run's; a task whose method declares no run: NaN and a ``pool_note`` saying so), tokens, calls and
samples summed. An incomplete set is kept (its shards pooled) and said: ``shards`` ``"1 of 2"``,
``partial`` true. Every row gets ``provenance_notes`` (:func:`inspect_stance.provenance.provenance_notes`
over its logs' calls): a model answering from more than one system fingerprint.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from inspect_stance.analysis.headline import headline_columns
from inspect_stance.shards.layout import current_attempts, group_logs, shard_set_of
from inspect_stance.study.registry import task_run

if TYPE_CHECKING:
    import pandas as pd
    from inspect_ai.log import EvalLog

    from inspect_stance.stats.headline import Headline


def pooled_headline(task: str, paths: Sequence[str]) -> Headline | None:
    """The headline of the pooled run of ``task``'s shard logs ``paths``: its method's run
    (:func:`inspect_stance.study.registry.task_run`: the shards merged by the run class, an
    incomplete set pooled as it is) and its ``headline()``, the scorer's rule; ``None`` when no
    method declares a run for ``task``."""

    run = task_run(task, paths, partial=True)
    return None if run is None else run.headline()


def pool_rows(df: pd.DataFrame, read: list[tuple[str, EvalLog]]) -> pd.DataFrame:
    """``df`` (one row per log, ``read``: its logs by path) with the shards of each study as
    one row (module docstring), in order of first appearance."""
    import pandas as pd

    from inspect_stance.provenance import provenance_notes, samples_provenance

    ids = {path: log.eval.eval_id for path, log in read}
    logs = {path: log for path, log in read}
    groups, suffix = group_logs([Path(p) for p in ids], partial=True)
    by_id = {row["eval_id"]: row for row in df.to_dict("records")}
    rows: list[dict[str, Any]] = []
    for members in groups:
        paths = [str(p) for p in members]
        parts = [by_id[ids[p]] for p in paths]
        row = dict(parts[0])
        entries = [e for p in paths for e in samples_provenance(logs[p].samples or [])]
        row["provenance_notes"] = provenance_notes(entries, str(row.get("model")))
        row.update(shards=None, partial=False, pool_note=None, eval_ids=[ids[p] for p in paths],
                   logs=paths)  # fmt: skip
        if len(paths) > 1 or members[0] in suffix:
            row.update(_pooled(parts, paths, logs[paths[0]]))
        rows.append(row)
    return pd.DataFrame(rows)


def _pooled(parts: list[dict[str, Any]], paths: list[str], first: EvalLog) -> dict[str, Any]:
    """The pooled fields of one study's shard rows ``parts`` (logs ``paths``)."""
    import math

    n = int((first.eval.metadata or {}).get("shard", {}).get("n", 0)) or _layout_n(paths[0])
    out: dict[str, Any] = {
        "shards": f"{len(paths)} of {n}",
        "partial": len(paths) < n,
        "logs": paths,
        "n_samples": sum(int(r.get("n_samples") or 0) for r in parts),
    }
    for key in ("total_tokens", "model_calls", "completed_samples", "total_samples"):
        if key in parts[0]:
            out[key] = sum(int(r.get(key) or 0) for r in parts)
    task = str(parts[0].get("task_name", "")).rsplit("/", 1)[-1]
    headline = pooled_headline(task, paths)
    if headline is None:
        out["pool_note"] = f"no pooled headline for {task} shards: report each shard"
        out.update(headline_value=math.nan, headline_stderr=math.nan, ci_lo=math.nan,
                   ci_hi=math.nan, n_items=None, n_clusters=None)  # fmt: skip
    else:
        out.update(headline_columns(headline))
    return out


def _layout_n(path: str) -> int:
    """Shards in the Inspect ``<name>.shards/`` set holding ``path`` (0 outside one)."""

    where = shard_set_of(path)
    return len(current_attempts(where[0])) if where else 0
