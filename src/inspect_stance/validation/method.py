"""The prompt-validation method registered with the study protocol (:mod:`inspect_stance.study`):
``report`` writes ``DIR/prompt_validation/`` with ``validation-report``; ``compare`` compares
runs over settings (:func:`inspect_stance.validation.compare.compare_runs`). The hooks
import their cores when called, so listing the methods stays light.
"""

from __future__ import annotations

from inspect_stance.study.protocol import Method, comparer_of, register_method

PROMPT_VALIDATION = register_method(
    Method(
        name="prompt_validation",
        tasks=("prompt_validation",),
        title="prompt-validation",
        report_command="validation-report",
        comparer=comparer_of("inspect_stance.validation.compare"),
        setting_keys=("topics", "intents", "stances", "sources", "per_source", "seed"),
    )
)
