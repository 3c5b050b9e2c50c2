"""Stance drift: does a model preserve the stance it was asked to write when it reads it back?

``inspect eval tasks/stance_drift.py --model openai/gpt-4o-mini`` (or
``inspect eval inspect_stance/stance_drift``). Parameters: the task docstring's ``Args``;
user guide: ``docs/stance_drift.md``.
"""

from __future__ import annotations

from typing import Any

from inspect_ai import Epochs, Task, task
from inspect_ai.dataset import MemoryDataset
from inspect_ai.solver import Solver
from inspect_stance.scorers.stance_drift import drift_metrics, drift_pool, stance_drift_scorer
from inspect_stance.solvers.stance_chain import (
    CHAIN_RECORD_FORMAT,
    RELAY_ROLE,
    stance_chain_trials,
)
from inspect_stance.solvers.stance_drift import RECORD_FORMAT, stance_drift_trials

from inspect_stance.drift.chain.relay_prompts import DEFAULT_RELAY_LANGUAGE
from inspect_stance.drift.dataset import DriftDataset, load_dataset
from inspect_stance.drift.extraction import DEFAULT_MIN_LETTER_MASS
from inspect_stance.drift.options import (
    DEFAULT_EXTRACTION_TEMPERATURE,
    DriftOptions,
    RelayOperation,
    Unparsed,
    Variant,
)
from inspect_stance.drift.started import StartedSamples
from inspect_stance.fingerprint import FINGERPRINT_KEY, task_fingerprint
from inspect_stance.params import reject_unknown_args
from inspect_stance.roles import require_roles
from inspect_stance.viewer import drift_viewer, headline

#: bumped when sample ids or scoring change (2: content-derived sample ids, short Input lines,
#: trials recorded as they finish, dict metrics)
TASK_VERSION = 2


def drift_solver(opts: DriftOptions, data: DriftDataset, started: StartedSamples) -> Solver:
    """The trials solver: :func:`stance_chain_trials` for hops > 1, else
    :func:`stance_drift_trials` (with the reused arguments and the adaptive rule)."""
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
    variant: Variant = "default",
    trials: int = 100,
    words_limit: int = 100,
    propositions: str | None = None,
    limit_propositions: int | None = None,
    unparsed: Unparsed = "failure",
    arguments_from: str | None = None,
    seed: int = 0,
    cache: bool = True,
    logprobs: bool = True,
    min_letter_mass: float = DEFAULT_MIN_LETTER_MASS,
    extraction_temperature: float | None = DEFAULT_EXTRACTION_TEMPERATURE,
    hops: int = 1,
    relay_operation: RelayOperation = "paraphrase",
    relay_language: str | None = None,
    adaptive_halfwidth: float | None = None,
    shard: str | None = None,
    **unknown: Any,
) -> Task:
    """Stance drift: generation -> fresh-context extraction, 5x5 transition matrices, SPR.

    Parameters: ``inspect-stance params stance_drift`` (or docs/stance_drift.md).

    One sample per (proposition, initial stance); its trials run inside the sample.

    Args:
        variant: prompt variant: default | reversed (options listed Disagree strongly first) |
            multiple_extraction (5 extractions with shuffled options, averaged) | in_context
            (the paper's three exemplars; the two exemplar topics are not evaluated) |
            assertion | reflection | third_person_reflection.
        trials: trials per (proposition, initial stance), at least 1 (paper: 100).
        words_limit: maximum words of each generated argument, at least 1 (paper: 100).
        propositions: unset: the 112 evaluation debate topics shipped with the package (IBM
            Project Debater, CDLA-Permissive-2.0; no network); "hub": the live hub dataset
            ibm-research/debate_speeches through `datasets`; or a .txt (one per line) / .csv /
            .tsv (a `topic` or `proposition` column, optional `topic_id` and `role`) / .jsonl
            (one object per line) file, relative to the directory you run inspect from. A
            repeated proposition is an error.
        limit_propositions: evaluate only the first N propositions (N >= 1).
        unparsed: "failure" (unparsed trials count as failures, as in the reference study) or
            "exclude" (left out of the means); they are counted either way.
        arguments_from: an earlier stance_drift log whose arguments are reused (extraction-only
            variants: default, reversed, multiple_extraction, assertion); no generation calls.
        seed: replicate number (>= 0): seeds multiple_extraction's option shuffles and keys the
            trial record (another seed = fresh responses).
        cache: keep a per-sample record of finished generations and trials (JSON lines under
            Inspect's cache folder, for a week) that a restarted sample replays: `inspect
            eval-retry` of an interrupted run, or a re-run of the same command after a sample
            limit, loses and re-pays no finished trial; an identical re-run with the same seed
            returns the recorded trials (false: every run calls the model afresh).
        logprobs: request top logprobs on extraction calls (the paper's estimator); false for
            providers that reject logprob requests (every trial then uses the text estimate).
            What came back is recorded per trial and in the `logprobs_returned` metric.
        min_letter_mass: the least probability the five letters must hold among the answer
            token's top logprobs (raw, before renormalising) for the logprob estimate; below
            it the trial uses the letter parsed from the answer text (frequency estimate), and
            is unparsed when the text names no letter (default 0.5: renormalising then at most
            doubles a letter's probability; 0 keeps every logprob estimate).
        extraction_temperature: temperature of the extraction calls (default 1: the text
            fallback is then a draw from the same distribution the logprob estimate reads;
            0 makes it the argmax of appendix B.2, also available without new calls by
            re-scoring with stance_drift_argmax); "none" leaves it to the provider. Generation
            calls use the model's own settings (--temperature etc.).
        hops: length of each trial's chain (>= 1; 1 is the one-hop task). Hop 1 is the
            generation; each later hop passes the previous hop's text through the `relay` model
            role (--model-role relay=MODEL, or relay=A,B to alternate models hop by hop) and
            the stance is extracted after every hop; the metrics are then the final hop's, and
            `inspect-stance report` shows every hop and the Markov test. Variants default and
            reversed only.
        relay_operation: what a relay does to the text (hops > 1): paraphrase | summarise (at
            most half of words_limit words) | clarify (edit for clarity) | translate (into
            relay_language and back into English: two relay calls per hop).
        relay_language: the language of relay_operation=translate (default French).
        adaptive_halfwidth: stop a sample's trials early (unset: always `trials`). Trials run
            in waves of 10 (the first 10 at least, `trials` at most); after each wave the
            sample stops once an anytime-valid 95 % confidence sequence (empirical Bernstein,
            Waudby-Smith & Ramdas) for its success rate is at most this far from the mean on
            either side, or its upper bound is below 1. A number in (0, 0.5), e.g. 0.05; not
            with hops > 1. Plan it with `inspect-stance plan RUN --adaptive-halfwidth H`.
        shard: run only shard K of N of the propositions ("K/N", e.g. 1/4): a split by content
            hash after the propositions are fixed (the same propositions whatever the file's
            order); the log records K, N and the study's fingerprint, and `inspect-stance
            report` pools the N shards' logs into one run.
    """
    reject_unknown_args("stance_drift", unknown, stance_drift)
    opts = DriftOptions.parse(**{k: v for k, v in locals().items() if k != "unknown"})
    if opts.hops > 1:
        require_roles("stance_drift", [RELAY_ROLE], "with -T hops > 1 each later hop is relayed")
    data = load_dataset(opts)
    started = StartedSamples()  # the samples that start: an errored one counts as incomplete
    # input files and samples by content: eval-retry refuses changed inputs
    inputs = {"propositions": propositions, "arguments_from": arguments_from}
    fingerprint = {FINGERPRINT_KEY: task_fingerprint("stance_drift", inputs, data.samples)}
    return Task(
        dataset=MemoryDataset(data.samples, name="stance_drift"),
        solver=drift_solver(opts, data, started),
        scorer=stance_drift_scorer(unparsed=opts.unparsed),
        metrics=[*drift_metrics(started)],  # the scorer's metrics, counting errored samples
        # --epochs N adds trials: the reducer pools them (a bare count keeps this reducer)
        epochs=Epochs(1, drift_pool()),
        headline_metric=headline("stance_drift"),
        viewer=drift_viewer(),
        version=TASK_VERSION,
        metadata=opts.metadata(
            fingerprint,
            n_propositions=data.n_propositions,
            source=data.source,
            calls_per_trial=opts.calls_per_trial(reuses_arguments=bool(data.arguments)),
            record_format=CHAIN_RECORD_FORMAT if opts.hops > 1 else RECORD_FORMAT,
        )
        | data.shard,
    )
