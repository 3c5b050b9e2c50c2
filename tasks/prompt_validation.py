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
from inspect_stance.solvers.prompt_validation import (
    LABEL_CONFIG,
    PROMPTER_CONFIG,
    RANKING_CONFIG,
    annotator_models,
    annotator_names,
    validation_annotation,
)

from inspect_stance.construction.keys import ANNOTATORS_ROLE, PROMPTER_ROLE
from inspect_stance.errors import InputError
from inspect_stance.fingerprint import FINGERPRINT_KEY, task_fingerprint
from inspect_stance.params import reject_unknown_args
from inspect_stance.roles import config_dump, require_roles
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
    shard: str | None = None,
    **unknown: Any,
) -> Task:
    """Annotators rank a setting's real, templated and generated prompts for realism and label
    each prompt's intent, stance and leaning side.

    Parameters: ``inspect-stance params prompt_validation`` (or docs/prompt_validation.md).

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
        shard: run only shard K of N of the settings ("K/N", e.g. 1/4), split by content hash
            after the settings are fixed; the log records K, N and the study's fingerprint.
    """
    reject_unknown_args("prompt_validation", unknown, prompt_validation)
    opts, plan, models = checked_run({k: v for k, v in locals().items() if k != "unknown"})
    samples = setting_samples(plan)
    return Task(
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
    task_args: dict[str, Any],
) -> tuple[ValidationOptions, ValidationPlan, list[Model]]:
    """The run's options, plan and annotator models, each input checked before any model call:
    the ``annotators`` role bound, every ``-T`` parsed (:meth:`ValidationOptions.parse`), the
    ``prompter`` role bound when the plan generates prompts; a one-line InputError otherwise."""
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
