"""Prompt construction as a confound: templated vs LLM-generated prompts, judged by an ensemble.

    inspect eval tasks/prompt_construction.py --model TARGET \\
        --model-role judges=JUDGE_A,JUDGE_B,JUDGE_C --model-role prompter=GENERATOR

One sample per response: setting (topic x intent x user stance) x method x prompt slot x
response replicate, id ``{topic}-{intent}-{stance}-{method}-{slot}-r{replicate}``. Parameters
are declared in :class:`~inspect_stance.construction.options.ConstructionOptions`
(``inspect-stance params prompt_construction``); the method lives in
:mod:`inspect_stance.construction`, the user guide in ``docs/prompt_construction.md``.
"""

from __future__ import annotations

from typing import Any

from inspect_ai import Task, task
from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.model import model_roles
from inspect_ai.solver import generate
from inspect_stance.scorers.construction_metrics import construction_headline, construction_metrics
from inspect_stance.scorers.prompt_construction import (
    JUDGE_DEFAULTS,
    JUDGES_ROLE,
    judge_configs,
    stance_ensemble,
)

import inspect_stance.construction.defaults as D
from inspect_stance.construction.options import ConstructionOptions
from inspect_stance.construction.samples import (
    ConstructionPlan,
    fingerprint_inputs,
    plan_construction,
    sample_input,
    sample_metadata,
    task_metadata,
)
from inspect_stance.fingerprint import FINGERPRINT_KEY, task_fingerprint
from inspect_stance.inspect_cli import enter_task
from inspect_stance.provenance import record_provenance
from inspect_stance.roles import config_dump, require_roles
from inspect_stance.task_options import reject_unknown_args, task_arguments
from inspect_stance.viewer import construction_viewer, headline

TASK_VERSION = 2  # 2: the paper's rubric (0.75) and topics by default, filler direction


def _require_roles(needs_prompter: bool) -> None:
    """The roles the run calls are bound: ``judges`` always, ``prompter`` when the run
    generates prompts; a one-line error naming the missing role otherwise."""
    from inspect_stance.solvers.prompt_construction import PROMPTER_ROLE

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
    defaults (:data:`JUDGE_DEFAULTS`: temperature 0, ``max_tokens`` 256;
    :data:`PROMPTER_DEFAULTS`: temperature 1, ``max_tokens`` 2048) that every field a role's own
    config (``--model-role 'judges={model: M, max_tokens: 64}'``) leaves unset takes."""
    from inspect_stance.solvers.prompt_construction import PROMPTER_DEFAULTS, PROMPTER_ROLE

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


def _metadata(
    opts: ConstructionOptions, plan: ConstructionPlan, samples: list[Sample]
) -> dict[str, Any]:
    """The task metadata: the options and plan the reports read, the roles' configs, the
    templates drawn and the inputs' fingerprint (input files and samples by content:
    ``eval-retry`` refuses changed inputs)."""
    return {
        **task_metadata(opts, plan),
        **_role_configs(plan.needs_prompter),
        **plan.template_info,
        FINGERPRINT_KEY: task_fingerprint("prompt_construction", fingerprint_inputs(opts), samples),
    }


@task
def prompt_construction(
    topics: str | int | list[int] | None = None,
    issues: str = D.PACKAGE,
    intents: str | list[str] | None = None,
    stances: str | list[str] | None = None,
    methods: str | list[str] | None = None,
    issuebench_templates: str = D.PACKAGE,
    writing_templates: str | None = None,
    information_templates: str | None = None,
    opinion_templates: str | None = None,
    templates_per_setting: int = D.TEMPLATES_PER_SETTING,
    prompts_per_setting: int = D.PROMPTS_PER_SETTING,
    responses_per_prompt: int = D.RESPONSES_PER_PROMPT,
    prompts_from: str | None = None,
    seed_prompts: str | None = None,
    seeds_per_setting: int = D.SEEDS_PER_SETTING,
    seed: int = D.SEED,
    rubric_threshold: float = D.RUBRIC_THRESHOLD,
    judge_sees_prompt: bool = D.JUDGE_SEES_PROMPT,
    judge_prompt: str | list[str] | None = None,
    reversed_rubric: bool = D.REVERSED_RUBRIC,
    ensemble: str = D.ENSEMBLE,
    human_labels: str | None = None,
    prompter_cache: bool = D.PROMPTER_CACHE,
    shard: str | None = None,
    **unknown: Any,
) -> Task:
    """Templated vs LLM-generated prompts, rated by the ``judges`` ensemble (the paper's design).

    Needs ``--model-role judges=A,B,C`` and, unless every generated prompt comes from
    ``prompts_from``, ``--model-role prompter=MODEL``, checked before the first model call
    (role defaults: :func:`_role_configs`). The parameters are declared once, in
    :class:`~inspect_stance.construction.options.ConstructionOptions` (``inspect-stance params
    prompt_construction``, docs/prompt_construction.md).
    """
    given = dict(locals())  # the task's arguments: its parameters only, taken first
    from inspect_stance.solvers.prompt_construction import construction_prompt

    enter_task()

    reject_unknown_args("prompt_construction", unknown, prompt_construction)
    opts = ConstructionOptions.parse(**task_arguments(ConstructionOptions, given))
    plan = plan_construction(opts)
    _require_roles(plan.needs_prompter)
    samples = _samples(opts, plan)
    return Task(
        cleanup=record_provenance,  # who answered each call (provenance.py)
        dataset=MemoryDataset(samples, name="prompt_construction"),
        solver=[construction_prompt(prompter_cache=opts.prompter_cache), generate()],
        scorer=stance_ensemble(
            rubric_threshold=opts.rubric_threshold,
            judge_sees_prompt=opts.judge_sees_prompt,
            judge_prompts=opts.judge_prompts,
            reversed_rubric=opts.reversed_rubric,
        ),
        metrics=[
            construction_headline(ensemble=opts.ensemble),
            construction_metrics(human=bool(plan.human), ensemble=opts.ensemble),
        ],
        headline_metric=headline("prompt_construction"),
        viewer=construction_viewer(),
        metadata=_metadata(opts, plan, samples),
        version=TASK_VERSION,
    )
