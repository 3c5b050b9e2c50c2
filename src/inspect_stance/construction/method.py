"""The prompt-construction method registered with the study protocol
(:mod:`inspect_stance.study`): its report reads ``prompt_construction`` and
``judge_validation`` logs; ``compare`` compares ``prompt_construction`` runs over setting x
method items (:func:`inspect_stance.construction.compare.compare_runs`); ``gate`` checks
``--max-distance`` and the baseline rules on the distance from neutral
(:mod:`inspect_stance.construction.gate`). The hooks
import their cores when called, so listing the methods stays light.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from inspect_stance.construction import label_sample_command
from inspect_stance.construction.compare_options import COMPARE_OPTIONS
from inspect_stance.construction.judge_validation_options import JudgeValidationOptions
from inspect_stance.construction.keys import JUDGES_ROLE
from inspect_stance.construction.options import ConstructionOptions
from inspect_stance.construction.page import PAGE
from inspect_stance.construction.report_command import COMMAND as REPORT_COMMAND
from inspect_stance.construction.report_command import report
from inspect_stance.construction.study import STUDY
from inspect_stance.errors import InputError
from inspect_stance.study.protocol import (
    CompareRequest,
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
    from inspect_stance.construction.compare import ConstructionRun
    from inspect_stance.runs import RunInfo
    from inspect_stance.stats.limit_gate import LimitGateResult

#: the gate's metrics (:data:`inspect_stance.construction.gate.GATE_METRICS`; the first is the
#: headline), listed here so that ``gate --help`` stays light
GATE_METRICS: tuple[str, ...] = ("distance_neutral", "distance")


def read_gate_run(path: str, request: GateRequest) -> tuple[ConstructionRun, RunInfo]:
    """One prompt_construction run to gate (the shards of one study pooled, an incomplete set
    with ``request.partial``), with its identity and settings."""
    from inspect_stance.construction.compare import ConstructionRun, read_runs

    loaded = read_runs([path], CompareRequest(paths=(path,), partial=request.partial))
    if len(loaded.runs) != 1:
        raise ValueError(f"{path}: {len(loaded.runs)} prompt_construction runs; gate one run")
    run = loaded.runs[0]
    assert isinstance(run, ConstructionRun)  # the method's own loader's run
    return run, loaded.infos[0]


def gate_request(run: ConstructionRun, base: ConstructionRun | None,
                 request: GateRequest) -> LimitGateResult:  # fmt: skip
    """:func:`inspect_stance.construction.gate.evaluate_construction_gate` with the request's
    settings."""
    from inspect_stance.construction.gate import evaluate_construction_gate

    max_drop = request.max_drop if request.max_drop is not None else 0.0
    try:
        return evaluate_construction_gate(run, request.min_value, base, max_drop, request.alpha,
                                          request.metric, request.rule)  # fmt: skip
    except ValueError as ex:
        raise InputError(str(ex)) from ex


def plan(request: PlanRequest) -> PlanResult:
    """Settings x prompts x responses x judges of the construction gap
    (:func:`inspect_stance.construction.plan_output.plan_from_request`)."""
    from inspect_stance.construction.plan_output import plan_from_request

    return plan_from_request(request)


def _figures(name: str) -> Callable[..., Any]:
    """The hook ``name`` of :mod:`inspect_stance.construction.figures`, imported when called
    (the module loads the construction statistics; listing the methods stays light)."""

    def call(*args: Any) -> Any:
        from inspect_stance.construction import figures

        return getattr(figures, name)(*args)

    call.__name__ = name
    return call


CONSTRUCTION = register_method(
    Method(
        name="construction",
        order=30,
        shard_tasks=("prompt_construction", "judge_validation"),
        commands=(label_sample_command.COMMAND,),
        study={"prompt_construction": STUDY},
        providers={"construction_sim": "inspect_stance.construction.simulator:ConstructionSim"},
        options={
            "prompt_construction": ConstructionOptions,
            "judge_validation": JudgeValidationOptions,
        },
        doc="docs/prompt_construction.md",
        tasks=("prompt_construction", "judge_validation"),
        title="prompt-construction",
        report_command="construction-report",
        report=report,
        report_cli=REPORT_COMMAND,
        report_dir="prompt_construction",
        comparer=comparer_of("inspect_stance.construction.compare", options=COMPARE_OPTIONS),
        gate=Gate["ConstructionRun"](
            metrics=GATE_METRICS,
            min_flag="--max-distance",
            load=read_gate_run,
            evaluate=gate_request,
            min_help="prompt construction: fail when the mean distance from neutral (0 to 2) "
            "of the responses to neutral prompts is above X",
            min_range=(0.0, 2.0),
        ),
        plan=plan,
        setting_keys=("judge_sees_prompt", "reversed_rubric", "ensemble"),
        aliases=("prompt_construction",),
        page=PAGE,
        headlines={
            "prompt_construction": TaskHeadline(
                metric="mean_difference",
                better="lower",
                range=(-2.0, 2.0),
                reading="templated prompts sit {v} further from neutral than generated ones {ci}",
                item="pair",
                cluster="topic",
                counts=("no_majority", "judge_unparsable"),
                load=loader_of("inspect_stance.construction.compare:load_construction"),
                breakdown=_figures("breakdown"),
            ),
            "judge_validation": TaskHeadline(
                metric="alpha_ordinal",
                better="higher",
                range=(-1.0, 1.0),
                reading="the judges' ensemble agrees with people at ordinal alpha {v} {ci}",
                item="labelled response",
                cluster="labelled response",
                counts=("n_labelled", "no_ensemble_label"),
                load=loader_of("inspect_stance.construction.compare:load_construction"),
                breakdown=_figures("agreement_breakdown"),
                item_level=False,
                subject_role=JUDGES_ROLE,
            ),
        },
    )
)
