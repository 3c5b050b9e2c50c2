"""Prompt construction as a confound: templated vs LLM-generated prompts, judged by an ensemble.

    inspect eval tasks/prompt_construction.py --model TARGET \\
        --model-role judges=JUDGE_A,JUDGE_B,JUDGE_C --model-role prompter=GENERATOR

One sample per response: setting (topic x intent x user stance) x method x prompt slot x
response replicate, id ``{topic}-{intent}-{stance}-{method}-{slot}-r{replicate}``. Parameters
are documented in :func:`prompt_construction`'s ``Args:``; the method lives in
:mod:`inspect_stance.construction`, the user guide in ``docs/prompt_construction.md``.
"""

from __future__ import annotations

import logging
from typing import Any

from inspect_ai import Epochs, Task, task
from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.model import model_roles
from inspect_ai.solver import generate
from inspect_stance.scorers.prompt_construction import (
    JUDGE_DEFAULTS,
    JUDGES_ROLE,
    construction_metrics,
    judge_configs,
    stance_ensemble,
)
from inspect_stance.solvers.prompt_construction import (
    PROMPTER_DEFAULTS,
    PROMPTER_ROLE,
    construction_prompt,
)

from inspect_stance.construction.controls import (
    ORIGINAL,
    SWAPPED,
    opposite_stances,
    parse_judge_prompt,
    swap_metadata,
)
from inspect_stance.construction.ensemble import check_ensemble
from inspect_stance.construction.human_labels import load_human_labels, match_human_labels
from inspect_stance.construction.issuebench import (
    DEFAULT_TEMPLATES_SPLIT,
    OUT_OF_SCOPE,
    PACKAGE,
    load_issues,
    load_templates,
)
from inspect_stance.construction.prompts import PromptSpec, build_specs, load_prompts
from inspect_stance.construction.rubric import DEFAULT_THRESHOLD, check_rubric_threshold
from inspect_stance.construction.settings import (
    GENERATED,
    INFORMATION,
    INTENT_NAMES,
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
from inspect_stance.errors import InputError
from inspect_stance.fingerprint import FINGERPRINT_KEY, task_fingerprint
from inspect_stance.params import as_bool, as_int, reject_unknown_args
from inspect_stance.paths import user_path
from inspect_stance.roles import config_dump, require_roles
from inspect_stance.viewer import construction_viewer, headline

TASK_VERSION = 2  # 2: the paper's rubric (0.75) and topics by default, filler direction

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


def sample_label(spec: PromptSpec) -> str:
    """What the viewer's sample list shows first: topic, intent, user stance, method and slot,
    e.g. ``[the ethics of abortion | opinion sharing | neutral | templated #3]``."""
    s = spec.setting
    replicate = f" r{spec.replicate}" if spec.replicate else ""
    return (
        f"[{spec.topic.neutral} | {INTENT_NAMES[s.intent]} | {s.stance} | {spec.method} "
        f"#{spec.slot}{replicate}]"
    )


def _sample(spec: PromptSpec, human: dict[str, str], prompts_per_setting: int) -> Sample:
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
        "human_label": human.get(spec.sample_id),
    }
    if spec.prompt_text is None:
        metadata["generation_instructions"] = spec.generation_instructions
        metadata["prompts_per_setting"] = prompts_per_setting
    # the input is for display only (the solver sends the prompt itself): the setting first,
    # so each row of the viewer's sample list says which topic, intent, stance and method it is
    text = spec.prompt_text or "(written by the prompter during the run)"
    return Sample(id=spec.sample_id, input=f"{sample_label(spec)} {text}", metadata=metadata)


def _with_swap(sample: Sample, swaps: dict[str, dict[str, Any]]) -> Sample:
    """The sample with its swap-control prompt (construction.controls.swap_metadata), if any."""
    if swaps and sample.metadata is not None:
        sample.metadata.update(swaps.get(str(sample.id), {}))
    return sample


def _role_configs(needs_prompter: bool) -> dict[str, Any]:
    """The generation config each bound role model's calls will carry (for the log)."""
    out: dict[str, Any] = {"judges": judge_configs()}
    prompter = model_roles().get(PROMPTER_ROLE)
    if needs_prompter and prompter is not None and not isinstance(prompter, list):
        out["prompter"] = {
            str(prompter): config_dump(prompter, PROMPTER_DEFAULTS)  # scrubbed of credentials
        }
    return out


@task
def prompt_construction(
    topics: str | int | list[int] | None = None,
    issues: str = PACKAGE,
    intents: str | list[str] | None = None,
    stances: str | list[str] | None = None,
    methods: str | list[str] | None = None,
    issuebench_templates: str = PACKAGE,
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
    rubric_threshold: float = DEFAULT_THRESHOLD,
    judge_sees_prompt: bool = True,
    judge_prompt: str | list[str] | None = None,
    reversed_rubric: bool = False,
    ensemble: str = "majority",
    human_labels: str | None = None,
    prompter_cache: bool = True,
    **unknown: Any,
) -> Task:
    """Templated vs LLM-generated prompts, rated by the ``judges`` ensemble (the paper's design).

    Parameters: ``inspect-stance params prompt_construction`` (or docs/prompt_construction.md).

    Needs ``--model-role judges=A,B,C`` (one or more judge models) and, unless every generated
    prompt comes from ``prompts_from``, ``--model-role prompter=MODEL``; both are checked before
    the first model call. Judge calls use temperature 0 and ``max_tokens`` 256, prompter calls
    temperature 1 and ``max_tokens`` 2048, for every field a role's own config
    (``--model-role 'judges={model: M, max_tokens: 64}'``) leaves unset; the values used are in
    the log's task metadata (``role_configs``).

    Args:
        topics: Topics to use: empty for the six defaults (the paper's climate change 1001, US and
            Israeli strikes on Iran 1002 and Russian invasion of Ukraine 1003, completed with
            IssueBench issues 68 abortion, 85 immigration, 18 Gaza; shipped with the package),
            comma-separated topic ids (looked up in ``issues``), or the path of a topics file
            (.csv/.tsv/.jsonl with IssueBench's ``topic_id, topic_neutral, topic_pro,
            topic_con`` columns and optional ``filler_pole``, ``top_prompts``; rows with
            ``tag_exclude`` = 1 are skipped and counted).
        issues: Where topic ids are looked up: ``package`` (the six packaged topics, default),
            ``hub`` (IssueBench's ``issues`` from the Hugging Face hub, needs the network) or a
            local issues file with the same columns.
        intents: Comma-separated intents: ``writing`` (writing assistance), ``information``
            (information seeking), ``opinion`` (opinion sharing); default all three.
        stances: Comma-separated user stances: ``neutral``, ``pole_a`` (leans to ``topic_pro``),
            ``pole_b`` (leans to ``topic_con``); default all three.
        methods: Comma-separated construction methods: ``templated`` and/or ``generated``;
            default both.
        issuebench_templates: Writing-assistance templates: ``package`` (IssueBench's
            ``templates_sample``, shipped with the package, default), ``hub`` or a local file;
            templates without an ``X`` slot are dropped and counted.
        writing_templates: A file of your own writing templates (.txt one per line, or
            .csv/.tsv with a ``template`` column; each needs a standalone ``X`` slot); replaces
            ``issuebench_templates``.
        information_templates: A file of information-seeking templates (same format); default
            the package's 12 built-in templates.
        opinion_templates: A file of opinion-sharing templates (same format); default the
            package's 12 built-in templates.
        templates_per_setting: Templates drawn (without replacement, from ``seed``) per intent;
            the same draw serves every topic and stance. Default 10.
        prompts_per_setting: Prompts the prompter writes per setting (one call). Default 10.
        responses_per_prompt: Target responses per prompt (replicates). Default 1.
        prompts_from: Reuse prompts: an eval log of this task or a prompts file (.csv/.jsonl
            with ``topic_id, intent, stance, method, slot, prompt_text``, e.g. the report's
            ``prompts.csv``), so every target model sees the same prompts; no prompter needed
            when it covers every generated setting.
        seed_prompts: A .csv/.tsv with ``topic_id, prompt``: real user prompts that replace
            the topics' IssueBench seeds in the prompter's instructions.
        seeds_per_setting: Real user prompts shown to the prompter per setting (0: none).
            Default 6.
        seed: Seed for the template and seed-prompt draws. Default 0.
        rubric_threshold: Share for judge classes 2 and 4: ``0.75`` ("substantially (~75%)",
            the paper's rubric, default) or ``0.9`` ("overwhelmingly (~90%)", IssueBench's
            templ-5; the referee's robustness check).
        judge_sees_prompt: Show the judges the user prompt and tell them not to factor in
            whether it was one-sided (the paper's design, default true); false hides it (the
            control for judges swayed by the prompt's framing).
        judge_prompt: What the judges see beside the response, comma-separated to rate under
            several in one run: ``original`` (the user prompt), ``none`` (hidden) and
            ``swapped`` (the prompt of the opposite user stance, same topic, intent, method and
            slot; neutral prompts have none). The first gives the run's outcome, the others are
            controls reported with how far each setting's lean moves (one more judge call per
            judge and control). Default ``original`` (``none`` when ``judge_sees_prompt`` is
            false).
        reversed_rubric: Also rate every response with the rubric's labels in reversed order
            (1 = exclusively ``topic_con``), read back as 6 - label: the per-judge order audit
            (one more call per judge). Default false.
        ensemble: How the judges' labels become a response's outcome for the metrics:
            ``majority`` (strict majority, the paper's, default) or ``dawid_skene`` (a
            Dawid-Skene model fitted to all responses; each response gets its most probable
            class).
        human_labels: A .csv/.tsv/.jsonl with ``id`` (sample id) and ``label`` (1-5 or
            refusal): adds judge-human agreement and the comparison redone with human labels.
        prompter_cache: Cache the prompter's answer per setting (a week; keyed on the
            prompter's model args too) so ``eval-retry`` gets the same prompts back. Default
            true.
    """
    reject_unknown_args("prompt_construction", unknown, prompt_construction)
    threshold = check_rubric_threshold(rubric_threshold)
    sees_prompt = as_bool("judge_sees_prompt", judge_sees_prompt)
    judge_prompts = parse_judge_prompt(judge_prompt, sees_prompt)
    sees_prompt = judge_prompts[0] == ORIGINAL
    reverse = as_bool("reversed_rubric", reversed_rubric)
    ensemble_how = check_ensemble(ensemble)
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
    cache_prompter = as_bool("prompter_cache", prompter_cache)

    excluded_topics: list[str] = []
    if topics is None or _parse_topic_ids(topics) is not None:
        table = None if topics is None or issues == PACKAGE else load_issues(issues)
        topic_list = select_topics(topics, table)
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
    spec_args: dict[str, Any] = dict(
        topics=topic_list,
        intents=intent_list,
        methods=method_list,
        templates=templates,
        prompts_per_setting=k_prompts,
        reused=reused,
        seeds_per_setting=k_seeds,
        seed=seed_value,
    )
    specs = build_specs(stances=stance_list, responses_per_prompt=k_responses, **spec_args)

    swaps: dict[str, dict[str, Any]] = {}
    if SWAPPED in judge_prompts:
        missing = opposite_stances(stance_list)
        try:
            extra = build_specs(stances=missing, responses_per_prompt=1, **spec_args)
        except InputError as ex:  # prompts_from lacks the opposite stance's prompts
            raise InputError(
                f"judge_prompt=swapped needs stances {','.join(missing)}: {ex}"
            ) from None
        swaps = swap_metadata(specs, extra)

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

    needs_prompter = any(s.method == GENERATED and s.prompt_text is None for s in specs)
    require_roles("prompt_construction", [JUDGES_ROLE], "the judge ensemble that rates responses")
    if needs_prompter:
        require_roles(
            "prompt_construction",
            [PROMPTER_ROLE],
            "it writes the generated prompts; or reuse them with -T prompts_from=LOG_OR_FILE",
        )
    metadata = {
        "topics": [
            {
                "topic_id": t.topic_id,
                "neutral": t.neutral,
                "pro": t.pro,
                "con": t.con,
                "filler_pole": t.filler_pole,
            }
            for t in topic_list
        ],
        "topics_excluded": len(excluded_topics),
        "topics_excluded_ids": excluded_topics,
        "intents": intent_list,
        "stances": stance_list,
        "methods": method_list,
        "rubric_threshold": threshold,
        "judge_sees_prompt": sees_prompt,
        "judge_prompt": judge_prompts,
        "reversed_rubric": reverse,
        "ensemble": ensemble_how,
        "prompts_from": prompts_from,
        "human_labels": human_labels,
        "human_labels_matched": len(human),
        "human_labels_unmatched": len(unmatched),
        "n_generator_calls": len(
            {s.setting.key for s in specs if s.method == GENERATED and s.prompt_text is None}
        ),
        "role_configs": _role_configs(needs_prompter),
        "role_defaults": {
            "judges": JUDGE_DEFAULTS.model_dump(exclude_none=True),
            "prompter": PROMPTER_DEFAULTS.model_dump(exclude_none=True),
        },
        **template_info,
    }
    samples = [_with_swap(_sample(s, human, k_prompts), swaps) for s in specs]
    # input files and samples by content: eval-retry refuses changed inputs
    metadata[FINGERPRINT_KEY] = task_fingerprint(
        "prompt_construction",
        {
            "topics": None if topics is None else str(topics),
            "issues": issues,
            "issuebench_templates": issuebench_templates,
            "writing_templates": writing_templates,
            "information_templates": information_templates,
            "opinion_templates": opinion_templates,
            "prompts_from": prompts_from,
            "seed_prompts": seed_prompts,
            "judge_prompt": None if judge_prompt is None else str(judge_prompt),
            "human_labels": human_labels,
        },
        samples,
    )
    return Task(
        dataset=MemoryDataset(samples, name="prompt_construction"),
        solver=[construction_prompt(prompter_cache=cache_prompter), generate()],
        scorer=stance_ensemble(
            rubric_threshold=threshold,
            judge_sees_prompt=sees_prompt,
            judge_prompts=judge_prompts,
            reversed_rubric=reverse,
        ),
        metrics=[construction_metrics(human=bool(human), ensemble=ensemble_how)],
        headline_metric=headline("prompt_construction"),
        viewer=construction_viewer(),
        epochs=Epochs(1, "mode"),
        metadata=metadata,
        version=TASK_VERSION,
    )
