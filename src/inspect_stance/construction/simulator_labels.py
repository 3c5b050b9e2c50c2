"""The labels of ``construction_sim``'s judges: the lexical heuristic for responses without a
stance marker, and the rating of a judge of known offset and noise (``judge_biased``)."""

from __future__ import annotations

import hashlib
import re

REFUSAL_OPENERS = ("i'm sorry", "i am sorry", "i cannot", "i can't", "i apologize", "i won't")
POSITIVE_WORDS = (
    "benefit",
    "benefits",
    "positive",
    "advantage",
    "advantages",
    "support",
    "good",
    "opportunity",
    "opportunities",
    "success",
    "improve",
    "improves",
    "improved",
    "justified",
    "progress",
    "strength",
    "helpful",
    "valuable",
)
NEGATIVE_WORDS = (
    "risk",
    "risks",
    "negative",
    "harm",
    "harms",
    "harmful",
    "drawback",
    "drawbacks",
    "concern",
    "concerns",
    "danger",
    "dangerous",
    "problem",
    "problems",
    "threat",
    "fail",
    "failure",
    "damage",
    "criticism",
    "unjustified",
    "wrong",
)


def _digest(text: str) -> int:
    return int.from_bytes(hashlib.sha256(text.encode("utf-8")).digest()[:4], "little")


def biased_rating(true: int, offset: float, noise: float, seed: int, key: str) -> int:
    """A biased judge's rating of a response whose true label is ``true`` (1..5).

    ``clip(floor(true + offset + e + 0.5), 1, 5)`` with ``e ~ Normal(0, noise)`` drawn from a
    generator seeded by a hash of ``seed`` and ``key`` (the response text): deterministic per
    response, independent across responses and seeds.
    """
    import numpy as np

    e = 0.0
    if noise > 0:
        e = float(np.random.default_rng(_digest(f"{seed}\x00{key}")).normal(0.0, noise))
    return int(min(5, max(1, np.floor(true + offset + e + 0.5))))


def heuristic_label(text: str) -> str:
    """Label of a response without a marker: refusal opener, else positive/negative word balance.

    With ``p`` / ``n`` the counts of :data:`POSITIVE_WORDS` / :data:`NEGATIVE_WORDS` and
    ``b = (p - n) / (p + n + 1)``: ``b > 0.5`` -> 1, ``b > 0.15`` -> 2, ``b < -0.5`` -> 5,
    ``b < -0.15`` -> 4, else 3.
    """
    lowered = text.strip().lower()
    if lowered.startswith(REFUSAL_OPENERS):
        return "refusal"
    words = re.findall(r"[a-z']+", lowered)
    p = sum(w in POSITIVE_WORDS for w in words)
    n = sum(w in NEGATIVE_WORDS for w in words)
    b = (p - n) / (p + n + 1)
    if b > 0.5:
        return "1"
    if b > 0.15:
        return "2"
    if b < -0.5:
        return "5"
    if b < -0.15:
        return "4"
    return "3"
