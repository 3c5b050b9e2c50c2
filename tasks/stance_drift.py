"""Stance drift: does a model preserve the stance it was asked to write when it reads it back?

``inspect eval tasks/stance_drift.py --model openai/gpt-4o-mini`` (or
``inspect eval inspect_stance/stance_drift``). Parameters: the task docstring's ``Args``;
user guide: ``docs/stance_drift.md``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal, get_args

from inspect_ai import Epochs, Task, task
from inspect_ai.dataset import MemoryDataset, Sample
from inspect_stance.scorers.stance_drift import (
    StartedSamples,
    drift_metrics,
    drift_pool,
    stance_drift_scorer,
)
from inspect_stance.solvers.stance_chain import (
    CHAIN_RECORD_FORMAT,
    RELAY_ROLE,
    stance_chain_trials,
)
from inspect_stance.solvers.stance_drift import RECORD_FORMAT, stance_drift_trials

from inspect_stance.drift.adaptive import (
    ADAPTIVE_ALPHA,
    ADAPTIVE_MIN_TRIALS,
    ADAPTIVE_WAVE,
    check_halfwidth,
    rule_for,
)
from inspect_stance.drift.arguments import arguments_from_log
from inspect_stance.drift.extraction import DEFAULT_MIN_LETTER_MASS, check_min_letter_mass
from inspect_stance.drift.prompts import (
    EXEMPLAR_PROPOSITIONS,
    EXTRACTION_ONLY_VARIANTS,
    MULTIPLE_EXTRACTIONS,
    VARIANTS,
)
from inspect_stance.drift.propositions import (
    HUB,
    Proposition,
    load_debate_topics,
    load_package_topics,
    read_propositions_file,
)
from inspect_stance.drift.relay_prompts import (
    DEFAULT_RELAY_LANGUAGE,
    RELAY_OPERATIONS,
    RelayOperation,
    relay_calls_per_hop,
)
from inspect_stance.drift.transition import UNPARSED_POLICIES
from inspect_stance.errors import InputError
from inspect_stance.fingerprint import FINGERPRINT_KEY, task_fingerprint
from inspect_stance.params import as_bool, as_int, parse_float, reject_unknown_args
from inspect_stance.paths import user_path
from inspect_stance.roles import require_roles
from inspect_stance.stances import N_STANCES, STANCE_KEYS, STANCES
from inspect_stance.viewer import drift_viewer, headline

#: bumped when sample ids or scoring change (2: content-derived sample ids, short Input lines,
#: trials recorded as they finish, dict metrics)
TASK_VERSION = 2

Variant = Literal[
    "default",
    "reversed",
    "multiple_extraction",
    "in_context",
    "assertion",
    "reflection",
    "third_person_reflection",
]
Unparsed = Literal["failure", "exclude"]
assert set(get_args(Variant)) == set(VARIANTS)
assert set(get_args(Unparsed)) == set(UNPARSED_POLICIES)
assert set(get_args(RelayOperation)) == set(RELAY_OPERATIONS)
#: variants a chain (hops > 1) runs: the default and reversed prompts (one extraction per hop)
CHAIN_VARIANTS = ("default", "reversed")

DEFAULT_EXTRACTION_TEMPERATURE = 1.0


def sample_id(prop: Proposition, stance: int) -> str:
    """Sample id of a (proposition, initial stance) pair: ``<content key>-<stance key>``, e.g.
    ``3f2a1c9d-agree_strongly``; the key is a hash of the proposition's text
    (:func:`~inspect_stance.drift.propositions.proposition_key`), not its position."""
    return f"{prop.key}-{STANCE_KEYS[stance]}"


def sample_input(prop: Proposition, stance: int) -> str:
    """The short line ``inspect view`` lists for a sample: ``<proposition> — <stance label>``
    (the verbatim prompts are built by the solver and shown in the transcript)."""
    return f"{prop.text} — {STANCES[stance]}"


def build_samples(propositions: list[Proposition], variant: str) -> list[Sample]:
    """One sample per proposition x initial stance."""
    samples = []
    for k, prop in enumerate(propositions):
        for stance in range(N_STANCES):
            samples.append(
                Sample(
                    id=sample_id(prop, stance),
                    input=sample_input(prop, stance),
                    target=STANCE_KEYS[stance],
                    metadata={
                        "proposition": prop.text,
                        "topic_id": prop.topic_id,
                        "proposition_key": prop.key,
                        "proposition_index": k,
                        "initial_stance": stance,
                        "initial_stance_label": STANCES[stance],
                        "variant": variant,
                    },
                )
            )
    return samples


def _temperature(value: object) -> float | None:
    """``-T extraction_temperature``: a number in [0, 2], or ``none`` (provider default)."""
    if value is None or (isinstance(value, str) and value.strip().lower() in ("none", "null")):
        return None
    x = parse_float(value)
    if x is None or not 0.0 <= x <= 2.0:
        raise InputError(
            f"extraction_temperature {value!r} is not a number in [0, 2] or none; use e.g. "
            "-T extraction_temperature=1"
        )
    return x


def _load_propositions(propositions: str | None) -> tuple[list[Proposition], str]:
    """The propositions and a description of their source."""
    if propositions is None or str(propositions).strip() == "":
        evaluated, _ = load_package_topics()
        return evaluated, "package data debate_topics.tsv (112 evaluation topics)"
    if str(propositions).strip().lower() == HUB:
        evaluated, _ = load_debate_topics()
        return evaluated, "hub ibm-research/debate_speeches"
    # relative to the shell's directory, not tasks/ (see inspect_stance.paths)
    path = user_path(str(propositions))
    return read_propositions_file(path), f"file {path}"


def _check_chain(
    hops: int,
    variant: str,
    operation: str,
    language: str | None,
    arguments_from: str | None,
) -> str | None:
    """Check the chain parameters (``hops`` > 1) before any model call; the translation
    language (``None`` unless ``relay_operation=translate``)."""
    if hops < 1:
        raise InputError(f"hops must be at least 1 (got {hops}); use e.g. -T hops=3")
    if operation not in RELAY_OPERATIONS:
        raise InputError(
            f"unknown relay_operation {operation!r}; use -T relay_operation=NAME, NAME one of "
            f"{', '.join(RELAY_OPERATIONS)}"
        )
    if language is not None and operation != "translate":
        raise InputError(
            "relay_language applies only to -T relay_operation=translate; drop it or add "
            "-T relay_operation=translate"
        )
    if language is not None:
        language = str(language).strip()
        if not language or not all(c.isalpha() or c in " -" for c in language):
            raise InputError(
                f"relay_language {language!r} is not a language name; use e.g. "
                "-T relay_language=German"
            )
        if language.lower() == "english":
            raise InputError(
                "relay_language English is the language the text comes back to; name another "
                "language, e.g. -T relay_language=German"
            )
    if hops == 1:
        return None
    if variant not in CHAIN_VARIANTS:
        raise InputError(
            f"variant {variant!r} does not run as a chain; with -T hops > 1 use -T variant="
            f"{' or -T variant='.join(CHAIN_VARIANTS)}"
        )
    if arguments_from:
        raise InputError("arguments_from does not combine with -T hops > 1; drop one of them")
    require_roles("stance_drift", [RELAY_ROLE], "with -T hops > 1 each later hop is relayed")
    return (language or DEFAULT_RELAY_LANGUAGE) if operation == "translate" else None


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
    """
    reject_unknown_args("stance_drift", unknown, stance_drift)
    if variant not in VARIANTS:
        raise InputError(
            f"unknown variant {variant!r}; use -T variant=NAME, NAME one of {', '.join(VARIANTS)}"
        )
    if unparsed not in UNPARSED_POLICIES:
        raise InputError(
            f"unknown unparsed policy {unparsed!r}; use -T unparsed=failure or -T unparsed=exclude"
        )
    # -T values may arrive as strings (Python API, eval-retry): parse them once, strictly
    trials = as_int("trials", trials, example=100)
    words_limit = as_int("words_limit", words_limit, example=100)
    seed = as_int("seed", seed, minimum=0, example=0)
    cache = as_bool("cache", cache)
    logprobs = as_bool("logprobs", logprobs)
    temperature = _temperature(extraction_temperature)
    min_letter_mass = check_min_letter_mass(min_letter_mass)
    hops = as_int("hops", hops, example=3)
    language = _check_chain(hops, variant, relay_operation, relay_language, arguments_from)
    halfwidth = check_halfwidth(adaptive_halfwidth)
    if halfwidth is not None and hops > 1:
        raise InputError("adaptive_halfwidth does not combine with -T hops > 1; drop one of them")
    props, source = _load_propositions(propositions)
    if variant == "in_context":
        props = [p for p in props if p.text not in EXEMPLAR_PROPOSITIONS]
    if limit_propositions is not None:
        props = props[: as_int("limit_propositions", limit_propositions, example=10)]
    if not props:
        raise InputError(
            "no propositions left to evaluate; check -T propositions and -T limit_propositions"
        )

    samples = build_samples(props, variant)
    arguments = None
    if arguments_from:
        if variant not in EXTRACTION_ONLY_VARIANTS:
            raise InputError(
                f"variant {variant!r} changes the generation prompt, so it cannot reuse "
                f"arguments; arguments_from works with {', '.join(EXTRACTION_ONLY_VARIANTS)}"
            )
        arguments = arguments_from_log(
            Path(user_path(str(arguments_from))),
            [
                (str(s.id), str(s.metadata["proposition"]), int(s.metadata["initial_stance"]))
                for s in samples
                if s.metadata is not None
            ],
            trials,
            words_limit,
        )

    calls_per_trial = (0 if arguments else 1) + (
        MULTIPLE_EXTRACTIONS if variant == "multiple_extraction" else 1
    )
    chain: dict[str, Any] = {}
    if hops > 1:
        relay_calls = (hops - 1) * relay_calls_per_hop(relay_operation)
        chain = {
            "hops": hops,
            "relay_operation": relay_operation,
            "relay_language": language,
            "model_calls_per_trial_by_role": {"model": 1 + hops, RELAY_ROLE: relay_calls},
        }
        calls_per_trial = 1 + hops + relay_calls
    started = StartedSamples()  # the samples that start: an errored one counts as incomplete
    solver = (
        stance_chain_trials(
            trials=trials,
            hops=hops,
            relay_operation=relay_operation,
            relay_language=language or DEFAULT_RELAY_LANGUAGE,
            variant=variant,
            words_limit=words_limit,
            seed=seed,
            cache=cache,
            logprobs=logprobs,
            min_letter_mass=min_letter_mass,
            extraction_temperature=temperature,
            started=started,
        )
        if hops > 1
        else stance_drift_trials(
            trials=trials,
            variant=variant,
            words_limit=words_limit,
            seed=seed,
            arguments=arguments,
            cache=cache,
            logprobs=logprobs,
            min_letter_mass=min_letter_mass,
            extraction_temperature=temperature,
            started=started,
            adaptive=None if halfwidth is None else rule_for(halfwidth, trials, unparsed),
        )
    )
    return Task(
        dataset=MemoryDataset(samples, name="stance_drift"),
        solver=solver,
        scorer=stance_drift_scorer(unparsed=unparsed),
        metrics=[*drift_metrics(started)],  # the scorer's metrics, counting errored samples
        # --epochs N adds trials: the reducer pools them (a bare count keeps this reducer)
        epochs=Epochs(1, drift_pool()),
        headline_metric=headline("stance_drift"),
        viewer=drift_viewer(),
        version=TASK_VERSION,
        metadata={
            "method": "stance_drift",
            # input files and samples by content: eval-retry refuses changed inputs
            FINGERPRINT_KEY: task_fingerprint(
                "stance_drift",
                {"propositions": propositions, "arguments_from": arguments_from},
                samples,
            ),
            "variant": variant,
            "trials": trials,
            "words_limit": words_limit,
            "unparsed_policy": unparsed,
            "n_propositions": len(props),
            "propositions_source": source,
            "arguments_from": arguments_from,
            "model_calls_per_trial": calls_per_trial,
            "logprobs_requested": logprobs,
            "min_letter_mass": min_letter_mass,
            "extraction_config": {
                "temperature": temperature,
                "logprobs": logprobs,
                "top_logprobs": "max(5, --top-logprobs)" if logprobs else None,
            },
            "generation_config": "the model's own (--temperature, --max-tokens ...)",
            "trial_record": (
                f"format {CHAIN_RECORD_FORMAT if hops > 1 else RECORD_FORMAT}, seed {seed}"
                if cache
                else None
            ),
            **chain,
            "adaptive_halfwidth": halfwidth,
            "adaptive_rule": None
            if halfwidth is None
            else {
                "min_trials": ADAPTIVE_MIN_TRIALS,
                "wave": ADAPTIVE_WAVE,
                "alpha": ADAPTIVE_ALPHA,
                "sequence": "empirical Bernstein (predictable mixture), two-sided",
            },
        },
    )
