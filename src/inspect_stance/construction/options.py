"""The ``prompt_construction`` task's ``-T`` parameters, checked once (one-line errors).

:meth:`ConstructionOptions.parse` turns the task's raw arguments into typed, validated values;
the task, its dataset plan (:mod:`inspect_stance.construction.samples`), its solver and scorer
arguments and its task metadata read this one object. Relative file paths are resolved from the
working directory.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import inspect_stance.construction.defaults as D
from inspect_stance.construction.controls import ORIGINAL, parse_judge_prompt
from inspect_stance.construction.ensemble import Ensemble, check_ensemble
from inspect_stance.construction.rubric import check_rubric_threshold
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
from inspect_stance.paths import user_path
from inspect_stance.shards import Shard, parse_shard
from inspect_stance.task_options import boolean, checked_values, file_path, integer, option


def check_topics(name: str, value: object) -> str | int | list[int] | None:
    """``-T topics``: topic ids as given, or a topics file resolved from the working
    directory."""
    if isinstance(value, str) and _parse_topic_ids(value) is None:
        return user_path(value)
    return value  # type: ignore[return-value]  # ids: checked when the topics are selected


@dataclass(frozen=True)
class ConstructionOptions:
    """The checked parameters of one ``prompt_construction`` run (declared once, below).

    ``topics`` is None (the defaults), topic ids, or a resolved topics-file path;
    ``template_files`` maps an intent to its ``-T <intent>_templates`` file (None: the
    default templates); ``judge_prompts`` is the checked ``-T judge_prompt`` list (the first
    gives the outcome) and ``judge_prompt`` the value as given (for the input fingerprint);
    ``judge_sees_prompt`` is whether the first of ``judge_prompts`` is ``original``.
    """

    topics: str | int | list[int] | None = option(
        None,
        "Topics to use: empty for the six defaults (the paper's climate change 1001, US and "
        "Israeli strikes on Iran 1002 and Russian invasion of Ukraine 1003, completed with "
        "IssueBench issues 68 abortion, 85 immigration, 18 Gaza; shipped with the package), "
        "comma-separated topic ids (looked up in ``issues``), or the path of a topics file "
        "(.csv/.tsv/.jsonl with IssueBench's ``topic_id, topic_neutral, topic_pro, "
        "topic_con`` columns and optional ``filler_pole``, ``top_prompts``; rows with "
        "``tag_exclude`` = 1 are skipped and counted).",
        check=check_topics,
    )
    issues: str = option(
        D.PACKAGE,
        "Where topic ids are looked up: ``package`` (the six packaged topics, default), "
        "``hub`` (IssueBench's ``issues`` from the Hugging Face hub, needs the network) or a "
        "local issues file with the same columns.",
        check=lambda _, v: user_path(str(v)),
    )
    intents: list[str] = option(
        None,
        "Comma-separated intents: ``writing`` (writing assistance), ``information`` "
        "(information seeking), ``opinion`` (opinion sharing); default all three.",
        check=lambda n, v: parse_choice(v, INTENTS, n),
    )
    stances: list[str] = option(
        None,
        "Comma-separated user stances: ``neutral``, ``pole_a`` (leans to ``topic_pro``), "
        "``pole_b`` (leans to ``topic_con``); default all three.",
        check=lambda n, v: parse_choice(v, USER_STANCES, n),
    )
    methods: list[str] = option(
        None,
        "Comma-separated construction methods: ``templated`` and/or ``generated``; default both.",
        check=lambda n, v: parse_choice(v, METHODS, n),
    )
    issuebench_templates: str = option(
        D.PACKAGE,
        "Writing-assistance templates: ``package`` (IssueBench's ``templates_sample``, "
        "shipped with the package, default), ``hub`` or a local file; templates without an "
        "``X`` slot are dropped and counted.",
        check=lambda _, v: user_path(str(v)),
    )
    writing_templates: str | None = option(
        None,
        "A file of your own writing templates (.txt one per line, or .csv/.tsv with a "
        "``template`` column; each needs a standalone ``X`` slot); replaces "
        "``issuebench_templates``.",
        check=file_path,
    )
    information_templates: str | None = option(
        None,
        "A file of information-seeking templates (same format); default the package's 12 "
        "built-in templates.",
        check=file_path,
    )
    opinion_templates: str | None = option(
        None,
        "A file of opinion-sharing templates (same format); default the package's 12 built-in "
        "templates.",
        check=file_path,
    )
    templates_per_setting: int = option(
        D.TEMPLATES_PER_SETTING,
        "Templates drawn (without replacement, from ``seed``) per intent; the same draw "
        "serves every topic and stance. Default 10.",
        check=integer(),
    )
    prompts_per_setting: int = option(
        D.PROMPTS_PER_SETTING,
        "Prompts the prompter writes per setting (one call). Default 10.",
        check=integer(),
    )
    responses_per_prompt: int = option(
        D.RESPONSES_PER_PROMPT,
        "Target responses per prompt (replicates). Default 1.",
        check=integer(),
    )
    prompts_from: str | None = option(
        None,
        "Reuse prompts: an eval log of this task or a prompts file (.csv/.jsonl with "
        "``topic_id, intent, stance, method, slot, prompt_text``, e.g. the report's "
        "``prompts.csv``), so every target model sees the same prompts; no prompter needed "
        "when it covers every generated setting.",
        check=file_path,
    )
    seed_prompts: str | None = option(
        None,
        "A .csv/.tsv with ``topic_id, prompt``: real user prompts that replace the topics' "
        "IssueBench seeds in the prompter's instructions.",
        check=file_path,
    )
    seeds_per_setting: int = option(
        D.SEEDS_PER_SETTING,
        "Real user prompts shown to the prompter per setting (0: none). Default 6.",
        check=integer(minimum=0),
    )
    seed: int = option(
        D.SEED,
        "Seed for the template and seed-prompt draws. Default 0.",
        check=integer(minimum=0),
    )
    rubric_threshold: float = option(
        D.RUBRIC_THRESHOLD,
        'Share for judge classes 2 and 4: ``0.75`` ("substantially (~75%)", the paper\'s '
        'rubric, default) or ``0.9`` ("overwhelmingly (~90%)", IssueBench\'s templ-5; the '
        "referee's robustness check).",
        check=lambda _, v: check_rubric_threshold(v),
    )
    judge_sees_prompt: bool = option(
        D.JUDGE_SEES_PROMPT,
        "Show the judges the user prompt and tell them not to factor in whether it was "
        "one-sided (the paper's design, default true); false hides it (the control for judges "
        "swayed by the prompt's framing).",
        check=boolean,
    )
    judge_prompt: object = option(
        None,
        "What the judges see beside the response, comma-separated to rate under several in "
        "one run: ``original`` (the user prompt), ``none`` (hidden) and ``swapped`` (the "
        "prompt of the opposite user stance, same topic, intent, method and slot; neutral "
        "prompts have none). The first gives the run's outcome, the others are controls "
        "reported with how far each setting's lean moves (one more judge call per judge and "
        "control). Default ``original`` (``none`` when ``judge_sees_prompt`` is false).",
    )
    reversed_rubric: bool = option(
        D.REVERSED_RUBRIC,
        "Also rate every response with the rubric's labels in reversed order (1 = exclusively "
        "``topic_con``), read back as 6 - label: the per-judge order audit (one more call per "
        "judge). Default false.",
        check=boolean,
    )
    ensemble: Ensemble = option(
        D.ENSEMBLE,
        "How the judges' labels become a response's outcome for the metrics: ``majority`` "
        "(strict majority, the paper's, default) or ``dawid_skene`` (a Dawid-Skene model "
        "fitted to all responses; each response gets its most probable class).",
        check=lambda _, v: check_ensemble(v),
    )
    human_labels: str | None = option(
        None,
        "A .csv/.tsv/.jsonl with ``id`` (sample id) and ``label`` (1-5 or refusal): adds "
        "judge-human agreement and the comparison redone with human labels.",
        check=file_path,
    )
    prompter_cache: bool = option(
        D.PROMPTER_CACHE,
        "Cache the prompter's answer per setting (a week; keyed on the prompter's model args "
        "too) so ``eval-retry`` gets the same prompts back. Default true.",
        check=boolean,
    )
    shard: Shard | None = option(
        None,
        'run only shard K of N of the settings ("K/N", e.g. 1/4; every response of a setting '
        "in one shard), split by content hash after the settings are fixed; the log records "
        "K, N and the study's fingerprint so that the shards' logs pool.",
        check=lambda _, v: parse_shard(v),
    )
    #: the checked ``-T judge_prompt`` list (the first gives the outcome; not an option)
    judge_prompts: list[str] = field(default_factory=lambda: [ORIGINAL])

    @property
    def template_files(self) -> dict[str, str | None]:
        """Intent -> its ``-T <intent>_templates`` file (None: the default templates)."""
        return {
            WRITING: self.writing_templates,
            INFORMATION: self.information_templates,
            OPINION: self.opinion_templates,
        }

    @property
    def topics_file(self) -> str | None:
        """The topics file, when ``-T topics`` names one (not ids, not the defaults)."""
        if self.topics is None or _parse_topic_ids(self.topics) is not None:
            return None
        return str(self.topics)

    @classmethod
    def parse(cls, **raw: object) -> ConstructionOptions:
        """Check every option once, by keyword (each option's own check, then what the judges
        see); the first bad one raises a one-line :class:`~inspect_stance.errors.InputError`
        naming it and the fix."""
        values = checked_values(cls, raw)
        judge_prompts = parse_judge_prompt(values["judge_prompt"], values["judge_sees_prompt"])
        values["judge_sees_prompt"] = judge_prompts[0] == ORIGINAL
        return cls(**values, judge_prompts=judge_prompts)
