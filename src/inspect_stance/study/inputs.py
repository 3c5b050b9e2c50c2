"""Inputs sorted by method: every file named or found in a folder goes to the method that reads
it, or is set aside with one line saying why (another task's log, unreadable, the same run
given twice, settings that differ from the other runs of its method, an adaptive run beside
fixed ones). One log set aside never stops the others; ``strict`` refuses instead.

Settings are read from the logs' headers: the task arguments named by the method's
:attr:`~inspect_stance.study.Method.setting_keys`. Within a method, the runs whose settings are
the most common (the first run's on a tie) are kept; each other run found in a folder is set
aside in one line naming the settings that differ (a file named on the command line is kept). With a method's ``adaptive`` test, adaptive runs beside fixed
ones are set aside (the fixed runs are the study; an adaptive run is reported on its own)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from inspect_stance.errors import InputError
from inspect_stance.study.protocol import Method
from inspect_stance.study.registry import method_of_task, methods

LOG_SUFFIXES: tuple[str, ...] = (".eval", ".json")


@dataclass
class SortedInputs:
    """The input files of each method (in the order given) and the lines of those set aside."""

    by_method: dict[str, list[Path]] = field(default_factory=dict)
    set_aside: list[str] = field(default_factory=list)
    #: the lines of :attr:`set_aside` about runs of a method kept aside from its other runs
    #: (settings differ, adaptive beside fixed); a method's own report says these too
    differing: list[str] = field(default_factory=list)

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


def _header(path: Path) -> tuple[str | None, str | None, dict[str, Any]]:
    """The task, run identity and task arguments of a log (``None, None, {}`` when it cannot be
    read)."""
    from inspect_ai.log import read_eval_log

    try:
        ev = read_eval_log(str(path), header_only=True).eval
    except Exception:  # noqa: BLE001 - any unreadable file is set aside, said in one line
        return None, None, {}
    return str(ev.task), f"eval:{ev.eval_id}", dict(ev.task_args or {})


def sort_inputs(paths: list[str], strict: bool = False) -> SortedInputs:
    """Sort the files of ``paths`` by method (see the module docstring)."""
    out = SortedInputs()
    seen: dict[str, Path] = {}
    args: dict[Path, dict[str, Any]] = {}
    found_in_folder: set[Path] = set()
    for raw in paths:
        files, in_folder = _files(raw)
        if in_folder:
            found_in_folder.update(files)
        for f in files:
            method, why, run_id, args[f] = _classify(f)
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
    for method in out.methods():
        kept, lines = _alike(method, out.by_method[method.name], args, found_in_folder)
        if lines and strict:
            raise InputError(f"{lines[0]}; pass runs of one design, or drop --strict")
        out.by_method[method.name] = kept
        out.differing += lines
    out.set_aside += out.differing
    if not out.by_method:
        raise InputError(
            f"no run of any method in {', '.join(paths)}"
            + (f" ({'; '.join(out.set_aside)})" if out.set_aside else "")
            + f"; pass logs of {_tasks_text()}"
        )
    return out


def _classify(f: Path) -> tuple[Method | None, str, str | None, dict[str, Any]]:
    if f.suffix == ".npz":
        from inspect_stance.logfile import run_identity

        npz = next((m for m in methods() if m.npz), None)
        return npz, "no method reads .npz runs", run_identity(f), {}
    task, run_id, task_args = _header(f)
    if task is None:
        return None, "not readable as an Inspect log", None, {}
    method = method_of_task(task)
    if method is None:
        from inspect_stance.logfile import task_name

        return None, f"a log of task {task_name(task)}, which no report reads", run_id, {}
    return method, "", run_id, task_args


def _alike(
    method: Method, files: list[Path], args: dict[Path, dict[str, Any]], in_folder: set[Path]
) -> tuple[list[Path], list[str]]:
    """The runs of ``method`` kept (one design) and a line per run set aside (module
    docstring). Only logs found in a folder are set aside (a file named is meant); ``.npz``
    runs carry no arguments and are always kept."""
    logs = [f for f in files if f.suffix != ".npz"]
    lines: list[str] = []
    aside: set[Path] = set()
    if method.adaptive is not None:
        adaptive = [f for f in logs if method.adaptive(args[f]) and f in in_folder]
        if adaptive and any(not method.adaptive(args[f]) for f in logs):
            aside.update(adaptive)
            lines += [f"{f}: set aside (an adaptive run beside {len(logs) - len(adaptive)} fixed "
                      f"{method.name} run(s); report it on its own)" for f in adaptive]  # fmt: skip
            logs = [f for f in logs if f not in adaptive]

    def key(f: Path) -> tuple[tuple[str, str], ...]:
        return tuple((k, repr(args[f].get(k))) for k in method.setting_keys)

    counts = Counter(key(f) for f in logs)
    common = max(counts, key=lambda k: (counts[k], -[key(f) for f in logs].index(k)), default=())
    for f in logs:
        if key(f) != common and f in in_folder:
            aside.add(f)
            diff = [f"{k}={v} (others {dict(common)[k]})" for k, v in key(f)
                    if v != dict(common)[k]]  # fmt: skip
            lines.append(f"{f}: set aside (settings differ from the other {method.name} runs: "
                         f"{', '.join(diff)})")  # fmt: skip
    return [f for f in files if f not in aside], lines


def _tasks_text() -> str:
    return ", ".join(t for m in methods() for t in m.tasks)
