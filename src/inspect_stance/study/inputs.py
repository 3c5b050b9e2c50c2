"""Inputs sorted by method: every file named or found in a folder goes to the method that reads
it, or is set aside with one line saying why (another task's log, unreadable, the same run
given twice). One log set aside never stops the others; ``strict`` refuses instead."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from inspect_stance.errors import InputError
from inspect_stance.study.protocol import Method
from inspect_stance.study.registry import method_of_task, methods

LOG_SUFFIXES: tuple[str, ...] = (".eval", ".json")


@dataclass
class SortedInputs:
    """The input files of each method (in the order given) and the lines of those set aside."""

    by_method: dict[str, list[Path]] = field(default_factory=dict)
    set_aside: list[str] = field(default_factory=list)

    def methods(self) -> list[Method]:
        """The methods with at least one input, in registration order."""
        return [m for m in methods() if self.by_method.get(m.name)]


def _files(raw: str) -> tuple[list[Path], bool]:
    p = Path(raw)
    if p.is_dir():
        from inspect_stance.shards.layout import log_files

        npz = [x for x in p.rglob("*.npz") if x.is_file()]
        return sorted([*log_files(p), *npz]), True  # Inspect's shard layout: one log per run
    if not p.is_file():
        raise InputError(f"{p}: no such file or folder; pass eval logs, .npz runs or folders")
    return [p], False


def _task_and_id(path: Path) -> tuple[str | None, str | None]:
    """The task and run identity of a log (``None, None`` when it cannot be read)."""
    from inspect_ai.log import read_eval_log

    try:
        ev = read_eval_log(str(path), header_only=True).eval
    except Exception:  # noqa: BLE001 - any unreadable file is set aside, said in one line
        return None, None
    return str(ev.task), f"eval:{ev.eval_id}"


def sort_inputs(paths: list[str], strict: bool = False) -> SortedInputs:
    """Sort the files of ``paths`` by method (see the module docstring)."""
    out = SortedInputs()
    seen: dict[str, Path] = {}
    for raw in paths:
        files, in_folder = _files(raw)
        for f in files:
            method, why, run_id = _classify(f)
            if method is not None and run_id is not None and run_id in seen:
                method, why = None, f"the same run as {seen[run_id]}"
            if method is None:
                line = f"{f}: set aside ({why})"
                if strict or (not in_folder and why.startswith("not ")):
                    raise InputError(f"{line}; pass logs of {_tasks_text()}")
                out.set_aside.append(line)
                continue
            if run_id is not None:
                seen[run_id] = f
            out.by_method.setdefault(method.name, []).append(f)
    if not out.by_method:
        raise InputError(
            f"no run of any method in {', '.join(paths)}"
            + (f" ({'; '.join(out.set_aside)})" if out.set_aside else "")
            + f"; pass logs of {_tasks_text()}"
        )
    return out


def _classify(f: Path) -> tuple[Method | None, str, str | None]:
    if f.suffix == ".npz":
        from inspect_stance.logfile import run_identity

        npz = next((m for m in methods() if m.npz), None)
        return npz, "no method reads .npz runs", run_identity(f)
    task, run_id = _task_and_id(f)
    if task is None:
        return None, "not readable as an Inspect log", None
    method = method_of_task(task)
    if method is None:
        return None, f"a log of task {task.rsplit('/', 1)[-1]}, which no report reads", run_id
    return method, "", run_id


def _tasks_text() -> str:
    return ", ".join(t for m in methods() for t in m.tasks)
