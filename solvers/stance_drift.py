"""Stance-drift solver: runs every trial of one (proposition, initial stance) sample.

One Inspect sample = one proposition x one initial stance; its ``trials`` trials run
concurrently inside the solver (every model call still goes through Inspect's model API, so
retries, connection limits and usage accounting apply, and each call is a model event in the
transcript). The sample's ``input`` is a short line naming the proposition and the stance (what
``inspect view`` lists); the solver builds the verbatim prompts from the sample metadata. Each
trial (:class:`SampleTrials`):

1. generation: one call with :func:`inspect_stance.drift.prompts.generation_prompt` (skipped
   when the argument is reused from an earlier run or was recorded before an interruption);
2. fresh-context extraction: one call per extraction (5 with ``multiple_extraction``, on
   shuffled option orders), each a single-message conversation asking for logprobs
   (``top_logprobs >= 5``) at the extraction temperature, read by
   :func:`inspect_stance.drift.extraction.extract` and averaged by
   :func:`inspect_stance.drift.trials.combine`;
3. record: the trial's record is appended to the store and to the trial record at once.

At most ``--max-connections`` trials of a sample are in flight at once (the provider's default
connection limit otherwise), so trials finish steadily rather than all at the end. With
``adaptive`` the trials run in waves (:mod:`inspect_stance.drift.adaptive.rule`): after each wave the
sample stops once its confidence sequence is narrow enough (``state.store["adaptive"]``).

**Nothing finished is lost.** Each trial's record is appended to the sample's held records
(:mod:`inspect_stance.drift.held`) the moment the trial finishes, so a sample stopped by
``--time-limit`` / ``--token-limit`` / ``--working-limit`` keeps and scores its finished trials
(the scorer flags the sample as incomplete); the task's cleanup (:func:`drift_cleanup`) moves
them, once, into ``state.store["trials"]`` (plain lists, viewable in ``inspect view`` under the
sample's Info → Store).
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

import logging
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
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
from inspect_stance.solvers.trial_record import TrialRecordFile, recorded_at, usable_record_dir

import inspect_stance.drift.defaults as D
from inspect_stance.drift.adaptive.confseq import AdaptiveRule
from inspect_stance.drift.adaptive.rule import ADAPTIVE_KEY, decide
from inspect_stance.drift.extraction import (
    extract,
    label_mismatch,
    to_stance_order,
)
from inspect_stance.drift.held import hold, release
from inspect_stance.drift.logs import PLANNED_KEY, TRIALS_KEY
from inspect_stance.drift.prompts import (
    MULTIPLE_EXTRACTIONS,
    check_variant,
    extraction_prompt,
    generation_prompt,
    variant_order,
)
from inspect_stance.drift.started import StartedSamples
from inspect_stance.drift.trials import combine, shuffled_orders
from inspect_stance.fingerprint import digest, model_identity
from inspect_stance.hooks import ensure_replay_notice
from inspect_stance.provenance import record_provenance
from inspect_stance.stances import STANCES

logger = logging.getLogger(__name__)

#: bump when the record format or what a trial does changes: old records are then not replayed
RECORD_FORMAT = 1
#: store key: how many of the sample's trials were replayed from the trial record
REPLAYED_KEY = "trials_replayed"


@dataclass(frozen=True)
class DriftSettings:
    """What the solver runs for every sample (the task's checked parameters, and what follows
    from them): ``n_extractions`` (5 with multiple_extraction, else 1), the variant's option
    order, and the digest of the prompt templates (a changed prompt never replays a record)."""

    trials: int
    variant: str
    words_limit: int
    seed: int
    arguments: Mapping[str, Sequence[str]] | None
    cache: bool
    logprobs: bool
    min_letter_mass: float
    extraction_temperature: float | None
    started: StartedSamples | None
    adaptive: AdaptiveRule | None
    n_extractions: int
    base_order: tuple[int, ...]
    templates: str


class SampleTrials:
    """The trials of one sample: recorded trials replayed, missing ones run (wave by wave when
    adaptive), each appended to the held records and the trial record as it finishes."""

    def __init__(self, s: DriftSettings, state: TaskState, model: Model) -> None:
        self.s = s
        self.state = state
        self.model = model
        self.proposition: str = state.metadata["proposition"]
        self.stance: int = int(state.metadata["initial_stance"])
        self.sample_key = str(state.sample_id)
        self.reused = s.arguments.get(self.sample_key) if s.arguments is not None else None
        top_n = max(MIN_TOP_LOGPROBS, model.config.top_logprobs or 0)
        self.extract_config = GenerateConfig(
            logprobs=True if s.logprobs else None,
            top_logprobs=top_n if s.logprobs else None,
            temperature=s.extraction_temperature,
        )
        self.gen_prompt = generation_prompt(
            self.proposition, self.stance, s.variant, s.words_limit, s.base_order
        )
        # appended to as trials finish; moved into the store by the task's cleanup (drift.held)
        self.done = hold(state.uuid)
        state.store.set(PLANNED_KEY, s.trials)
        if s.started is not None:  # an errored sample has no score: the metrics count it
            s.started.add(self.sample_key, s.trials)
        self.record_file: TrialRecordFile | None = None
        self.recorded: dict[int, dict[str, Any]] = {}
        self.generated: dict[int, str] = {}

    def record_key(self) -> dict[str, Any]:
        """Everything that determines the sample's trials (the trial record's key)."""
        s = self.s
        return {
            "format": RECORD_FORMAT,
            # name, scrubbed base URL, -M args (file arguments by content) and the
            # generation settings in force (--temperature, --max-tokens, ...)
            "model": model_identity(self.model, generation_settings(self.model)),
            "proposition": self.proposition,
            "stance": self.stance,
            "variant": s.variant,
            "words_limit": s.words_limit,
            "templates": s.templates,
            "extract_config": self.extract_config.model_dump(exclude_none=True),
            "min_letter_mass": s.min_letter_mass,
            "arguments": None if self.reused is None else digest(list(self.reused)),
            "seed": s.seed,
            "epoch": self.state.epoch,
        }

    def open_record(self) -> None:
        """Read the sample's trial record (``cache``; none without a usable folder)."""
        if not self.s.cache:
            return
        key = self.record_key()
        folder = usable_record_dir()
        if folder is not None:
            name = digest(key)
            self.record_file = TrialRecordFile(folder / name[:2] / f"{name}.jsonl", key)
            self.recorded, self.generated = self.record_file.load()

    def _append(self, line: dict[str, Any]) -> None:
        if self.record_file is not None:
            self.record_file.append(line)

    async def argument(self, t: int) -> str:
        """Trial ``t``'s argument: reused, recorded before an interruption, or generated."""
        if self.reused is not None:
            return self.reused[t]
        if t in self.generated:  # generated before an interruption: not paid again
            return self.generated[t]
        out = await self.model.generate(self.gen_prompt)
        self._append({"trial": t, "stage": "generation", "argument": out.completion})
        return out.completion

    async def extractions(self, argument: str, orders: list[list[int]]) -> dict[str, list[Any]]:
        """One fresh-context extraction call per option order: the answers, stance-order
        vectors (``None`` unparsed), estimators, raw letter masses, whether logprobs came back,
        and whether the letter and the label beside it disagree."""
        got: dict[str, list[Any]] = {
            k: [] for k in ("answers", "vectors", "estimators", "masses", "returned", "mismatch")
        }
        for order in orders:
            prompt = extraction_prompt(self.proposition, argument, self.s.variant, order)
            out = await self.model.generate(prompt, config=self.extract_config)
            tokens, tops = logprob_tokens(out)
            got["returned"].append(any(tops or []))
            result = extract(out.completion, tokens, tops, self.s.min_letter_mass)
            got["masses"].append(result.letter_mass)
            got["mismatch"].append(label_mismatch(out.completion, order))
            got["answers"].append(out.completion)
            got["estimators"].append(result.estimator)
            vector = None if result.vector is None else to_stance_order(result.vector, order)
            got["vectors"].append(vector)
        return got

    async def run_trial(self, t: int) -> None:
        """Trial ``t``: its argument, its extractions, the record (appended as it finishes)."""
        s = self.s
        argument = await self.argument(t)
        if s.n_extractions == 1:
            orders = [list(s.base_order)]
        else:
            orders = shuffled_orders(s.seed, self.sample_key, t, s.n_extractions)
        got = await self.extractions(argument, orders)
        vectors = got["vectors"]
        probs, estimator = combine(vectors, got["estimators"])
        record = {
            "trial": t,
            "argument": argument,
            "answers": got["answers"],
            "orders": orders,
            "vectors": vectors,
            "estimators": got["estimators"],
            "letter_masses": got["masses"],
            "probs": probs,
            "estimator": estimator,
            "unparsed": probs is None,
            "unparsed_extractions": sum(1 for v in vectors if v is None),
            "extracted": None if probs is None else int(np.argmax(probs)),
            "logprobs_returned": got["returned"],
            "label_mismatch": got["mismatch"],
        }
        if self.reused is None and t in self.generated:
            record["argument_replayed"] = True
        self.done.append(record)
        self._append(record)

    async def wave(self, start: int, end: int, in_flight: anyio.Semaphore) -> None:
        """Trials ``start`` .. ``end - 1``: recorded ones replayed, the rest run concurrently,
        at most ``in_flight`` at once."""

        async def guarded_trial(t: int) -> None:
            async with in_flight:
                await self.run_trial(t)

        since = recorded_at(self.record_file)
        for t in range(start, end):
            if t in self.recorded:
                self.done.append({**self.recorded[t], "replayed": True, "recorded_at": since})
        async with anyio.create_task_group() as tg:
            for t in range(start, end):
                if t not in self.recorded:
                    tg.start_soon(guarded_trial, t)

    async def run(self) -> None:
        """One wave of all trials, or adaptive waves (drift.adaptive) that stop once settled;
        the trial record is closed whatever happens."""
        adaptive = self.s.adaptive
        # at most one connection's worth of trials in flight: trials then finish steadily (a
        # sample limit or an interruption finds finished trials, not 100 half-done ones)
        in_flight = anyio.Semaphore(trials_in_flight(self.model))
        waves = [self.s.trials] if adaptive is None else adaptive.checkpoints()
        try:
            start = 0
            for end in waves:
                await self.wave(start, end, in_flight)
                start = end
                if adaptive is not None:
                    decision = decide(self.done, self.stance, adaptive)
                    self.state.store.set(ADAPTIVE_KEY, decision)
                    if decision["stop_reason"] is not None:
                        self.state.store.set(PLANNED_KEY, len(self.done))  # nothing missing
                        break
        finally:
            if self.record_file is not None:
                self.record_file.close()

    def finish(self) -> TaskState:
        """Trials in order, the replayed count in the store, and a one-line output:
        ``<n> trials (<r> replayed ...); extracted <stance>: <count>, ...``."""
        done, state = self.done, self.state
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
            model=str(self.model), content=f"{len(done)} trials{note}; extracted {summary}"
        )
        state.completed = True
        return state


async def drift_cleanup(state: TaskState) -> None:
    """Task cleanup (after scoring, on every path): the sample's trial records, held while it
    ran (:mod:`inspect_stance.drift.held`), into ``state.store["trials"]``, then its call
    provenance (:func:`~inspect_stance.provenance.record_provenance`)."""
    records = release(state.uuid)
    if records is not None:
        state.store.set(TRIALS_KEY, records)
    await record_provenance(state)


@solver
def stance_drift_trials(
    trials: int = D.TRIALS,
    variant: str = D.VARIANT,
    words_limit: int = D.WORDS_LIMIT,
    seed: int = D.SEED,
    arguments: Mapping[str, Sequence[str]] | None = None,
    cache: bool = D.CACHE,
    logprobs: bool = D.LOGPROBS,
    min_letter_mass: float = D.MIN_LETTER_MASS,
    extraction_temperature: float | None = D.EXTRACTION_TEMPERATURE,
    started: StartedSamples | None = None,
    adaptive: AdaptiveRule | None = None,
) -> Solver:
    """Run ``trials`` generation -> extraction trials for the sample's proposition and stance.

    The parameters are declared once, in :class:`~inspect_stance.drift.options.DriftOptions`; ``arguments``
    holds reused arguments keyed by sample id (from ``arguments_from``: no generation calls);
    ``adaptive`` runs the trials in waves that stop early (:mod:`inspect_stance.drift.adaptive.rule`).
    """
    check_variant(variant)
    if trials < 1:
        raise ValueError(f"trials must be at least 1 (got {trials})")
    base_order = variant_order(variant)
    settings = DriftSettings(  # the parameters by keyword, then what follows from them
        trials=trials,
        variant=variant,
        words_limit=words_limit,
        seed=seed,
        arguments=arguments,
        cache=cache,
        logprobs=logprobs,
        min_letter_mass=min_letter_mass,
        extraction_temperature=extraction_temperature,
        started=started,
        adaptive=adaptive,
        n_extractions=MULTIPLE_EXTRACTIONS if variant == "multiple_extraction" else 1,
        base_order=base_order,
        # the prompt templates, so a changed prompt text never replays an old record
        templates=digest(
            [
                generation_prompt("{proposition}", 0, variant, words_limit, base_order),
                extraction_prompt("{proposition}", "{argument}", variant, base_order),
            ]
        ),
    )

    async def solve(state: TaskState, generate: Generate) -> TaskState:  # noqa: ARG001
        trials_of_sample = SampleTrials(settings, state, get_model())
        trials_of_sample.open_record()
        await trials_of_sample.run()
        return trials_of_sample.finish()

    return solve
