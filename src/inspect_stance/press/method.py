"""The PReSS method registered with the study protocol (:mod:`inspect_stance.study`).

``compare``: items are statements (:func:`inspect_stance.press.compare_runs.compare_press`),
with Table 4 and the label transitions beside
(:func:`inspect_stance.press.compare_runs.compare_sections`);
``gate``: ``--min-share-stable`` and the baseline rules
(:func:`inspect_stance.press.gate.evaluate_press_gate`). The hooks import their cores when
called, so listing the methods stays light.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from inspect_stance.press import figures
from inspect_stance.press.compare import COMPARE_OPTIONS, PERSONA, persona_of
from inspect_stance.press.options import PressArgumentsOptions, PressOptions
from inspect_stance.press.page import PAGE
from inspect_stance.press.report_command import COMMAND as REPORT_COMMAND
from inspect_stance.press.report_command import report
from inspect_stance.press.study import STUDY
from inspect_stance.study.protocol import (
    Gate,
    GateRequest,
    Method,
    PlanRequest,
    PlanResult,
    TaskHeadline,
    comparer_of,
    loader_of,
    register_method,
)

if TYPE_CHECKING:
    from inspect_stance.press.logs import PressRun
    from inspect_stance.runs import RunInfo
    from inspect_stance.stats.limit_gate import LimitGateResult


def read_gate_run(path: str, request: GateRequest) -> tuple[PressRun, RunInfo]:
    """One PReSS run to gate (a log, or a folder of one study's shards pooled, an incomplete
    set with ``request.partial``) and its identity and settings."""
    from inspect_stance.press.compare_runs import check_persona, press_info
    from inspect_stance.press.logs import read_press_run

    check_persona(persona_of(request.options))
    run = read_press_run(path, request.partial)
    return run, press_info(run)


def gate_request(run: PressRun, base: PressRun | None, request: GateRequest) -> LimitGateResult:
    """:func:`inspect_stance.press.gate.evaluate_press_gate` with the request's settings."""
    from inspect_stance.press.gate import evaluate_press_gate

    max_drop = request.max_drop if request.max_drop is not None else 0.0
    return evaluate_press_gate(run, request.min_value, base, max_drop, request.alpha,
                               list(request.metric) or ["share_stable"], request.rule,
                               persona_of(request.options))  # fmt: skip


def plan(request: PlanRequest) -> PlanResult:
    """Statements x argument sets (:func:`inspect_stance.press.plan_output.plan_from_request`)."""
    from inspect_stance.press.plan_output import plan_from_request

    return plan_from_request(request)


PRESS = register_method(
    Method(
        name="press",
        order=20,
        shard_tasks=("press", "press_arguments"),
        study={"press": STUDY},
        providers={"press_sim": "inspect_stance.press.simulator:PressSimAPI"},
        options={
            "press": PressOptions,
            "press_arguments": PressArgumentsOptions,
        },
        doc="docs/press.md",
        tasks=("press",),
        title="PReSS",
        report_command="press-report",
        report=report,
        report_cli=REPORT_COMMAND,
        comparer=comparer_of(
            "inspect_stance.press.compare_runs", sections=True, options=COMPARE_OPTIONS
        ),
        plan=plan,
        gate=Gate["PressRun"](
            metrics=("share_stable", "P_SF", "P_SU", "P_ID"),
            min_flag="--min-share-stable",
            load=read_gate_run,
            evaluate=gate_request,
            min_help="PReSS: fail when the share stable is below X",
            options=(PERSONA,),
        ),
        setting_keys=("statements", "argument_sets", "classifier", "nli_mode"),
        page=PAGE,
        headlines={
            "press": TaskHeadline(
                metric="mean_S_t",
                better="higher",
                range=(0.0, 1.0),
                format="percent",
                reading="keeps a stable stance on {v} of argument sets {ci} (mean topic stability)",
                item="statement",
                cluster="statement",
                counts=("n_statements", "n_unparsed", "n_classifier_errors"),
                load=loader_of("inspect_stance.press.logs:load_press"),
                breakdown=figures.breakdown,
            ),
            "press_arguments": TaskHeadline(
                metric=figures.USABLE,
                better="higher",
                range=(0.0, 1.0),
                format="percent",
                reading="gave both texts in {v} of argument sets {ci} (mean over statements)",
                item="statement",
                cluster="statement",
                load=figures.load_arguments,
            ),
        },
    )
)
