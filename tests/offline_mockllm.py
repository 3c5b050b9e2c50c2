"""Inspect's ``mockllm`` model offline: it counts each input's tokens with tiktoken, which
downloads its ``o200k_base`` encoding on first use, so an eval on ``mockllm/model`` (as
``pytest_inspect_evals.metrics.run_metrics`` runs) fails without a network. The fixture
counts one token per input instead; nothing a metric reads depends on it."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest


@pytest.fixture
def offline_mockllm(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """``mockllm``'s token count without tiktoken (module docstring)."""
    from inspect_ai.model._providers.mockllm import MockLLM  # no public hook for its usage

    async def one_token(self: Any, input: Any, config: Any = None) -> int:  # noqa: ARG001
        return 1

    monkeypatch.setattr(MockLLM, "count_tokens", one_token)
    yield
