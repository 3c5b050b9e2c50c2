"""Prompt validation as a study file runs it: its annotators, the target as the prompter whose
prompts are validated, planned calls and size.

``S`` settings (topics x intents x user stances); each annotator ranks a setting's prompts (one
call) and labels each (``sources x per_source`` calls, default 3 x 2); one prompter (the
target) call per setting.
"""

from __future__ import annotations

from typing import Any

from inspect_stance.construction.study import study_settings
from inspect_stance.study.protocol import StudySize, StudyTask
from inspect_stance.study.task_args import add_calls, arg_count, arg_int


def calls(
    args: dict[str, Any], target: str, roles: dict[str, list[str]]
) -> tuple[int, dict[str, int]]:
    """The settings and model calls of one prompt-validation run (module docstring)."""
    out: dict[str, int] = {}
    s = study_settings(args)
    per = 1 + arg_count(args.get("sources"), 3) * arg_int(args, "per_source", 2)
    for annotator in roles.get("annotators", []):
        add_calls(out, annotator, s * per)
    if "generated" in str(args.get("sources") or "generated") and not args.get("prompts_from"):
        add_calls(out, target, s)
    return s, out


STUDY = StudyTask(
    roles=("annotators",),
    required_roles=("annotators",),
    calls=calls,
    size=StudySize("per_source", 20, 1.0, False),
    target_role="prompter",
)
