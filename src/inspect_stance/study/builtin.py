"""The package's four methods, registered with the protocol (:mod:`.protocol`) by wrapping
each method's existing functions (imported when called, so listing the methods stays light)."""

from __future__ import annotations

from typing import Any

from inspect_stance.study.protocol import Method, register_method


def _drift_compare(args: Any) -> Any:
    from inspect_stance.cli.drift_compare import drift_compare

    return drift_compare(args)


def _press_compare(args: Any) -> Any:
    from inspect_stance.press.compare_runs import cli_compare

    return cli_compare(args)


def _construction_compare(args: Any) -> Any:
    from inspect_stance.construction.compare import cli_compare

    return cli_compare(args)


STANCE_DRIFT = register_method(
    Method(
        name="stance_drift",
        tasks=("stance_drift",),
        report_command="report",
        npz=True,
        compare=_drift_compare,
        gate_metrics=("spr", "success_<stance>", "pattern_<name>"),
        setting_keys=("variant", "propositions", "estimator"),
        plan="plan",
    )
)
PRESS = register_method(
    Method(
        name="press",
        tasks=("press",),
        report_command="press-report",
        compare=_press_compare,
        gate_metrics=("share_stable",),
        setting_keys=("arguments_fingerprint", "statements", "classifier"),
    )
)
CONSTRUCTION = register_method(
    Method(
        name="construction",
        tasks=("prompt_construction", "judge_validation"),
        report_command="construction-report",
        report_dir="prompt_construction",
        compare=_construction_compare,
        setting_keys=("rubric_threshold", "judges"),
        aliases=("prompt_construction",),
    )
)
PROMPT_VALIDATION = register_method(
    Method(
        name="prompt_validation",
        tasks=("prompt_validation",),
        report_command="validation-report",
    )
)

import inspect_stance.even_handedness.method  # noqa: E402,F401 - registers even_handedness
