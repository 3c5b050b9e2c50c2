"""What a ``prompt_validation`` run annotates: per setting, the prompts of each source.

:func:`plan_validation` loads the topics, the templates, the reused or to-be-generated prompts
and the real prompts named by a :class:`~inspect_stance.validation.options.
ValidationOptions`, and lays out one :class:`SettingPlan` per setting (topic x intent x user
stance): the items (``per_source`` prompts of each source) the annotators will rank and label.
The task turns each setting into one Inspect sample.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from inspect_stance.construction.issuebench import (
    DEFAULT_TEMPLATES_SPLIT,
    load_issues,
    load_templates,
)
from inspect_stance.construction.prompts import build_specs, load_prompts
from inspect_stance.construction.settings import INFORMATION, OPINION, WRITING
from inspect_stance.construction.templates import (
    INFORMATION_TEMPLATES,
    OPINION_TEMPLATES,
    builtin_templates,
    sample_templates,
    templates_from_file,
    templates_from_issuebench,
)
from inspect_stance.construction.topics import load_topics_file, select_topics
from inspect_stance.errors import InputError
from inspect_stance.paths import user_path
from inspect_stance.shards import select, shard_metadata, study_fingerprint
from inspect_stance.validation.annotation import GENERATED, REAL, TEMPLATED, item_id
from inspect_stance.validation.defaults import PACKAGE
from inspect_stance.validation.options import ValidationOptions
from inspect_stance.validation.real_prompts import ISSUEBENCH, real_for_setting, split_issuebench

if TYPE_CHECKING:
    from inspect_stance.construction.prompts import PromptSpec
    from inspect_stance.construction.settings import Setting
    from inspect_stance.construction.templates import Template
    from inspect_stance.construction.topics import Topic
    from inspect_stance.validation.real_prompts import RealPrompt

TABLE_SUFFIXES = {".csv", ".tsv", ".json", ".jsonl", ".parquet"}
LOG_SUFFIXES = {".eval", ".json"}


@dataclass
class SettingPlan:
    """One setting's sample: its key, metadata (with the ``items`` to annotate) and whether a
    prompter must still write some of its prompts."""

    key: str
    metadata: dict[str, Any]
    needs_prompter: bool


@dataclass
class ValidationPlan:
    """The settings of a run and what the task metadata reports about its inputs."""

    topics: list[Topic]
    settings: list[SettingPlan]
    real_found: dict[str, int] = field(default_factory=dict)
    real_shortfall: dict[str, int] = field(default_factory=dict)  # setting -> missing real
    real_seed_split: bool = False
    #: the task-metadata entry of ``-T shard`` (empty unsharded)
    shard: dict[str, Any] = field(default_factory=dict)

    @property
    def needs_prompter(self) -> bool:
        """Some generated prompt is neither reused nor written yet."""
        return any(s.needs_prompter for s in self.settings)


def load_topics(topics: object, issues: str) -> list[Topic]:
    """The run's topics: a topics file, or ids looked up in the packaged/hub/file issues."""

    if isinstance(topics, str) and Path(topics).suffix.lower() in TABLE_SUFFIXES:
        return load_topics_file(user_path(topics))[0]
    table = None if topics is None or issues == PACKAGE else load_issues(user_path(issues))
    return select_topics(topics, table)


def load_intent_templates(
    intents: list[str],
    issuebench_templates: str,
    files: dict[str, str | None],
    k: int,
    seed: int,
) -> dict[str, list[Template]]:
    """``k`` templates per intent, drawn as the prompt_construction task draws them."""

    pools: dict[str, list[Template]] = {}
    for intent in intents:
        path = files.get(intent)
        if path:
            pools[intent] = templates_from_file(user_path(path), intent)
        elif intent == WRITING:
            table = load_templates(user_path(issuebench_templates), DEFAULT_TEMPLATES_SPLIT)
            pools[intent] = templates_from_issuebench(table)[0]
        elif intent == INFORMATION:
            pools[intent] = builtin_templates(INFORMATION_TEMPLATES, "info")
        elif intent == OPINION:
            pools[intent] = builtin_templates(OPINION_TEMPLATES, "opinion")
    return {i: sample_templates(p, k, seed, i) for i, p in pools.items()}


def construction_judges(prompts_from: str | None) -> list[str] | None:
    """Judges of a prompt_construction log given as ``prompts_from`` (None for other files)."""
    if not prompts_from or Path(prompts_from).suffix.lower() not in LOG_SUFFIXES:
        return None
    try:
        from inspect_stance.validation.report import judges_of_log

        return judges_of_log(prompts_from)
    except (InputError, ValueError):
        return None


def _settings(topics: list[Topic], opts: ValidationOptions) -> list[tuple[Topic, Setting]]:
    from inspect_stance.construction.settings import Setting

    return [
        (t, Setting(t.topic_id, i, s)) for t in topics for i in opts.intents for s in opts.stances
    ]


def _specs(
    topics: list[Topic],
    settings: list[tuple[Topic, Setting]],
    opts: ValidationOptions,
    reused: Any,
) -> list[PromptSpec]:
    """The templated and generated prompts' specs (templates drawn only when some are new)."""

    methods = opts.methods
    if not methods:
        return []
    templates: dict[str, list[Template]] = {}
    if TEMPLATED in methods and any((st, TEMPLATED) not in (reused or {}) for _, st in settings):
        templates = load_intent_templates(
            opts.intents,
            opts.issuebench_templates,
            opts.template_files,
            opts.per_source,
            opts.seed,
        )
    return build_specs(
        topics=topics,
        intents=opts.intents,
        stances=opts.stances,
        methods=methods,
        templates=templates,
        prompts_per_setting=opts.per_source,
        responses_per_prompt=1,
        reused=reused,
        seeds_per_setting=opts.seeds_per_setting,
        seed=opts.seed,
    )


def _split_seeds(
    topics: list[Topic],
    settings: list[tuple[Topic, Setting]],
    opts: ValidationOptions,
    reused: Any,
) -> tuple[list[Topic], dict[int, list[str]]]:
    """With IssueBench's real prompts and prompts still to generate: the real prompts and the
    generator's seeds from disjoint halves of each topic's prompts (topics carry the seeds)."""

    if not (
        REAL in opts.sources
        and opts.real_source == ISSUEBENCH
        and GENERATED in opts.methods
        and any((st, GENERATED) not in (reused or {}) for _, st in settings)
    ):
        return topics, {}
    halves = {t.topic_id: split_issuebench(t, opts.seed) for t in topics}
    split = {i: h[0] for i, h in halves.items()}
    return [replace(t, seeds=tuple(halves[t.topic_id][1])) for t in topics], split


def _real_prompts(
    topics: list[Topic], split: dict[int, list[str]], opts: ValidationOptions
) -> dict[int, list[RealPrompt]]:
    from inspect_stance.validation.real_prompts import RealPrompt, load_real_prompts

    if REAL not in opts.sources:
        return {}
    if split:
        real = {i: [RealPrompt(text, i) for text in texts] for i, texts in split.items()}
    else:
        real = load_real_prompts(opts.real_source, topics, opts.real_limit)
    if not any(real.values()):
        raise InputError(
            f"real_prompts {opts.real_prompts}: no real prompt for any topic of this run; "
            f"choose other topics or another real_prompts source"
        )
    return real


def _item(
    setting: Setting,
    topic: Topic,
    source: str,
    slot: int,
    text: str | None,
    intended: tuple[str | None, str | None],
    template_id: str | None,
    prompt_source: str | None,
) -> dict[str, Any]:
    """One prompt to annotate; ``intended`` is the (intent, stance) it was built to carry."""
    return {
        "item_id": item_id(setting.key, source, slot),
        "source": source,
        "slot": slot,
        "text": text,
        "intended_intent": intended[0],
        "intended_stance": intended[1],
        "filler_pole": getattr(topic, "filler_pole", None),
        "template_id": template_id,
        "prompt_source": prompt_source,
    }


def _constructed_items(
    setting: Setting, topic: Topic, specs: list[PromptSpec], opts: ValidationOptions
) -> tuple[list[dict[str, Any]], str | None, bool]:
    """A setting's templated/generated items, the generation instructions of a prompt still
    to write (None when none) and whether there is such a prompt."""
    items: list[dict[str, Any]] = []
    instructions, needs_prompter = None, False
    for method in opts.methods:
        mine = sorted(
            (s for s in specs if s.setting == setting and s.method == method), key=lambda s: s.slot
        )[: opts.per_source]
        for spec in mine:
            items.append(
                _item(
                    setting,
                    topic,
                    method,
                    spec.slot,
                    spec.prompt_text,
                    (setting.intent, setting.stance),
                    spec.template_id,
                    spec.prompt_source,
                )
            )
            if spec.prompt_text is None:
                needs_prompter, instructions = True, spec.generation_instructions
    return items, instructions, needs_prompter


def _real_items(
    setting: Setting, topic: Topic, real: dict[int, list[RealPrompt]], opts: ValidationOptions
) -> tuple[list[dict[str, Any]], int]:
    """A setting's real items and how many it lacks (fewer real prompts than ``per_source``)."""

    if REAL not in opts.sources:
        return [], 0
    k = opts.per_source
    chosen = real_for_setting(
        real.get(topic.topic_id, []), setting.intent, setting.stance, k, opts.seed, setting.key
    )
    items = [
        _item(setting, topic, REAL, slot, rp.text, (rp.intent, rp.stance), None, "real")
        for slot, rp in enumerate(chosen)
    ]
    return items, k - len(chosen)


def plan_validation(opts: ValidationOptions) -> ValidationPlan:
    """Load the run's inputs and lay out its settings (see the module docstring)."""

    topics = load_topics(opts.topics, opts.issues)
    reused = load_prompts(opts.prompts_from) if opts.prompts_from else None
    topics, split = _split_seeds(topics, _settings(topics, opts), opts, reused)
    settings = _settings(topics, opts)
    specs = _specs(topics, settings, opts, reused)
    real = _real_prompts(topics, split, opts)
    plans: list[SettingPlan] = []
    shortfall: dict[str, int] = {}
    for topic, setting in settings:
        items, instructions, needs_prompter = _constructed_items(setting, topic, specs, opts)
        real_items, missing = _real_items(setting, topic, real, opts)
        if missing > 0:
            shortfall[setting.key] = missing
        metadata: dict[str, Any] = {
            "setting": setting.key,
            "topic_id": topic.topic_id,
            "topic_neutral": topic.neutral,
            "topic_pro": topic.pro,
            "topic_con": topic.con,
            "intent": setting.intent,
            "stance": setting.stance,
            "items": items + real_items,
            "generation_instructions": instructions,
        }
        plans.append(SettingPlan(setting.key, metadata, needs_prompter))
    keys = [p.key for p in plans]
    mine = set(select(keys, str, opts.shard))
    settings_dict = {k: v for k, v in asdict(opts).items() if k != "prompter_cache"}
    study = study_fingerprint("prompt_validation", keys, settings_dict)
    return ValidationPlan(
        topics=topics,
        settings=[p for p in plans if p.key in mine],  # -T shard: whole settings
        shard=shard_metadata(opts.shard, study, len(keys), len(mine)),
        real_found={str(t): len(v) for t, v in real.items()},
        real_shortfall=shortfall,
        real_seed_split=bool(split),
    )
