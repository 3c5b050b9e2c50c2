"""The ``prompt_validation`` task's ``-T`` parameters, checked once (one-line errors).

:meth:`ValidationOptions.parse` turns the task's raw arguments into typed, validated values;
the task, its dataset plan (:mod:`inspect_stance.validation.samples`) and its task
metadata read this one object. Relative file paths are resolved from the working directory.
"""

from __future__ import annotations

from dataclasses import dataclass

import inspect_stance.validation.defaults as D
from inspect_stance.construction.settings import INTENTS, USER_STANCES, parse_choice
from inspect_stance.errors import InputError
from inspect_stance.paths import user_path
from inspect_stance.shards import Shard, parse_shard
from inspect_stance.task_options import boolean, checked_values, file_path, integer, option
from inspect_stance.validation.annotation import GENERATED, SOURCES, TEMPLATED
from inspect_stance.validation.real_prompts import ISSUEBENCH

PACKAGE = "package"  # the packaged default topics / IssueBench templates sample


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


def check_real_prompts(name: str, value: object) -> str:
    """``-T real_prompts``: a non-empty name (its source is checked by :func:`_real_source`)."""
    _real_source(value)
    return str(value)


@dataclass(frozen=True)
class ValidationOptions:
    """The checked parameters of one ``prompt_validation`` run (declared once, below).

    ``real_source`` is ``issuebench``, ``hub:NAME`` or a resolved file path; ``real_prompts``
    keeps the value as given (for the task metadata). ``template_files`` maps an intent to its
    ``-T <intent>_templates`` file (None: the default templates).
    """

    topics: str | int | list[int] | None = option(
        None,
        "topic ids (e.g. ``1001,68``; default the prompt-construction study's six packaged "
        "topics) or a topics file with the IssueBench ``issues`` columns.",
    )
    issues: str = option(
        D.PACKAGE,
        "where topic ids are looked up: ``package`` (the packaged topics, default), ``hub`` "
        "(``Paul/IssueBench`` through ``datasets``) or a local issues file (e.g. "
        "``../shared/data/issuebench/issues.csv``).",
    )
    intents: list[str] = option(
        None,
        "comma-separated intents to include: ``writing``, ``information``, ``opinion`` "
        "(default all three).",
        check=lambda n, v: parse_choice(v, INTENTS, n),
    )
    stances: list[str] = option(
        None,
        "comma-separated user stances: ``neutral``, ``pole_a``, ``pole_b`` (default all).",
        check=lambda n, v: parse_choice(v, USER_STANCES, n),
    )
    sources: list[str] = option(
        None,
        "comma-separated prompt sources: ``real``, ``templated``, ``generated`` (default all "
        "three; the Friedman test needs all three).",
        check=lambda n, v: parse_choice(v, SOURCES, n),
    )
    per_source: int = option(
        D.PER_SOURCE,
        "prompts of each source per setting (default 2); a setting shows up to ``3 * "
        "per_source`` prompts to each annotator.",
        check=integer(example=D.PER_SOURCE),
    )
    real_prompts: str = option(
        D.REAL_PROMPTS,
        "real user prompts: ``issuebench`` (the real chat-log prompts IssueBench clustered "
        "under each topic; when this run generates prompts, half of them are the real prompts "
        "and the other half the generator's seeds), a file (``prompt_text`` or WildChat/LMSYS "
        "``conversation`` column; optional ``topic_id``, ``intent``, ``stance``) or "
        "``hub:NAME`` (a hub chat-log dataset such as ``hub:allenai/WildChat-1M``, filtered "
        "to the topic by keywords).",
        check=check_real_prompts,
    )
    real_limit: int = option(
        D.REAL_LIMIT,
        "rows of a ``hub:`` dataset scanned for real prompts (default 20000).",
        check=integer(example=D.REAL_LIMIT),
    )
    prompts_from: str | None = option(
        None,
        "a ``prompt_construction`` log or prompts file (CSV/JSONL with ``topic_id, intent, "
        "stance, method, slot, prompt_text``) supplying the templated and generated prompts, "
        "so the validated prompts are the ones the stance study used; when it is a log, its "
        "judges are recorded for the report's ``also_judge`` column.",
        check=file_path,
    )
    issuebench_templates: str = option(
        D.PACKAGE,
        "writing-assistance templates: ``package`` (IssueBench's sample, default), ``hub`` or "
        "a local IssueBench templates file (used for templated writing prompts not in "
        "``prompts_from``).",
    )
    writing_templates: str | None = option(
        None,
        "a file of writing templates with an ``X`` slot (instead of IssueBench's).",
    )
    information_templates: str | None = option(
        None,
        "a file of information-seeking templates (default the built-in set of the "
        "prompt-construction study).",
    )
    opinion_templates: str | None = option(
        None,
        "a file of opinion-sharing templates (default the built-in set).",
    )
    seeds_per_setting: int = option(
        D.SEEDS_PER_SETTING,
        "real prompts shown to the ``prompter`` as examples per setting (default 6; with "
        "``real_prompts=issuebench`` drawn from the seed half only).",
        check=integer(minimum=0, example=D.SEEDS_PER_SETTING),
    )
    seed: int = option(
        D.SEED,
        "seed of the template draw, the real-prompt draw, the generator seeds and each "
        "annotator's shuffled order (default 0).",
        check=integer(minimum=0, example=D.SEED),
    )
    prompter_cache: bool = option(
        D.PROMPTER_CACHE,
        "cache the prompter's answers (a week; keyed on the prompter's model args too) so a "
        "retried run gets the same generated prompts (default true).",
        check=boolean,
    )
    shard: Shard | None = option(
        None,
        'run only shard K of N of the settings ("K/N", e.g. 1/4), split by content hash after '
        "the settings are fixed; the log records K, N and the study's fingerprint.",
        check=lambda _, v: parse_shard(v),
    )
    #: ``real_prompts`` checked: ``issuebench``, ``hub:NAME`` or a resolved path (not an option)
    real_source: str = ""

    @property
    def template_files(self) -> dict[str, str | None]:
        """Intent -> its ``-T <intent>_templates`` file (None: the default templates)."""
        return {
            "writing": self.writing_templates,
            "information": self.information_templates,
            "opinion": self.opinion_templates,
        }

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
    def parse(cls, **raw: object) -> ValidationOptions:
        """Check every option once, by keyword, in the order the task declares them; the first
        bad one raises a one-line :class:`~inspect_stance.errors.InputError` naming it and the
        fix."""
        values = checked_values(cls, raw)
        return cls(**values, real_source=_real_source(values["real_prompts"]))
