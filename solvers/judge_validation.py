"""Solver for judge validation: present an already-collected response as the model output."""

from __future__ import annotations

from inspect_ai.model import ChatMessageAssistant, ModelOutput
from inspect_ai.solver import Generate, Solver, TaskState, solver

from inspect_stance.construction.keys import JUDGES_ROLE, NO_JUDGES, STORE_PROMPT
from inspect_stance.roles import require_role_models


@solver
def collected_response() -> Solver:
    """Use ``metadata["response_text"]`` as the output; no model is called."""

    async def solve(state: TaskState, generate: Generate) -> TaskState:  # noqa: ARG001
        require_role_models(JUDGES_ROLE, NO_JUDGES)  # fail early when no judge is bound
        response = str(state.metadata["response_text"])
        state.store.set(STORE_PROMPT, state.metadata.get("prompt_text"))
        state.output = ModelOutput.from_content(model="collected", content=response)
        state.messages.append(ChatMessageAssistant(content=response))
        return state

    return solve
