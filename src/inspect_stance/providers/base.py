"""The base of the package's simulated providers: Inspect's ``ModelAPI`` constructor, once.

Inspect builds a provider with ``(model_name, base_url, api_key, config, **model_args)``; every
simulated provider takes no API key and no base URL and reads its ``-M`` arguments strictly
(:mod:`inspect_stance.providers.args`) in :meth:`SimulatedAPI.configure`.
"""

from __future__ import annotations

import hashlib
import random
from collections import Counter
from pathlib import Path
from typing import Any

from inspect_ai.model import GenerateConfig, ModelAPI

from inspect_stance.providers.args import arg_int


class SimulatedAPI(ModelAPI):
    """A ``ModelAPI`` whose subclasses implement :meth:`configure` instead of ``__init__``."""

    def __init__(
        self,
        model_name: str,
        base_url: str | None = None,
        api_key: str | None = None,
        config: GenerateConfig | None = None,
        **model_args: Any,
    ) -> None:
        super().__init__(model_name, base_url, api_key, [], config or GenerateConfig())
        self.configure(model_name, dict(model_args))

    def configure(self, model_name: str, model_args: dict[str, Any]) -> None:
        """Read the model name and the ``-M`` arguments; raise ``InputError`` on bad ones."""
        raise NotImplementedError


class SeededSimulatedAPI(SimulatedAPI):
    """A simulated provider with seeded per-prompt randomness, no rate limit and scripted
    failures (``-M fail_after`` / ``-M fail_while``) for testing interruption and ``eval-retry``.

    Subclasses call :meth:`read_failures` in :meth:`configure`, set ``self.seed`` and call
    :meth:`count_call` at the start of ``generate``.
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self.seed = 0
        self.n_calls = 0
        self._calls: Counter[str] = Counter()
        super().__init__(*args, **kwargs)

    def read_failures(self, provider: str, model_args: dict[str, Any]) -> None:
        """Read ``-M fail_after`` (int >= -1, default -1 = never) and ``-M fail_while`` (a
        file path: ``fail_after`` applies only while it exists)."""
        self.fail_after = arg_int(
            provider, "fail_after", model_args.get("fail_after", -1), minimum=-1, example=100
        )
        fail_while = model_args.get("fail_while")
        self.fail_while = None if fail_while is None else str(fail_while)
        self.n_calls = 0

    def count_call(self, provider: str) -> None:
        """Count one call; raise ``RuntimeError`` on call ``n`` when
        ``0 <= fail_after < n`` and (``fail_while`` is unset or its file exists)."""
        self.n_calls += 1
        if 0 <= self.fail_after < self.n_calls and (
            self.fail_while is None or Path(self.fail_while).exists()
        ):
            raise RuntimeError(f"{provider}: simulated API failure after {self.fail_after} calls")

    def max_connections(self) -> int:
        """No rate limit: a simulated provider."""
        return 10_000

    def _rng(self, prompt: str) -> random.Random:
        """The RNG of the ``k``-th call with ``prompt``: seeded by
        ``blake2b(seed, k, prompt)``, so a rerun replays the same draws."""
        k = self._calls[prompt]
        self._calls[prompt] += 1
        digest = hashlib.blake2b(f"{self.seed}\x00{k}\x00{prompt}".encode(), digest_size=8)
        return random.Random(int.from_bytes(digest.digest(), "little"))
