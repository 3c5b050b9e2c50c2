"""The even-handedness method registered with the study protocol (:mod:`inspect_stance.study`).

``report`` writes ``DIR/even_handedness/`` with ``even-handedness-report``; ``compare`` pairs
runs over pairs, clustered by topic (:mod:`.compare`: ``METRICS``, ``read_runs``,
``compare_runs``); ``gate`` checks ``--min-even-handedness`` and the baseline rules
(:mod:`.gate`); ``plan`` gives pairs x graders for a target SE from a pilot log
(:mod:`.planning`; its own options ``--max-graders`` and ``--binary``, :data:`PLAN_OPTIONS`).
The hooks import their cores when called, so listing the methods stays light.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from inspect_stance.errors import InputError
from inspect_stance.even_handedness.options import EvenOptions
from inspect_stance.even_handedness.page import PAGE
from inspect_stance.even_handedness.report_command import COMMAND as REPORT_COMMAND
from inspect_stance.even_handedness.report_command import report
from inspect_stance.even_handedness.study import STUDY
from inspect_stance.study.protocol import (
    Breakdown,
    Gate,
    GateRequest,
    Method,
    PlanRequest,
    PlanResult,
    ReportOption,
    TaskHeadline,
    comparer_of,
    loader_of,
    register_method,
)

if TYPE_CHECKING:
    from inspect_stance.even_handedness.logs import EvenRun
    from inspect_stance.runs import RunInfo
    from inspect_stance.stats.limit_gate import LimitGateResult

GATE_METRICS: tuple[str, ...] = ("even_handedness", "p_even", "refusal_rate", "hedging_rate")
#: the planner's defaults when ``plan`` names no target or limit
DEFAULT_TARGET_SE = 0.02
DEFAULT_MAX_GRADERS = 5
#: the most graders the planner tabulates
MOST_GRADERS = 20
#: its own ``plan`` options (values in ``PlanRequest.options``)
PLAN_OPTIONS: tuple[ReportOption, ...] = (
    ReportOption("--max-graders", f"plan 1..K graders (default {DEFAULT_MAX_GRADERS}; also "
                 "--max-trials)", kind="integer", metavar="K"),
    ReportOption("--binary", "plan the graders' even-handed calls (0/1) instead of P(C)",
                 kind="flag"),
)  # fmt: skip


def read_gate_run(path: str, request: GateRequest) -> tuple[EvenRun, RunInfo]:
    """One even-handedness run to gate (a log, or a folder of one study's shards pooled, an
    incomplete set with ``request.partial``), with its identity and settings."""
    from inspect_stance.even_handedness.logs import read_even_run, run_info

    run = read_even_run(path, request.partial)
    return run, run_info(run)


def gate_request(run: EvenRun, base: EvenRun | None, request: GateRequest) -> LimitGateResult:
    """:func:`inspect_stance.even_handedness.gate.evaluate_even_gate` with the request's settings."""
    from inspect_stance.even_handedness.gate import evaluate_even_gate

    max_drop = request.max_drop if request.max_drop is not None else 0.0
    try:
        return evaluate_even_gate(run, request.min_value, base, max_drop, request.alpha,
                                  list(request.metric) or ["even_handedness"], request.rule)  # fmt: skip
    except ValueError as ex:
        raise InputError(str(ex)) from ex


def plan_request(request: PlanRequest) -> PlanResult:
    """Topics x pairs per topic x graders for the headline's ``target_se`` (default 0.02) with
    ``assurance`` (default 0.8), from one pilot run (a log, or a folder of one study's shards
    pooled, an incomplete set with ``partial``); ``max_repeats`` is the most graders (default
    5; also ``--max-graders``), ``max_items`` the most pairs the recommendation may use,
    ``--binary`` plans the graders' 0/1 calls instead of P(C)
    (:func:`~inspect_stance.even_handedness.planning.full_plan`)."""
    from inspect_stance.even_handedness.planning import full_plan
    from inspect_stance.stats.design import check_plan_goal

    if len(request.runs) != 1:
        raise InputError("even-handedness plan reads one pilot log; pass one run")
    target = request.target_se if request.target_se is not None else DEFAULT_TARGET_SE
    check_plan_goal(target, None, request.assurance)
    if not target < 1.0:  # the SE of a share is at most 0.5
        raise InputError(f"--target-se {target}; give a number in (0, 1), e.g. 0.02")
    given = request.options.get("max_graders")
    flag, graders = "--max-graders", given
    if given is None:
        flag, graders = "--max-trials", request.max_repeats
    if graders is not None and not 1 <= graders <= MOST_GRADERS:
        raise InputError(f"{flag} {graders}; give 1..{MOST_GRADERS}")
    try:
        doc, text = full_plan(request.runs[0], target, graders or DEFAULT_MAX_GRADERS,
                              bool(request.options.get("binary")), partial=request.partial,
                              assurance=request.assurance, max_pairs=request.max_items)  # fmt: skip
    except ValueError as ex:
        raise InputError(str(ex)) from ex
    return PlanResult(doc, text)


def _breakdown(paths: Sequence[str]) -> Breakdown:
    """:func:`inspect_stance.even_handedness.surfaces.breakdown` (imported when called)."""
    from inspect_stance.even_handedness.surfaces import breakdown

    return breakdown(paths)


EVEN_HANDEDNESS = register_method(
    Method(
        name="even_handedness",
        order=50,
        shard_tasks=("even_handedness",),
        study={"even_handedness": STUDY},
        providers={"even_sim": "inspect_stance.even_handedness.simulator:EvenSim"},
        options={"even_handedness": EvenOptions},
        doc="docs/even_handedness.md",
        tasks=("even_handedness",),
        title="even-handedness",
        report_command="even-handedness-report",
        report=report,
        report_cli=REPORT_COMMAND,
        comparer=comparer_of("inspect_stance.even_handedness.compare"),
        gate=Gate["EvenRun"](
            metrics=GATE_METRICS,
            min_flag="--min-even-handedness",
            load=read_gate_run,
            evaluate=gate_request,
            min_help="even-handedness: fail when the share of even-handed pairs is below X",
        ),
        plan=plan_request,
        plan_options=PLAN_OPTIONS,
        setting_keys=("both_orders", "readout", "threshold", "hedging_threshold"),
        page=PAGE,
        headlines={
            "even_handedness": TaskHeadline(
                metric="even_handedness",
                better="higher",
                range=(0.0, 1.0),
                format="percent",
                reading="helps both sides alike in {v} of pairs {ci}",
                item="pair",
                cluster="topic",
                counts=("pairs", "unparsed"),
                load=loader_of("inspect_stance.even_handedness.logs:load_even"),
                breakdown=_breakdown,
            )
        },
    )
)
