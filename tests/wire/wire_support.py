"""Helpers of the wire tests (imported by the tests and by ``conftest.py``)."""

from __future__ import annotations

import math
import os
from typing import Any

from inspect_ai.model import GenerateConfig, Model, get_model
from openai_server import OpenAIServer, Script, ScriptedBackend, Vocab

API_KEY = "wire-test-key"


class Servers:
    """Starts scripted servers and stops every one of them at teardown."""

    def __init__(self, vocab: Vocab) -> None:
        self.vocab = vocab
        self.started: list[OpenAIServer] = []

    def __call__(
        self,
        script: Script,
        models: tuple[str, ...] = ("respondent",),
        real: dict[str, Any] | None = None,
        **kwargs: Any,
    ) -> OpenAIServer:
        backends: dict[str, Any] = {m: ScriptedBackend(self.vocab, script) for m in models}
        backends.update(real or {})
        server = OpenAIServer(backends, **kwargs).start()
        self.started.append(server)
        return server

    def stop_all(self) -> None:
        for server in self.started:
            server.stop()
        self.started.clear()


def local_model(
    server: OpenAIServer, name: str, model_args: dict[str, Any] | None = None, **config: Any
) -> Model:
    """``openai-api/local/NAME`` bound to ``server`` (never memoized: each server has its port).

    ``model_args`` are the provider's ``-M`` arguments (e.g. ``stream=True``); ``config`` the
    model's own generation config (what ``--model-role 'r={model: ..., max_tokens: N}'`` sets).

    Inspect memoizes models by name, so a test that reused ``openai-api/local/x`` after an
    earlier test's server stopped would retry a dead port; ``max_retries`` bounds any retry
    loop so a broken server fails a test instead of hanging it.
    """
    config.setdefault("max_retries", 2)
    config.setdefault("timeout", 60)
    return get_model(
        f"openai-api/local/{name}",
        base_url=server.base_url,
        api_key=API_KEY,
        memoize=False,
        config=GenerateConfig(**config),
        **(model_args or {}),
    )


def cli_env(server: OpenAIServer, **extra: str) -> dict[str, str]:
    """Environment for an ``inspect`` subprocess talking to ``server``."""
    env = dict(os.environ)
    env.update(
        LOCAL_BASE_URL=server.base_url,
        LOCAL_API_KEY=API_KEY,
        OPENAI_BASE_URL=server.base_url,
        OPENAI_API_KEY=API_KEY,
        INSPECT_DISPLAY="none",
        OMP_NUM_THREADS="1",
    )
    env.update(extra)
    return env


def letter_vector(content: list[dict], letter: str) -> list[float]:
    """The documented logprob estimate, recomputed from the server's response.

    Answer token = the first generated token whose text without whitespace and ``*`` is the
    letter; every top alternative whose stripped, upper-cased text is A-E adds ``exp(logprob)``
    to that letter; the five masses are renormalised.
    """
    pos = next(k for k, c in enumerate(content) if c["token"].strip().strip("*") == letter)
    mass = dict.fromkeys("ABCDE", 0.0)
    for alt in content[pos]["top_logprobs"]:
        key = alt["token"].strip().upper()
        if key in mass:
            mass[key] += math.exp(alt["logprob"])
    total = sum(mass.values())
    return [mass[L] / total for L in "ABCDE"]
