"""Dataframes of inspect-stance runs for a notebook, joinable with ``inspect_ai.analysis``.

- :func:`runs_df`: one row per run: Inspect's ``evals_df`` columns (``eval_id``,
  ``task_name``, ``model``, ``score_headline_*`` ...) plus ``method``, the headline as the
  run's scorer wrote it into the log (:func:`inspect_stance.analysis.headline.log_headline`:
  ``headline_metric``, ``headline_value``, ``headline_stderr``, ``ci_lo`` / ``ci_hi`` (its
  interval, clipped to the metric's range), ``n_items`` and ``n_clusters`` (what the value
  averages and what its standard error counts as independent); NaN for a task no method
  declares a headline for), ``n_samples`` (scored samples), ``total_tokens`` (every
  model's tokens in the run), ``model_calls`` (the model calls it made: its samples' model
  events; for stance drift, whose trials log none, trials run and not replayed x calls per
  trial), ``study`` and ``target`` (an ``inspect-stance study`` run's
  study and target, from its eval metadata; ``target`` is the model for any other run),
  ``provenance_notes`` (a model whose calls came from more than one system fingerprint).
  The shards of one study (``-T shard=K/N``) are one row (:mod:`.pooled`): the pooled run's
  headline from its method's run (``TaskHeadline.load``: the shards merged, the scorer's rule),
  ``shards`` (``"2 of 2"``; None for a whole run), ``partial`` (an incomplete set, pooled and
  said), ``logs`` and ``eval_ids`` (every shard's).
- :func:`items_df`: one row per run x item x metric value: ``eval_id``, ``task_name``,
  ``model``, ``sample_id`` (Inspect's sample uuid), ``id`` (the dataset's sample id), ``epoch``, ``item`` (proposition key / statement id / setting / topic id, the first present),
  ``score`` (the scorer, or the key of a dict-valued score), ``value``, ``level``
  (``sample``); and, for a task whose headline has item-level values (its method's run,
  :attr:`~inspect_stance.study.protocol.TaskHeadline.load`, and its ``items`` of the headline's
  metric: :func:`inspect_stance.study.registry.task_items`), one row per item the headline
  averages: ``level`` ``headline``, ``score`` the headline metric, ``item``, ``cluster`` (what
  its standard error counts as independent) and the item's ``value``.
- a method's own dataframes live in its package (stance drift's trials:
  :func:`inspect_stance.drift.dataframes.trials_df`).

``eval_id`` and ``sample_id`` are Inspect's, so ``runs_df(logs).merge(samples_df(logs),
on="eval_id")`` works. ``logs``: a log file or folder, or a list of them (as
``inspect_ai.analysis`` takes). Inspect is imported only when a function is called.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from inspect_stance.analysis.headline import HEADLINE_COLUMNS, headline_columns, log_headline
from inspect_stance.analysis.pooled import pool_rows
from inspect_stance.errors import InputError
from inspect_stance.logfile import read_log
from inspect_stance.printable import printable
from inspect_stance.runs import measured_model
from inspect_stance.study.registry import subject_role, task_headline, task_items

if TYPE_CHECKING:
    import pandas as pd
    from inspect_ai.log import EvalLog

LogPaths = str | Path | Sequence[str | Path]

#: the sample-metadata key naming the item each task's sample is about
ITEM_KEYS: tuple[str, ...] = ("proposition_key", "statement_id", "setting", "topic_id")


def _paths(logs: LogPaths) -> list[str]:
    from inspect_ai.log import list_eval_logs

    items = [logs] if isinstance(logs, (str, Path)) else list(logs)
    out: list[str] = []
    for item in items:
        p = Path(item)
        if p.is_dir():
            names = (info.name for info in list_eval_logs(str(p)))
            out.extend(sorted(n.removeprefix("file://") for n in names))
        else:
            out.append(str(p))
    return out


def _read(logs: LogPaths, strict: bool = False) -> Iterator[tuple[str, EvalLog]]:
    """Each readable log with its path; an unreadable one is set aside (:func:`_set_aside`)."""

    for path in _paths(logs):
        try:
            log = read_log(path)
        except Exception as ex:  # noqa: BLE001 - any unreadable file is set aside, named
            _set_aside(path, ex, strict)
            continue
        yield path, log


def _set_aside(path: str, ex: BaseException, strict: bool) -> None:
    """A corrupt or foreign log: a one-line warning naming it (``strict``: a one-line
    ``InputError``)."""
    import warnings

    del ex  # its text is the reader's (e.g. a zip library's), not the user's
    what = f"{path}: not readable as an Inspect log (corrupt, truncated or not a log)"
    if strict:
        raise InputError(printable(f"{what}; remove it, or drop --strict to set it aside"))
    line = printable(f"set aside {what}")
    warnings.warn(line, SetAsideWarning, stacklevel=3)


class SetAsideWarning(UserWarning):
    """A log file set aside by :func:`runs_df` / :func:`items_df` (its message names it)."""


#: ``model_args`` / ``model_base_url`` columns carrying a credential (``user:password@`` in a URL,
#: or an ``api_key``-like argument) have it replaced by this
REDACTED = "REDACTED"


def _redact(value: Any) -> Any:
    """``value`` with a URL's password (``scheme://user:password@host``) and the values of keys
    naming a credential (``api_key``, ``token``, ``password``, ``secret``) replaced by
    :data:`REDACTED`; other values unchanged."""
    import re

    if isinstance(value, str):
        text = re.sub(r"(://[^/@\s:]*:)[^/@\s]*@", rf"\g<1>{REDACTED}@", value)
        return re.sub(
            r'("?(?:api[_-]?key|token|password|secret)"?\s*[:=]\s*)("[^"]*"|[^,}\s]+)',
            rf'\g<1>"{REDACTED}"',
            text,
            flags=re.I,
        )
    return value


def runs_df(logs: LogPaths, strict: bool = False) -> pd.DataFrame:
    """One row per run (module docstring): ``evals_df`` plus the headline and its interval.
    A corrupt or unreadable log is set aside with a :class:`SetAsideWarning` naming it
    (``strict``: a one-line ``InputError``); a credential in ``model_args`` /
    ``model_base_url`` is redacted."""
    import pandas as pd
    from inspect_ai.analysis import evals_df

    read = list(_read(_paths(logs), strict))
    # Inspect's columns from the logs already read (not their files opened once more)
    df = evals_df([log for _p, log in read], quiet=True) if read else pd.DataFrame()
    if df.empty:
        return df
    for column in ("model_args", "model_base_url"):
        if column in df.columns:
            df[column] = df[column].map(_redact)
    df["method"] = df["task_name"]
    logs_read = [log for _p, log in read]

    columns = {
        log.eval.eval_id: headline_columns(log_headline(log), _first_metric(log))
        for log in logs_read
    }
    for key in HEADLINE_COLUMNS:
        df[key] = df["eval_id"].map({k: c[key] for k, c in columns.items()})
    df["n_samples"] = df["eval_id"].map({log.eval.eval_id: _n_samples(log) for log in logs_read})
    from inspect_stance.study_file.flow import study_labels

    # a study's labels: eval metadata (inspect-stance study), the target a tag in a Flow run
    labels = {log.eval.eval_id: study_labels(log.eval.metadata, log.eval.tags) for log in logs_read}
    df["study"] = df["eval_id"].map({k: m.get("stance_study") for k, m in labels.items()})
    df["target"] = df["eval_id"].map(
        {
            log.eval.eval_id: labels[log.eval.eval_id].get("stance_target")
            or measured_model(log.eval.model, log.eval.model_roles, subject_role(log.eval.task))
            for log in logs_read
        }  # fmt: skip
    )
    df["total_tokens"] = df["eval_id"].map({log.eval.eval_id: _tokens(log) for log in logs_read})
    df["model_calls"] = df["eval_id"].map({log.eval.eval_id: _calls(p, log) for p, log in read})

    return pool_rows(df, read)


def _tokens(log: EvalLog) -> int:
    """Tokens of every model call of the run (Inspect's ``stats.model_usage``, all models)."""
    usage = log.stats.model_usage if log.stats else {}
    return int(sum(u.total_tokens or 0 for u in usage.values()))


def _calls(path: str, log: EvalLog) -> int:
    """Model calls the run made: its samples' model events (the samples streamed once more,
    without their messages); a stance-drift run, whose trials log no events,
    ``(trials_run - trials_replayed) x model_calls_per_trial``."""
    from inspect_ai.log import read_eval_log_samples

    samples = read_eval_log_samples(path, all_samples_required=False,
                                    exclude_fields={"messages", "attachments", "store"})  # fmt: skip
    n = sum(1 for s in samples for e in s.events if e.event == "model")
    per_trial = (log.eval.metadata or {}).get("model_calls_per_trial")
    if n or not per_trial or not log.results or not log.results.scores:
        return n
    metrics = log.results.scores[0].metrics
    # "trials" (the trials scored, the panel's count) equals the older logs' "trials_run"
    key = "trials_run" if "trials_run" in metrics else "trials"
    run = metrics[key].value if key in metrics else 0
    replayed = metrics["trials_replayed"].value if "trials_replayed" in metrics else 0
    return int(round((run - replayed) * float(per_trial)))


def _n_samples(log: EvalLog) -> int:
    return sum(1 for s in log.samples or [] if s.scores)


def _first_metric(log: EvalLog) -> str | None:
    """The log's first metric (the headline's place), named when no headline is declared."""
    scores = log.results.scores if log.results else []
    return next((name for score in scores for name in score.metrics), None)


def _item(meta: dict[str, Any], sample_id: Any) -> str:
    for key in ITEM_KEYS:
        if meta.get(key) is not None:
            return str(meta[key])
    return str(sample_id)


def items_df(logs: LogPaths, strict: bool = False) -> pd.DataFrame:
    """One row per run x item x metric value (module docstring); a dict-valued score gives
    one row per key, its ``score`` column the key. Values are at full precision: a score
    rounded for display whose metadata holds the full row (stance drift: ``row`` and
    ``initial_stance``) gives ``row[initial_stance]``. Unreadable logs as :func:`runs_df`."""
    import pandas as pd

    rows: list[dict[str, Any]] = []
    for path, log in _read(logs, strict):
        base = {"eval_id": log.eval.eval_id, "task_name": log.eval.task, "model": log.eval.model}
        for sample in log.samples or []:
            where = {
                **base,
                "sample_id": sample.uuid,
                "id": sample.id,
                "epoch": sample.epoch,
                "item": _item(sample.metadata or {}, sample.id),
                "level": "sample",
            }
            for scorer, score in (sample.scores or {}).items():
                values = (score.value if isinstance(score.value, dict)
                          else {scorer: _full_value(score)})  # fmt: skip
                for name, value in values.items():
                    rows.append({**where, "score": name, "value": _number(value)})
        spec = task_headline(log.eval.task)
        headline_items = task_items(log.eval.task, [path])
        if spec is not None and headline_items is not None:
            for item, (cluster, value) in headline_items.items():
                rows.append({**base, "item": item, "cluster": cluster, "level": "headline",
                             "score": spec.metric, "value": value})  # fmt: skip
    columns = [
        "eval_id", "task_name", "model", "sample_id", "id", "epoch", "item", "cluster", "level",
        "score", "value",
    ]  # fmt: skip
    return pd.DataFrame(rows, columns=columns)


def _full_value(score: Any) -> Any:
    """A score's value at full precision (:func:`items_df`)."""
    meta = score.metadata or {}
    row, stance = meta.get("row"), meta.get("initial_stance")
    if (isinstance(row, list) and isinstance(stance, int) and 0 <= stance < len(row)
            and isinstance(score.value, int | float) and not isinstance(score.value, bool)):  # fmt: skip
        try:
            return float(row[stance])
        except (TypeError, ValueError):
            return score.value
    return score.value


def _number(value: Any) -> Any:
    if isinstance(value, bool):
        return float(value)
    return value


__all__ = ["items_df", "runs_df"]
