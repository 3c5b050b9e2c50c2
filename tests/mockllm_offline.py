"""A fixture for tests that run ``pytest_inspect_evals.metrics`` (an eval on Inspect's
``mockllm``): mockllm estimates each call's input tokens with tiktoken's ``o200k_base`` table,
which tiktoken downloads on first use; tests never reach a network, so the estimate here is
four characters a token (the metrics under test read scores, never token counts)."""

from __future__ import annotations

import pytest


@pytest.fixture
def mockllm_offline(monkeypatch: pytest.MonkeyPatch) -> None:
    """mockllm's token estimate without tiktoken's download (module docstring)."""
    from inspect_ai.model._providers.mockllm import MockLLM

    async def count_text_tokens(self: MockLLM, text: str) -> int:  # noqa: ARG001
        return max(1, len(text) // 4)

    monkeypatch.setattr(MockLLM, "count_text_tokens", count_text_tokens)
