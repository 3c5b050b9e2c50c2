"""One stance-drift trial's pure parts: its shuffled option orders and its combined estimate."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

import numpy as np

from inspect_stance.drift.extraction import trial_vector
from inspect_stance.stances import N_STANCES


def shuffled_orders(seed: int, sample_key: str, trial: int, n: int) -> list[list[int]]:
    """``n`` independently shuffled option orders, reproducible from (seed, sample, trial)."""
    digest = hashlib.blake2b(f"{seed}\x00{sample_key}\x00{trial}".encode(), digest_size=8)
    rng = np.random.default_rng(int.from_bytes(digest.digest(), "little"))
    return [[int(x) for x in rng.permutation(N_STANCES)] for _ in range(n)]


def combine(
    vectors: Sequence[list[float] | None], estimators: Sequence[str | None]
) -> tuple[list[float] | None, str | None]:
    """The mean of a trial's parsed extraction vectors (``trial_vector`` under ``exclude``).

    Returns ``(mean vector, estimator)``; ``(None, None)`` when no extraction was parsed. The
    estimator is ``logprobs`` / ``frequency`` when all parsed extractions used it, else ``mixed``.
    """
    probs = trial_vector(vectors, "exclude")
    if probs is None:
        return None, None
    kinds = {e for v, e in zip(vectors, estimators, strict=True) if v is not None}
    estimator = kinds.pop() if len(kinds) == 1 else "mixed"
    return probs, estimator
