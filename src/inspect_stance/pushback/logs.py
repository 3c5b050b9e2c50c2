"""Reading pushback conversation records back from Inspect eval logs (``inspect_ai.log`` on
first use): a run is the records (``Score.metadata["pushback"]``) keyed by sample id (the
conversation: ``{topic_id}-{condition}-{stance}-{trial}``, the same in every run of the same
options; epoch ``k >= 2`` of ``inspect eval --epochs N`` is one more conversation of the same
proposition, keyed ``{id}@e<k>``), the target model, the task arguments and metadata.

The shards of one study (``-T shard=K/N``, or Inspect's ``<name>.shards/<k>/`` layout) are
pooled into one run wherever runs are found (:func:`pool_runs`): their propositions, and so
their conversations, are disjoint (:mod:`inspect_stance.pushback.dataset`), and every figure is
computed from the records, so the pooled run reports what the unsharded run reports wherever
the target answered alike."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from inspect_stance.errors import InputError
from inspect_stance.logfile import epoch_key, find_task_logs, read_task_log
from inspect_stance.pushback.defaults import CONTROL, RECORD_KEY
from inspect_stance.pushback.summary import read_records, summarize
from inspect_stance.runs import log_info
from inspect_stance.shards import SHARD_KEY, ShardInfo, one_run, pool_shards
from inspect_stance.shards.layout import log_shard
from inspect_stance.stats.headline import Headline
from inspect_stance.study.protocol import ItemValues, items_of

TASKS: tuple[str, ...] = ("pushback",)
WHAT = "pushback run (inspect eval inspect_stance/pushback)"
#: the conversation-level metrics (:func:`conversation_values`)
CONVERSATION_METRICS: tuple[str, ...] = ("held_at_K", "turns_held", "flips", "final_shift")
#: the task metadata two runs must share to be compared
SETTING_KEYS: tuple[str, ...] = ("turns", "start", "framing", "styles", "control", "reader",
                                 "stances")  # fmt: skip


@dataclass
class PushbackRun:
    """The conversation records of one pushback log."""

    path: str
    model: str
    records: dict[str, dict[str, Any]]
    n_samples: int
    n_errors: int
    task_args: dict[str, Any] = field(default_factory=dict)
    metadata: dict[str, Any] = field(default_factory=dict)
    status: str = "success"
    #: the log's shard (``None``: a whole run, or a complete set of shards pooled into it)
    shard: ShardInfo | None = None

    def settings(self) -> dict[str, Any]:
        """The settings that must match for two runs to be compared."""
        return {k: str(self.metadata.get(k)) for k in SETTING_KEYS}

    def items(self, metric: str) -> ItemValues:
        """Conversation -> (proposition, value) of ``metric`` (``compare``'s items; for
        ``held_at_K`` the held 0/1 the headline averages)."""
        if metric not in CONVERSATION_METRICS:
            return {}
        values, clusters = conversation_values(self, [metric])
        return items_of(values[metric], clusters)

    def headline(self) -> Headline:
        """The run's headline by the scorer's rule (:func:`.summary.summarize`)."""
        return summarize(self.records).headline

    @classmethod
    def merge(cls, shards: Sequence[PushbackRun], partial: bool = False) -> PushbackRun:
        """One study's shards pooled into one run (:func:`pool_runs`)."""
        return one_run(pool_runs(shards, partial))


def load_pushback(paths: Sequence[str], partial: bool = False) -> PushbackRun:
    """The run of one pushback log or of one study's shard logs (pooled by
    :meth:`PushbackRun.merge`; ``partial``: an incomplete set too): the task's
    :attr:`~inspect_stance.study.protocol.TaskHeadline.load`."""
    return PushbackRun.merge([read_pushback_log(p) for p in paths], partial)


def read_pushback_log(path: str | Path) -> PushbackRun:
    """The records of every scored sample of the log at ``path``; a one-line InputError when
    the file is missing, not an Inspect log, another task's log, or holds no records."""

    p = Path(path)
    log = read_task_log(p, TASKS, WHAT)
    records: dict[str, dict[str, Any]] = {}
    errors = 0
    for sample in log.samples or []:
        errors += sample.error is not None
        for score in (sample.scores or {}).values():
            if score.metadata and isinstance(score.metadata.get(RECORD_KEY), dict):
                records[epoch_key(str(sample.id), sample.epoch)] = dict(score.metadata[RECORD_KEY])
                break
    if not records:
        raise InputError(f"log {p}: no pushback scores (status {log.status}); pass the .eval "
                         f"log of a finished {WHAT}")  # fmt: skip
    return PushbackRun(str(p), str(log.eval.model), records, len(log.samples or []), errors,
                       dict(log.eval.task_args or {}), dict(log.eval.metadata or {}),
                       str(log.status), log_shard(p, log.eval))  # fmt: skip


def merge_shards(runs: Sequence[PushbackRun]) -> PushbackRun:
    """One run from the shards of one study (checked by
    :func:`~inspect_stance.shards.group_shards`): records merged by sample id, sample and error
    counts and the metadata's ``conversations`` summed; a complete set is the whole study
    (``shard`` ``None``, no shard in its metadata or task arguments), a partial one keeps its
    first shard's ``ShardInfo`` and says "k of N shards" in its model name."""
    ordered = sorted(runs, key=lambda r: r.shard.k if r.shard else 0)
    first = ordered[0]
    n = first.shard.n if first.shard else 1
    complete = len(ordered) == n
    records = {k: v for r in ordered for k, v in r.records.items()}
    metadata = dict(first.metadata)
    if "conversations" in metadata:
        metadata["conversations"] = sum(int(r.metadata.get("conversations") or 0) for r in ordered)
    if complete:
        metadata.pop(SHARD_KEY, None)
    statuses = {r.status for r in ordered}
    return dataclasses.replace(
        first,
        model=first.model if complete else f"{first.model} ({len(ordered)} of {n} shards)",
        records={k: records[k] for k in sorted(records)},
        n_samples=sum(r.n_samples for r in ordered),
        n_errors=sum(r.n_errors for r in ordered),
        status=first.status if len(statuses) == 1 else "partial",
        task_args={k: v for k, v in first.task_args.items() if k != SHARD_KEY},
        metadata=metadata,
        shard=None if complete else first.shard,
    )


def pool_runs(runs: Sequence[PushbackRun], partial: bool = False) -> list[PushbackRun]:
    """The runs with the shards of each study pooled into one (at the first shard's place,
    :func:`merge_shards`; a shard's unfinished attempts superseded by a finished one left out,
    :func:`inspect_stance.shards.superseded`); unsharded runs unchanged. One-line
    ``InputError`` for shards that do not pool (:func:`inspect_stance.shards.group_shards`:
    another study's shard, a shard given twice, an incomplete set unless ``partial``)."""
    return pool_shards(runs, merge_shards, partial)


def find_pushback_logs(paths: Iterable[str | Path],
                       partial: bool = False) -> tuple[list[PushbackRun], str]:  # fmt: skip
    """The pushback runs among ``paths`` (files and folders), the shards of one study pooled
    (:func:`pool_runs`), and a line on what was skipped."""

    given = [Path(p) for p in paths]
    found = find_task_logs(given, TASKS, WHAT)
    runs = [read_pushback_log(p) for p in found.paths]
    if not runs:
        raise InputError(f"no log of a {WHAT} found in {', '.join(map(str, given))}")
    runs = pool_runs(runs, partial)
    return runs, "; ".join(x for x in (found.skipped_line(), found.repeated_line()) if x)


def read_run(paths: Sequence[str | Path], partial: bool = False) -> PushbackRun:
    """One run from ``paths``: a log, or logs or a folder holding one run (the shards of one
    study pooled)."""
    runs, _ = find_pushback_logs(paths, partial)
    if len(runs) != 1:
        raise InputError(f"{', '.join(map(str, paths))} holds {len(runs)} pushback runs; pass one "
                         "log (or the shards of one study)")  # fmt: skip
    return runs[0]


def run_info(run: PushbackRun) -> Any:
    """The run's :class:`~inspect_stance.runs.RunInfo` with its settings (the model and task
    arguments of a pooled run are the run's: "(k of N shards)", no shard)."""

    return dataclasses.replace(log_info(run.path), model=run.model,
                               task_args=dict(run.task_args), settings=run.settings())  # fmt: skip


def conversation_values(run: PushbackRun, metrics: Sequence[str]
                        ) -> tuple[dict[str, dict[str, float]], dict[str, str]]:  # fmt: skip
    """Per metric named (``held_at_K``, ``turns_held``, ``flips``, ``final_shift``),
    ``{conversation id: value}`` over the conversations read to the horizon (controls left
    out), and each conversation's proposition."""
    items: dict[str, dict[str, float]] = {m: {} for m in metrics}
    cluster: dict[str, str] = {}
    every = read_records(run.records)
    # the horizon is the run's, controls included, as the headline reads it (.summary.summarize)
    horizon = max((r.horizon for r in every), default=0)
    reads = [r for r in every if r.style != CONTROL]
    for r in reads:
        f = r.figures
        if f is None or f.turns < horizon:
            continue
        values = {"held_at_K": 1.0 if f.held_through else 0.0,
                  "turns_held": float(f.turns_held(horizon)), "flips": float(f.flips),
                  "final_shift": f.final_shift}  # fmt: skip
        for m in metrics:
            items[m][r.id] = values[m]
        cluster[r.id] = r.proposition
    return items, cluster
