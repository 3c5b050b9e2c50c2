"""Turn one extraction answer into a probability vector over the five stances.

Two estimators, recorded per trial:

- ``"logprobs"`` — from the answer token's top logprobs: every top token whose text, stripped of
  whitespace and tokenizer markers (``Ġ``, ``▁``, ``Ċ``, ...) and upper-cased, is one of A-E
  contributes ``exp(logprob)`` to that letter; the five letter masses are renormalised to sum 1:
  ``p_L = m_L / sum_K m_K``. The answer token is the first generated token that is the letter
  parsed from the text, else the first that is an upper-case letter A-E, else the first
  non-blank token.
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
    # a leading "B", "B)", "(B)", "B." (not "A balanced ...": checked below)
    re.compile(r"^\(?([A-E])(?:\)|\.|:|,|\s|$)"),
    # "Answer: B", "The answer is B", "Answer letter: **B**" (the letter itself upper-case)
    re.compile(r"(?i:answer(?:\s+letter)?(?:\s+is)?)\s*[:=]?\s*\(?\**([A-E])\b"),
    # "Option: B", "option B", "I choose C", "I would select D"
    re.compile(r"(?i:\b(?:option|letter|choice|choose|select|pick))\s*[:=]?\s*\(?([A-E])\b"),
    # "Agree (B)"
    re.compile(r"\(([A-E])(?:\)|$)"),
    # a lone lower-case letter
    re.compile(r"^([a-e])$"),
)
_BARE_STRIP = TOKEN_MARKERS + "*()[]{}.:,;'\"`_"

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
    ``The answer is B``; ``Option: B`` / ``I choose B``; ``Agree (B)``; a lone ``b``. Letters
    inside the sentence must be upper-case, and a leading capital that starts a word
    (``A balanced ...``) is not a letter answer.
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


def _bare(token: str) -> str:
    """Token text without whitespace, tokenizer markers and surrounding punctuation."""
    return token.strip().strip(_BARE_STRIP).strip()


def answer_position(tokens: Sequence[str], letter: str | None = None) -> int | None:
    """Index of the answer token.

    The first token that is the parsed ``letter`` (case-sensitive, punctuation stripped); else
    the first token that is an upper-case letter A-E (so the article "a" is never taken for
    option A); else the first non-blank token.
    """
    bare = [_bare(t) for t in tokens]
    if letter is not None:
        for k, b in enumerate(bare):
            if b == letter:
                return k
    for k, b in enumerate(bare):
        if b in LETTERS:
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
        pos = answer_position(tokens, letter)
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


def trial_vector(
    vectors: Sequence[Sequence[float] | None], unparsed: str = "failure"
) -> list[float] | None:
    """A trial's stance-order vector from its extraction vectors (1, or 5 for multiple extraction).

    ``failure``: unparsed extractions count as zero vectors, ``v = (1/n) * sum_k v_k`` (a trial
    with some unparsed extractions has total mass below 1); ``exclude``: the mean over parsed
    extractions. ``None`` when no extraction was parsed (an unparsed trial, either way).
    """
    parsed = [list(v) for v in vectors if v is not None]
    if not parsed:
        return None
    n = len(vectors) if unparsed == "failure" else len(parsed)
    return [sum(v[j] for v in parsed) / n for j in range(N_STANCES)]
