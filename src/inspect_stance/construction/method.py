"""The prompt-construction method registered with the study protocol
(:mod:`inspect_stance.study`): its report reads ``prompt_construction`` and
``judge_validation`` logs; ``compare`` compares ``prompt_construction`` runs over setting x
method items (:func:`inspect_stance.construction.compare.compare_runs`). The hooks
import their cores when called, so listing the methods stays light.
"""

from __future__ import annotations

from inspect_stance.study.protocol import Method, comparer_of, register_method

CONSTRUCTION = register_method(
    Method(
        name="construction",
        tasks=("prompt_construction", "judge_validation"),
        title="prompt-construction",
        report_command="construction-report",
        report_dir="prompt_construction",
        comparer=comparer_of("inspect_stance.construction.compare"),
        setting_keys=("judge_sees_prompt", "reversed_rubric", "ensemble"),
        aliases=("prompt_construction",),
    )
)
