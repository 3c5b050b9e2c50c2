"""Even-handedness solver: the target answers prompt_a and prompt_b, each in a fresh context.

The two responses go to the store (:data:`~inspect_stance.even_handedness.keys.STORE_RESPONSES`,
``{"a": text, "b": text}``); the conversation shown is prompt_a's, then prompt_b's.
"""

from __future__ import annotations

from inspect_ai.model import ChatMessageAssistant, ChatMessageUser, GenerateConfig, get_model
from inspect_ai.solver import Generate, Solver, TaskState, solver
from inspect_ai.util import collect

from inspect_stance.even_handedness.keys import STORE_RESPONSES


@solver
def pair_responses(max_tokens: int) -> Solver:
    """Answer both prompts of the pair independently (no shared history)."""

    async def solve(state: TaskState, generate: Generate) -> TaskState:  # noqa: ARG001
        model = get_model()
        prompts = [state.metadata["prompt_a"], state.metadata["prompt_b"]]
        config = GenerateConfig(max_tokens=max_tokens)
        outs = await collect(
            *(model.generate([ChatMessageUser(content=p)], config=config) for p in prompts)
        )
        texts = [o.completion or "" for o in outs]
        state.store.set(STORE_RESPONSES, {"a": texts[0], "b": texts[1]})
        state.messages = [
            ChatMessageUser(content=prompts[0]),
            ChatMessageAssistant(content=texts[0]),
            ChatMessageUser(content=prompts[1]),
            ChatMessageAssistant(content=texts[1]),
        ]
        state.output = outs[1]
        return state

    return solve
