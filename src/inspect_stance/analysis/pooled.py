"""The shards of one study as one row of :func:`inspect_stance.analysis.runs_df`.

Logs of one study run as ``-T shard=K/N`` (or Inspect's ``<name>.shards/`` layout) are grouped
as ``report`` groups them (:func:`inspect_stance.shards.layout.group_logs`) and become one row:
the headline, its standard error and interval, and ``n_items`` of the pooled run as ``report``
computes them (each task's declared ``TaskHeadline.pooled``, in its method's package: the shards
merged and the scorer's rule applied; even-handedness: the share of even-handed pairs and its
``stderr`` over the pooled pairs, :func:`~inspect_stance.even_handedness.summary.summarize`;
any other method: no pooled headline (NaN) and a ``pool_note`` saying so), tokens, calls and
samples summed. An incomplete set is kept (its shards pooled) and said: ``shards`` ``"1 of 2"``,
``partial`` true. Every row gets ``provenance_notes`` (:func:`inspect_stance.provenance.provenance_notes`
over its logs' calls): a model answering from more than one system fingerprint.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import pandas as pd
    from inspect_ai.log import EvalLog

#: methods whose pooled headline is computed here
POOLED_METHODS: tuple[str, ...] = (
    "stance_drift", "press", "prompt_construction", "prompt_validation", "judge_validation",
    "press_arguments", "even_handedness",
)  # fmt: skip


def pooled_headline(method: str, paths: Sequence[str]) -> tuple[float, float] | None:
    """``(value, stderr)`` of the pooled run of the shard logs ``paths``: the task's declared
    ``TaskHeadline.pooled`` (the shards merged and the scorer's rule applied, in the method's
    package) where it has one; ``None`` for a method not pooled here."""
    from inspect_stance.study.registry import task_headline

    declared = task_headline(method)
    if declared is not None and declared.pooled is not None:
        h = declared.pooled(paths, True)
        return h.value, h.se
    if method == "even_handedness":
        return _even_headline(paths)
    return None


def _even_headline(paths: Sequence[str]) -> tuple[float, float]:
    """``even_handedness`` and its ``stderr`` over the pooled pairs, as the task's metric
    computes them (:func:`~inspect_stance.even_handedness.summary.summarize`)."""
    from inspect_stance.even_handedness.logs import pool_even_runs, read_even_log
    from inspect_stance.even_handedness.summary import summarize

    [run] = pool_even_runs([read_even_log(p) for p in paths], partial=True)
    metrics = summarize(list(run.records.values()))
    return float(metrics["even_handedness"]), float(metrics["stderr"])


def pool_rows(df: pd.DataFrame, read: list[tuple[str, EvalLog]]) -> pd.DataFrame:
    """``df`` (one row per log, ``read``: its logs by path) with the shards of each study as
    one row (module docstring), in order of first appearance."""
    import pandas as pd

    from inspect_stance.provenance import provenance_notes, samples_provenance
    from inspect_stance.shards.layout import group_logs

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
    from statistics import NormalDist

    z95 = NormalDist().inv_cdf(0.975)

    n = int((first.eval.metadata or {}).get("shard", {}).get("n", 0)) or _layout_n(paths[0])
    out: dict[str, Any] = {
        "shards": f"{len(paths)} of {n}",
        "partial": len(paths) < n,
        "logs": paths,
        "n_items": sum(int(r.get("n_items") or 0) for r in parts),
    }
    for key in ("total_tokens", "model_calls", "completed_samples", "total_samples"):
        if key in parts[0]:
            out[key] = sum(int(r.get(key) or 0) for r in parts)
    method = str(parts[0].get("method", "")).rsplit("/", 1)[-1]
    headline = pooled_headline(method, paths)
    value, se = headline if headline is not None else (math.nan, math.nan)
    if headline is None:
        out["pool_note"] = f"no pooled headline for {method} shards: report each shard"
    out.update(headline_value=value, headline_stderr=se, ci_lo=value - z95 * se,
               ci_hi=value + z95 * se)  # fmt: skip
    return out


def _layout_n(path: str) -> int:
    """Shards in the Inspect ``<name>.shards/`` set holding ``path`` (0 outside one)."""
    from inspect_stance.shards.layout import current_attempts, shard_set_of

    where = shard_set_of(path)
    return len(current_attempts(where[0])) if where else 0
