"""Multi-hop chain solver of ``stance_drift`` (``-T hops=K``, K >= 2).

One sample = one proposition x one initial stance, as in
:mod:`inspect_stance.solvers.stance_drift`; each of its ``trials`` trials is a chain of ``K``
hops:

- **hop 1** is the ordinary trial's generation: the model (``--model``) writes an argument
  from the initial stance (:func:`inspect_stance.drift.prompts.generation_prompt`);
- **hop h >= 2** gives hop ``h-1``'s *text* to a relay model (role ``relay``; with several
  models bound, ``--model-role relay=A,B``, hop ``h`` uses model ``(h - 2) mod n``: A, B, A …)
  with the operation ``relay_operation`` (:mod:`inspect_stance.drift.chain.relay_prompts`; a
  translation hop is two relay calls, there and back);
- **after every hop** the stance of that hop's text is extracted by ``--model`` in a fresh
  single-message conversation, with the paper's extraction prompt and estimator (the same
  call, config and parsing as the one-hop task).

Each trial record in ``state.store["trials"]`` holds the **final hop's** extraction under the
one-hop task's field names (so the task's scorer, ``report``, ``gate``, ``compare`` and the log
reader see the final hop) plus ``argument`` (hop 1's text) and ``hops``: one record per hop
(``hop, text, relay, relay_steps, answers, orders, vectors, estimators, letter_masses, probs,
estimator, unparsed, unparsed_extractions, extracted, logprobs_returned``, and ``replayed``
for a hop replayed from the trial record).

**Trial record.** With ``cache=True`` every hop is appended to the sample's record file the
moment it finishes (two lines: the hop's text, then its extraction), so ``inspect eval-retry``
or a re-run resumes each chain at its first unfinished hop and never pays a finished hop
twice; the key holds everything that changes a hop's answer (models, their settings, relays,
operation, language, prompts, seed, epoch) but not ``hops``, so a run with more hops reuses
the hops of a shorter one. The file names and header hold only the key's digest (no URL or
``-M`` argument is written to disk).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from typing import Any

import anyio
import numpy as np
from inspect_ai.model import GenerateConfig, Model, ModelOutput, get_model
from inspect_ai.solver import Generate, Solver, TaskState, solver
from inspect_stance.solvers.model_calls import (
    MIN_TOP_LOGPROBS,
    generation_settings,
    logprob_tokens,
    trials_in_flight,
)
from inspect_stance.solvers.trial_record import TrialRecordFile, record_dir, recorded_at

import inspect_stance.drift.defaults as D
from inspect_stance.drift.chain.relay_prompts import check_operation, relay_prompt, relay_steps
from inspect_stance.drift.extraction import extract, to_stance_order
from inspect_stance.drift.held import hold
from inspect_stance.drift.logs import PLANNED_KEY
from inspect_stance.drift.prompts import (
    check_variant,
    extraction_prompt,
    generation_prompt,
    variant_order,
)
from inspect_stance.drift.trials import combine
from inspect_stance.fingerprint import model_identity
from inspect_stance.roles import model_names, role_config, role_models

RELAY_ROLE = "relay"
#: the relay calls' max_tokens unless the relay role's own config sets one
RELAY_MAX_TOKENS = 1024
#: bump when a chain hop's record or what a hop does changes
CHAIN_RECORD_FORMAT = 1
#: the one-hop fields copied from the final hop to the trial record
HOP_FIELDS = (
    "answers",
    "orders",
    "vectors",
    "estimators",
    "letter_masses",
    "probs",
    "estimator",
    "unparsed",
    "unparsed_extractions",
    "extracted",
    "logprobs_returned",
)


def _digest(obj: Any) -> str:
    """BLAKE2b-128 hex digest of ``obj``'s canonical JSON (sorted keys)."""
    text = json.dumps(obj, sort_keys=True, default=str, ensure_ascii=False)
    return hashlib.blake2b(text.encode("utf-8"), digest_size=16).hexdigest()


def relay_for_hop(relays: Sequence[Model], hop: int) -> int:
    """Index of the relay model of hop ``hop >= 2``: ``(hop - 2) mod len(relays)``."""
    return (hop - 2) % len(relays)


async def extract_text(
    model: Model,
    proposition: str,
    text: str,
    variant: str,
    config: GenerateConfig,
    min_letter_mass: float,
) -> dict[str, Any]:
    """One fresh-context extraction of ``text``'s stance: the one-hop trial's fields."""
    order = list(variant_order(variant))
    out = await model.generate(extraction_prompt(proposition, text, variant, order), config=config)
    tokens, tops = logprob_tokens(out)
    result = extract(out.completion, tokens, tops, min_letter_mass)
    vector = None if result.vector is None else to_stance_order(result.vector, order)
    probs, estimator = combine([vector], [result.estimator])
    return {
        "answers": [out.completion],
        "orders": [order],
        "vectors": [vector],
        "estimators": [result.estimator],
        "letter_masses": [result.letter_mass],
        "probs": probs,
        "estimator": estimator,
        "unparsed": probs is None,
        "unparsed_extractions": int(vector is None),
        "extracted": None if probs is None else int(np.argmax(probs)),
        "logprobs_returned": [any(tops or [])],
    }


async def relay_text(
    relay: Model, operation: str, text: str, words_limit: int, language: str
) -> tuple[str, list[str]]:
    """Pass ``text`` through ``relay``: the final text and every step's output (one step, or
    two for a translation: the foreign text, then the back-translation)."""
    config = role_config(relay, GenerateConfig(max_tokens=RELAY_MAX_TOKENS))
    steps: list[str] = []
    for step_language in relay_steps(operation, language):
        out = await relay.generate(
            relay_prompt(operation, text, words_limit, step_language or language), config=config
        )
        text = out.completion
        steps.append(text)
    return text, steps


def chain_trial_record(t: int, chain: list[dict[str, Any]]) -> dict[str, Any]:
    """The trial record of a finished chain: the final hop's fields, hop 1's text as
    ``argument``, every hop under ``hops``; ``replayed`` when no hop was paid in this run."""
    final = chain[-1]
    record: dict[str, Any] = {"trial": t, "argument": chain[0]["text"]}
    record.update({k: final[k] for k in HOP_FIELDS})
    record["hops"] = chain
    replayed = sum(1 for h in chain if h.get("replayed"))
    record["hops_replayed"] = replayed
    if replayed == len(chain):
        record["replayed"] = True
        record["recorded_at"] = chain[0].get("recorded_at")
    return record


def _relay_settings(relay: Model) -> dict[str, Any]:
    """What identifies a relay's answers: model, endpoint, -M args and its call config."""
    config = role_config(relay, GenerateConfig(max_tokens=RELAY_MAX_TOKENS))
    # file arguments by content, base URL scrubbed, operational settings left out
    return model_identity(relay, config.model_dump(exclude_none=True))


class ChainRunner:
    """Runs the chains of one sample, recording every hop as it finishes."""

    def __init__(
        self,
        model: Model,
        relays: list[Model],
        state: TaskState,
        settings: dict[str, Any],
        extract_config: GenerateConfig,
    ) -> None:
        self.model = model
        self.relays = relays
        self.names = model_names(relays)
        self.s = settings
        self.proposition: str = state.metadata["proposition"]
        self.stance = int(state.metadata["initial_stance"])
        self.extract_config = extract_config
        self.file: TrialRecordFile | None = None
        self.hops_done: dict[Any, Any] = {}
        self.texts: dict[Any, str] = {}

    def open_record(self, key: dict[str, Any]) -> None:
        """Read the sample's chain record (hops finished earlier) and open it for appends."""
        # the file holds the key's digest only: settings (URLs, -M args) are never written
        name = _digest(key)
        header = {"format": CHAIN_RECORD_FORMAT, "digest": name}
        path = record_dir() / "chains" / name[:2] / f"{name}.jsonl"
        self.file = TrialRecordFile(path, header)
        self.hops_done, self.texts = self.file.load_chain()

    def _append(self, line: dict[str, Any]) -> None:
        if self.file is not None:
            self.file.append(line)

    async def _text(self, t: int, hop: int, previous: str) -> tuple[str, str | None, list[str]]:
        """Hop ``hop``'s text (recorded, generated or relayed), its relay's name and steps."""
        relay = None if hop == 1 else relay_for_hop(self.relays, hop)
        name = None if relay is None else self.names[relay]
        if (t, hop) in self.texts:  # written before an interruption: not paid again
            return self.texts[(t, hop)], name, []
        if relay is None:
            prompt = generation_prompt(
                self.proposition,
                self.stance,
                self.s["variant"],
                self.s["words_limit"],
                variant_order(self.s["variant"]),
            )
            text, steps = (await self.model.generate(prompt)).completion, list[str]()
        else:
            text, steps = await relay_text(
                self.relays[relay],
                self.s["operation"],
                previous,
                self.s["words_limit"],
                self.s["language"] or "",
            )
        self._append({"trial": t, "hop": hop, "stage": "text", "text": text})
        return text, name, steps

    async def run_trial(self, t: int) -> dict[str, Any]:
        """One chain of ``hops`` hops; finished hops are replayed from the record."""
        chain: list[dict[str, Any]] = []
        text = ""
        for hop in range(1, int(self.s["hops"]) + 1):
            if (t, hop) in self.hops_done:
                rec = {**self.hops_done[(t, hop)], "replayed": True}
                rec["recorded_at"] = recorded_at(self.file)
                text = str(rec["text"])
                chain.append(rec)
                continue
            text, relay, steps = await self._text(t, hop, text)
            rec = await extract_text(
                self.model,
                self.proposition,
                text,
                self.s["variant"],
                self.extract_config,
                self.s["min_letter_mass"],
            )
            rec = {"hop": hop, "text": text, "relay": relay, "relay_steps": steps, **rec}
            self._append({"trial": t, "stage": "hop", **rec})
            chain.append(rec)
        return chain_trial_record(t, chain)


def _record_key(runner: ChainRunner, state: TaskState, templates: str) -> dict[str, Any]:
    """Everything that changes a hop's answer (not ``hops``: longer chains reuse shorter)."""
    model = runner.model
    return {
        "format": CHAIN_RECORD_FORMAT,
        # file arguments by content, base URL scrubbed, operational settings left out
        "model": model_identity(model, generation_settings(model)),
        "relays": [_relay_settings(r) for r in runner.relays],
        "proposition": runner.proposition,
        "stance": runner.stance,
        "templates": templates,
        "extract_config": runner.extract_config.model_dump(exclude_none=True),
        **{k: v for k, v in runner.s.items() if k != "hops"},
        "epoch": state.epoch,
    }


@solver
def stance_chain_trials(
    trials: int = D.TRIALS,
    hops: int = 3,
    relay_operation: str = D.RELAY_OPERATION,
    relay_language: str = D.RELAY_LANGUAGE,
    variant: str = D.VARIANT,
    words_limit: int = D.WORDS_LIMIT,
    seed: int = D.SEED,
    cache: bool = D.CACHE,
    logprobs: bool = D.LOGPROBS,
    min_letter_mass: float = D.MIN_LETTER_MASS,
    extraction_temperature: float | None = D.EXTRACTION_TEMPERATURE,
    started: Any = None,
) -> Solver:
    """Run ``trials`` chains of ``hops`` hops for the sample's proposition and stance.

    Parameters are declared in :class:`~inspect_stance.drift.options.DriftOptions`; ``started`` (the
    scorer's record of started samples, with an ``add(sample_id, trials)`` method) is told of
    each sample as it starts, so an errored sample counts as incomplete.
    """
    check_variant(variant)
    check_operation(relay_operation)
    if trials < 1 or hops < 2:
        raise ValueError(f"trials must be >= 1 and hops >= 2 (got {trials}, {hops})")
    templates = _templates_digest(variant, words_limit, relay_operation, relay_language)
    settings = {
        "variant": variant,
        "words_limit": words_limit,
        "operation": relay_operation,
        "language": relay_language if relay_operation == "translate" else None,
        "min_letter_mass": min_letter_mass,
        "seed": seed,
        "hops": hops,
    }

    async def solve(state: TaskState, generate: Generate) -> TaskState:  # noqa: ARG001
        model = get_model()
        relays = role_models(RELAY_ROLE)
        if not relays:
            raise RuntimeError("the chain needs the model role 'relay' (--model-role relay=...)")
        config = _extraction_config(model, logprobs, extraction_temperature)
        if started is not None:
            started.add(str(state.sample_id), trials)
        runner = ChainRunner(model, relays, state, dict(settings), config)
        if cache:
            runner.open_record(_record_key(runner, state, templates))
        # appended to as chains finish; moved into the store by the task's cleanup (drift.held)
        done = hold(state.uuid)
        state.store.set(PLANNED_KEY, trials)
        await _run_chains(runner, trials, trials_in_flight(model), done)
        done.sort(key=lambda r: int(r["trial"]))
        _summarise(state, model, done, hops)
        return state

    return solve


def _templates_digest(
    variant: str, words_limit: int, relay_operation: str, relay_language: str
) -> str:
    """Digest of the chain's prompt templates (generation, extraction, relay) with placeholders
    for the proposition, argument and text: part of the trial record's key."""
    order = variant_order(variant)
    return _digest(
        [
            generation_prompt("{proposition}", 0, variant, words_limit, order),
            extraction_prompt("{proposition}", "{argument}", variant, order),
            relay_prompt(relay_operation, "{text}", words_limit, relay_language),
        ]
    )


def _extraction_config(
    model: Model, logprobs: bool, extraction_temperature: float | None
) -> GenerateConfig:
    """Extraction config: ``top_logprobs = max(MIN_TOP_LOGPROBS, model's)`` if ``logprobs``."""
    top_n = max(MIN_TOP_LOGPROBS, model.config.top_logprobs or 0)
    return GenerateConfig(
        logprobs=True if logprobs else None,
        top_logprobs=top_n if logprobs else None,
        temperature=extraction_temperature,
    )


async def _run_chains(
    runner: ChainRunner, trials: int, max_in_flight: int, done: list[dict[str, Any]]
) -> None:
    """Run trials ``0 .. trials-1``, ``max_in_flight`` at most at once, into ``done``."""
    in_flight = anyio.Semaphore(max_in_flight)

    async def guarded(t: int) -> None:
        async with in_flight:
            done.append(await runner.run_trial(t))

    try:
        async with anyio.create_task_group() as tg:
            for t in range(trials):
                tg.start_soon(guarded, t)
    finally:
        if runner.file is not None:
            runner.file.close()


def _summarise(state: TaskState, model: Model, done: list[dict[str, Any]], hops: int) -> None:
    """The sample's output line: chains, hops replayed, final-hop unparsed count."""
    replayed = sum(int(r.get("hops_replayed", 0)) for r in done)
    unparsed = sum(1 for r in done if r["unparsed"])
    note = f"; {replayed} hops replayed from the trial record" if replayed else ""
    state.output = ModelOutput.from_content(
        model=str(model),
        content=f"{len(done)} chains of {hops} hops{note}; final hop unparsed: {unparsed}",
    )
    state.completed = True
