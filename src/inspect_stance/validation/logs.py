"""Reading ``prompt_validation`` logs back: one run per study, the shards of a study pooled.

A log's records are the score metadata of its scored samples (:func:`score_records`). The
shards of one study (``-T shard=K/N``, or Inspect's ``<name>.shards/`` layout) are one run
(:func:`inspect_stance.shards.layout.group_logs`): each shard holds whole settings
(:func:`inspect_stance.shards.select` by setting key), and every figure of the report,
``compare`` and ``gate`` is a function of the settings' records, so the pooled run, its records
in the order the unsharded run lists its settings (:func:`plan_order`), reports what the
unsharded run reports. Shards that do not pool are refused in one line (another study, a shard
given twice, other models or settings), an incomplete set (``"1 of 2 shards ... missing"``)
unless ``partial``, which names the run ``(k of N shards)``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from inspect_stance.errors import InputError
from inspect_stance.logfile import find_task_logs, read_task_log
from inspect_stance.shards.layout import group_logs

if TYPE_CHECKING:
    from inspect_ai.log import EvalLog

    from inspect_stance.logfile import FoundLogs

TASKS: tuple[str, ...] = ("prompt_validation",)
WHAT = "prompt_validation run"


def score_records(log: EvalLog) -> list[dict[str, Any]]:
    """The validation records (score metadata with ``annotations``) of a log's samples."""
    records = []
    for sample in log.samples or []:
        for score in (sample.scores or {}).values():
            if score.metadata and "annotations" in score.metadata:
                records.append(score.metadata)
                break
    return records


@dataclass
class ValidationLogRun:
    """One prompt_validation run as read from its log(s): a whole run (one log) or the shards
    of one study pooled."""

    #: the run's logs (one, or its shards' in the order given)
    paths: list[Path]
    #: the score records of every log, in the run's setting order (:func:`plan_order`)
    records: list[dict[str, Any]]
    #: the first log's task metadata
    metadata: dict[str, Any] = field(default_factory=dict)
    #: ``" (k of N shards)"`` for an incomplete set read with ``partial``, else empty
    suffix: str = ""

    @property
    def pooled(self) -> bool:
        """Whether the run is shards pooled (a complete or partial set)."""
        return len(self.paths) > 1 or bool(self.suffix)


def plan_order(metadata: Mapping[str, Any]) -> Any:
    """The sort key that lists records as the task lists its settings: topics, then intents,
    then user stances, each in the order the task metadata records them (``topics``,
    ``intents``, ``stances``); a value not recorded sorts last, by its text."""
    lists = [list(metadata.get(k) or []) for k in ("topics", "intents", "stances")]
    fields = ("topic_id", "intent", "stance")

    def key(record: Mapping[str, Any]) -> tuple[tuple[int, str], ...]:
        out = []
        for values, name in zip(lists, fields, strict=True):
            v = record.get(name)
            out.append((values.index(v), "") if v in values else (len(values), str(v)))
        return tuple(out)

    return key


def read_validation_runs(
    paths: Sequence[str | Path], partial: bool = False
) -> tuple[list[ValidationLogRun], FoundLogs]:
    """The prompt_validation runs among ``paths`` (files and folders: other tasks' logs in a
    folder are skipped, a repeated log counted once, as :func:`inspect_stance.logfile.
    find_task_logs` does), the shards of each study pooled (module docstring), and what was
    found. One-line ``InputError`` for shards that do not pool."""

    found = find_task_logs(paths, TASKS, WHAT)
    groups, suffix = group_logs(found.paths, partial)
    runs: list[ValidationLogRun] = []
    for group in groups:
        logs = [read_task_log(p, TASKS, WHAT) for p in group]
        metadata = dict(logs[0].eval.metadata or {})
        records = [r for log in logs for r in score_records(log)]
        if len(group) > 1:
            records.sort(key=plan_order(metadata))
        runs.append(ValidationLogRun(list(group), records, metadata, suffix.get(group[0], "")))
    return runs, found


def read_validation_run(path: str | Path, partial: bool = False) -> ValidationLogRun:
    """The one prompt_validation run at ``path`` (a log, or a folder of one study's shards);
    a one-line ``InputError`` for a folder of several runs."""
    runs, _found = read_validation_runs([path], partial)
    if len(runs) != 1:
        raise InputError(
            f"{path}: holds {len(runs)} prompt_validation runs, not one study; name one run's "
            "log or a folder of one study's shards"
        )
    return runs[0]
