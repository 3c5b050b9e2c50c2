"""Stance-drift solver: runs every trial of one (proposition, initial stance) sample.

One Inspect sample = one proposition x one initial stance; its ``trials`` trials run
concurrently inside the solver (every model call still goes through Inspect's model API, so
retries, connection limits and usage accounting apply, and each call is a model event in the
transcript). The sample's ``input`` is a short line naming the proposition and the stance (what
``inspect view`` lists); the solver builds the verbatim prompts from the sample metadata. Each
trial:

At most ``--max-connections`` trials of a sample are in flight at once (the provider's default
connection limit otherwise), so trials finish steadily rather than all at the end.

1. generation call with :func:`inspect_stance.drift.prompts.generation_prompt` (skipped when the
   argument is reused from an earlier run);
2. one extraction call per extraction (5 with ``multiple_extraction``), each a fresh
   single-message conversation, asking for logprobs (``top_logprobs >= 5``) at the extraction
   temperature.

**Nothing finished is lost.** Each trial's record is appended to ``state.store["trials"]`` (plain
lists, viewable in ``inspect view`` under the sample's Info → Store) the moment the trial
finishes, so a sample stopped by ``--time-limit`` / ``--token-limit`` / ``--working-limit`` keeps
and scores its finished trials (the scorer flags the sample as incomplete).
``state.store["trials_planned"]`` holds the number of trials the sample should have.

Record fields: ``trial, argument, answers, orders, vectors, estimators, probs, estimator,
unparsed, unparsed_extractions, extracted, logprobs_returned, letter_masses, label_mismatch`` (plus
``replayed: true`` for a trial replayed from the trial record, and ``argument_replayed: true``
for a trial whose generation was recorded before an interruption). ``vectors`` holds each
extraction's stance-order vector (``None`` when unparsed); ``probs`` is the mean of the parsed
ones (``None`` when none); ``letter_masses`` holds, per extraction, the raw letter mass of the
answer token (:func:`inspect_stance.drift.extraction.extract`; ``None`` without logprobs);
``logprobs_returned`` says, per extraction, whether the provider returned top logprobs (a
reasoning model drops the request with only a warning: the trial then uses the text estimate);
``label_mismatch`` says, per extraction, whether the answer's letter and the stance label written
beside it disagree (``"A) Disagree"`` where A lists Neutral: the letter counts,
:func:`inspect_stance.drift.extraction.label_mismatch`).

**Trial record (the cheap cache).** With ``cache=True`` each finished generation and each
finished trial is also appended, as one JSON line, to a per-sample file under Inspect's cache
folder (``<INSPECT_CACHE_DIR or ~/.cache/inspect_ai>/inspect_stance/stance_drift/``), keyed by
everything that determines the trial: the model's identity
(:func:`inspect_stance.fingerprint.model_identity`: name, scrubbed base URL, ``-M`` args with
file arguments by content, generation config), the sample's proposition and stance, variant, words limit, the prompt templates, extraction
settings, reused arguments, ``seed`` and epoch. A sample that starts again with the same key
(``inspect eval-retry`` after an interruption, a re-run after a sample limit, or an identical
re-run) replays the recorded trials without model calls, reuses recorded arguments, and runs
only what is missing: no finished trial is lost or paid twice. One file per sample and two
small appends per trial replace Inspect's response cache (one file per call). Records expire
after a week (``RECORD_EXPIRY_S``).
"""

from __future__ import annotations

import hashlib
import logging
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

import anyio
import numpy as np
from inspect_ai.model import GenerateConfig, Model, ModelOutput, get_model
from inspect_ai.solver import Generate, Solver, TaskState, solver
from inspect_stance.solvers.trial_record import (
    RECORD_EXPIRY_S,  # noqa: F401 (re-exported)
    TrialRecordFile,
    record_dir,  # noqa: F401 (re-exported: the chain solver imports it from here)
    usable_record_dir,
)

from inspect_stance.drift.adaptive import ADAPTIVE_KEY, decide
from inspect_stance.drift.confseq import AdaptiveRule
from inspect_stance.drift.extraction import (
    DEFAULT_MIN_LETTER_MASS,
    extract,
    label_mismatch,
    to_stance_order,
    trial_vector,
)
from inspect_stance.drift.logs import PLANNED_KEY, TRIALS_KEY
from inspect_stance.drift.prompts import (
    MULTIPLE_EXTRACTIONS,
    check_variant,
    extraction_prompt,
    generation_prompt,
    variant_order,
)
from inspect_stance.drift.started import StartedSamples
from inspect_stance.fingerprint import OPERATIONAL_CONFIG, digest, model_identity
from inspect_stance.hooks import ensure_replay_notice
from inspect_stance.stances import N_STANCES, STANCES

logger = logging.getLogger(__name__)

MIN_TOP_LOGPROBS = 5
#: bump when the record format or what a trial does changes: old records are then not replayed
RECORD_FORMAT = 1
#: store key: how many of the sample's trials were replayed from the trial record
REPLAYED_KEY = "trials_replayed"


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


#: kept for the modules that import them from here (one definition: inspect_stance.fingerprint)
_OPERATIONAL = OPERATIONAL_CONFIG
_digest = digest


def _generation_settings(model: Model) -> dict[str, Any]:
    """The generation config in force for ``model``'s calls (its own config merged with the
    eval's ``--temperature`` etc.); :func:`~inspect_stance.fingerprint.model_identity` drops
    the operational settings such as connection limits."""
    from inspect_stance.inspect_adapter import active_generate_config

    merged = model.config.merge(active_generate_config())
    return dict(merged.model_dump(exclude_none=True))


def trials_in_flight(model: Model) -> int:
    """How many of a sample's trials run at once: the model's connection limit
    (``--max-connections``, else the provider's default)."""
    from inspect_stance.inspect_adapter import active_generate_config

    limit = (
        model.config.max_connections
        or active_generate_config().max_connections
        or model.api.max_connections()
    )
    return max(1, int(limit))


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
    extraction_temperature: float | None = 1.0,
    started: StartedSamples | None = None,
    adaptive: AdaptiveRule | None = None,
) -> Solver:
    """Run ``trials`` generation -> extraction trials for the sample's proposition and stance.

    The parameters are documented once, in the ``stance_drift`` task's docstring; ``arguments``
    holds reused arguments keyed by sample id (from ``arguments_from``: no generation calls);
    ``adaptive`` runs the trials in waves that stop early (:mod:`inspect_stance.drift.adaptive`).
    """
    check_variant(variant)
    if trials < 1:
        raise ValueError(f"trials must be at least 1 (got {trials})")
    n_extractions = MULTIPLE_EXTRACTIONS if variant == "multiple_extraction" else 1
    base_order = variant_order(variant)
    # the prompt templates, so a changed prompt text never replays an old record
    templates = digest(
        [
            generation_prompt("{proposition}", 0, variant, words_limit, base_order),
            extraction_prompt("{proposition}", "{argument}", variant, base_order),
        ]
    )

    async def solve(state: TaskState, generate: Generate) -> TaskState:  # noqa: ARG001
        model: Model = get_model()
        proposition: str = state.metadata["proposition"]
        stance: int = int(state.metadata["initial_stance"])
        sample_key = str(state.sample_id)
        reused = arguments.get(sample_key) if arguments is not None else None
        top_n = max(MIN_TOP_LOGPROBS, model.config.top_logprobs or 0)
        extract_config = GenerateConfig(
            logprobs=True if logprobs else None,
            top_logprobs=top_n if logprobs else None,
            temperature=extraction_temperature,
        )
        gen_prompt = generation_prompt(proposition, stance, variant, words_limit, base_order)

        done: list[dict[str, Any]] = []
        state.store.set(TRIALS_KEY, done)  # appended to in place as trials finish
        state.store.set(PLANNED_KEY, trials)
        if started is not None:  # an errored sample has no score: the metrics count it
            started.add(sample_key, trials)

        record_file: TrialRecordFile | None = None
        recorded: dict[int, dict[str, Any]] = {}
        generated: dict[int, str] = {}
        if cache:
            key = {
                "format": RECORD_FORMAT,
                # name, scrubbed base URL, -M args (file arguments by content) and the
                # generation settings in force (--temperature, --max-tokens, ...)
                "model": model_identity(model, _generation_settings(model)),
                "proposition": proposition,
                "stance": stance,
                "variant": variant,
                "words_limit": words_limit,
                "templates": templates,
                "extract_config": extract_config.model_dump(exclude_none=True),
                "min_letter_mass": min_letter_mass,
                "arguments": None if reused is None else digest(list(reused)),
                "seed": seed,
                "epoch": state.epoch,
            }
            folder = usable_record_dir()
            if folder is not None:
                name = digest(key)
                record_file = TrialRecordFile(folder / name[:2] / f"{name}.jsonl", key)
                recorded, generated = record_file.load()

        async def run_trial(t: int) -> None:
            if reused is not None:
                argument = reused[t]
            elif t in generated:  # generated before an interruption: not paid again
                argument = generated[t]
            else:
                out = await model.generate(gen_prompt)
                argument = out.completion
                if record_file is not None:
                    record_file.append({"trial": t, "stage": "generation", "argument": argument})
            if n_extractions == 1:
                orders = [list(base_order)]
            else:
                orders = shuffled_orders(seed, sample_key, t, n_extractions)
            answers: list[str] = []
            vectors: list[list[float] | None] = []
            estimators: list[str | None] = []
            masses: list[float | None] = []  # raw letter mass per extraction
            returned: list[bool] = []
            mismatches: list[bool] = []  # letter and the label written beside it disagree
            for order in orders:
                prompt = extraction_prompt(proposition, argument, variant, order)
                out = await model.generate(prompt, config=extract_config)
                tokens, tops = _logprob_tokens(out)
                returned.append(any(tops or []))
                result = extract(out.completion, tokens, tops, min_letter_mass)
                masses.append(result.letter_mass)
                mismatches.append(label_mismatch(out.completion, order))
                answers.append(out.completion)
                estimators.append(result.estimator)
                vectors.append(
                    None if result.vector is None else to_stance_order(result.vector, order)
                )
            probs, estimator = combine(vectors, estimators)
            record = {
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
                "logprobs_returned": returned,
                "label_mismatch": mismatches,
            }
            if reused is None and t in generated:
                record["argument_replayed"] = True
            done.append(record)
            if record_file is not None:
                record_file.append(record)

        # at most one connection's worth of trials in flight: trials then finish steadily (a
        # sample limit or an interruption finds finished trials, not 100 half-done ones)
        in_flight = anyio.Semaphore(trials_in_flight(model))

        async def guarded_trial(t: int) -> None:
            async with in_flight:
                await run_trial(t)

        # one wave of all trials, or adaptive waves (drift.adaptive) that stop once settled
        waves = [trials] if adaptive is None else adaptive.checkpoints()
        try:
            start = 0
            for end in waves:
                for t in range(start, end):
                    if t in recorded:
                        done.append({**recorded[t], "replayed": True})
                async with anyio.create_task_group() as tg:
                    for t in range(start, end):
                        if t not in recorded:
                            tg.start_soon(guarded_trial, t)
                start = end
                if adaptive is not None:
                    decision = decide(done, stance, adaptive)
                    state.store.set(ADAPTIVE_KEY, decision)
                    if decision["stop_reason"] is not None:
                        state.store.set(PLANNED_KEY, len(done))  # settled: nothing missing
                        break
        finally:
            if record_file is not None:
                record_file.close()

        done.sort(key=lambda r: int(r["trial"]))
        counts = Counter(STANCES[r["extracted"]] if not r["unparsed"] else "unparsed" for r in done)
        summary = ", ".join(f"{k}: {v}" for k, v in counts.most_common())
        replayed = sum(1 for r in done if r.get("replayed"))
        # a record cannot see a model changed behind the same name and URL: say what was replayed
        state.store.set(REPLAYED_KEY, replayed)
        if replayed:
            ensure_replay_notice()  # the console warning with the run's total, at task end
        note = f" ({replayed} replayed from the trial record)" if replayed else ""
        state.output = ModelOutput.from_content(
            model=str(model), content=f"{len(done)} trials{note}; extracted {summary}"
        )
        state.completed = True
        return state

    return solve
