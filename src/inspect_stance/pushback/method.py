"""The pushback method registered with the study protocol (:mod:`inspect_stance.study`).

``compare`` pairs runs over conversations, clustered by proposition (:mod:`.compare`);
``gate`` checks ``--min-held-at-k`` and the baseline rules (:mod:`.gate`); ``plan`` gives
propositions x conversations for a target SE from a pilot log (:mod:`.planning`); the report
(:mod:`.report`) writes markdown, JSON and the survival figure. The headline, ``held_at_K``,
is declared once here and read from the log by every surface. The hooks import their cores
when called, so listing the methods stays light.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from inspect_stance.errors import InputError
from inspect_stance.pushback.options import PushbackOptions
from inspect_stance.pushback.page import PAGE
from inspect_stance.pushback.study import STUDY
from inspect_stance.study.protocol import (
    Breakdown,
    BreakdownRow,
    Gate,
    GateRequest,
    Method,
    PlanRequest,
    PlanResult,
    ReportCommand,
    ReportRequest,
    TaskHeadline,
    comparer_of,
    loader_of,
    register_method,
)

if TYPE_CHECKING:
    from inspect_stance.pushback.logs import PushbackRun
    from inspect_stance.runs import RunInfo
    from inspect_stance.stats.limit_gate import LimitGateResult

GATE_METRICS: tuple[str, ...] = ("held_at_K", "turns_held", "flips", "final_shift")
DEFAULT_TARGET_SE = 0.03
DEFAULT_MAX_TRIALS = 5


def read_gate_run(path: str, request: GateRequest) -> tuple[PushbackRun, RunInfo]:
    """One pushback run to gate (a log, or a folder of one study's shards pooled), with its
    identity and settings."""
    from inspect_stance.pushback.logs import read_run, run_info

    run = read_run([path], request.partial)
    return run, run_info(run)


def gate_request(run: PushbackRun, base: PushbackRun | None,
                 request: GateRequest) -> LimitGateResult:  # fmt: skip
    """:func:`inspect_stance.pushback.gate.evaluate_pushback_gate` with the request's settings."""
    from inspect_stance.pushback.gate import evaluate_pushback_gate

    try:
        return evaluate_pushback_gate(run, request.min_value, base, request.max_drop or 0.0,
                                      request.alpha, list(request.metric) or ["held_at_K"],
                                      request.rule)  # fmt: skip
    except ValueError as ex:
        raise InputError(str(ex)) from ex


def plan_request(request: PlanRequest) -> PlanResult:
    """Propositions x conversations for ``target_se`` (default 0.03) from one pilot run."""
    from inspect_stance.pushback.logs import read_run
    from inspect_stance.pushback.planning import plan, plan_text
    from inspect_stance.stats.design import check_plan_goal

    if len(request.runs) != 1:
        raise InputError("pushback plan reads one pilot log; pass one run")
    target = request.target_se if request.target_se is not None else DEFAULT_TARGET_SE
    check_plan_goal(target, None, request.assurance)
    run = read_run(list(request.runs), request.partial)
    calls = int(run.metadata.get("calls_per_conversation") or 12)
    try:
        p = plan(run, target, request.assurance, request.max_repeats or DEFAULT_MAX_TRIALS,
                 request.max_items, calls)  # fmt: skip
    except ValueError as ex:
        raise InputError(str(ex)) from ex
    return PlanResult(p, plan_text(p))


def _records(paths: Sequence[str], partial: bool = True) -> dict[str, dict[str, object]]:
    """The records of the one run of ``paths`` (a log, or one study's shard logs pooled)."""
    from inspect_stance.pushback.logs import read_run

    return read_run(list(paths), partial).records


def breakdown(paths: Sequence[str]) -> Breakdown:
    """The card's breakdown: held at K by style, by held stance, and the control."""
    from inspect_stance.pushback.summary import summarize

    s = summarize(_records(paths))
    groups: Breakdown = [
        ("held at K by style", [BreakdownRow(k, v.held.value) for k, v in s.by_style.items()]),
        (
            "held at K by held stance",
            [BreakdownRow(k, v.held.value) for k, v in s.by_start.items()],
        ),  # fmt: skip
    ]
    if s.control is not None:
        groups.append(
            (
                "no-pushback control",
                [
                    BreakdownRow("held at K", s.control.held.value),
                    BreakdownRow("conversations", s.control.n, True),
                ],
            )
        )
    return groups


def report(request: ReportRequest) -> list[str]:
    """The pushback report of ``request.paths`` into ``request.out``
    (:func:`inspect_stance.pushback.report.write_report`): the lines to print."""
    from inspect_stance.pushback.report import write_report

    data = write_report(list(request.paths), request.out, request.labels, request.partial)
    notes = [f"pushback-report: {line}" for line in data["notes"]]
    return [*notes, f"wrote report.md, report.json, survival.png to {request.out}"]


PUSHBACK = register_method(
    Method(
        name="pushback",
        order=60,
        shard_tasks=("pushback",),
        providers={"pushback_sim": "inspect_stance.pushback.simulator:PushbackSim"},
        options={"pushback": PushbackOptions},
        study={"pushback": STUDY},
        doc="docs/pushback.md",
        report=report,
        report_cli=ReportCommand(
            help="pushback: held stance by turn (survival), flips, turn of flip, by style",
            description="Per run: the share of conversations holding their stance through K "
            "turns of disagreement (Kaplan-Meier, clustered by proposition), the survival "
            "table and figure, flips, turns held and final shift, by pushback style and held "
            "stance, beside the no-pushback control. The shards of one study (-T shard=K/N) "
            "are pooled into one run.",
            paths_help="pushback logs or folders",
            out="pushback_report",
        ),
        tasks=("pushback",),
        report_command="pushback-report",
        comparer=comparer_of("inspect_stance.pushback.compare"),
        gate=Gate["PushbackRun"](
            metrics=GATE_METRICS,
            min_flag="--min-held-at-k",
            load=read_gate_run,
            evaluate=gate_request,
            min_help="pushback: fail when the share of conversations holding their "
            "stance through K turns is below X",
        ),  # fmt: skip
        plan=plan_request,
        setting_keys=("turns", "start", "framing", "styles", "control", "reader", "stances"),
        page=PAGE,
        headlines={
            "pushback": TaskHeadline(
                metric="held_at_K",
                better="higher",
                range=(0.0, 1.0),
                format="percent",
                reading="holds its stance through {turns} turns of disagreement in {v} of "
                "conversations {ci}",
                item="conversation",
                cluster="proposition",
                counts=("unparsed",),
                load=loader_of("inspect_stance.pushback.logs:load_pushback"),
                breakdown=breakdown,
            )
        },
    )
)
