"""The shared steps of ``gate`` for every method (:class:`~.protocol.Gate`).

Given a :class:`~.protocol.GateRequest`: the method of the run's log (one answer,
:func:`inspect_stance.study.registry.method_of_path`), ``max_drop`` only with a baseline, the
run and its baseline read by the method, a baseline that is the run itself refused (a
comparison with itself has zero variance and would pass whatever the run is), their settings
checked (unless ``allow_different_settings``), then the method's verdict; a ``ValueError`` from
it is unusable input (one line).
"""

from __future__ import annotations

from inspect_stance.errors import InputError
from inspect_stance.logfile import task_name
from inspect_stance.runs import RunInfo, check_settings, dedupe
from inspect_stance.study.protocol import GateOutcome, GateRequest, Method
from inspect_stance.study.registry import log_header_task, method_of_path, methods


def gate_method(path: str) -> Method:
    """The method whose gate reads the run at ``path`` (an ``.npz``: the method reading
    ``.npz`` runs); InputError when no method gates it."""
    from pathlib import Path

    method = method_of_path(path)
    if method is not None and method.gate is not None:
        return method
    gated = ", ".join(t for m in methods() if m.gate is not None for t in m.tasks)
    if not Path(path).is_file():
        what = "no such file"
    elif Path(path).suffix == ".npz" or (task := log_header_task(path)) is None:
        what = "not readable as an Inspect log"
    else:
        what = f"a log of task {task_name(task)}, which gate does not read"
    raise InputError(f"{path}: {what}; pass a log of {gated} (or an .npz stance-drift run)")


def _refuse_same_run(base: object, run: object) -> None:

    assert isinstance(base, RunInfo) and isinstance(run, RunInfo)
    if dedupe([base, run])[1]:
        raise InputError(
            f"--baseline {base.source} is the same run as {run.source} (same eval id or file "
            "content); gate against an earlier run"
        )


def gate_run(method: Method, request: GateRequest) -> tuple[GateOutcome, list[str]]:
    """The verdict of ``method``'s gate on ``request`` (module docstring) and its notes
    (settings that differ)."""

    gate = method.gate
    if gate is None:
        raise InputError(f"gate does not read {method.name} runs yet")
    if request.baseline is None and request.max_drop is not None:
        raise InputError("--max-drop needs --baseline RUN (the run to compare with)")
    try:
        run, info = gate.load(request.run, request)
        base, base_info = gate.load(request.baseline, request) if request.baseline else (None, None)
    except ValueError as ex:
        raise InputError(str(ex)) from ex
    notes: list[str] = []
    if base_info is not None:
        _refuse_same_run(base_info, info)
        notes = check_settings([base_info, info], ["baseline", "run"],
                               request.allow_different_settings)  # fmt: skip
    try:
        return gate.evaluate(run, base, request), notes
    except ValueError as ex:
        raise InputError(str(ex)) from ex
