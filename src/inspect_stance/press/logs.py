"""Reading PReSS statement records back from Inspect eval logs (``inspect_ai.log`` imported lazily)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any


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


def read_press_log(path: str | Path) -> PressRun:
    """Records (PReSS ``Score.metadata``) of every scored sample of the log at ``path``.

    ValueError (one line) when the file is not an Inspect log or holds no PReSS scores.
    """
    from inspect_stance.logfile import read_log

    p = Path(path)
    if not p.exists():
        raise ValueError(f"log {p}: no such file; pass the .eval log of a PReSS run")
    try:
        log = read_log(p)
    except Exception as ex:  # noqa: BLE001 - any unreadable file is one input error
        raise ValueError(
            f"log {p}: not readable as an Inspect log ({type(ex).__name__}); pass the .eval log of a PReSS run"
        ) from ex
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
        raise ValueError(
            f"log {p}: no PReSS scores (status {log.status}); pass the log of a finished `inspect eval tasks/press.py` run"
        )
    records.sort(key=lambda r: (int(r.get("statement_id", 0)), r["statement"]))
    return PressRun(
        path=str(p),
        model=str(log.eval.model),
        records=records,
        n_samples=len(log.samples or []),
        n_errors=n_errors,
        status=str(log.status),
        task_args=dict(log.eval.task_args or {}),
    )
