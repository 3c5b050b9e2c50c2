"""Prompt construction as a confound: templated vs LLM-generated prompts, judged by an ensemble.

    inspect eval tasks/prompt_construction.py --model TARGET \\
        --model-role judges=JUDGE_A,JUDGE_B,JUDGE_C --model-role prompter=GENERATOR \\
        [-T topics=68,59,85 | -T topics=FILE] [-T issues=hub|FILE] \\
        [-T intents=writing,information,opinion] [-T stances=neutral,pole_a,pole_b] \\
        [-T methods=templated,generated] [-T issuebench_templates=hub|FILE] \\
        [-T writing_templates=FILE] [-T information_templates=FILE] [-T opinion_templates=FILE] \\
        [-T templates_per_setting=10] [-T prompts_per_setting=10] [-T responses_per_prompt=1] \\
        [-T prompts_from=LOG_OR_FILE] [-T seed_prompts=FILE] [-T seeds_per_setting=6] \\
        [-T seed=0] [-T rubric_threshold=0.9|0.75] [-T judge_sees_prompt=true|false] \\
        [-T human_labels=FILE] [-T prompter_cache=true]

One sample per response: setting (topic x intent x user stance) x method x prompt slot x
response replicate, id ``{topic}-{intent}-{stance}-{method}-{slot}-r{replicate}``. The method
lives in :mod:`inspect_stance.construction`; parameters and costs are in the README.
"""

from __future__ import annotations

import logging
from typing import Any

from inspect_ai import Epochs, Task, task
from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.solver import generate
from inspect_stance.scorers.prompt_construction import (
    human_validation,
    judge_agreement,
    neutral_gap,
    outcome_counts,
    stance_ensemble,
)
from inspect_stance.solvers.prompt_construction import construction_prompt

from inspect_stance.construction.human_labels import load_human_labels, match_human_labels
from inspect_stance.construction.issuebench import (
    DEFAULT_TEMPLATES_SPLIT,
    HUB,
    OUT_OF_SCOPE,
    load_issues,
    load_templates,
)
from inspect_stance.construction.prompts import PromptSpec, build_specs, load_prompts
from inspect_stance.construction.rubric import check_threshold
from inspect_stance.construction.settings import (
    GENERATED,
    INFORMATION,
    INTENTS,
    METHODS,
    OPINION,
    TEMPLATED,
    USER_STANCES,
    WRITING,
    parse_choice,
)
from inspect_stance.construction.templates import (
    INFORMATION_TEMPLATES,
    OPINION_TEMPLATES,
    Template,
    builtin_templates,
    sample_templates,
    templates_from_file,
    templates_from_issuebench,
)
from inspect_stance.construction.topics import (
    _parse_topic_ids,
    apply_seed_file,
    load_topics_file,
    select_topics,
)
from inspect_stance.params import as_bool, as_int
from inspect_stance.paths import user_path

logger = logging.getLogger(__name__)


def _templates(
    intents: list[str],
    issuebench_templates: str,
    writing_templates: str | None,
    information_templates: str | None,
    opinion_templates: str | None,
    k: int,
    seed: int,
) -> tuple[dict[str, list[Template]], dict[str, Any]]:
    info: dict[str, Any] = {}
    pools: dict[str, list[Template]] = {}
    if WRITING in intents:
        if writing_templates:
            pools[WRITING] = templates_from_file(writing_templates, WRITING)
        else:
            table = load_templates(issuebench_templates, DEFAULT_TEMPLATES_SPLIT)
            pools[WRITING], dropped = templates_from_issuebench(table)
            info["issuebench_templates_without_slot"] = dropped
            info["issuebench_templates_out_of_scope"] = table.attrs[OUT_OF_SCOPE]
    if INFORMATION in intents:
        pools[INFORMATION] = (
            templates_from_file(information_templates, INFORMATION)
            if information_templates
            else builtin_templates(INFORMATION_TEMPLATES, "info")
        )
    if OPINION in intents:
        pools[OPINION] = (
            templates_from_file(opinion_templates, OPINION)
            if opinion_templates
            else builtin_templates(OPINION_TEMPLATES, "opinion")
        )
    chosen = {intent: sample_templates(pool, k, seed, intent) for intent, pool in pools.items()}
    info["template_pool_sizes"] = {i: len(p) for i, p in pools.items()}
    info["templates"] = {i: [t.template_id for t in ts] for i, ts in chosen.items()}
    return chosen, info


def _sample(spec: PromptSpec, human: dict[str, str], prompts_per_setting: int) -> Sample:
    topic = spec.topic
    metadata: dict[str, Any] = {
        "topic_id": topic.topic_id,
        "topic_neutral": topic.neutral,
        "topic_pro": topic.pro,
        "topic_con": topic.con,
        "intent": spec.setting.intent,
        "stance": spec.setting.stance,
        "method": spec.method,
        "setting": spec.setting.key,
        "slot": spec.slot,
        "replicate": spec.replicate,
        "filler": topic.filler(spec.setting.stance) if spec.method == TEMPLATED else None,
        "template_id": spec.template_id,
        "template_text": spec.template_text,
        "prompt_source": spec.prompt_source,
        "prompt_text": spec.prompt_text,
        "human_label": human.get(spec.sample_id),
    }
    if spec.prompt_text is None:
        metadata["generation_instructions"] = spec.generation_instructions
        metadata["prompts_per_setting"] = prompts_per_setting
    text = spec.prompt_text or (
        f"(prompt {spec.slot} for {spec.setting.key} is written by the prompter during the run)"
    )
    return Sample(id=spec.sample_id, input=text, metadata=metadata)


@task
def prompt_construction(
    topics: str | int | list[int] | None = None,
    issues: str = HUB,
    intents: str | list[str] | None = None,
    stances: str | list[str] | None = None,
    methods: str | list[str] | None = None,
    issuebench_templates: str = HUB,
    writing_templates: str | None = None,
    information_templates: str | None = None,
    opinion_templates: str | None = None,
    templates_per_setting: int = 10,
    prompts_per_setting: int = 10,
    responses_per_prompt: int = 1,
    prompts_from: str | None = None,
    seed_prompts: str | None = None,
    seeds_per_setting: int = 6,
    seed: int = 0,
    rubric_threshold: float = 0.9,
    judge_sees_prompt: bool = True,
    human_labels: str | None = None,
    prompter_cache: bool = True,
) -> Task:
    """Templated vs LLM-generated prompts, judged by the ``judges`` ensemble (see README)."""
    threshold = check_threshold(rubric_threshold)
    sees_prompt = as_bool("judge_sees_prompt", judge_sees_prompt)
    issues, issuebench_templates = user_path(issues), user_path(issuebench_templates)
    if isinstance(topics, str) and _parse_topic_ids(topics) is None:
        topics = user_path(topics)
    (
        writing_templates,
        information_templates,
        opinion_templates,
        prompts_from,
        seed_prompts,
        human_labels,
    ) = (
        user_path(p) if p else None
        for p in (
            writing_templates,
            information_templates,
            opinion_templates,
            prompts_from,
            seed_prompts,
            human_labels,
        )
    )
    intent_list = parse_choice(intents, INTENTS, "intents")
    stance_list = parse_choice(stances, USER_STANCES, "stances")
    method_list = parse_choice(methods, METHODS, "methods")
    k_templates = as_int("templates_per_setting", templates_per_setting)
    k_prompts = as_int("prompts_per_setting", prompts_per_setting)
    k_responses = as_int("responses_per_prompt", responses_per_prompt)
    k_seeds = as_int("seeds_per_setting", seeds_per_setting, minimum=0)
    seed_value = as_int("seed", seed, minimum=0)

    excluded_topics: list[str] = []
    if topics is None or _parse_topic_ids(topics) is not None:
        topic_list = select_topics(topics, load_issues(issues))
    else:
        topic_list, excluded_topics = load_topics_file(str(topics))
        if excluded_topics:
            logger.warning(
                "topics file %s: %d topic(s) excluded upstream (tag_exclude == 1) skipped: %s",
                topics,
                len(excluded_topics),
                ", ".join(excluded_topics),
            )
    if seed_prompts:
        topic_list = apply_seed_file(topic_list, seed_prompts)

    templates: dict[str, list[Template]] = {}
    template_info: dict[str, Any] = {}
    if TEMPLATED in method_list:
        templates, template_info = _templates(
            intent_list,
            issuebench_templates,
            writing_templates,
            information_templates,
            opinion_templates,
            k_templates,
            seed_value,
        )
    reused = load_prompts(prompts_from) if prompts_from else None
    specs = build_specs(
        topics=topic_list,
        intents=intent_list,
        stances=stance_list,
        methods=method_list,
        templates=templates,
        prompts_per_setting=k_prompts,
        responses_per_prompt=k_responses,
        reused=reused,
        seeds_per_setting=k_seeds,
        seed=seed_value,
    )

    human: dict[str, str] = {}
    unmatched: list[str] = []
    if human_labels:
        human, unmatched = match_human_labels(
            load_human_labels(human_labels), (s.sample_id for s in specs), human_labels
        )
        if unmatched:
            logger.warning(
                "human_labels %s: %d of %d ids match no sample of this run (e.g. %r)",
                human_labels,
                len(unmatched),
                len(unmatched) + len(human),
                unmatched[0],
            )

    metrics = [neutral_gap(), outcome_counts(), judge_agreement()]
    if human:
        metrics.append(human_validation())
    metadata = {
        "topics": [
            {"topic_id": t.topic_id, "neutral": t.neutral, "pro": t.pro, "con": t.con}
            for t in topic_list
        ],
        "topics_excluded": len(excluded_topics),
        "topics_excluded_ids": excluded_topics,
        "intents": intent_list,
        "stances": stance_list,
        "methods": method_list,
        "rubric_threshold": threshold,
        "judge_sees_prompt": sees_prompt,
        "prompts_from": prompts_from,
        "human_labels": human_labels,
        "human_labels_matched": len(human),
        "human_labels_unmatched": len(unmatched),
        "n_generator_calls": len(
            {s.setting.key for s in specs if s.method == GENERATED and s.prompt_text is None}
        ),
        **template_info,
    }
    return Task(
        dataset=MemoryDataset(
            [_sample(s, human, k_prompts) for s in specs], name="prompt_construction"
        ),
        solver=[
            construction_prompt(prompter_cache=as_bool("prompter_cache", prompter_cache)),
            generate(),
        ],
        scorer=stance_ensemble(rubric_threshold=threshold, judge_sees_prompt=sees_prompt),
        metrics=metrics,
        epochs=Epochs(1, "mode"),
        metadata=metadata,
    )
