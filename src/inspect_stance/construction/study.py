"""Prompt construction as a study file runs it: its judges and prompter roles, planned calls and
size.

``S`` settings = topics (default 6) x intents (3) x user stances (3);
``S x (templates_per_setting + prompts_per_setting) x responses_per_prompt`` responses (one
target call each, default 10 + 10), each rated by every judge once per ``judge_prompt`` (plus
once more with ``reversed_rubric``); one prompter call per setting.
"""

from __future__ import annotations

from typing import Any

from inspect_stance.study.protocol import StudySize, StudyTask
from inspect_stance.study.task_args import add_calls, arg_count, arg_int

DEFAULT_TOPICS = 6


def study_settings(args: dict[str, Any]) -> int:
    """The settings (topics x intents x user stances) the task arguments select (a topics file:
    the default topics)."""
    topics = args.get("topics")
    n_topics = DEFAULT_TOPICS if topics is None or "." in str(topics) else arg_count(topics, 6)
    return n_topics * arg_count(args.get("intents"), 3) * arg_count(args.get("stances"), 3)


def calls(
    args: dict[str, Any], target: str, roles: dict[str, list[str]]
) -> tuple[int, dict[str, int]]:
    """The settings and model calls of one prompt-construction run (module docstring)."""
    out: dict[str, int] = {}
    s = study_settings(args)
    methods = str(args.get("methods") or "templated,generated")
    per = (arg_int(args, "templates_per_setting", 10) if "templated" in methods else 0) + (
        arg_int(args, "prompts_per_setting", 10) if "generated" in methods else 0)  # fmt: skip
    responses = s * per * arg_int(args, "responses_per_prompt", 1)
    add_calls(out, target, responses)
    ratings = arg_count(args.get("judge_prompt"), 1) + (1 if args.get("reversed_rubric") else 0)
    for judge in roles.get("judges", []):
        add_calls(out, judge, responses * ratings)
    prompter = roles.get("prompter")
    if "generated" in methods and not args.get("prompts_from"):
        add_calls(out, prompter[0] if prompter else target, s)
    return s, out


STUDY = StudyTask(
    roles=("judges", "prompter"),
    required_roles=("judges",),
    calls=calls,
    size=StudySize("prompts_per_setting", 100, 2.0, False),
)
