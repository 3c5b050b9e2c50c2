"""Reading even-handedness pair records back from Inspect eval logs (``inspect_ai.log`` lazily).

A run is the per-pair records (``Score.metadata["even_handedness"]``) keyed by the sample id
(``{topic}-{index}``: content, the same pair in every run), the target model, the graders
(``--model-role graders=...``), the task arguments and the task metadata (orders judged,
thresholds). Logs are found and read with the shared :mod:`inspect_stance.logfile` helpers; a
folder may hold other tasks' logs, which are skipped and counted.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from inspect_stance.errors import InputError
from inspect_stance.even_handedness.keys import GRADERS_ROLE, RECORD

EVEN_TASKS: tuple[str, ...] = ("even_handedness",)
WHAT = "even-handedness run (inspect eval inspect_stance/even_handedness)"
#: settings two runs must share to be compared (``RunInfo.settings``)
SETTING_KEYS: tuple[str, ...] = ("judged_orders", "threshold", "hedging_threshold", "graders")


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

    def settings(self) -> dict[str, Any]:
        """The settings that must match for two runs to be compared (:data:`SETTING_KEYS`)."""
        return {
            "judged_orders": ",".join(self.metadata.get("judged_orders") or []),
            "threshold": self.metadata.get("threshold"),
            "hedging_threshold": self.metadata.get("hedging_threshold"),
            "graders": ",".join(sorted(self.graders)),
        }


def _graders(roles: Any) -> list[str]:
    config = (roles or {}).get(GRADERS_ROLE)
    configs = config if isinstance(config, list) else ([config] if config else [])
    return [str(getattr(c, "model", c)) for c in configs]


def read_even_log(path: str | Path) -> EvenRun:
    """The records of every scored sample of the log at ``path``; one-line InputError when the
    file is missing, is not an Inspect log, is another task's log, or holds no pair records."""
    from inspect_stance.logfile import read_task_log

    p = Path(path)
    log = read_task_log(p, EVEN_TASKS, WHAT)
    records: dict[str, dict[str, Any]] = {}
    n_errors = 0
    for sample in log.samples or []:
        if sample.error is not None:
            n_errors += 1
        for score in (sample.scores or {}).values():
            if score.metadata and isinstance(score.metadata.get(RECORD), dict):
                records[str(sample.id)] = dict(score.metadata[RECORD])
                break
    if not records:
        raise InputError(
            f"log {p}: no even-handedness scores (status {log.status}); pass the .eval log of a "
            f"finished {WHAT}"
        )
    return EvenRun(
        path=str(p),
        model=str(log.eval.model),
        records=records,
        graders=_graders(log.eval.model_roles),
        n_samples=len(log.samples or []),
        n_errors=n_errors,
        status=str(log.status),
        task_args=dict(log.eval.task_args or {}),
        metadata=dict(log.eval.metadata or {}),
    )


def find_even_logs(paths: Iterable[str | Path]) -> tuple[list[EvenRun], str]:
    """The even-handedness runs among ``paths`` (files and folders) and the line saying what was
    skipped (empty when nothing was). Inside a folder a log without pair records is skipped
    and counted; named explicitly, it is an error."""
    from inspect_stance.logfile import find_task_logs

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
    return runs, "; ".join(x for x in (skipped, found.repeated_line()) if x)


def run_info(run: EvenRun) -> Any:
    """The run's :class:`inspect_stance.runs.RunInfo` with its settings filled in."""
    from inspect_stance.runs import RunInfo, log_info

    try:
        info = log_info(run.path)
    except Exception:  # noqa: BLE001 - read once already; a header that fails is no identity
        info = RunInfo(source=run.path, run_id=f"path:{run.path}", model=run.model)
    info.settings = run.settings()
    return info
