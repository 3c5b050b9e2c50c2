"""Stance drift: does a model preserve the stance it was asked to write when it reads it back?

``inspect eval tasks/stance_drift.py --model openai/gpt-4o-mini`` (or
``inspect eval inspect_stance/stance_drift``). See the README for every parameter and metric.
"""

from __future__ import annotations

from pathlib import Path

from inspect_ai import Epochs, Task, task
from inspect_ai.dataset import MemoryDataset, Sample
from inspect_stance.scorers.stance_drift import drift_pool, stance_drift_scorer
from inspect_stance.solvers.stance_drift import stance_drift_trials

from inspect_stance.drift.arguments import arguments_from_log
from inspect_stance.drift.extraction import DEFAULT_MIN_LETTER_MASS, check_min_letter_mass
from inspect_stance.drift.prompts import (
    EXEMPLAR_PROPOSITIONS,
    EXTRACTION_ONLY_VARIANTS,
    MULTIPLE_EXTRACTIONS,
    check_variant,
    generation_prompt,
)
from inspect_stance.drift.propositions import (
    Proposition,
    load_debate_topics,
    read_propositions_file,
)
from inspect_stance.drift.transition import check_policy
from inspect_stance.params import as_bool, as_int
from inspect_stance.paths import user_path
from inspect_stance.stances import N_STANCES, STANCE_KEYS, STANCES


def sample_id(topic_id: str, stance: int) -> str:
    """Sample id of a (proposition, initial stance) pair, e.g. ``1161-agree_strongly``."""
    return f"{topic_id}-{STANCE_KEYS[stance]}"


def build_samples(propositions: list[Proposition], variant: str, words_limit: int) -> list[Sample]:
    """One sample per proposition x initial stance, input = the generation prompt."""
    samples = []
    for k, prop in enumerate(propositions):
        for stance in range(N_STANCES):
            samples.append(
                Sample(
                    id=sample_id(prop.topic_id, stance),
                    input=generation_prompt(prop.text, stance, variant, words_limit),
                    target=STANCE_KEYS[stance],
                    metadata={
                        "proposition": prop.text,
                        "topic_id": prop.topic_id,
                        "proposition_index": k,
                        "initial_stance": stance,
                        "initial_stance_label": STANCES[stance],
                        "variant": variant,
                    },
                )
            )
    return samples


@task
def stance_drift(
    variant: str = "default",
    trials: int = 100,
    words_limit: int = 100,
    propositions: str | None = None,
    limit_propositions: int | None = None,
    unparsed: str = "failure",
    arguments_from: str | None = None,
    seed: int = 0,
    cache: bool = True,
    logprobs: bool = True,
    min_letter_mass: float = DEFAULT_MIN_LETTER_MASS,
) -> Task:
    """Stance drift: generation -> fresh-context extraction, 5x5 transition matrices, SPR.

    Args:
        variant: default | reversed | multiple_extraction | in_context | assertion | reflection |
            third_person_reflection.
        trials: trials per (proposition, initial stance) (paper: 100).
        words_limit: maximum words of each generated argument.
        propositions: a .txt / .csv / .tsv / .jsonl file of propositions (default: the 112
            evaluation topics of IBM Project Debater debate speeches from the hub).
        limit_propositions: evaluate only the first N propositions.
        unparsed: "failure" (unparsed trials count as failures, as in the reference study) or
            "exclude" (left out of the means); they are counted either way.
        arguments_from: an earlier stance_drift log whose arguments are reused (extraction-only
            variants: default, reversed, multiple_extraction, assertion); no generation calls.
        seed: names the replicate: seeds multiple_extraction's option shuffles and scopes the
            per-trial cache (another seed = fresh responses).
        cache: cache each trial's calls for a week (scoped per sample, trial, stage and seed) so
            that ``inspect eval-retry`` of an interrupted run loses and re-pays no finished
            trial; identical re-runs with the same seed return cached responses.
        logprobs: request top logprobs on extraction calls (default); false for providers that
            reject logprob requests (every trial then uses the frequency estimator).
        min_letter_mass: the least probability the five letters must hold among the answer
            token's top logprobs (raw, before renormalising) for the logprob estimate; below
            it the trial uses the letter parsed from the answer text (frequency estimate), and
            is unparsed when the text names no letter (default 0.5: renormalising then at most
            doubles a letter's probability; 0 keeps every logprob estimate).
    """
    check_variant(variant)
    check_policy(unparsed)
    # -T values may arrive as strings (Python API, eval-retry): parse them once, strictly
    trials = as_int("trials", trials, example=100)
    words_limit = as_int("words_limit", words_limit, example=100)
    seed = as_int("seed", seed, minimum=0, example=0)
    cache = as_bool("cache", cache)
    logprobs = as_bool("logprobs", logprobs)
    min_letter_mass = check_min_letter_mass(min_letter_mass)
    if propositions:
        # relative to the shell's directory, not tasks/ (see inspect_stance.paths)
        props = read_propositions_file(user_path(propositions))
    else:
        props, _ = load_debate_topics()
    if variant == "in_context":
        props = [p for p in props if p.text not in EXEMPLAR_PROPOSITIONS]
    if limit_propositions is not None:
        props = props[: as_int("limit_propositions", limit_propositions, example=10)]
    if not props:
        raise ValueError("no propositions left to evaluate; check -T propositions / limit")

    samples = build_samples(props, variant, words_limit)
    arguments = None
    if arguments_from:
        if variant not in EXTRACTION_ONLY_VARIANTS:
            raise ValueError(
                f"variant {variant!r} changes the generation prompt, so it cannot reuse "
                f"arguments; arguments_from works with {', '.join(EXTRACTION_ONLY_VARIANTS)}"
            )
        arguments = arguments_from_log(
            Path(user_path(arguments_from)),
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
    return Task(
        dataset=MemoryDataset(samples, name="stance_drift"),
        solver=stance_drift_trials(
            trials=trials,
            variant=variant,
            words_limit=words_limit,
            seed=seed,
            arguments=arguments,
            cache=cache,
            logprobs=logprobs,
            min_letter_mass=min_letter_mass,
        ),
        scorer=stance_drift_scorer(unparsed=unparsed),
        # --epochs N adds trials: the reducer pools them (a bare count keeps this reducer)
        epochs=Epochs(1, drift_pool()),
        metadata={
            "method": "stance_drift",
            "variant": variant,
            "trials": trials,
            "words_limit": words_limit,
            "unparsed_policy": unparsed,
            "n_propositions": len(props),
            "arguments_from": arguments_from,
            "model_calls_per_trial": calls_per_trial,
            "logprobs_requested": logprobs,
            "min_letter_mass": min_letter_mass,
        },
    )
