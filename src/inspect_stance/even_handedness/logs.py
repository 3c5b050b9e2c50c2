"""Reading even-handedness pair records back from Inspect eval logs (``inspect_ai.log`` lazily).

A run is the per-pair records (``Score.metadata["even_handedness"]``) keyed by the sample id
(``{topic}-{index}``: content, the same pair in every run; epoch ``k >= 2`` of ``inspect eval
--epochs N`` is one more pair of the same topic, keyed ``{id}@e<k>``), the target model, the graders
(``--model-role graders=...``), the task arguments and the task metadata (orders judged,
thresholds). Logs are found and read with the shared :mod:`inspect_stance.logfile` helpers; a
folder may hold other tasks' logs, which are skipped and counted.

The shards of one study (``-T shard=K/N``, or Inspect's ``<name>.shards/<k>/`` layout) are
pooled into one run wherever runs are found (:func:`pool_even_runs`): their pairs are disjoint
(:mod:`inspect_stance.even_handedness.dataset`) and every figure of the report is a share,
mean or clustered error over pairs, so the pooled run, its records in the unsharded run's
order, reports what the unsharded run reports wherever the target and graders answered alike.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from inspect_stance.errors import InputError
from inspect_stance.even_handedness.keys import GRADERS_ROLE, RECORD
from inspect_stance.even_handedness.position import headline_items
from inspect_stance.even_handedness.summary import headline
from inspect_stance.logfile import epoch_key, find_task_logs, read_task_log, sample_of
from inspect_stance.runs import RunInfo, log_info, role_model_names
from inspect_stance.shards import SHARD_KEY, ShardInfo, one_run, pool_shards
from inspect_stance.shards.layout import log_shard
from inspect_stance.stats.headline import Headline
from inspect_stance.study.protocol import ItemValues

EVEN_TASKS: tuple[str, ...] = ("even_handedness",)
WHAT = "even-handedness run (inspect eval inspect_stance/even_handedness)"
#: settings two runs must share to be compared (``RunInfo.settings``)
SETTING_KEYS: tuple[str, ...] = ("judged_orders", "readout", "threshold", "hedging_threshold",
                                 "graders")  # fmt: skip


#: item metric -> the record's key
RECORD_KEYS: dict[str, str] = {
    "even_handedness": "even_handed",
    "p_even": "p_even",
    "refusal_rate": "refusal",
    "hedging_rate": "hedging",
    "direction": "direction",
}


@dataclass
class EvenRun:
    """The pair records of one even-handedness log (one target model)."""

    path: str
    model: str
    records: dict[str, dict[str, Any]]
    graders: list[str]
    n_samples: int
    n_errors: int
    status: str
    task_args: dict[str, Any] = field(default_factory=dict)
    metadata: dict[str, Any] = field(default_factory=dict)
    #: the log's shard (``None``: a whole run, or a complete set of shards pooled into it;
    #: :func:`pool_even_runs`)
    shard: ShardInfo | None = None

    def settings(self) -> dict[str, Any]:
        """The settings that must match for two runs to be compared (:data:`SETTING_KEYS`)."""
        return {
            "judged_orders": ",".join(self.metadata.get("judged_orders") or []),
            # logs written before the read-out was an option averaged P(C) over the orders
            "readout": self.metadata.get("readout", "mean-p-c"),
            "threshold": self.metadata.get("threshold"),
            "hedging_threshold": self.metadata.get("hedging_threshold"),
            "graders": ",".join(sorted(self.graders)),
        }

    def items(self, metric: str) -> ItemValues:
        """Pair -> (topic, value) of ``metric`` over the pairs where it is known
        (``compare``'s items; :data:`RECORD_KEYS` names each metric's record key; the headline's
        are the pairs' position-corrected values, :func:`.position.headline_items`)."""
        if metric == "even_handedness":
            return {sid: (topic_of(self, sid), v)
                    for sid, v in headline_items(self.records).items()}  # fmt: skip
        key = RECORD_KEYS.get(metric)
        return {sid: (topic_of(self, sid), float(r[key])) for sid, r in self.records.items()
                if key is not None and r.get(key) is not None}  # fmt: skip

    def headline(self) -> Headline:
        """The run's headline by the scorer's rule (:func:`.summary.headline`)."""

        return headline(list(self.records.values()))

    @classmethod
    def merge(cls, shards: Sequence[EvenRun], partial: bool = False) -> EvenRun:
        """One study's shards pooled into one run (:func:`pool_even_runs`)."""
        return one_run(pool_even_runs(shards, partial))


def _graders(roles: Any) -> list[str]:
    return role_model_names(roles).get(GRADERS_ROLE, [])


def pair_order(sample_id: str) -> tuple[int, str]:
    """Sort key of a pair record: its place in the packaged set (the index ending the sample
    id ``{topic}-{index}``, an epoch's ``@e<k>`` aside), then the key."""
    tail = sample_of(sample_id).rsplit("-", 1)[-1]
    return (int(tail) if tail.isdigit() else -1, sample_id)


def _sorted(records: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
    return {k: records[k] for k in sorted(records, key=pair_order)}


def load_even(paths: Sequence[str], partial: bool = False) -> EvenRun:
    """The one run of ``paths`` (a log, or the shard logs of one study pooled by
    :func:`pool_even_runs`; ``partial``: an incomplete set too): the task's
    :attr:`~inspect_stance.study.protocol.TaskHeadline.load`."""
    runs = pool_even_runs([read_even_log(p) for p in paths], partial=partial)
    if len(runs) != 1:
        raise InputError(f"{len(runs)} even-handedness runs in {len(paths)} logs; pass the logs "
                         "of one run (or the shards of one study)")  # fmt: skip
    return runs[0]


def read_even_log(path: str | Path) -> EvenRun:
    """The records of every scored sample of the log at ``path``; one-line InputError when the
    file is missing, is not an Inspect log, is another task's log, or holds no pair records."""

    p = Path(path)
    log = read_task_log(p, EVEN_TASKS, WHAT)
    records: dict[str, dict[str, Any]] = {}
    n_errors = 0
    for sample in log.samples or []:
        if sample.error is not None:
            n_errors += 1
        for score in (sample.scores or {}).values():
            if score.metadata and isinstance(score.metadata.get(RECORD), dict):
                records[epoch_key(str(sample.id), sample.epoch)] = dict(score.metadata[RECORD])
                break
    if not records:
        raise InputError(
            f"log {p}: no even-handedness scores (status {log.status}); pass the .eval log of a "
            f"finished {WHAT}"
        )
    return EvenRun(
        path=str(p),
        model=str(log.eval.model),
        records=_sorted(records),
        graders=_graders(log.eval.model_roles),
        n_samples=len(log.samples or []),
        n_errors=n_errors,
        status=str(log.status),
        task_args=dict(log.eval.task_args or {}),
        metadata=dict(log.eval.metadata or {}),
        shard=log_shard(p, log.eval),
    )


def find_even_logs(paths: Iterable[str | Path], partial: bool = False) -> tuple[list[EvenRun], str]:
    """The even-handedness runs among ``paths`` (files and folders) and the line saying what was
    skipped (empty when nothing was); the shards of one study pooled into one run
    (:func:`pool_even_runs`; ``partial``: an incomplete set too). Inside a folder a log without
    pair records is skipped and counted; named explicitly, it is an error."""

    given = [Path(p) for p in paths]
    found = find_task_logs(given, EVEN_TASKS, WHAT)
    explicit = {p for p in given if not p.is_dir()}
    runs: list[EvenRun] = []
    unscored = 0
    for path in found.paths:
        try:
            runs.append(read_even_log(path))
        except InputError:
            if path in explicit:
                raise
            unscored += 1
    skipped = found.skipped_line()
    if unscored:
        extra = f"{unscored} even-handedness log{'s' if unscored != 1 else ''} without scores"
        skipped = f"{skipped} and {extra}" if skipped else f"skipped {extra}"
    if not runs:
        raise InputError(f"no scored log of an {WHAT} found in {', '.join(map(str, given))}"
                         + (f" ({skipped})" if skipped else ""))  # fmt: skip
    runs = pool_even_runs(runs, partial)
    return runs, "; ".join(x for x in (skipped, found.repeated_line()) if x)


def read_even_run(path: str | Path, partial: bool = False) -> EvenRun:
    """One even-handedness run: a log (:func:`read_even_log`), or a folder holding one run (the
    shards of one study, pooled); a folder of several runs is a one-line ``InputError``."""
    if not Path(path).is_dir():
        run = read_even_log(path)
        [pooled] = pool_even_runs([run], partial)
        return pooled
    runs, _skipped = find_even_logs([path], partial)
    if len(runs) != 1:
        raise InputError(f"{path}: holds {len(runs)} even-handedness runs, not one study; name "
                         "one run's log or folder")  # fmt: skip
    return runs[0]


def merge_even_shards(runs: Sequence[EvenRun]) -> EvenRun:
    """One run from the shards of one study (checked by
    :func:`~inspect_stance.shards.group_shards`): records merged by pair id in the packaged
    set's order, sample and error counts and the metadata's ``pairs`` and ``human_labelled``
    summed; a complete set is the whole study (``shard`` ``None``, no shard in its metadata or
    task arguments), a partial one (``partial``) keeps its first shard's ``ShardInfo`` and says
    "k of N shards" in its model name."""
    ordered = sorted(runs, key=lambda r: r.shard.k if r.shard else 0)
    first = ordered[0]
    n = first.shard.n if first.shard else 1
    complete = len(ordered) == n
    records: dict[str, dict[str, Any]] = {}
    for r in ordered:
        records.update(r.records)
    metadata = dict(first.metadata)
    for key in ("pairs", "human_labelled"):
        if key in metadata:
            metadata[key] = sum(int(r.metadata.get(key) or 0) for r in ordered)
    if complete:
        metadata.pop(SHARD_KEY, None)
    statuses = {r.status for r in ordered}
    return dataclasses.replace(
        first,
        model=first.model if complete else f"{first.model} ({len(ordered)} of {n} shards)",
        records=_sorted(records),
        n_samples=sum(r.n_samples for r in ordered),
        n_errors=sum(r.n_errors for r in ordered),
        status=first.status if len(statuses) == 1 else "partial",
        task_args={k: v for k, v in first.task_args.items() if k != SHARD_KEY},
        metadata=metadata,
        shard=None if complete else first.shard,
    )


def pool_even_runs(runs: Sequence[EvenRun], partial: bool = False) -> list[EvenRun]:
    """The runs with the shards of each study pooled into one (at the first shard's place,
    :func:`merge_even_shards`; a shard's unfinished attempts superseded by a finished one left
    out, :func:`inspect_stance.shards.superseded`); unsharded runs unchanged. One-line
    ``InputError`` for shards that do not pool (:func:`inspect_stance.shards.group_shards`:
    another study's shard, a shard given twice, an incomplete set unless ``partial``)."""
    return pool_shards(runs, merge_even_shards, partial)


def run_info(run: EvenRun) -> Any:
    """The run's :class:`inspect_stance.runs.RunInfo` with its settings filled in (the model
    and task arguments of a pooled run are the run's: "(k of N shards)", no shard)."""

    try:
        info = log_info(run.path)
    except Exception:  # noqa: BLE001 - read once already; a header that fails is no identity
        info = RunInfo(source=run.path, run_id=f"path:{run.path}", model=run.model)
    info.model = run.model
    info.task_args = dict(run.task_args)
    info.settings = run.settings()
    return info


def topic_of(run: EvenRun, sid: str) -> str:
    """The topic (cluster) of pair ``sid``."""
    return str(run.records[sid].get("topic_name") or sid.rsplit("-", 1)[0])
