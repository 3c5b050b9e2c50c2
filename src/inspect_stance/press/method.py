"""The PReSS method registered with the study protocol (:mod:`inspect_stance.study`).

``compare``: items are statements (:func:`inspect_stance.press.compare_runs.compare_press`);
``gate``: ``--min-share-stable`` and the baseline rules
(:func:`inspect_stance.press.gate.evaluate_press_gate`). The hooks import their cores when
called, so listing the methods stays light.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from inspect_stance.errors import InputError
from inspect_stance.study.protocol import (
    Comparer,
    CompareRequest,
    Gate,
    GateRequest,
    LoadedRuns,
    Method,
    register_method,
)

if TYPE_CHECKING:
    from inspect_stance.press.gate import PressGateResult
    from inspect_stance.press.logs import PressRun
    from inspect_stance.runs import RunInfo
    from inspect_stance.stats.family import CompareResult, MetricSpec


def _check_persona(persona: str) -> None:
    from inspect_stance.press.prompts import PERSONAS

    if persona not in PERSONAS:
        raise InputError(f"--persona {persona!r}; use one of {', '.join(PERSONAS)}")


def metrics() -> Sequence[MetricSpec]:
    """The PReSS metrics ``compare`` reports (:data:`inspect_stance.press.compare_runs.METRICS`)."""
    from inspect_stance.press.compare_runs import METRICS

    return METRICS


def read_compare_runs(paths: Sequence[str], request: CompareRequest) -> LoadedRuns:
    """The PReSS runs among ``paths`` (files and folders), with what was skipped."""
    from inspect_stance.press.compare_runs import press_info
    from inspect_stance.press.logs import find_press_logs

    _check_persona(request.persona)
    runs, skipped = find_press_logs(paths)
    return LoadedRuns(list(runs), [press_info(r) for r in runs], [skipped] if skipped else [])


def compare_request(
    runs: Sequence[Any], names: Sequence[str], chosen: Sequence[MetricSpec], request: CompareRequest
) -> CompareResult:
    """:func:`inspect_stance.press.compare_runs.compare_press` with the request's settings."""
    from inspect_stance.press.compare_runs import compare_press

    return compare_press(runs, names, request.persona, request.confidence, request.interval,
                         request.adjust, request.alpha, chosen)  # fmt: skip


def read_gate_run(path: str, request: GateRequest) -> tuple[PressRun, RunInfo]:
    """One PReSS log to gate and its identity and settings."""
    from inspect_stance.press.compare_runs import press_info
    from inspect_stance.press.logs import read_press_log

    _check_persona(request.persona)
    run = read_press_log(path)
    return run, press_info(run)


def gate_request(run: PressRun, base: PressRun | None, request: GateRequest) -> PressGateResult:
    """:func:`inspect_stance.press.gate.evaluate_press_gate` with the request's settings."""
    from inspect_stance.press.gate import evaluate_press_gate

    max_drop = request.max_drop if request.max_drop is not None else 0.0
    return evaluate_press_gate(run, request.min_value, base, max_drop, request.alpha,
                               list(request.metric) or ["share_stable"], request.rule,
                               request.persona)  # fmt: skip


PRESS = register_method(
    Method(
        name="press",
        tasks=("press",),
        report_command="press-report",
        comparer=Comparer(metrics, read_compare_runs, compare_request),
        gate=Gate(
            metrics=("share_stable", "P_SF", "P_SU", "P_ID"),
            min_flag="--min-share-stable",
            load=read_gate_run,
            evaluate=gate_request,
            min_help="PReSS: fail when the share stable is below X",
        ),
        setting_keys=("statements", "argument_sets", "classifier", "nli_mode"),
    )
)
