"""The prompt-validation study: realism, construct clarity and detection of three prompt sources.

    inspect eval tasks/prompt_validation.py \\
        --model-role annotators=ANNOTATOR_A,ANNOTATOR_B,ANNOTATOR_C [--model-role prompter=GEN] \\
        [-T topics=1001,68 | -T topics=FILE] [-T issues=package|hub|FILE] \\
        [-T intents=writing,information,opinion] [-T stances=neutral,pole_a,pole_b] \\
        [-T sources=real,templated,generated] [-T per_source=2] \\
        [-T real_prompts=issuebench|FILE|hub:NAME] [-T real_limit=20000] \\
        [-T prompts_from=LOG_OR_FILE] [-T issuebench_templates=package|hub|FILE] \\
        [-T writing_templates=FILE] [-T information_templates=FILE] [-T opinion_templates=FILE] \\
        [-T seeds_per_setting=6] [-T seed=0] [-T prompter_cache=true]

No target model is called (``--model`` is not needed). One sample per setting (topic x intent x
user stance), id ``{topic}-{intent}-{stance}``; its prompts (``per_source`` from each source)
are ranked and labelled by every annotator. See ``docs/prompt_validation.md``.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from inspect_ai import Task, task
from inspect_ai.dataset import MemoryDataset, Sample
from inspect_stance.scorers.prompt_validation import validation_record
from inspect_stance.solvers.prompt_validation import (
    ANNOTATORS_ROLE,
    LABEL_CONFIG,
    PROMPTER_CONFIG,
    PROMPTER_ROLE,
    RANKING_CONFIG,
    annotator_models,
    annotator_names,
    validation_annotation,
)

from inspect_stance.construction.annotation import (
    GENERATED,
    REAL,
    SOURCES,
    TEMPLATED,
    item_id,
)
from inspect_stance.errors import InputError
from inspect_stance.params import as_bool, as_int, reject_unknown_args
from inspect_stance.paths import user_path
from inspect_stance.roles import require_roles, role_config
from inspect_stance.viewer import headline

if TYPE_CHECKING:
    from inspect_stance.construction.prompts import PromptSpec
    from inspect_stance.construction.real_prompts import RealPrompt as RealPromptType
    from inspect_stance.construction.templates import Template
    from inspect_stance.construction.topics import Topic

TASK_VERSION = 1
PACKAGE = "package"  # the packaged default topics / IssueBench templates sample
TABLE_SUFFIXES = {".csv", ".tsv", ".json", ".jsonl", ".parquet"}
LOG_SUFFIXES = {".eval", ".json"}


def _one_line(ex: Exception) -> InputError:
    return ex if isinstance(ex, InputError) else InputError(str(ex))


def _topics(topics: object, issues: str) -> list[Topic]:
    from inspect_stance.construction.issuebench import load_issues
    from inspect_stance.construction.topics import load_topics_file, select_topics

    if isinstance(topics, str) and Path(topics).suffix.lower() in TABLE_SUFFIXES:
        return load_topics_file(user_path(topics))[0]
    table = None if topics is None or issues == PACKAGE else load_issues(user_path(issues))
    return select_topics(topics, table)


def _templates(
    intents: list[str],
    issuebench_templates: str,
    files: dict[str, str | None],
    k: int,
    seed: int,
) -> dict[str, list[Template]]:
    """``k`` templates per intent, drawn as the prompt_construction task draws them."""
    from inspect_stance.construction.issuebench import DEFAULT_TEMPLATES_SPLIT, load_templates
    from inspect_stance.construction.settings import INFORMATION, OPINION, WRITING
    from inspect_stance.construction.templates import (
        INFORMATION_TEMPLATES,
        OPINION_TEMPLATES,
        builtin_templates,
        sample_templates,
        templates_from_file,
        templates_from_issuebench,
    )

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


def _construction_judges(prompts_from: str | None) -> list[str] | None:
    """Judges of a prompt_construction log given as ``prompts_from`` (None for other files)."""
    if not prompts_from or Path(prompts_from).suffix.lower() not in LOG_SUFFIXES:
        return None
    try:
        from inspect_stance.construction.validation_report import judges_of_log

        return judges_of_log(prompts_from)
    except (InputError, ValueError):
        return None


@task
def prompt_validation(
    topics: str | int | list[int] | None = None,
    issues: str = "package",
    intents: str | list[str] | None = None,
    stances: str | list[str] | None = None,
    sources: str | list[str] | None = None,
    per_source: int = 2,
    real_prompts: str = "issuebench",
    real_limit: int = 20_000,
    prompts_from: str | None = None,
    issuebench_templates: str = "package",
    writing_templates: str | None = None,
    information_templates: str | None = None,
    opinion_templates: str | None = None,
    seeds_per_setting: int = 6,
    seed: int = 0,
    prompter_cache: bool = True,
    **unknown: Any,
) -> Task:
    """Annotators rank a setting's real, templated and generated prompts for realism and label
    each prompt's intent, stance and leaning side.

    Args:
        topics: topic ids (e.g. ``1001,68``; default the prompt-construction study's six
            packaged topics) or a topics file with the IssueBench ``issues`` columns.
        issues: where topic ids are looked up: ``package`` (the packaged topics, default),
            ``hub`` (``Paul/IssueBench`` through ``datasets``) or a local issues file (e.g.
            ``../shared/data/issuebench/issues.csv``).
        intents: comma-separated intents to include: ``writing``, ``information``, ``opinion``
            (default all three).
        stances: comma-separated user stances: ``neutral``, ``pole_a``, ``pole_b`` (default all).
        sources: comma-separated prompt sources: ``real``, ``templated``, ``generated``
            (default all three; the Friedman test needs all three).
        per_source: prompts of each source per setting (default 2); a setting shows up to
            ``3 * per_source`` prompts to each annotator.
        real_prompts: real user prompts: ``issuebench`` (the real chat-log prompts IssueBench
            clustered under each topic; when this run generates prompts, half of them are the
            real prompts and the other half the generator's seeds), a file
            (``prompt_text`` or WildChat/LMSYS ``conversation`` column; optional ``topic_id``,
            ``intent``, ``stance``) or ``hub:NAME`` (a hub chat-log dataset such as
            ``hub:allenai/WildChat-1M``, filtered to the topic by keywords).
        real_limit: rows of a ``hub:`` dataset scanned for real prompts (default 20000).
        prompts_from: a ``prompt_construction`` log or prompts file (CSV/JSONL with
            ``topic_id, intent, stance, method, slot, prompt_text``) supplying the templated and
            generated prompts, so the validated prompts are the ones the stance study used;
            when it is a log, its judges are recorded for the report's ``also_judge`` column.
        issuebench_templates: writing-assistance templates: ``package`` (IssueBench's sample,
            default), ``hub`` or a local IssueBench templates file (used for templated writing prompts not in ``prompts_from``).
        writing_templates: a file of writing templates with an ``X`` slot (instead of
            IssueBench's).
        information_templates: a file of information-seeking templates (default the built-in
            set of the prompt-construction study).
        opinion_templates: a file of opinion-sharing templates (default the built-in set).
        seeds_per_setting: real prompts shown to the ``prompter`` as examples per setting
            (default 6; with ``real_prompts=issuebench`` drawn from the seed half only).
        seed: seed of the template draw, the real-prompt draw, the generator seeds and each
            annotator's shuffled order (default 0).
        prompter_cache: cache the prompter's answers (a week; keyed on the prompter's model
            args too) so a retried run gets the same generated prompts (default true).
    """
    reject_unknown_args("prompt_validation", unknown, prompt_validation)
    try:
        return _build(**{k: v for k, v in locals().items() if k != "unknown"})
    except ValueError as ex:  # construction code raises one-line ValueErrors
        raise _one_line(ex) from ex


def _build(
    topics: str | int | list[int] | None,
    issues: str,
    intents: str | list[str] | None,
    stances: str | list[str] | None,
    sources: str | list[str] | None,
    per_source: int,
    real_prompts: str,
    real_limit: int,
    prompts_from: str | None,
    issuebench_templates: str,
    writing_templates: str | None,
    information_templates: str | None,
    opinion_templates: str | None,
    seeds_per_setting: int,
    seed: int,
    prompter_cache: bool,
) -> Task:
    from inspect_stance.construction.prompts import build_specs, load_prompts
    from inspect_stance.construction.real_prompts import (
        ISSUEBENCH,
        RealPrompt,
        load_real_prompts,
        real_for_setting,
        split_issuebench,
    )
    from inspect_stance.construction.settings import (
        INTENTS,
        USER_STANCES,
        Setting,
        parse_choice,
    )

    require_roles("prompt_validation", [ANNOTATORS_ROLE], "the models that annotate the prompts")
    intent_list = parse_choice(intents, INTENTS, "intents")
    stance_list = parse_choice(stances, USER_STANCES, "stances")
    source_list = parse_choice(sources, SOURCES, "sources")
    k = as_int("per_source", per_source, example=2)
    limit = as_int("real_limit", real_limit, example=20000)
    k_seeds = as_int("seeds_per_setting", seeds_per_setting, minimum=0, example=6)
    seed_value = as_int("seed", seed, minimum=0, example=0)
    cache = as_bool("prompter_cache", prompter_cache)
    if not isinstance(real_prompts, str) or not real_prompts.strip():
        raise InputError(
            f"real_prompts {real_prompts!r}; use -T real_prompts=issuebench, a file or hub:NAME"
        )
    real_source = real_prompts.strip()
    if real_source not in (ISSUEBENCH,) and not real_source.startswith("hub:"):
        real_source = user_path(real_source)
    prompts_path = user_path(prompts_from) if prompts_from else None

    topic_list = _topics(topics, issues)
    reused = load_prompts(prompts_path) if prompts_path else None
    methods = [s for s in source_list if s in (TEMPLATED, GENERATED)]
    settings = [
        (t, Setting(t.topic_id, i, s)) for t in topic_list for i in intent_list for s in stance_list
    ]
    split: dict[int, list[str]] = {}
    if (
        REAL in source_list
        and real_source == ISSUEBENCH
        and GENERATED in methods
        and any((st, GENERATED) not in (reused or {}) for _, st in settings)
    ):  # real prompts and generator seeds from disjoint halves of IssueBench's prompts
        halves = {t.topic_id: split_issuebench(t, seed_value) for t in topic_list}
        split = {i: h[0] for i, h in halves.items()}
        topic_list = [replace(t, seeds=tuple(halves[t.topic_id][1])) for t in topic_list]
        settings = [
            (t, Setting(t.topic_id, i, s))
            for t in topic_list
            for i in intent_list
            for s in stance_list
        ]
    templates: dict[str, list[Template]] = {}
    if TEMPLATED in methods and any((st, TEMPLATED) not in (reused or {}) for _, st in settings):
        files = {
            "writing": writing_templates,
            "information": information_templates,
            "opinion": opinion_templates,
        }
        templates = _templates(intent_list, issuebench_templates, files, k, seed_value)
    specs: list[PromptSpec] = []
    if methods:
        specs = build_specs(
            topics=topic_list,
            intents=intent_list,
            stances=stance_list,
            methods=methods,
            templates=templates,
            prompts_per_setting=k,
            responses_per_prompt=1,
            reused=reused,
            seeds_per_setting=k_seeds,
            seed=seed_value,
        )
    real: dict[int, list[RealPromptType]] = {}
    if REAL in source_list:
        if split:
            real = {i: [RealPrompt(text, i) for text in texts] for i, texts in split.items()}
        else:
            real = load_real_prompts(real_source, topic_list, limit)
        if not any(real.values()):
            raise InputError(
                f"real_prompts {real_prompts}: no real prompt for any topic of this run; "
                f"choose other topics or another real_prompts source"
            )

    samples: list[Sample] = []
    needs_prompter = False
    short: dict[str, int] = {}
    for topic, setting in settings:
        items: list[dict[str, Any]] = []
        instructions = None
        for method in methods:
            mine = sorted(
                (s for s in specs if s.setting == setting and s.method == method),
                key=lambda s: s.slot,
            )[:k]
            for spec in mine:
                items.append(
                    {
                        "item_id": item_id(setting.key, method, spec.slot),
                        "source": method,
                        "slot": spec.slot,
                        "text": spec.prompt_text,
                        "intended_intent": setting.intent,
                        "intended_stance": setting.stance,
                        "filler_pole": getattr(topic, "filler_pole", None),
                        "template_id": spec.template_id,
                        "prompt_source": spec.prompt_source,
                    }
                )
                if spec.prompt_text is None:
                    needs_prompter = True
                    instructions = spec.generation_instructions
        if REAL in source_list:
            chosen = real_for_setting(
                real.get(topic.topic_id, []),
                setting.intent,
                setting.stance,
                k,
                seed_value,
                setting.key,
            )
            if len(chosen) < k:
                short[setting.key] = k - len(chosen)
            for slot, rp in enumerate(chosen):
                items.append(
                    {
                        "item_id": item_id(setting.key, REAL, slot),
                        "source": REAL,
                        "slot": slot,
                        "text": rp.text,
                        "intended_intent": rp.intent,
                        "intended_stance": rp.stance,
                        "filler_pole": getattr(topic, "filler_pole", None),
                        "template_id": None,
                        "prompt_source": "real",
                    }
                )
        metadata: dict[str, Any] = {
            "setting": setting.key,
            "topic_id": topic.topic_id,
            "topic_neutral": topic.neutral,
            "topic_pro": topic.pro,
            "topic_con": topic.con,
            "intent": setting.intent,
            "stance": setting.stance,
            "items": items,
            "generation_instructions": instructions,
        }
        samples.append(
            Sample(
                id=setting.key,
                input=f"(annotation of {len(items)} prompts of setting {setting.key})",
                metadata=metadata,
            )
        )
    if needs_prompter:
        require_roles(
            "prompt_validation",
            [PROMPTER_ROLE],
            "it writes the generated prompts; or reuse them with -T prompts_from=LOG",
        )
    models = annotator_models()
    names = annotator_names(models)
    task_metadata: dict[str, Any] = {
        "annotators": names,
        "annotator_configs": {
            name: {
                "ranking": role_config(model, RANKING_CONFIG).model_dump(exclude_none=True),
                "labels": role_config(model, LABEL_CONFIG).model_dump(exclude_none=True),
            }
            for name, model in zip(names, models, strict=True)
        },
        "prompter_config": PROMPTER_CONFIG.model_dump(exclude_none=True),
        "topics": [t.topic_id for t in topic_list],
        "intents": intent_list,
        "stances": stance_list,
        "sources": source_list,
        "per_source": k,
        "real_prompts": real_prompts,
        "real_prompts_found": {str(t): len(v) for t, v in real.items()},
        "real_shortfall": short,
        "real_seed_split": bool(split),
        "prompts_from": prompts_path,
        "construction_judges": _construction_judges(prompts_path),
        "seed": seed_value,
    }
    return Task(
        dataset=MemoryDataset(samples, name="prompt_validation"),
        solver=validation_annotation(seed=seed_value, prompter_cache=cache),
        scorer=validation_record(),
        headline_metric=headline("prompt_validation"),
        metadata=task_metadata,
        version=TASK_VERSION,
    )
