"""Turn one extraction answer into a probability vector over the five stances.

Two estimators, recorded per trial:

- ``"logprobs"`` — from the answer token's top logprobs: every top token whose text, stripped of
  whitespace and tokenizer markers (``Ġ``, ``▁``, ``Ċ``, ...) and upper-cased, is one of A-E
  contributes ``exp(logprob)`` to that letter; the five letter masses are renormalised to sum 1:
  ``p_L = m_L / sum_K m_K``. The answer token is the first generated token that is itself a
  letter A-E after stripping; if none is, the first non-blank token.
- ``"frequency"`` — when the provider returns no logprobs (or they carry no letter mass), a
  one-hot vector on the letter parsed from the answer text.

An answer with no recognisable letter and no letter mass in the logprobs is *unparsed*: its
vector is ``None`` (kept and counted by the caller, never dropped).
Letters are option positions; :func:`to_stance_order` maps a letter vector to stance order.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass

from inspect_stance.stances import LETTERS, N_STANCES, check_order

TOKEN_MARKERS = "Ġ▁Ċĉ"
_STRIP_RE = re.compile(r"^[\s*_`'\"(\[{]+|[\s*_`'\")\]}.:,;!]+$")
_ANSWER_PATTERNS = (
    re.compile(r"^\(?([A-E])(?:\)|\.|:|,|\s|$)"),
    re.compile(r"answer(?:\s+letter)?(?:\s+is)?\s*[:=]?\s*\(?\**([A-E])\b", re.IGNORECASE),
    re.compile(r"\b(?:option|letter|choice)\s*\(?([A-E])\b"),
    re.compile(r"^([A-E])$"),
)

TopLogprobs = Sequence[tuple[str, float]]


@dataclass(frozen=True)
class Extraction:
    """One extraction answer's result: ``vector`` in *letter* order, or ``None`` when unparsed."""

    letter: str | None
    vector: tuple[float, ...] | None
    estimator: str | None  # "logprobs" | "frequency" | None (unparsed)

    @property
    def unparsed(self) -> bool:
        """True when the answer gave no usable letter."""
        return self.vector is None


def clean_token(token: str) -> str:
    """Token text stripped of whitespace and tokenizer markers, upper-cased."""
    return token.strip().strip(TOKEN_MARKERS).strip().upper()


def parse_letter(text: str) -> str | None:
    """The option letter an answer text gives, or ``None``.

    Accepted forms: a leading ``B``, ``B)``, ``(B)``, ``B.``, ``**B**``; ``Answer: B`` /
    ``The answer is B``; ``option B``. A leading capital that starts a word (``A balanced ...``)
    is not a letter answer.
    """
    stripped = _STRIP_RE.sub("", text.strip())
    for pattern in _ANSWER_PATTERNS:
        match = pattern.search(stripped)
        if match:
            letter = match.group(1).upper()
            # reject "A balanced view ..." style sentence starts
            if pattern is _ANSWER_PATTERNS[0] and re.match(r"^A\s+[a-z]", stripped):
                continue
            return letter
    return None


def letter_mass(top_logprobs: TopLogprobs) -> list[float]:
    """Summed probability ``sum exp(logprob)`` of top tokens that are each letter A-E."""
    mass = [0.0] * N_STANCES
    for token, logprob in top_logprobs:
        key = clean_token(token)
        if key in LETTERS and logprob is not None and math.isfinite(logprob):
            mass[LETTERS.index(key)] += math.exp(logprob)
    return mass


def answer_position(tokens: Sequence[str]) -> int | None:
    """Index of the answer token: first token that is a letter A-E, else first non-blank."""
    for k, token in enumerate(tokens):
        if clean_token(token) in LETTERS:
            return k
    for k, token in enumerate(tokens):
        if clean_token(token):
            return k
    return None


def extract(
    text: str,
    tokens: Sequence[str] | None = None,
    top_logprobs: Sequence[TopLogprobs] | None = None,
) -> Extraction:
    """Estimate the letter distribution of an answer.

    ``tokens[k]`` is the k-th generated token and ``top_logprobs[k]`` its top alternatives as
    ``(token, logprob)`` pairs; pass ``None`` when the provider returned no logprobs.
    """
    letter = parse_letter(text)
    if tokens and top_logprobs:
        pos = answer_position(tokens)
        if pos is not None and pos < len(top_logprobs):
            mass = letter_mass(top_logprobs[pos])
            total = sum(mass)
            if total > 0:
                vector = tuple(m / total for m in mass)
                best = LETTERS[max(range(N_STANCES), key=lambda k: vector[k])]
                return Extraction(letter=letter or best, vector=vector, estimator="logprobs")
    if letter is not None:
        vector = tuple(1.0 if L == letter else 0.0 for L in LETTERS)
        return Extraction(letter=letter, vector=vector, estimator="frequency")
    return Extraction(letter=None, vector=None, estimator=None)


def to_stance_order(vector: Sequence[float], order: Sequence[int]) -> list[float]:
    """Map a letter-order vector to stance order: ``out[order[k]] = vector[k]``."""
    order = check_order(order)
    out = [0.0] * N_STANCES
    for k, stance in enumerate(order):
        out[stance] = float(vector[k])
    return out
