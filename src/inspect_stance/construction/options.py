"""The ``prompt_construction`` task's ``-T`` parameters, checked once (one-line errors).

:meth:`ConstructionOptions.parse` turns the task's raw arguments into typed, validated values;
the task, its dataset plan (:mod:`inspect_stance.construction.samples`), its solver and scorer
arguments and its task metadata read this one object. Relative file paths are resolved from the
working directory.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from inspect_stance.construction.controls import ORIGINAL, parse_judge_prompt
from inspect_stance.construction.ensemble import Ensemble, check_ensemble
from inspect_stance.construction.issuebench import PACKAGE
from inspect_stance.construction.rubric import DEFAULT_THRESHOLD, check_rubric_threshold
from inspect_stance.construction.settings import (
    INFORMATION,
    INTENTS,
    METHODS,
    OPINION,
    USER_STANCES,
    WRITING,
    parse_choice,
)
from inspect_stance.construction.topics import _parse_topic_ids
from inspect_stance.params import as_bool, as_int
from inspect_stance.paths import user_path
from inspect_stance.shards import Shard, parse_shard


@dataclass(frozen=True)
class ConstructionOptions:
    """The checked parameters of one ``prompt_construction`` run (see the task's ``Args:``).

    ``topics`` is None (the defaults), topic ids, or a resolved topics-file path;
    ``template_files`` maps an intent to its ``-T <intent>_templates`` file (None: the
    default templates); ``judge_prompts`` is the checked ``-T judge_prompt`` list (the first
    gives the outcome) and ``judge_prompt`` the value as given (for the input fingerprint);
    ``judge_sees_prompt`` is whether the first of ``judge_prompts`` is ``original``.
    """

    topics: str | int | list[int] | None
    issues: str
    intents: list[str]
    stances: list[str]
    methods: list[str]
    issuebench_templates: str
    template_files: dict[str, str | None] = field(default_factory=dict)
    templates_per_setting: int = 10
    prompts_per_setting: int = 10
    responses_per_prompt: int = 1
    prompts_from: str | None = None
    seed_prompts: str | None = None
    seeds_per_setting: int = 6
    seed: int = 0
    rubric_threshold: float = DEFAULT_THRESHOLD
    judge_sees_prompt: bool = True
    judge_prompts: list[str] = field(default_factory=lambda: [ORIGINAL])
    judge_prompt: object = None
    reversed_rubric: bool = False
    ensemble: Ensemble = "majority"
    human_labels: str | None = None
    prompter_cache: bool = True
    shard: Shard | None = None

    @property
    def topics_file(self) -> str | None:
        """The topics file, when ``-T topics`` names one (not ids, not the defaults)."""
        if self.topics is None or _parse_topic_ids(self.topics) is not None:
            return None
        return str(self.topics)

    @classmethod
    def parse(
        cls,
        topics: str | int | list[int] | None = None,
        issues: str = PACKAGE,
        intents: str | list[str] | None = None,
        stances: str | list[str] | None = None,
        methods: str | list[str] | None = None,
        issuebench_templates: str = PACKAGE,
        writing_templates: str | None = None,
        information_templates: str | None = None,
        opinion_templates: str | None = None,
        templates_per_setting: object = 10,
        prompts_per_setting: object = 10,
        responses_per_prompt: object = 1,
        prompts_from: str | None = None,
        seed_prompts: str | None = None,
        seeds_per_setting: object = 6,
        seed: object = 0,
        rubric_threshold: object = DEFAULT_THRESHOLD,
        judge_sees_prompt: object = True,
        judge_prompt: object = None,
        reversed_rubric: object = False,
        ensemble: object = "majority",
        human_labels: str | None = None,
        prompter_cache: object = True,
        shard: object = None,
    ) -> ConstructionOptions:
        """Check every parameter once (the judge parameters first, then the inputs and the
        counts); the first bad one raises a one-line
        :class:`~inspect_stance.errors.InputError` naming it and the fix."""
        split = parse_shard(shard)
        judging = _judging(
            rubric_threshold, judge_sees_prompt, judge_prompt, reversed_rubric, ensemble
        )
        issues, issuebench_templates = user_path(issues), user_path(issuebench_templates)
        if isinstance(topics, str) and _parse_topic_ids(topics) is None:
            topics = user_path(topics)
        return cls(
            topics=topics,
            issues=issues,
            intents=parse_choice(intents, INTENTS, "intents"),
            stances=parse_choice(stances, USER_STANCES, "stances"),
            methods=parse_choice(methods, METHODS, "methods"),
            issuebench_templates=issuebench_templates,
            template_files={
                WRITING: _path(writing_templates),
                INFORMATION: _path(information_templates),
                OPINION: _path(opinion_templates),
            },
            templates_per_setting=as_int("templates_per_setting", templates_per_setting),
            prompts_per_setting=as_int("prompts_per_setting", prompts_per_setting),
            responses_per_prompt=as_int("responses_per_prompt", responses_per_prompt),
            prompts_from=_path(prompts_from),
            seed_prompts=_path(seed_prompts),
            seeds_per_setting=as_int("seeds_per_setting", seeds_per_setting, minimum=0),
            seed=as_int("seed", seed, minimum=0),
            **judging,
            human_labels=_path(human_labels),
            prompter_cache=as_bool("prompter_cache", prompter_cache),
            shard=split,
        )


def _judging(
    rubric_threshold: object,
    judge_sees_prompt: object,
    judge_prompt: object,
    reversed_rubric: object,
    ensemble: object,
) -> dict[str, Any]:
    """The judge parameters checked (rubric threshold, what the judges see, the controls, the
    ensemble), as :class:`ConstructionOptions` fields."""
    threshold = check_rubric_threshold(rubric_threshold)
    judge_prompts = parse_judge_prompt(
        judge_prompt, as_bool("judge_sees_prompt", judge_sees_prompt)
    )
    return {
        "rubric_threshold": threshold,
        "judge_sees_prompt": judge_prompts[0] == ORIGINAL,
        "judge_prompts": judge_prompts,
        "judge_prompt": judge_prompt,
        "reversed_rubric": as_bool("reversed_rubric", reversed_rubric),
        "ensemble": check_ensemble(ensemble),
    }


def _path(value: str | None) -> str | None:
    """An optional file parameter resolved from the working directory (None when unset)."""
    return user_path(value) if value else None
