"""The shards of one study as one row of :func:`inspect_stance.analysis.runs_df`.

Logs of one study run as ``-T shard=K/N`` (or Inspect's ``<name>.shards/`` layout) are grouped
as ``report`` groups them (:func:`inspect_stance.shards.layout.group_logs`) and become one row:
the headline, its standard error and interval, and ``n_items`` of the pooled run as ``report``
computes them (stance drift: the pooled run's SPR and its standard error,
:func:`~inspect_stance.drift.report.analysis.build_report`; PReSS: ``mean_S_t`` and
``sd(S_t) / sqrt(n)`` over the pooled statements, :func:`~inspect_stance.press.summary.run_metrics`;
prompt construction: ``mean_difference`` and its paired standard error over the pooled records,
as the task's metric computes them; prompt validation: ``mean_rank_generated`` and its
cluster-robust standard error over the pooled records; judge validation: the ensemble's
``alpha_ordinal`` against the human labels over the pooled records; press arguments: the mean
share of usable argument sets over the pooled statements; even-handedness: the share of
even-handed pairs and its ``stderr`` over the pooled pairs,
:func:`~inspect_stance.even_handedness.summary.summarize`; any other method: no pooled headline (NaN) and a ``pool_note`` saying so), tokens, calls and
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
    """``(value, stderr)`` of the pooled run of the shard logs ``paths`` as ``report``
    computes it (module docstring); ``None`` for a method not pooled here."""
    import math

    if method == "stance_drift":
        from inspect_stance.drift.logs import read_drift_log
        from inspect_stance.drift.report.analysis import build_report
        from inspect_stance.shards.drift import pool_drift_runs

        [run] = pool_drift_runs([read_drift_log(p) for p in paths], partial=True)
        main = build_report(run).main
        return float(main.spr), float(main.spr_se)
    if method == "press":
        from inspect_stance.press.logs import pool_press_runs, read_press_log
        from inspect_stance.press.summary import HEADLINE, run_metrics

        [press] = pool_press_runs([read_press_log(p) for p in paths], partial=True)
        metrics = run_metrics(press.records)
        se = metrics.get("stderr")
        return float(metrics[HEADLINE] or math.nan), math.nan if se is None else float(se)
    if method == "prompt_construction":
        return _construction_headline(paths)
    if method == "even_handedness":
        return _even_headline(paths)
    if method == "prompt_validation":
        return _validation_headline(paths)
    if method == "judge_validation":  # the ensemble's ordinal alpha; the task gives no stderr
        from inspect_stance.construction.agreement import human_agreement
        from inspect_stance.construction.report_records import read_records

        alpha = human_agreement(read_records(paths, partial=True)[0]).ensemble.alpha_ordinal
        return float(alpha), math.nan
    if method == "press_arguments":  # the statements' mean share of usable sets; no stderr
        from inspect_stance.logfile import read_log

        scores = [x.value for p in paths for sample in read_log(p).samples or []
                  for x in (sample.scores or {}).values()]  # fmt: skip
        values = [float(v) for v in scores if isinstance(v, int | float)]
        return sum(values) / len(values) if values else math.nan, math.nan
    return None


def _validation_headline(paths: Sequence[str]) -> tuple[float, float]:
    """``mean_rank_generated`` and its cluster-robust standard error (settings as clusters)
    over the pooled records, as the task's ``realism`` metric computes them."""
    import math

    from inspect_stance.validation.analysis import realism_of, rows_from_records
    from inspect_stance.validation.logs import read_validation_runs
    from inspect_stance.validation.realism import generated_rank_stderr

    [run], _found = read_validation_runs(paths, partial=True)
    rows = rows_from_records(run.records)
    return float(realism_of(rows).get("mean_rank_generated", math.nan)), generated_rank_stderr(rows)


def _even_headline(paths: Sequence[str]) -> tuple[float, float]:
    """``even_handedness`` and its ``stderr`` over the pooled pairs: the method's
    ``TaskHeadline.pooled`` (:func:`inspect_stance.even_handedness.surfaces.pooled`)."""
    from inspect_stance.even_handedness.surfaces import pooled

    h = pooled(paths, True)
    return h.value, h.se


def _construction_headline(paths: Sequence[str]) -> tuple[float, float]:
    """``mean_difference`` and its paired standard error over the pooled records, as the
    task's metric computes them (``neutral_comparison`` and ``paired_stderr``, with the run's
    ``-T ensemble``)."""
    from inspect_ai.log import read_eval_log

    from inspect_stance.construction.comparison import (
        neutral_comparison,
        paired_stderr,
        setting_summaries,
    )
    from inspect_stance.construction.ensemble import check_ensemble, with_ensemble
    from inspect_stance.construction.report_records import read_records

    args = read_eval_log(paths[0], header_only=True).eval.task_args or {}
    records = with_ensemble(read_records(paths, partial=True)[0],
                            check_ensemble(args.get("ensemble") or "majority"))  # fmt: skip
    summaries = setting_summaries(records)
    c = neutral_comparison(records, summaries=summaries)
    return float(c.mean_difference), paired_stderr(summaries)


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
