"""Reading PReSS statement records back from Inspect eval logs (``inspect_ai.log`` imported lazily).

Logs are found and read with the shared :mod:`inspect_stance.logfile` helpers (one pass, one
wording for every error); a folder may hold other tasks' logs, which are skipped and counted.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from inspect_stance.errors import InputError
from inspect_stance.logfile import epoch_keys, find_task_logs, read_task_log
from inspect_stance.press.arguments import (
    arguments_fingerprint,
    log_arguments_fingerprint,
    table_from_samples,
)
from inspect_stance.press.faithfulness import OUTCOMES, faithfulness
from inspect_stance.press.labels import is_stable
from inspect_stance.press.stability import (
    HEADLINE,
    stability_headline,
    stability_items,
    topic_stability,
)
from inspect_stance.provenance import merge, samples_provenance
from inspect_stance.runs import role_model_names
from inspect_stance.shards import ShardInfo, one_run, pool_shards
from inspect_stance.shards.layout import log_shard
from inspect_stance.stats.family import RunItems
from inspect_stance.stats.headline import Headline
from inspect_stance.study.protocol import ItemValues, items_of

PRESS_TASKS: tuple[str, ...] = ("press",)
WHAT = "PReSS run (inspect eval tasks/press.py)"


@dataclass
class PressRun:
    """The PReSS records of one log (one model)."""

    path: str
    model: str
    records: list[dict[str, Any]]
    n_samples: int
    n_errors: int
    status: str
    task_args: dict[str, Any] = field(default_factory=dict)
    metadata: dict[str, Any] = field(default_factory=dict)  # the log's eval (task) metadata
    model_roles: dict[str, str] = field(default_factory=dict)  # role -> model name
    fingerprint: str | None = None  # of the arguments its samples faced, computed when read
    #: ``-T shard=K/N`` of the log (``None``: a whole run, or shards pooled into it;
    #: :func:`pool_press_runs`)
    shard: ShardInfo | None = None
    #: a shard's arguments (statement -> sets), kept to fingerprint the pooled study's arguments
    argument_table: dict[str, Any] | None = None
    #: who answered the run's calls (:mod:`inspect_stance.provenance`)
    provenance: list[dict[str, Any]] = field(default_factory=list)

    @property
    def arguments_source(self) -> str | None:
        """Where the run's arguments came from (task metadata ``arguments_source``:
        ``arguer:<model>``, ``target:<model>``, ``log:<path>`` or ``file:<path>``)."""
        value = self.metadata.get("arguments_source")
        return None if value is None else str(value)

    @property
    def arguments_origin(self) -> str | None:
        """The ``arguments_source`` of the log the arguments were reused from, if recorded."""
        value = self.metadata.get("arguments_origin")
        return None if value is None else str(value)

    @property
    def arguments_fingerprint(self) -> str | None:
        """Fingerprint of the run's arguments: the task metadata ``arguments_fingerprint`` (runs
        given their arguments), else the one computed from the arguments in its samples."""
        value = self.metadata.get("arguments_fingerprint")
        return str(value) if value else self.fingerprint

    def settings(self) -> dict[str, Any]:
        """The settings that must match for two runs to be compared: the task arguments that
        change what is measured and the arguments' fingerprint."""
        return {**setting_values(self.task_args),
                "arguments_fingerprint": self.arguments_fingerprint}  # fmt: skip

    def items(self, metric: str) -> ItemValues:
        """Statement -> (statement, value) of ``metric`` without a persona (``compare``'s
        items; each statement its own cluster); for the headline's metric (``mean_S_t``) the
        values the headline averages (:func:`.stability.stability_items`)."""
        if metric == HEADLINE:
            return stability_items(self.records)
        found = press_items(self, self.model)
        return items_of(found.items.get(metric, {}), found.clusters)

    def headline(self) -> Headline:
        """The run's headline by the scorer's rule (:func:`.figures.stability_headline`)."""
        return stability_headline(self.records)

    @classmethod
    def merge(cls, shards: Sequence[PressRun], partial: bool = False) -> PressRun:
        """One study's shards pooled into one run (:func:`pool_press_runs`)."""
        return one_run(pool_press_runs(shards, partial))


def load_press(paths: Sequence[str], partial: bool = False) -> PressRun:
    """The run of one PReSS log or of one study's shard logs (pooled by :meth:`PressRun.merge`;
    ``partial``: an incomplete set too): the task's
    :attr:`~inspect_stance.study.protocol.TaskHeadline.load`."""
    return PressRun.merge([read_press_log(p) for p in paths], partial)


def _role_models(roles: Any) -> dict[str, str]:
    return {role: ", ".join(names) for role, names in role_model_names(roles).items()}


def read_press_log(path: str | Path) -> PressRun:
    """Records (PReSS ``Score.metadata``) of every scored sample of the log at ``path``.

    :class:`~inspect_stance.errors.InputError` (one line) when the file is missing, is not an
    Inspect log, is another task's log, or holds no PReSS scores.
    """

    p = Path(path)
    log = read_task_log(p, PRESS_TASKS, WHAT)
    scored: list[tuple[int, dict[str, Any]]] = []
    n_errors = 0
    for sample in log.samples or []:
        if sample.error is not None:
            n_errors += 1
        for score in (sample.scores or {}).values():
            if score.metadata and score.metadata.get("press"):
                scored.append((int(sample.epoch or 1), dict(score.metadata)))
                break
    if not scored:
        raise InputError(
            f"log {p}: no PReSS scores (status {log.status}); pass the .eval log of a finished {WHAT}"
        )
    # a statement's records in epoch order (under --epochs N its k-th record is epoch k)
    scored.sort(key=lambda x: (int(x[1].get("statement_id", 0)), x[1]["statement"], x[0]))
    records = [r for _, r in scored]
    shard = log_shard(p, log.eval)
    return PressRun(
        path=str(p),
        model=str(log.eval.model),
        records=records,
        n_samples=len(log.samples or []),
        n_errors=n_errors,
        status=str(log.status),
        task_args=dict(log.eval.task_args or {}),
        metadata=dict(log.eval.metadata or {}),
        model_roles=_role_models(log.eval.model_roles),
        fingerprint=log_arguments_fingerprint(log),
        shard=shard,
        argument_table=dict(table_from_samples(log.samples or [])) if shard else None,
        provenance=samples_provenance(log.samples or []),
    )


def find_press_logs(
    paths: Iterable[str | Path], partial: bool = False
) -> tuple[list[PressRun], str]:
    """The PReSS runs among ``paths`` (files and folders) and the line saying what was skipped
    (empty when nothing was); see :func:`inspect_stance.logfile.find_task_logs`. The shards of
    one study are pooled into one run (:func:`pool_press_runs`;
    ``partial``: an incomplete set too).

    Inside a folder, a PReSS log without PReSS scores (a cancelled or failed run) is skipped
    and counted too; named explicitly, it is an error.
    """

    given = [Path(p) for p in paths]
    found = find_task_logs(given, PRESS_TASKS, WHAT)
    explicit = {p for p in given if not p.is_dir()}
    runs: list[PressRun] = []
    unscored: list[Path] = []
    for path in found.paths:
        try:
            runs.append(read_press_log(path))
        except InputError:
            if path in explicit:
                raise
            unscored.append(path)
    skipped = found.skipped_line()
    if unscored:
        n = len(unscored)
        extra = f"{n} PReSS log{'s' if n != 1 else ''} without scores"
        skipped = f"{skipped} and {extra}" if skipped else f"skipped {extra}"
    if not runs:
        raise InputError(
            f"no scored log of a {WHAT} found in {', '.join(map(str, given))} ({skipped})"
        )
    runs = pool_press_runs(runs, partial)
    return runs, "; ".join(x for x in (skipped, found.repeated_line()) if x)


def read_press_run(path: str | Path, partial: bool = False) -> PressRun:
    """One PReSS run: a log (:func:`read_press_log`), or a folder holding one run (the shards
    of one study, pooled); a folder of several runs is a one-line ``InputError``, and so is
    one shard's log without ``partial`` (:func:`pool_press_runs`)."""
    if not Path(path).is_dir():
        return pool_press_runs([read_press_log(path)], partial)[0]
    runs, _skipped = find_press_logs([path], partial)
    if len(runs) != 1:
        raise InputError(
            f"{path}: holds {len(runs)} PReSS runs, not one study; name one run's log or folder"
        )
    return runs[0]


def _shards_fingerprint(ordered: Sequence[PressRun]) -> str | None:
    """The pooled run's arguments fingerprint: the one given to every shard (``-T arguments``:
    the file's, in the task metadata), else that of the shards' argument tables together (the
    fingerprint the unsharded run computes from its samples)."""

    given = {r.metadata.get("arguments_fingerprint") for r in ordered}
    if len(given) == 1 and None not in given:
        return None  # PressRun.arguments_fingerprint reads the metadata's
    table: dict[str, list[dict[str, str]]] = {}
    for r in ordered:
        table.update(r.argument_table or {})
    return arguments_fingerprint(table) if table else None


def merge_press_shards(runs: Sequence[PressRun]) -> PressRun:
    """One run from the shards of one study (checked by
    :func:`~inspect_stance.shards.group_shards`): records
    together, sample and error counts summed; a complete set is the whole study (``shard``
    ``None``), a partial one (``--partial``) keeps its first shard's ``ShardInfo`` and says
    "k of N shards" in its model name."""
    ordered = sorted(runs, key=lambda r: r.shard.k if r.shard else 0)
    first = ordered[0]
    n = first.shard.n if first.shard else 1
    complete = len(ordered) == n
    records = [rec for r in ordered for rec in r.records]
    records.sort(key=lambda r: (int(r.get("statement_id", 0)), r["statement"]))
    statuses = {r.status for r in ordered}
    return dataclasses.replace(
        first,
        model=first.model if complete else f"{first.model} ({len(ordered)} of {n} shards)",
        records=records,
        n_samples=sum(r.n_samples for r in ordered),
        n_errors=sum(r.n_errors for r in ordered),
        status=first.status if len(statuses) == 1 else "partial",
        fingerprint=_shards_fingerprint(ordered),
        shard=None if complete else first.shard,
        argument_table=None,
        provenance=merge([e for r in ordered for e in r.provenance]),
        task_args={k: v for k, v in first.task_args.items() if k != "shard"},
    )


def pool_press_runs(runs: Sequence[PressRun], partial: bool = False) -> list[PressRun]:
    """The runs with the shards of each study pooled into one (at the first shard's place;
    PReSS shards hold disjoint statements, :func:`inspect_stance.shards.select` by statement
    text, and every figure of the PReSS report is a per-statement label or a share over
    statements, so the pooled run, its statement records in the unsharded run's order, reports
    what the unsharded run reports wherever the target answered the same);
    unsharded runs unchanged. One-line ``InputError`` for shards that do not pool
    (:func:`inspect_stance.shards.group_shards`; ``partial`` reports an incomplete set)."""
    return pool_shards(runs, merge_press_shards, partial)


#: task arguments two compared PReSS runs must share (unless --allow-different-settings)
SETTING_ARGS: tuple[str, ...] = ("statements", "argument_sets", "classifier", "nli_mode",
                                 "nli_model")  # fmt: skip


def setting_values(task_args: Mapping[str, Any]) -> dict[str, Any]:
    """The :data:`SETTING_ARGS` a run recorded, ``nli_model`` by content: a local folder is its
    files' names and SHA-256 digests (the same model at two paths is the same setting), a hub
    id (or a folder no longer present) the name as given."""
    out = {k: task_args[k] for k in SETTING_ARGS if k in task_args}
    folder = Path(str(out.get("nli_model", ""))).expanduser()
    if "nli_model" in out and folder.is_dir():
        from inspect_stance.fingerprint import digest, file_digest

        files = sorted(p for p in folder.rglob("*") if p.is_file())
        out["nli_model"] = "folder " + digest([(str(p.relative_to(folder)), file_digest(p))
                                               for p in files])  # fmt: skip
    return out


def keyed_labels(run: PressRun, persona: str) -> list[tuple[str, str, list[str]]]:
    """(key, statement, labels under ``persona``) per record with labels: the key is the
    statement, its k-th record under ``--epochs N`` ``{statement}@e<k>``
    (:func:`inspect_stance.logfile.epoch_keys`)."""
    kept = [r for r in run.records if r["labels"].get(persona)]
    statements = [str(r["statement"]) for r in kept]
    return [(k, st, list(r["labels"][persona]))
            for k, st, r in zip(epoch_keys(statements), statements, kept, strict=True)]  # fmt: skip


def persona_labels(run: PressRun, persona: str) -> dict[str, list[str]]:
    """Statement -> the PReSS labels of its argument sets under ``persona`` (each epoch's
    record of a statement under ``--epochs N``: ``{statement}@e<k>``)."""
    return {k: labels for k, _, labels in keyed_labels(run, persona)}


def press_items(run: PressRun, name: str, persona: str = "none") -> RunItems:
    """Per-statement S_t and SF/SU/ID indicators, and the instance-level stable indicators;
    each epoch's record of a statement one more item in the statement's cluster."""
    keyed = keyed_labels(run, persona)
    labels = {k: ls for k, _, ls in keyed}
    items: dict[str, dict[str, float]] = {"share_stable": {}}
    items.update({f"P_{o}": {} for o in OUTCOMES})
    for statement, ls in labels.items():
        items["share_stable"][statement] = float(topic_stability(ls) or 0.0)
        outcome = faithfulness(ls)
        for o in OUTCOMES:
            items[f"P_{o}"][statement] = float(outcome == o)
    stable = np.array([float(is_stable(x)) for ls in labels.values() for x in ls])
    return RunItems(name=name, items=items, trials={"share_stable": stable},
                    clusters={k: st for k, st, _ in keyed})  # fmt: skip
