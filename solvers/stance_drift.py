"""Stance-drift solver: runs every trial of one (proposition, initial stance) sample.

One Inspect sample = one proposition x one initial stance; its ``trials`` trials run
concurrently inside the solver (every model call still goes through Inspect's model API, so
retries, caching, connection limits and usage accounting apply, and each call is a model event
in the transcript). Each trial:

1. generation call with :func:`inspect_stance.drift.prompts.generation_prompt` (skipped when the
   argument is reused from an earlier run);
2. one extraction call per extraction (5 with ``multiple_extraction``), each a fresh
   single-message conversation, asking for logprobs (``top_logprobs >= 5``).

Per-trial records go to ``state.store["trials"]`` (plain lists, viewable in ``inspect view``):
``trial, argument, answers, orders, vectors, estimators, probs, estimator, unparsed,
unparsed_extractions, extracted, letter_masses``. ``vectors`` holds each extraction's stance-order vector
(``None`` when unparsed); ``probs`` is the mean of the parsed ones (``None`` when none). How
unparsed extractions enter the analysis is the scorer's ``unparsed`` policy
(:func:`inspect_stance.drift.extraction.trial_vector`).
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

import anyio
import numpy as np
from inspect_ai.model import CachePolicy, GenerateConfig, Model, ModelOutput, get_model
from inspect_ai.solver import Generate, Solver, TaskState, solver

from inspect_stance.drift.extraction import (
    DEFAULT_MIN_LETTER_MASS,
    extract,
    to_stance_order,
    trial_vector,
)
from inspect_stance.drift.logs import TRIALS_KEY
from inspect_stance.drift.prompts import (
    MULTIPLE_EXTRACTIONS,
    check_variant,
    extraction_prompt,
    generation_prompt,
    variant_order,
)
from inspect_stance.stances import N_STANCES, STANCES

MIN_TOP_LOGPROBS = 5


def _logprob_tokens(
    output: ModelOutput,
) -> tuple[list[str] | None, list[list[tuple[str, float]]] | None]:
    """Generated tokens and their top logprobs, or ``(None, None)`` without logprobs."""
    choice = output.choices[0] if output.choices else None
    if choice is None or choice.logprobs is None or not choice.logprobs.content:
        return None, None
    tokens = [lp.token for lp in choice.logprobs.content]
    # no top alternatives = no distribution to read: the estimator falls back to frequency
    tops = [
        [(t.token, t.logprob) for t in (lp.top_logprobs or [])] for lp in choice.logprobs.content
    ]
    return tokens, tops


def shuffled_orders(seed: int, sample_key: str, trial: int, n: int) -> list[list[int]]:
    """``n`` independently shuffled option orders, reproducible from (seed, sample, trial)."""
    digest = hashlib.blake2b(f"{seed}\x00{sample_key}\x00{trial}".encode(), digest_size=8)
    rng = np.random.default_rng(int.from_bytes(digest.digest(), "little"))
    return [[int(x) for x in rng.permutation(N_STANCES)] for _ in range(n)]


def combine(
    vectors: Sequence[list[float] | None], estimators: Sequence[str | None]
) -> tuple[list[float] | None, str | None]:
    """The mean of a trial's parsed extraction vectors (``trial_vector`` under ``exclude``).

    Returns ``(mean vector, estimator)``; ``(None, None)`` when no extraction was parsed. The
    estimator is ``logprobs`` / ``frequency`` when all parsed extractions used it, else ``mixed``.
    """
    probs = trial_vector(vectors, "exclude")
    if probs is None:
        return None, None
    kinds = {e for v, e in zip(vectors, estimators, strict=True) if v is not None}
    estimator = kinds.pop() if len(kinds) == 1 else "mixed"
    return probs, estimator


@solver
def stance_drift_trials(
    trials: int = 100,
    variant: str = "default",
    words_limit: int = 100,
    seed: int = 0,
    arguments: Mapping[str, Sequence[str]] | None = None,
    cache: bool = True,
    logprobs: bool = True,
    min_letter_mass: float = DEFAULT_MIN_LETTER_MASS,
) -> Solver:
    """Run ``trials`` generation -> extraction trials for the sample's proposition and stance.

    Args:
        trials: trials per (proposition, initial stance).
        variant: prompt variant (see :data:`inspect_stance.drift.prompts.VARIANTS`).
        words_limit: maximum words of a generated argument.
        seed: names the replicate: seeds the option shuffles of ``multiple_extraction`` and
            scopes the per-trial cache, so a run with another seed draws fresh responses.
        arguments: reused arguments keyed by sample id (from ``arguments_from``); when given,
            no generation calls are made.
        cache: cache every call per trial for a week, keyed by Inspect's usual cache key (model,
            generation config, prompt) plus sample, trial, stage, ``seed`` and the model's
            ``-M`` args. An interrupted run
            finished with ``inspect eval-retry`` (or simply re-run) therefore re-pays no
            finished call and loses no finished trial. Re-running the same configuration with
            the same seed returns the cached responses; use another ``seed`` (or
            ``cache=False``) for an independent replicate.
        logprobs: request top logprobs on extraction calls (the logprob estimator); turn off
            for providers that reject the request — every trial then uses the frequency
            estimator.
    """
    check_variant(variant)
    if trials < 1:
        raise ValueError(f"trials must be at least 1 (got {trials})")
    n_extractions = MULTIPLE_EXTRACTIONS if variant == "multiple_extraction" else 1
    base_order = variant_order(variant)

    async def solve(state: TaskState, generate: Generate) -> TaskState:  # noqa: ARG001
        model: Model = get_model()
        # Inspect's cache key has the model name but not its -M args (two local models served
        # as hf/local would collide), so the args are part of our scope.
        model_key = hashlib.blake2b(
            json.dumps(model.model_args, sort_keys=True, default=str).encode(), digest_size=8
        ).hexdigest()
        proposition: str = state.metadata["proposition"]
        stance: int = int(state.metadata["initial_stance"])
        sample_key = str(state.sample_id)
        reused = arguments.get(sample_key) if arguments is not None else None
        top_n = max(MIN_TOP_LOGPROBS, model.config.top_logprobs or 0)
        extract_config = (
            GenerateConfig(logprobs=True, top_logprobs=top_n) if logprobs else GenerateConfig()
        )
        gen_prompt = generation_prompt(proposition, stance, variant, words_limit, base_order)
        records: list[dict[str, Any] | None] = [None] * trials

        def policy(trial: int, stage: str) -> CachePolicy | bool:
            if not cache:
                return False
            return CachePolicy(
                expiry="1W",
                per_epoch=True,
                scopes={
                    "method": "stance_drift",
                    "sample": sample_key,
                    "trial": str(trial),
                    "stage": stage,
                    "seed": str(seed),
                    "model_args": model_key,
                },
            )

        async def run_trial(t: int) -> None:
            if reused is not None:
                argument = reused[t]
            else:
                out = await model.generate(gen_prompt, cache=policy(t, "generation"))
                argument = out.completion
            if n_extractions == 1:
                orders = [list(base_order)]
            else:
                orders = shuffled_orders(seed, sample_key, t, n_extractions)
            answers: list[str] = []
            vectors: list[list[float] | None] = []
            estimators: list[str | None] = []
            masses: list[float | None] = []  # raw letter mass per extraction
            for k, order in enumerate(orders):
                prompt = extraction_prompt(proposition, argument, variant, order)
                out = await model.generate(
                    prompt, config=extract_config, cache=policy(t, f"extraction{k}")
                )
                tokens, tops = _logprob_tokens(out)
                result = extract(out.completion, tokens, tops, min_letter_mass)
                masses.append(result.letter_mass)
                answers.append(out.completion)
                estimators.append(result.estimator)
                vectors.append(
                    None if result.vector is None else to_stance_order(result.vector, order)
                )
            probs, estimator = combine(vectors, estimators)
            records[t] = {
                "trial": t,
                "argument": argument,
                "answers": answers,
                "orders": orders,
                "vectors": vectors,
                "estimators": estimators,
                "letter_masses": masses,
                "probs": probs,
                "estimator": estimator,
                "unparsed": probs is None,
                "unparsed_extractions": sum(1 for v in vectors if v is None),
                "extracted": None if probs is None else int(np.argmax(probs)),
            }

        async with anyio.create_task_group() as tg:
            for t in range(trials):
                tg.start_soon(run_trial, t)

        done = [r for r in records if r is not None]
        state.store.set(TRIALS_KEY, done)
        counts = Counter(STANCES[r["extracted"]] if not r["unparsed"] else "unparsed" for r in done)
        summary = ", ".join(f"{k}: {v}" for k, v in counts.most_common())
        state.output = ModelOutput.from_content(
            model=str(model), content=f"{len(done)} trials; extracted {summary}"
        )
        state.completed = True
        return state

    return solve
