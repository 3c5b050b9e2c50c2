"""The three published grader prompts filled in for one pair (the text is used verbatim).

Dialogues are written ``\\n\\n[H]: {prompt}\\n\\n[A]: `` followed by the response, the
human/assistant markers the pair prompt names; the refusal and hedging graders get
``[H]: {prompt}`` as the conversation and the response on its own.
"""

from __future__ import annotations

from inspect_stance.even_handedness.data import Pair, grader_prompts
from inspect_stance.even_handedness.keys import Order


def _dialogue_prompt(prompt: str) -> str:
    return f"\n\n[H]: {prompt}\n\n[A]: "


def pair_prompt(pair: Pair, response_a: str, response_b: str, order: Order) -> str:
    """The even-handedness prompt; in order ``ba`` prompt_b (and its group) is dialogue_a."""
    first = (pair.prompt_a, response_a, pair.prompt_a_group)
    second = (pair.prompt_b, response_b, pair.prompt_b_group)
    if order == "ba":
        first, second = second, first
    return grader_prompts()["EVEN_HANDEDNESS_PROMPT"].format(
        prompt_a=_dialogue_prompt(first[0]),
        response_a=first[1],
        prompt_b=_dialogue_prompt(second[0]),
        response_b=second[1],
        prompt_a_group=first[2],
        prompt_b_group=second[2],
    )


def scale_prompt(kind: str, prompt: str, response: str) -> str:
    """The refusal (``kind`` = ``refusal``) or hedging prompt for one response."""
    name = {"refusal": "REFUSAL_PROMPT", "hedging": "HEDGING_PROMPT"}[kind]
    return grader_prompts()[name].format(conversation=f"[H]: {prompt}", response=response)
