"""The prompt-construction method registered with the study protocol
(:mod:`inspect_stance.study`): its report reads ``prompt_construction`` and
``judge_validation`` logs; ``compare`` compares ``prompt_construction`` runs over setting x
method items (:func:`inspect_stance.construction.compare.compare_runs`). The hooks
import their cores when called, so listing the methods stays light.
"""

from __future__ import annotations

from inspect_stance.study.protocol import (
    Method,
    PlanRequest,
    PlanResult,
    comparer_of,
    register_method,
)


def plan(request: PlanRequest) -> PlanResult:
    """Settings x prompts x responses x judges of the construction gap
    (:func:`inspect_stance.construction.planning.plan_from_request`)."""
    from inspect_stance.construction.planning import plan_from_request

    return plan_from_request(request)


CONSTRUCTION = register_method(
    Method(
        name="construction",
        tasks=("prompt_construction", "judge_validation"),
        title="prompt-construction",
        report_command="construction-report",
        report_dir="prompt_construction",
        comparer=comparer_of("inspect_stance.construction.compare"),
        plan=plan,
        setting_keys=("judge_sees_prompt", "reversed_rubric", "ensemble"),
        aliases=("prompt_construction",),
    )
)
