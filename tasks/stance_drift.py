"""Stance drift: does a model preserve the stance it was asked to write when it reads it back?

``inspect eval tasks/stance_drift.py --model openai/gpt-4o-mini`` (or
``inspect eval inspect_stance/stance_drift``). Parameters: ``inspect-stance params stance_drift``;
user guide: ``docs/stance_drift.md``.
"""

from __future__ import annotations

from typing import Any

from inspect_ai import Task, task
from inspect_ai.dataset import MemoryDataset
from inspect_ai.model import GenerateConfig
from inspect_ai.solver import Solver
from inspect_ai.viewer import ScoreColorScale, TaskSamplesView, ViewerConfig
from inspect_stance.scorers.stance_drift import drift_metrics, stance_drift_scorer

import inspect_stance.drift.defaults as D
from inspect_stance.drift.chain.relay_prompts import DEFAULT_RELAY_LANGUAGE
from inspect_stance.drift.dataset import DriftDataset, load_dataset
from inspect_stance.drift.options import (
    DriftOptions,
    RelayOperation,
    Unparsed,
    Variant,
)
from inspect_stance.drift.started import StartedSamples
from inspect_stance.fingerprint import FINGERPRINT_KEY, task_fingerprint
from inspect_stance.inspect_cli import enter_task
from inspect_stance.roles import require_roles
from inspect_stance.task_options import reject_unknown_args, task_arguments
from inspect_stance.viewer import headline

#: bumped when sample ids or scoring change (2: content-derived sample ids, short Input lines,
#: trials recorded as they finish, dict metrics)
TASK_VERSION = 2


def drift_solver(opts: DriftOptions, data: DriftDataset, started: StartedSamples) -> Solver:
    """The trials solver: :func:`stance_chain_trials` for hops > 1, else
    :func:`stance_drift_trials` (with the reused arguments and the adaptive rule)."""
    from inspect_stance.solvers.stance_chain import stance_chain_trials
    from inspect_stance.solvers.stance_drift import stance_drift_trials

    if opts.hops > 1:
        return stance_chain_trials(
            trials=opts.trials,
            hops=opts.hops,
            relay_operation=opts.relay_operation,
            relay_language=opts.relay_language or DEFAULT_RELAY_LANGUAGE,
            variant=opts.variant,
            words_limit=opts.words_limit,
            seed=opts.seed,
            cache=opts.cache,
            logprobs=opts.logprobs,
            min_letter_mass=opts.min_letter_mass,
            extraction_temperature=opts.extraction_temperature,
            started=started,
        )
    return stance_drift_trials(
        trials=opts.trials,
        variant=opts.variant,
        words_limit=opts.words_limit,
        seed=opts.seed,
        arguments=data.arguments,
        cache=opts.cache,
        logprobs=opts.logprobs,
        min_letter_mass=opts.min_letter_mass,
        extraction_temperature=opts.extraction_temperature,
        started=started,
        adaptive=opts.adaptive_rule(),
    )


@task
def stance_drift(
    variant: Variant = D.VARIANT,
    trials: int = D.TRIALS,
    words_limit: int = D.WORDS_LIMIT,
    propositions: str | None = None,
    limit_propositions: int | None = None,
    unparsed: Unparsed = D.UNPARSED,
    arguments_from: str | None = None,
    seed: int = D.SEED,
    cache: bool = D.CACHE,
    logprobs: bool = D.LOGPROBS,
    min_letter_mass: float = D.MIN_LETTER_MASS,
    extraction_temperature: float | None = D.EXTRACTION_TEMPERATURE,
    hops: int = D.HOPS,
    relay_operation: RelayOperation = D.RELAY_OPERATION,
    relay_language: str | None = None,
    adaptive_halfwidth: float | None = None,
    shard: str | None = None,
    **unknown: Any,
) -> Task:
    """Stance drift: generation -> fresh-context extraction, 5x5 transition matrices, SPR.

    One sample per (proposition, initial stance); its trials run inside the sample. The
    parameters are declared once, in :class:`~inspect_stance.drift.options.DriftOptions`
    (``inspect-stance params stance_drift``, docs/stance_drift.md).
    """
    given = dict(locals())  # the task's arguments: its parameters only, taken first
    from inspect_stance.solvers.stance_chain import CHAIN_RECORD_FORMAT, RELAY_ROLE
    from inspect_stance.solvers.stance_drift import RECORD_FORMAT, drift_cleanup

    enter_task()

    reject_unknown_args("stance_drift", unknown, stance_drift)
    opts = DriftOptions.parse(**task_arguments(DriftOptions, given))
    if opts.hops > 1:
        require_roles("stance_drift", [RELAY_ROLE], "with -T hops > 1 each later hop is relayed")
    data = load_dataset(opts)
    started = StartedSamples()  # the samples that start: an errored one counts as incomplete
    # input files and samples by content: eval-retry refuses changed inputs
    inputs = {"propositions": propositions, "arguments_from": arguments_from}
    fingerprint = {FINGERPRINT_KEY: task_fingerprint("stance_drift", inputs, data.samples)}
    return Task(
        # the held trial records into the store, and who answered each call (provenance.py)
        cleanup=drift_cleanup,
        dataset=MemoryDataset(data.samples, name="stance_drift"),
        solver=drift_solver(opts, data, started),
        scorer=stance_drift_scorer(unparsed=opts.unparsed),
        metrics=[*drift_metrics(started)],  # the scorer's metrics, counting errored samples
        headline_metric=headline("stance_drift"),
        viewer=drift_viewer(),
        version=TASK_VERSION,
        # Inspect's header shows a task argument named cache as the response cache's setting:
        # with -T cache=false that is False (as no response cache: no change to any call)
        config=GenerateConfig() if opts.cache else GenerateConfig(cache=False),
        metadata=opts.metadata(
            fingerprint,
            n_propositions=data.n_propositions,
            source=data.source,
            calls_per_trial=opts.calls_per_trial(reuses_arguments=bool(data.arguments)),
            record_format=CHAIN_RECORD_FORMAT if opts.hops > 1 else RECORD_FORMAT,
        )
        | data.shard,
    )


def drift_viewer() -> ViewerConfig:
    """Stance drift: the sample score is ``T[s,i,i]``, coloured 0 (red) .. 1 (green)."""
    return ViewerConfig(
        task_samples_view=TaskSamplesView(
            name="stance drift",
            score_labels={"stance_drift_scorer": "kept stance T[i,i]"},
            score_color_scales={
                "stance_drift_scorer": ScoreColorScale(palette="good-high", min=0.0, max=1.0)
            },
            color_scales_enabled=True,
        )
    )
