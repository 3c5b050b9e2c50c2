"""What a ``prompt_construction`` run asks: its topics, templates, prompt specs and controls.

:func:`plan_construction` loads the topics, the templates, the reused prompts, the swap-control
prompts and the human labels named by a :class:`~inspect_stance.construction.options.
ConstructionOptions`, and lays out one :class:`~inspect_stance.construction.prompts.PromptSpec`
per response (setting x method x prompt slot x replicate). :func:`sample_metadata` and
:func:`sample_input` give each spec's sample; the task turns them into Inspect samples.
"""

from __future__ import annotations

import logging
from dataclasses import asdict, dataclass, field
from typing import Any

from inspect_stance.construction.controls import SWAPPED, opposite_stances, swap_metadata
from inspect_stance.construction.human_labels import load_human_labels, match_human_labels
from inspect_stance.construction.issuebench import (
    DEFAULT_TEMPLATES_SPLIT,
    OUT_OF_SCOPE,
    PACKAGE,
    load_issues,
    load_templates,
)
from inspect_stance.construction.options import ConstructionOptions
from inspect_stance.construction.prompts import PromptSpec, build_specs, load_prompts
from inspect_stance.construction.settings import (
    GENERATED,
    INFORMATION,
    INTENT_NAMES,
    OPINION,
    TEMPLATED,
    WRITING,
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
    Topic,
    apply_seed_file,
    load_topics_file,
    select_topics,
)
from inspect_stance.errors import InputError
from inspect_stance.shards import select, shard_metadata, study_fingerprint

logger = logging.getLogger(__name__)

#: the built-in template pools of the intents without IssueBench templates, and their id prefix
BUILTIN_POOLS = {
    INFORMATION: (INFORMATION_TEMPLATES, "info"),
    OPINION: (OPINION_TEMPLATES, "opinion"),
}


@dataclass
class ConstructionPlan:
    """The specs of a run and what the task metadata reports about its inputs.

    ``swaps`` maps a sample id to its swap-control metadata; ``human`` a sample id to its human
    label; ``unmatched`` lists the human-label ids that match no sample.
    """

    topics: list[Topic]
    specs: list[PromptSpec]
    excluded_topics: list[str] = field(default_factory=list)
    template_info: dict[str, Any] = field(default_factory=dict)
    swaps: dict[str, dict[str, Any]] = field(default_factory=dict)
    human: dict[str, str] = field(default_factory=dict)
    unmatched: list[str] = field(default_factory=list)
    #: the task-metadata entry of ``-T shard`` (empty unsharded)
    shard: dict[str, Any] = field(default_factory=dict)

    @property
    def needs_prompter(self) -> bool:
        """Some generated prompt is neither reused nor written yet."""
        return any(s.method == GENERATED and s.prompt_text is None for s in self.specs)

    @property
    def n_generator_calls(self) -> int:
        """Prompter calls the run makes: one per setting with a prompt still to write."""
        return len(
            {s.setting.key for s in self.specs if s.method == GENERATED and s.prompt_text is None}
        )


def load_topic_list(opts: ConstructionOptions) -> tuple[list[Topic], list[str]]:
    """The run's topics (seed prompts applied) and the ids a topics file excludes upstream."""
    excluded: list[str] = []
    if opts.topics_file is None:
        table = None if opts.topics is None or opts.issues == PACKAGE else load_issues(opts.issues)
        topics = select_topics(opts.topics, table)
    else:
        topics, excluded = load_topics_file(opts.topics_file)
        if excluded:
            logger.warning(
                "topics file %s: %d topic(s) excluded upstream (tag_exclude == 1) skipped: %s",
                opts.topics_file,
                len(excluded),
                ", ".join(excluded),
            )
    if opts.seed_prompts:
        topics = apply_seed_file(topics, opts.seed_prompts)
    return topics, excluded


def choose_templates(
    opts: ConstructionOptions,
) -> tuple[dict[str, list[Template]], dict[str, Any]]:
    """Per intent, ``templates_per_setting`` templates drawn from its pool (an ``-T
    <intent>_templates`` file, IssueBench's writing templates or the built-in ones), and what
    the metadata reports: pool sizes, the chosen ids, IssueBench templates dropped."""
    info: dict[str, Any] = {}
    pools: dict[str, list[Template]] = {}
    for intent in (i for i in (WRITING, INFORMATION, OPINION) if i in opts.intents):
        own = opts.template_files.get(intent)
        if own:
            pools[intent] = templates_from_file(own, intent)
        elif intent == WRITING:
            table = load_templates(opts.issuebench_templates, DEFAULT_TEMPLATES_SPLIT)
            pools[WRITING], dropped = templates_from_issuebench(table)
            info["issuebench_templates_without_slot"] = dropped
            info["issuebench_templates_out_of_scope"] = table.attrs[OUT_OF_SCOPE]
        else:
            pools[intent] = builtin_templates(*BUILTIN_POOLS[intent])
    k, seed = opts.templates_per_setting, opts.seed
    chosen = {intent: sample_templates(pool, k, seed, intent) for intent, pool in pools.items()}
    info["template_pool_sizes"] = {i: len(p) for i, p in pools.items()}
    info["templates"] = {i: [t.template_id for t in ts] for i, ts in chosen.items()}
    return chosen, info


def plan_construction(opts: ConstructionOptions) -> ConstructionPlan:
    """Topics, templates, the specs of every response, the swap controls and human labels."""
    topics, excluded = load_topic_list(opts)
    templates: dict[str, list[Template]] = {}
    template_info: dict[str, Any] = {}
    if TEMPLATED in opts.methods:
        templates, template_info = choose_templates(opts)
    spec_args: dict[str, Any] = dict(
        topics=topics,
        intents=opts.intents,
        methods=opts.methods,
        templates=templates,
        prompts_per_setting=opts.prompts_per_setting,
        reused=load_prompts(opts.prompts_from) if opts.prompts_from else None,
        seeds_per_setting=opts.seeds_per_setting,
        seed=opts.seed,
    )
    specs = build_specs(
        stances=opts.stances, responses_per_prompt=opts.responses_per_prompt, **spec_args
    )
    plan = ConstructionPlan(topics, specs, excluded, template_info)
    if SWAPPED in opts.judge_prompts:
        plan.swaps = swap_specs(opts, specs, spec_args)
    if opts.human_labels:
        plan.human, plan.unmatched = human_for(opts.human_labels, specs)
    return shard_plan(opts, plan)


def shard_plan(opts: ConstructionOptions, plan: ConstructionPlan) -> ConstructionPlan:
    """``-T shard``'s settings of the plan (every response of a setting stays together; split
    by setting key, :func:`inspect_stance.shards.select`) and the shard's metadata entry
    (``plan.shard``) naming the study: every setting's key and the options but the shard.
    Swap controls and human labels were matched against the whole study."""
    keys = list(dict.fromkeys(s.setting.key for s in plan.specs))
    mine = set(select(keys, str, opts.shard))
    settings = {k: v for k, v in asdict(opts).items() if k != "prompter_cache"}
    study = study_fingerprint("prompt_construction", keys, settings)
    plan.shard = shard_metadata(opts.shard, study, len(keys), len(mine))
    plan.specs = [s for s in plan.specs if s.setting.key in mine]
    return plan


def swap_specs(
    opts: ConstructionOptions, specs: list[PromptSpec], spec_args: dict[str, Any]
) -> dict[str, dict[str, Any]]:
    """The swap control's prompt per sample id: the opposite stance's spec of the same slot."""
    missing = opposite_stances(opts.stances)
    try:
        extra = build_specs(stances=missing, responses_per_prompt=1, **spec_args)
    except InputError as ex:  # prompts_from lacks the opposite stance's prompts
        raise InputError(f"judge_prompt=swapped needs stances {','.join(missing)}: {ex}") from None
    return swap_metadata(specs, extra)


def human_for(path: str, specs: list[PromptSpec]) -> tuple[dict[str, str], list[str]]:
    """The human label of each sample id in ``path``, and the file's ids matching no sample."""
    human, unmatched = match_human_labels(
        load_human_labels(path), (s.sample_id for s in specs), path
    )
    if unmatched:
        logger.warning(
            "human_labels %s: %d of %d ids match no sample of this run (e.g. %r)",
            path,
            len(unmatched),
            len(unmatched) + len(human),
            unmatched[0],
        )
    return human, unmatched


def sample_label(spec: PromptSpec) -> str:
    """What the viewer's sample list shows first: topic, intent, user stance, method and slot,
    e.g. ``[the ethics of abortion | opinion sharing | neutral | templated #3]``."""
    s = spec.setting
    replicate = f" r{spec.replicate}" if spec.replicate else ""
    return (
        f"[{spec.topic.neutral} | {INTENT_NAMES[s.intent]} | {s.stance} | {spec.method} "
        f"#{spec.slot}{replicate}]"
    )


def sample_input(spec: PromptSpec) -> str:
    """The sample's input, for display only (the solver sends the prompt itself): the setting
    first, so each row of the viewer's sample list says which topic, intent, stance and
    method it is."""
    text = spec.prompt_text or "(written by the prompter during the run)"
    return f"{sample_label(spec)} {text}"


def sample_metadata(
    spec: PromptSpec, plan: ConstructionPlan, prompts_per_setting: int
) -> dict[str, Any]:
    """A spec's sample metadata: its topic and setting, the prompt (or the prompter's
    instructions), the human label and the swap control's prompt, if any."""
    topic = spec.topic
    metadata: dict[str, Any] = {
        "topic_id": topic.topic_id,
        "topic_neutral": topic.neutral,
        "topic_pro": topic.pro,
        "topic_con": topic.con,
        "filler_pole": topic.filler_pole,
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
        "human_label": plan.human.get(spec.sample_id),
    }
    if spec.prompt_text is None:
        metadata["generation_instructions"] = spec.generation_instructions
        metadata["prompts_per_setting"] = prompts_per_setting
    metadata.update(plan.swaps.get(str(spec.sample_id), {}))  # construction.controls
    return metadata


def task_metadata(opts: ConstructionOptions, plan: ConstructionPlan) -> dict[str, Any]:
    """The run's settings and inputs as the log's task metadata records them."""
    return {
        "topics": [
            {
                "topic_id": t.topic_id,
                "neutral": t.neutral,
                "pro": t.pro,
                "con": t.con,
                "filler_pole": t.filler_pole,
            }
            for t in plan.topics
        ],
        "topics_excluded": len(plan.excluded_topics),
        "topics_excluded_ids": plan.excluded_topics,
        "intents": opts.intents,
        "stances": opts.stances,
        "methods": opts.methods,
        "rubric_threshold": opts.rubric_threshold,
        "judge_sees_prompt": opts.judge_sees_prompt,
        "judge_prompt": opts.judge_prompts,
        "reversed_rubric": opts.reversed_rubric,
        "ensemble": opts.ensemble,
        "prompts_from": opts.prompts_from,
        "human_labels": opts.human_labels,
        "human_labels_matched": len(plan.human),
        "human_labels_unmatched": len(plan.unmatched),
        "n_generator_calls": plan.n_generator_calls,
        **plan.shard,
    }


def fingerprint_inputs(opts: ConstructionOptions) -> dict[str, str | None]:
    """The inputs whose content the task fingerprint covers (eval-retry refuses changed ones)."""
    return {
        "topics": None if opts.topics is None else str(opts.topics),
        "issues": opts.issues,
        "issuebench_templates": opts.issuebench_templates,
        **{f"{k}_templates": v for k, v in opts.template_files.items()},
        "prompts_from": opts.prompts_from,
        "seed_prompts": opts.seed_prompts,
        "judge_prompt": None if opts.judge_prompt is None else str(opts.judge_prompt),
        "human_labels": opts.human_labels,
    }
