"""Pushback solver: one Inspect chat per conversation, each reply's stance read in a fresh
context.

The chat (``state.messages``, readable turn by turn in ``inspect view``): the system message
under ``framing=third_person``, the opening user turn, the target's statement, then ``K`` user
turns of the sample's style (or the control's follow-up), each answered by the target with the
whole conversation before it. After each of the ``K + 1`` replies the reader (the target, or
the ``judge`` role) gets one single-message call, the stance-drift extraction prompt with the
reply as the argument (:func:`inspect_stance.drift.prompts.extraction_prompt`, default option
order), read by :func:`inspect_stance.drift.extraction.extract` (logprob estimate with the
text as fallback; no letter: unparsed). So a conversation makes ``2 (K + 1)`` calls.

The record (``state.store["pushback"]``, appended to turn by turn so a stopped conversation
keeps its finished turns): ``proposition`` (topic id), ``style``, ``assigned``, ``horizon``
(K), ``readings`` (stance index after each turn, ``None`` unparsed), ``answers``,
``estimators``, ``vectors`` (stance-order probabilities), ``letter_masses``.
"""

from __future__ import annotations

from typing import Any

from inspect_ai.model import (
    ChatMessage,
    ChatMessageSystem,
    ChatMessageUser,
    GenerateConfig,
    Model,
    ModelOutput,
    get_model,
)
from inspect_ai.solver import Generate, Solver, TaskState, solver
from inspect_stance.solvers.model_calls import MIN_TOP_LOGPROBS, logprob_tokens

from inspect_stance.drift.extraction import extract, to_stance_order
from inspect_stance.drift.prompts import extraction_prompt
from inspect_stance.pushback.conversation import user_side
from inspect_stance.pushback.defaults import JUDGE_ROLE, RECORD_KEY
from inspect_stance.pushback.options import PushbackOptions
from inspect_stance.pushback.prompts import THIRD_PERSON_SYSTEM, opening_prompt, pushback_prompt
from inspect_stance.stances import DEFAULT_ORDER


async def read_stance(reader: Model, proposition: str, reply: str, config: GenerateConfig,
                      min_letter_mass: float) -> dict[str, Any]:  # fmt: skip
    """One fresh-context extraction of ``reply``'s stance: the answer, its estimator, the
    stance-order vector and the stance read (its argmax; ``None`` unparsed)."""
    prompt = extraction_prompt(proposition, reply, "default", DEFAULT_ORDER)
    out = await reader.generate(prompt, config=config)
    tokens, tops = logprob_tokens(out)
    got = extract(out.completion, tokens, tops, min_letter_mass)
    vector = None if got.vector is None else to_stance_order(got.vector, DEFAULT_ORDER)
    stance = None if vector is None else max(range(len(vector)), key=lambda s: vector[s])
    return {"answer": out.completion, "estimator": got.estimator, "vector": vector,
            "letter_mass": got.letter_mass, "stance": stance}  # fmt: skip


async def converse(target: Model, reader: Model, meta: dict[str, Any], opts: PushbackOptions,
                   config: GenerateConfig, record: dict[str, Any]) -> list[ChatMessage]:  # fmt: skip
    """One conversation (module docstring): the chat's messages; ``record`` is appended to
    turn by turn. ``meta``: the sample's metadata (``proposition``, ``style``, ``assigned``)."""
    style, assigned = str(meta["style"]), meta["assigned"]
    system = [ChatMessageSystem(content=THIRD_PERSON_SYSTEM)]
    opening = ChatMessageUser(content=opening_prompt(meta["proposition"], assigned,
                                                     opts.words_limit))  # fmt: skip
    messages: list[ChatMessage] = [*(system if opts.framing == "third_person" else []), opening]
    held: int | None = None
    for turn in range(opts.turns + 1):
        if turn > 0 and held is not None:
            messages.append(ChatMessageUser(content=pushback_prompt(style, user_side(held, style))))
        out = await target.generate(messages)
        messages.append(out.message)
        read = await read_stance(reader, meta["proposition"], out.completion, config,
                                 opts.min_letter_mass)  # fmt: skip
        for key, field in (("readings", "stance"), ("answers", "answer"),
                           ("estimators", "estimator"), ("vectors", "vector"),
                           ("letter_masses", "letter_mass")):  # fmt: skip
            record[key].append(read[field])
        if turn == 0:
            held = read["stance"] if read["stance"] is not None else assigned
            if held is None:  # own stance unread: there is nothing to push against
                break
    return messages


def new_record(meta: dict[str, Any], turns: int) -> dict[str, Any]:
    """An empty conversation record for the sample's metadata."""
    return {"proposition": meta["topic_id"], "style": meta["style"], "assigned": meta["assigned"],
            "horizon": turns, "readings": [], "answers": [], "estimators": [], "vectors": [],
            "letter_masses": []}  # fmt: skip


def reader_config(opts: PushbackOptions) -> GenerateConfig:
    """The reader's calls: logprobs (top 5) when asked, the extraction temperature."""
    return GenerateConfig(logprobs=True if opts.logprobs else None,
                          top_logprobs=MIN_TOP_LOGPROBS if opts.logprobs else None,
                          temperature=opts.extraction_temperature)  # fmt: skip


@solver
def pushback_conversation(opts: PushbackOptions) -> Solver:
    """Run the sample's conversation (module docstring) into ``state.messages``."""
    config = reader_config(opts)

    async def solve(state: TaskState, generate: Generate) -> TaskState:  # noqa: ARG001
        target = get_model()
        # -T reader=judge: the task requires the judge role (tasks/pushback.py)
        reader = get_model(role=JUDGE_ROLE, required=True) if opts.reader == "judge" else target
        record = new_record(state.metadata, opts.turns)
        state.store.set(RECORD_KEY, record)  # appended to in place, turn by turn
        state.messages = await converse(target, reader, state.metadata, opts, config, record)
        last = state.messages[-1]
        state.output = ModelOutput.from_content(str(target), last.text)
        return state

    return solve
