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

from typing import Any

from inspect_ai import Task, task
from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.model import Model
from inspect_stance.scorers.prompt_validation import validation_record

import inspect_stance.validation.defaults as D
from inspect_stance.construction.keys import ANNOTATORS_ROLE, PROMPTER_ROLE
from inspect_stance.errors import InputError
from inspect_stance.fingerprint import FINGERPRINT_KEY, task_fingerprint
from inspect_stance.inspect_cli import enter_task
from inspect_stance.provenance import record_provenance
from inspect_stance.roles import config_dump, require_roles
from inspect_stance.task_options import reject_unknown_args, task_arguments
from inspect_stance.validation.options import ValidationOptions
from inspect_stance.validation.samples import (
    ValidationPlan,
    construction_judges,
    plan_validation,
)
from inspect_stance.viewer import headline

TASK_VERSION = 1


def _one_line(ex: Exception) -> InputError:
    return ex if isinstance(ex, InputError) else InputError(str(ex))


@task
def prompt_validation(
    topics: str | int | list[int] | None = None,
    issues: str = D.PACKAGE,
    intents: str | list[str] | None = None,
    stances: str | list[str] | None = None,
    sources: str | list[str] | None = None,
    per_source: int = D.PER_SOURCE,
    real_prompts: str = D.REAL_PROMPTS,
    real_limit: int = D.REAL_LIMIT,
    prompts_from: str | None = None,
    issuebench_templates: str = D.PACKAGE,
    writing_templates: str | None = None,
    information_templates: str | None = None,
    opinion_templates: str | None = None,
    seeds_per_setting: int = D.SEEDS_PER_SETTING,
    seed: int = D.SEED,
    prompter_cache: bool = D.PROMPTER_CACHE,
    shard: str | None = None,
    **unknown: Any,
) -> Task:
    """Annotators rank a setting's real, templated and generated prompts for realism and label
    each prompt's intent, stance and leaning side.

    Parameters: ``inspect-stance params prompt_validation`` (or docs/prompt_validation.md).

    The parameters are declared once, in
    :class:`~inspect_stance.validation.options.ValidationOptions`.
    """
    given = dict(locals())  # the task's arguments: its parameters only, taken first
    from inspect_stance.solvers.prompt_validation import validation_annotation

    enter_task()

    reject_unknown_args("prompt_validation", unknown, prompt_validation)
    opts, plan, models = checked_run(task_arguments(ValidationOptions, given))
    samples = setting_samples(plan)
    return Task(
        cleanup=record_provenance,  # who answered each call (provenance.py)
        dataset=MemoryDataset(samples, name="prompt_validation"),
        solver=validation_annotation(seed=opts.seed, prompter_cache=opts.prompter_cache),
        scorer=validation_record(),
        headline_metric=headline("prompt_validation"),
        metadata={
            **task_metadata(opts, plan, models),
            # input files and samples by content: eval-retry refuses changed inputs
            FINGERPRINT_KEY: task_fingerprint("prompt_validation", opts.input_files(), samples),
        },
        version=TASK_VERSION,
    )


def checked_run(
    task_args: dict[str, object],
) -> tuple[ValidationOptions, ValidationPlan, list[Model]]:
    """The run's options, plan and annotator models, each input checked before any model call:
    the ``annotators`` role bound, every ``-T`` parsed (:meth:`ValidationOptions.parse`), the
    ``prompter`` role bound when the plan generates prompts; a one-line InputError otherwise."""
    from inspect_stance.solvers.prompt_validation import annotator_models

    try:
        require_roles(
            "prompt_validation", [ANNOTATORS_ROLE], "the models that annotate the prompts"
        )
        opts = ValidationOptions.parse(**task_args)
        plan = plan_validation(opts)
        if plan.needs_prompter:
            require_roles(
                "prompt_validation",
                [PROMPTER_ROLE],
                "it writes the generated prompts; or reuse them with -T prompts_from=LOG",
            )
        models = annotator_models()
    except ValueError as ex:  # construction code raises one-line ValueErrors
        raise _one_line(ex) from ex
    return opts, plan, models


def setting_samples(plan: ValidationPlan) -> list[Sample]:
    """One sample per setting, id ``{topic}-{intent}-{stance}``, its items in the metadata."""
    return [
        Sample(
            id=s.key,
            input=f"(annotation of {len(s.metadata['items'])} prompts of setting {s.key})",
            metadata=s.metadata,
        )
        for s in plan.settings
    ]


def task_metadata(
    opts: ValidationOptions, plan: ValidationPlan, models: list[Model]
) -> dict[str, Any]:
    """The run's settings as the log records them (annotators and their configs, inputs)."""
    from inspect_stance.solvers.prompt_validation import (
        LABEL_CONFIG,
        PROMPTER_CONFIG,
        RANKING_CONFIG,
        annotator_names,
    )

    names = annotator_names(models)
    return {
        "annotators": names,
        "annotator_configs": {
            name: {
                "ranking": config_dump(model, RANKING_CONFIG),  # scrubbed of credentials
                "labels": config_dump(model, LABEL_CONFIG),
            }
            for name, model in zip(names, models, strict=True)
        },
        "prompter_config": PROMPTER_CONFIG.model_dump(exclude_none=True),
        "topics": [t.topic_id for t in plan.topics],
        "intents": opts.intents,
        "stances": opts.stances,
        "sources": opts.sources,
        "per_source": opts.per_source,
        "real_prompts": opts.real_prompts,
        "real_prompts_found": plan.real_found,
        "real_shortfall": plan.real_shortfall,
        "real_seed_split": plan.real_seed_split,
        "prompts_from": opts.prompts_from,
        "construction_judges": construction_judges(opts.prompts_from),
        "seed": opts.seed,
        **plan.shard,
    }
