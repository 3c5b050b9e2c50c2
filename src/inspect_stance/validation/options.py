"""The ``prompt_validation`` task's ``-T`` parameters, checked once (one-line errors).

:meth:`ValidationOptions.parse` turns the task's raw arguments into typed, validated values;
the task, its dataset plan (:mod:`inspect_stance.validation.samples`) and its task
metadata read this one object. Relative file paths are resolved from the working directory.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from inspect_stance.construction.settings import INTENTS, USER_STANCES, parse_choice
from inspect_stance.errors import InputError
from inspect_stance.params import as_bool, as_int
from inspect_stance.paths import user_path
from inspect_stance.shards import Shard, parse_shard
from inspect_stance.validation.annotation import GENERATED, SOURCES, TEMPLATED
from inspect_stance.validation.real_prompts import ISSUEBENCH

PACKAGE = "package"  # the packaged default topics / IssueBench templates sample


@dataclass(frozen=True)
class ValidationOptions:
    """The checked parameters of one ``prompt_validation`` run (see the task's ``Args:``).

    ``real_source`` is ``issuebench``, ``hub:NAME`` or a resolved file path; ``real_prompts``
    keeps the value as given (for the task metadata). ``template_files`` maps an intent to its
    ``-T <intent>_templates`` file (None: the default templates).
    """

    topics: str | int | list[int] | None
    issues: str
    intents: list[str]
    stances: list[str]
    sources: list[str]
    per_source: int
    real_prompts: str
    real_source: str
    real_limit: int
    prompts_from: str | None
    issuebench_templates: str
    template_files: dict[str, str | None] = field(default_factory=dict)
    seeds_per_setting: int = 6
    seed: int = 0
    prompter_cache: bool = True
    shard: Shard | None = None

    @property
    def methods(self) -> list[str]:
        """The constructed sources (templated, generated) among :attr:`sources`, in order."""
        return [s for s in self.sources if s in (TEMPLATED, GENERATED)]

    def input_files(self) -> dict[str, str | None]:
        """The run's inputs by ``-T`` name (files, sources), for the task's fingerprint."""
        return {
            "topics": None if self.topics is None else str(self.topics),
            "issues": self.issues,
            "real_prompts": self.real_source,
            "prompts_from": self.prompts_from,
            "issuebench_templates": self.issuebench_templates,
            **{f"{k}_templates": v for k, v in self.template_files.items()},
        }

    @classmethod
    def parse(
        cls,
        topics: str | int | list[int] | None = None,
        issues: str = PACKAGE,
        intents: str | list[str] | None = None,
        stances: str | list[str] | None = None,
        sources: str | list[str] | None = None,
        per_source: object = 2,
        real_prompts: object = ISSUEBENCH,
        real_limit: object = 20_000,
        prompts_from: str | None = None,
        issuebench_templates: str = PACKAGE,
        writing_templates: str | None = None,
        information_templates: str | None = None,
        opinion_templates: str | None = None,
        seeds_per_setting: object = 6,
        seed: object = 0,
        prompter_cache: object = True,
        shard: object = None,
    ) -> ValidationOptions:
        """Check every parameter once, in the order the task documents them; the first bad one
        raises a one-line :class:`~inspect_stance.errors.InputError` naming it and the fix."""
        split = parse_shard(shard)
        intent_list = parse_choice(intents, INTENTS, "intents")
        stance_list = parse_choice(stances, USER_STANCES, "stances")
        source_list = parse_choice(sources, SOURCES, "sources")
        k = as_int("per_source", per_source, example=2)
        limit = as_int("real_limit", real_limit, example=20000)
        k_seeds = as_int("seeds_per_setting", seeds_per_setting, minimum=0, example=6)
        seed_value = as_int("seed", seed, minimum=0, example=0)
        cache = as_bool("prompter_cache", prompter_cache)
        return cls(
            topics=topics,
            issues=issues,
            intents=intent_list,
            stances=stance_list,
            sources=source_list,
            per_source=k,
            real_prompts=str(real_prompts),
            real_source=_real_source(real_prompts),
            real_limit=limit,
            prompts_from=user_path(prompts_from) if prompts_from else None,
            issuebench_templates=issuebench_templates,
            template_files={
                "writing": writing_templates,
                "information": information_templates,
                "opinion": opinion_templates,
            },
            seeds_per_setting=k_seeds,
            seed=seed_value,
            prompter_cache=cache,
            shard=split,
        )


def _real_source(real_prompts: object) -> str:
    """``issuebench``, ``hub:NAME`` or the resolved path of a real-prompts file."""
    if not isinstance(real_prompts, str) or not real_prompts.strip():
        raise InputError(
            f"real_prompts {real_prompts!r}; use -T real_prompts=issuebench, a file or hub:NAME"
        )
    source = real_prompts.strip()
    if source != ISSUEBENCH and not source.startswith("hub:"):
        source = user_path(source)
    return source
