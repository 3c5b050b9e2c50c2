"""Prompt construction as a confound: templated vs LLM-generated prompts, judged by an ensemble.

    inspect eval tasks/prompt_construction.py --model TARGET \\
        --model-role judges=JUDGE_A,JUDGE_B,JUDGE_C --model-role prompter=GENERATOR

One sample per response: setting (topic x intent x user stance) x method x prompt slot x
response replicate, id ``{topic}-{intent}-{stance}-{method}-{slot}-r{replicate}``. Parameters
are documented in :func:`prompt_construction`'s ``Args:``; the method lives in
:mod:`inspect_stance.construction`, the user guide in ``docs/prompt_construction.md``.
"""

from __future__ import annotations

from typing import Any

from inspect_ai import Epochs, Task, task
from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.model import model_roles
from inspect_ai.solver import generate
from inspect_stance.scorers.construction_metrics import construction_metrics
from inspect_stance.scorers.prompt_construction import (
    JUDGE_DEFAULTS,
    JUDGES_ROLE,
    judge_configs,
    stance_ensemble,
)
from inspect_stance.solvers.prompt_construction import (
    PROMPTER_DEFAULTS,
    PROMPTER_ROLE,
    construction_prompt,
)

from inspect_stance.construction.issuebench import PACKAGE
from inspect_stance.construction.options import ConstructionOptions
from inspect_stance.construction.rubric import DEFAULT_THRESHOLD
from inspect_stance.construction.samples import (
    ConstructionPlan,
    fingerprint_inputs,
    plan_construction,
    sample_input,
    sample_metadata,
    task_metadata,
)
from inspect_stance.fingerprint import FINGERPRINT_KEY, task_fingerprint
from inspect_stance.params import reject_unknown_args
from inspect_stance.roles import config_dump, require_roles
from inspect_stance.viewer import construction_viewer, headline

TASK_VERSION = 2  # 2: the paper's rubric (0.75) and topics by default, filler direction


def _require_roles(needs_prompter: bool) -> None:
    """The roles the run calls are bound: ``judges`` always, ``prompter`` when the run
    generates prompts; a one-line error naming the missing role otherwise."""
    require_roles("prompt_construction", [JUDGES_ROLE], "the judge ensemble that rates responses")
    if needs_prompter:
        require_roles(
            "prompt_construction",
            [PROMPTER_ROLE],
            "it writes the generated prompts; or reuse them with -T prompts_from=LOG_OR_FILE",
        )


def _samples(opts: ConstructionOptions, plan: ConstructionPlan) -> list[Sample]:
    """The task's samples: one per spec of the plan (``plan.specs``), in plan order."""
    return [
        Sample(
            id=s.sample_id,
            input=sample_input(s),
            metadata=sample_metadata(s, plan, opts.prompts_per_setting),
        )
        for s in plan.specs
    ]


def _role_configs(needs_prompter: bool) -> dict[str, Any]:
    """The generation config each bound role model's calls will carry (for the log), and the
    defaults (:data:`JUDGE_DEFAULTS`, :data:`PROMPTER_DEFAULTS`) every field a role's own
    config leaves unset takes."""
    configs: dict[str, Any] = {"judges": judge_configs()}
    prompter = model_roles().get(PROMPTER_ROLE)
    if needs_prompter and prompter is not None and not isinstance(prompter, list):
        configs["prompter"] = {
            str(prompter): config_dump(prompter, PROMPTER_DEFAULTS)  # scrubbed of credentials
        }
    return {
        "role_configs": configs,
        "role_defaults": {
            "judges": JUDGE_DEFAULTS.model_dump(exclude_none=True),
            "prompter": PROMPTER_DEFAULTS.model_dump(exclude_none=True),
        },
    }


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
    shard: str | None = None,
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
        shard: run only shard K of N of the settings ("K/N", e.g. 1/4; every response of a
            setting in one shard), split by content hash after the settings are fixed; the
            log records K, N and the study's fingerprint so that the shards' logs pool.
    """
    reject_unknown_args("prompt_construction", unknown, prompt_construction)
    opts = ConstructionOptions.parse(**{k: v for k, v in locals().items() if k != "unknown"})
    plan = plan_construction(opts)
    _require_roles(plan.needs_prompter)
    samples = _samples(opts, plan)
    return Task(
        dataset=MemoryDataset(samples, name="prompt_construction"),
        solver=[construction_prompt(prompter_cache=opts.prompter_cache), generate()],
        scorer=stance_ensemble(
            rubric_threshold=opts.rubric_threshold,
            judge_sees_prompt=opts.judge_sees_prompt,
            judge_prompts=opts.judge_prompts,
            reversed_rubric=opts.reversed_rubric,
        ),
        metrics=[construction_metrics(human=bool(plan.human), ensemble=opts.ensemble)],
        headline_metric=headline("prompt_construction"),
        viewer=construction_viewer(),
        epochs=Epochs(1, "mode"),
        metadata={
            **task_metadata(opts, plan),
            **_role_configs(plan.needs_prompter),
            **plan.template_info,
            # input files and samples by content: eval-retry refuses changed inputs
            FINGERPRINT_KEY: task_fingerprint(
                "prompt_construction", fingerprint_inputs(opts), samples
            ),
        },
        version=TASK_VERSION,
    )
