"""The prompt-validation method registered with the study protocol (:mod:`inspect_stance.study`):
``report`` writes ``DIR/prompt_validation/`` with ``validation-report``; ``compare`` compares
runs over settings (:func:`inspect_stance.validation.compare.compare_runs`); ``gate`` checks
``--max-neutral-leaning`` and the baseline rules (:mod:`inspect_stance.validation.gate`). The
hooks
import their cores when called, so listing the methods stays light.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from inspect_stance.errors import InputError
from inspect_stance.study.protocol import (
    CompareRequest,
    Gate,
    GateRequest,
    Method,
    TaskHeadline,
    comparer_of,
    loader_of,
    register_method,
)
from inspect_stance.validation import figures
from inspect_stance.validation.options import ValidationOptions
from inspect_stance.validation.page import PAGE
from inspect_stance.validation.report_command import COMMAND as REPORT_COMMAND
from inspect_stance.validation.report_command import report
from inspect_stance.validation.study import STUDY

if TYPE_CHECKING:
    from inspect_stance.runs import RunInfo
    from inspect_stance.stats.limit_gate import LimitGateResult
    from inspect_stance.study.protocol import PlanRequest, PlanResult
    from inspect_stance.validation.compare import ValidationRun

#: the gate's metrics, headline first (:mod:`inspect_stance.validation.gate`), listed here so
#: that ``gate --help`` stays light
GATE_METRICS: tuple[str, ...] = ("neutral_leaning_generated",) + tuple(
    f"{m}_{s}"
    for s in ("real", "templated", "generated")
    for m in ("mean_rank", "intent_accuracy", "stance_accuracy", "neutral_leaning")
    if f"{m}_{s}" != "neutral_leaning_generated"
)


def read_gate_run(path: str, request: GateRequest) -> tuple[ValidationRun, RunInfo]:
    """One prompt_validation run to gate (a log, or a folder of one study's shards pooled, an
    incomplete set with ``request.partial``), with its identity and settings."""
    from inspect_stance.validation.compare import ValidationRun, read_runs

    loaded = read_runs([path], CompareRequest(paths=(path,), partial=request.partial))
    if len(loaded.runs) != 1:
        raise ValueError(f"{path}: {len(loaded.runs)} prompt_validation runs; gate one run")
    run = loaded.runs[0]
    assert isinstance(run, ValidationRun)  # the method's own loader's run
    return run, loaded.infos[0]


def gate_request(run: ValidationRun, base: ValidationRun | None,
                 request: GateRequest) -> LimitGateResult:  # fmt: skip
    """:func:`inspect_stance.validation.gate.evaluate_validation_gate` with the request's
    settings."""
    from inspect_stance.validation.gate import evaluate_validation_gate

    max_drop = request.max_drop if request.max_drop is not None else 0.0
    try:
        return evaluate_validation_gate(run, request.min_value, base, max_drop, request.alpha,
                                        request.metric, request.rule)  # fmt: skip
    except ValueError as ex:
        raise InputError(str(ex)) from ex


def plan(request: PlanRequest) -> PlanResult:
    """Neutral settings x prompts per source of the neutral leaning
    (:func:`inspect_stance.validation.plan_output.plan_from_request`)."""
    from inspect_stance.validation.plan_output import plan_from_request

    return plan_from_request(request)


PROMPT_VALIDATION = register_method(
    Method(
        name="prompt_validation",
        order=40,
        shard_tasks=("prompt_validation",),
        study={"prompt_validation": STUDY},
        providers={"annotator_sim": "inspect_stance.validation.simulator:AnnotatorSim"},
        options={"prompt_validation": ValidationOptions},
        doc="docs/prompt_validation.md",
        tasks=("prompt_validation",),
        title="prompt-validation",
        report_command="validation-report",
        report=report,
        report_cli=REPORT_COMMAND,
        comparer=comparer_of("inspect_stance.validation.compare"),
        gate=Gate["ValidationRun"](
            metrics=GATE_METRICS,
            min_flag="--max-neutral-leaning",
            load=read_gate_run,
            evaluate=gate_request,
            min_help="prompt validation: fail when the share of side answers on neutral "
            "generated prompts that name a side is above X",
        ),
        plan=plan,
        setting_keys=("topics", "intents", "stances", "sources", "per_source", "seed"),
        page=PAGE,
        headlines={
            "prompt_validation": TaskHeadline(
                metric="mean_rank_generated",
                better="lower",
                range=figures.RANK_RANGE,
                reading="generated prompts rank {v} on realism {ci} (1 = most real)",
                item="generated-prompt rank",
                cluster="setting",
                counts=("unparsed_ranking", "failed_calls"),
                load=loader_of("inspect_stance.validation.compare:load_validation"),
                breakdown=figures.breakdown,
            )
        },
    )
)
