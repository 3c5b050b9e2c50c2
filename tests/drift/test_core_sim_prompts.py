"""The simulated respondent reads the verbatim prompts of every variant.

Its regexes parse the prompt texts; the paper's assertion prompt has no options block (the
letters are in the mapping sentence) and the in-context prompts carry exemplar option blocks, so
a regex written for the default layout would answer "not able to determine" here.
"""

from __future__ import annotations

import asyncio

import pytest
from inspect_ai.model import ChatMessageUser, GenerateConfig

from inspect_stance.drift.extraction import extract, to_stance_order
from inspect_stance.drift.prompts import (
    VARIANTS,
    extraction_prompt,
    generation_prompt,
    variant_order,
)
from inspect_stance.drift.simulator import StanceSimAPI


def _ask(api: StanceSimAPI, prompt: str, logprobs: bool = False) -> str:
    out = asyncio.run(
        api.generate(
            [ChatMessageUser(content=prompt)], [], "none", GenerateConfig(logprobs=logprobs)
        )
    )
    return out.completion


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("stance", [0, 3])
def test_identity_respondent_preserves_every_stance_in_every_variant(variant, stance):
    # identity transition: the stance must come back
    api = StanceSimAPI(
        "respondent", transition=[[float(i == j) for j in range(5)] for i in range(5)]
    )
    argument = _ask(api, generation_prompt("We should ban X", stance, variant))
    assert "[[stance:" in argument
    answer = _ask(api, extraction_prompt("We should ban X", argument, variant))
    result = extract(answer)
    assert result.vector is not None, answer
    assert to_stance_order(result.vector, variant_order(variant))[stance] == 1.0
