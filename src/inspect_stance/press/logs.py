"""Reading PReSS statement records back from Inspect eval logs (``inspect_ai.log`` imported lazily).

Logs are found and read with the shared :mod:`inspect_stance.logfile` helpers (one pass, one
wording for every error); a folder may hold other tasks' logs, which are skipped and counted.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from inspect_stance.errors import InputError
from inspect_stance.shards import ShardInfo

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
    #: :mod:`inspect_stance.shards.press`)
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


def _role_models(roles: Any) -> dict[str, str]:
    out: dict[str, str] = {}
    for role, config in (roles or {}).items():
        configs = config if isinstance(config, list) else [config]
        out[str(role)] = ", ".join(str(getattr(c, "model", c)) for c in configs)
    return out


def read_press_log(path: str | Path) -> PressRun:
    """Records (PReSS ``Score.metadata``) of every scored sample of the log at ``path``.

    :class:`~inspect_stance.errors.InputError` (one line) when the file is missing, is not an
    Inspect log, is another task's log, or holds no PReSS scores.
    """
    from inspect_stance.logfile import read_task_log
    from inspect_stance.press.arguments import log_arguments_fingerprint, table_from_samples
    from inspect_stance.provenance import samples_provenance
    from inspect_stance.shards.layout import log_shard

    p = Path(path)
    log = read_task_log(p, PRESS_TASKS, WHAT)
    records: list[dict[str, Any]] = []
    n_errors = 0
    for sample in log.samples or []:
        if sample.error is not None:
            n_errors += 1
        for score in (sample.scores or {}).values():
            if score.metadata and score.metadata.get("press"):
                records.append(dict(score.metadata))
                break
    if not records:
        raise InputError(
            f"log {p}: no PReSS scores (status {log.status}); pass the .eval log of a finished {WHAT}"
        )
    records.sort(key=lambda r: (int(r.get("statement_id", 0)), r["statement"]))
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
    one study are pooled into one run (:func:`inspect_stance.shards.press.pool_press_runs`;
    ``partial``: an incomplete set too).

    Inside a folder, a PReSS log without PReSS scores (a cancelled or failed run) is skipped
    and counted too; named explicitly, it is an error.
    """
    from inspect_stance.logfile import find_task_logs

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
    from inspect_stance.shards.press import pool_press_runs

    runs = pool_press_runs(runs, partial)
    return runs, "; ".join(x for x in (skipped, found.repeated_line()) if x)


def read_press_run(path: str | Path, partial: bool = False) -> PressRun:
    """One PReSS run: a log (:func:`read_press_log`), or a folder holding one run (the shards
    of one study, pooled); a folder of several runs is a one-line ``InputError``."""
    if not Path(path).is_dir():
        return read_press_log(path)
    runs, _skipped = find_press_logs([path], partial)
    if len(runs) != 1:
        raise InputError(
            f"{path}: holds {len(runs)} PReSS runs, not one study; name one run's log or folder"
        )
    return runs[0]
