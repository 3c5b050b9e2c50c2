"""The stance-drift method registered with the study protocol (:mod:`inspect_stance.study`).

``compare``: items are propositions (:func:`inspect_stance.drift.compare.compare_drift`);
``gate``: ``--min-spr`` and the baseline rules (:func:`inspect_stance.drift.gate.evaluate_gate`);
``plan``: variance components and designs (:func:`inspect_stance.drift.planning.study.build_plan`).
The hooks import their cores when called, so listing the methods stays light.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from inspect_stance.drift import figures, human_study_command
from inspect_stance.drift.command_options import EXCLUDE_UNPARSED
from inspect_stance.drift.options import DriftOptions
from inspect_stance.drift.page import PAGE
from inspect_stance.drift.report_command import COMMAND as REPORT_COMMAND
from inspect_stance.drift.report_command import report
from inspect_stance.drift.study import STUDY
from inspect_stance.errors import InputError
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
    from inspect_stance.drift.compare import LoadedDrift
    from inspect_stance.drift.gate import GateResult
    from inspect_stance.runs import RunInfo


def _excluded(options: dict[str, Any]) -> bool:
    """The ``--exclude-unparsed`` of a gate request's options (off when not given)."""
    return bool(options.get(EXCLUDE_UNPARSED.dest, False))


def _policy(exclude_unparsed: bool) -> str:
    return "exclude" if exclude_unparsed else "failure"


def read_gate_run(path: str, request: GateRequest) -> tuple[LoadedDrift, RunInfo]:
    """One run to gate (a folder of one study's shards: pooled; one shard's log or an
    incomplete set only with ``request.partial``); InputError for an incomplete run (trials
    missing that an adaptive rule did not skip, or a status other than success)."""
    from pathlib import Path

    from inspect_stance.drift.compare import load_drift

    x = load_drift(path, _policy(_excluded(request.options)), request.partial)
    if x.run.shard is not None and not Path(path).is_dir():  # one shard's log given alone
        from inspect_stance.drift.shards import pool_loaded

        [x] = pool_loaded([x], request.partial)  # refused, or named "(1 of N shards)"
    r = x.run
    # an adaptive run's trials not run are by design, not an interrupted run
    gaps = r.n_missing if r.adaptive_halfwidth is None else 0
    if gaps or r.status not in (None, "success"):
        raise InputError(f"{r.source}: incomplete run (status {r.status}, {r.n_missing} missing "
                         "trials); finish it with inspect eval-retry before gating")  # fmt: skip
    return x, x.info


def gate_request(run: LoadedDrift, base: LoadedDrift | None, request: GateRequest) -> GateResult:
    """:func:`inspect_stance.drift.gate.evaluate_gate` with the request's settings."""
    from inspect_stance.drift.gate import evaluate_gate

    max_drop = request.max_drop if request.max_drop is not None else 0.0
    return evaluate_gate(run.run, request.min_value, base.run if base else None, max_drop,
                         request.alpha, _policy(_excluded(request.options)),
                         list(request.metric) or ["spr"], request.rule)  # fmt: skip


def plan(request: PlanRequest) -> PlanResult:
    """The stance-drift plan (:func:`inspect_stance.drift.planning.study.build_plan`) as JSON
    and text."""
    from inspect_stance.drift.planning.render import render
    from inspect_stance.drift.planning.study import build_plan, plan_json

    result = build_plan(request)
    return PlanResult(plan_json(result), render(result))


def is_adaptive(task_args: dict[str, Any]) -> bool:
    """Whether a log's task arguments mark an adaptive run (``-T adaptive_halfwidth=H``)."""
    return task_args.get("adaptive_halfwidth") not in (None, "", "none", "None")


STANCE_DRIFT = register_method(
    Method(
        name="stance_drift",
        order=10,
        shard_tasks=("stance_drift",),
        commands=(human_study_command.COMMAND,),
        study={"stance_drift": STUDY},
        providers={
            "stance_sim": "inspect_stance.drift.simulator:StanceSimAPI",
            "relay_sim": "inspect_stance.drift.relay_simulator:RelaySimAPI",
        },
        options={"stance_drift": DriftOptions},
        doc="docs/stance_drift.md",
        tasks=("stance_drift",),
        title="stance-drift",
        report_command="report",
        report=report,
        report_cli=REPORT_COMMAND,
        npz=True,
        comparer=comparer_of("inspect_stance.drift.compare", options=(EXCLUDE_UNPARSED,)),
        gate=Gate["LoadedDrift"](
            metrics=("spr", "success_<stance>", "pattern_<name>"),
            min_flag="--min-spr",
            load=read_gate_run,
            evaluate=gate_request,
            min_help="stance drift: fail when SPR < X",
            options=(EXCLUDE_UNPARSED,),
        ),
        plan=plan,
        setting_keys=("variant", "propositions", "unparsed", "logprobs", "words_limit"),
        adaptive=is_adaptive,
        page=PAGE,
        headlines={
            "stance_drift": TaskHeadline(
                metric="spr",
                better="higher",
                range=(0.0, 1.0),
                format="percent",
                reading="keeps the stance it was asked to argue in {v} of cases {ci}",
                item="proposition",
                cluster="proposition",
                counts=("trials", "unparsed"),
                load=loader_of("inspect_stance.drift.compare:load_logged"),
                breakdown=figures.breakdown,
            )
        },
    )
)
