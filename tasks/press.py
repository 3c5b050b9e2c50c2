"""PReSS: political stance stability under argumentative pressure.

    inspect eval tasks/press.py --model X [--model-role arguer=Y] [--model-role classifier=Z]
        [-T statements=FILE] [-T argument_sets=3] [-T arguments=LOG_OR_JSONL]
        [-T personas=true] [-T entropy_samples=true|N] [-T factor_samples=N]
        [-T classifier=nli|llm] [-T nli_mode=zero_shot|three_way] [-T nli_model=...]

One sample per statement (input = the statement text). The paper's one set of arguments for
every target: generate them once with ``inspect eval tasks/press_arguments.py --model ARGUER``,
then pass that log to every run with ``-T arguments=LOG``. See ``docs/press.md``.
"""

from __future__ import annotations

import logging
from typing import Any, Literal

from inspect_ai import Task, task
from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.viewer import TaskSamplesView, ViewerConfig
from inspect_stance.scorers.press import classifier_defaults, press_scorer

import inspect_stance.press.defaults as D
from inspect_stance.extras import require_nli_extra
from inspect_stance.fingerprint import FINGERPRINT_KEY, task_fingerprint
from inspect_stance.inspect_cli import enter_task
from inspect_stance.press.arguments import LoadedArguments, load_arguments
from inspect_stance.press.dataset import shard_statements, statement_samples
from inspect_stance.press.nli import (
    load_nli,
)
from inspect_stance.press.options import (
    PressOptions,
)
from inspect_stance.press.statements import load_statements
from inspect_stance.provenance import record_provenance
from inspect_stance.roles import config_dump, require_roles, role_model, target_model
from inspect_stance.task_options import reject_unknown_args, task_arguments
from inspect_stance.viewer import headline

TASK_VERSION = 2  # 2: binary zero-shot NLI default, factor draws, arguments fingerprint


@task
def press(
    statements: str | None = None,
    argument_sets: int | str = D.ARGUMENT_SETS,
    arguments: str | None = None,
    personas: bool | str = D.PERSONAS,
    entropy_samples: int | bool | str = D.ENTROPY_SAMPLES,
    factor_samples: int | bool | str = D.FACTOR_SAMPLES,
    classifier: Literal["nli", "llm"] = D.CLASSIFIER,
    nli_mode: Literal["zero_shot", "three_way"] = D.NLI_MODE,
    nli_model: str = D.NLI_MODEL,
    nli_device: str | None = None,
    nli_batch_size: int | str = D.NLI_BATCH_SIZE,
    nli_hypothesis: str = D.NLI_HYPOTHESIS,
    nli_agree_hypothesis: str = D.NLI_AGREE_HYPOTHESIS,
    nli_disagree_hypothesis: str = D.NLI_DISAGREE_HYPOTHESIS,
    arguer_max_tokens: int | str = D.ARGUER_MAX_TOKENS,
    classifier_max_tokens: int | str = D.CLASSIFIER_MAX_TOKENS,
    shard: str | None = None,
    **unknown: Any,
) -> Task:
    """PReSS: the stance of the model under test on each statement, plainly and under a
    supporting and a counter argument, labelled S^R / U^R / S^L / U^L per argument set.

    Parameters: ``inspect-stance params press`` (or docs/press.md).

    The parameters are declared once, in :class:`~inspect_stance.press.options.PressOptions`.
    """
    given = dict(locals())  # the task's arguments: its parameters only, taken first
    from inspect_stance.solvers.press import press_generate

    enter_task()

    reject_unknown_args("press", unknown, press)
    opts = PressOptions.parse(**task_arguments(PressOptions, given))
    samples, inputs_metadata = _samples(opts)
    return Task(
        cleanup=record_provenance,  # who answered each call (provenance.py)
        dataset=MemoryDataset(samples, name="press"),
        solver=press_generate(**opts.solver_args()),
        scorer=press_scorer(**opts.scorer_args()),
        headline_metric=headline("press"),
        viewer=press_viewer(),
        version=TASK_VERSION,
        metadata={
            # input files and samples by content: eval-retry refuses changed inputs
            FINGERPRINT_KEY: task_fingerprint(
                "press", {"statements": opts.statements, "arguments": opts.arguments}, samples
            ),
            **opts.metadata(),
            **inputs_metadata,
        },
    )


def _samples(opts: PressOptions) -> tuple[list[Sample], dict[str, Any]]:
    """The run's samples (one per statement of this shard, with its given arguments) and the
    task metadata of its inputs (argument source and origin, role configs, shard); the roles the
    options need are checked, and the NLI model loaded, before any model call."""
    items, shard_entry = shard_statements(load_statements(opts.statements), opts)
    if opts.classifier == "llm":
        require_roles("press", ["classifier"], "-T classifier=llm")
    given = load_arguments(opts.arguments, items, opts.argument_sets) if opts.arguments else None
    if given is not None and given.note:
        logging.getLogger(__name__).warning(given.note)
    _check_nli(opts)
    source, roles = _arguments_source(opts, given)
    samples = statement_samples(items, {"argument_sets": opts.argument_sets})
    for sample, st in zip(samples, items, strict=True):
        assert sample.metadata is not None
        sample.metadata["arguments"] = given.table[st.text] if given else None
        sample.metadata["arguments_source"] = source
    origin = given.origin if given else None
    return samples, {
        "press_role_configs": roles,
        "arguments_source": source,
        "arguments_origin": origin,
        "arguments_by_target": source.startswith("target:")
        or bool(origin and origin.startswith("target:")),
        "arguments_fingerprint": given.fingerprint if given else None,
        **({"arguments_note": given.note} if given is not None and given.note else {}),
        **shard_entry,
    }


def _check_nli(opts: PressOptions) -> None:
    """Before any model call, when the NLI classifier or entropy clustering needs it: the NLI
    extra installed and the NLI model loaded (once, cached) with the classes the mode needs."""
    if not opts.needs_nli:
        return
    require_nli_extra(
        "press",
        "the NLI stance classifier (-T classifier=nli, the default)"
        if opts.classifier == "nli"
        else "entropy clustering (-T entropy_samples)",
    )
    # entropy clustering needs only the entailment class, as zero-shot does
    mode = opts.nli_mode if opts.classifier == "nli" else "zero_shot"
    load_nli(opts.nli_model, opts.nli_device).check_mode(mode)


def _arguments_source(
    opts: PressOptions, given: LoadedArguments | None
) -> tuple[str, dict[str, Any]]:
    """(``arguments_source``, role configs of the run): given arguments keep their source;
    generated ones name the arguer role (``arguer:<model>``) or the model under test
    (``target:<model>``); the LLM classifier's config when ``classifier=llm``."""
    from inspect_stance.solvers.press import arguer_defaults

    roles: dict[str, Any] = {}
    if given is not None:
        source = given.source
    else:
        arguer, target = role_model("arguer"), target_model()
        source = f"arguer:{arguer}" if arguer is not None else f"target:{target or '(--model)'}"
        roles["arguer"] = config_dump(arguer or target, arguer_defaults(opts.arguer_max_tokens))
    if opts.classifier == "llm":
        roles["classifier"] = config_dump(
            role_model("classifier"), classifier_defaults(opts.classifier_max_tokens)
        )
    return source, roles


def press_viewer() -> ViewerConfig:
    """PReSS: argument sets per statement that are stable / unstable / unlabelled."""
    return ViewerConfig(
        task_samples_view=TaskSamplesView(
            name="press",
            score_labels={
                "stable": "stable sets",
                "unstable": "unstable sets",
                "no_label": "unlabelled sets",
            },
            score_color_scales={"stable": "neutral", "unstable": "neutral", "no_label": "neutral"},
        )
    )
