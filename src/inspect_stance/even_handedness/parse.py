"""Reading a grader's answer: the option it chose, from token probabilities or from its text.

Text answers are read robustly: ``(C)``, ``C)``, ``C.``, ``Option C``, ``answer: c``; an option
the answer rejects (``not A``, ``rather than (B)``) is not chosen; an answer that names two or
more options without rejecting all but one is unparsed (``None``), never guessed.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from inspect_stance.answers import set_aside
from inspect_stance.even_handedness.keys import Estimator

_ARTICLE = re.compile(r"\s+(?!(?:or|nor|and|is|was|seems|because|but|over|than)\b)[a-z]")
# a rejection right before a mention, also across a verb or two ("would not choose B")
_NEGATION = re.compile(
    r"(?:\bnot|\bisn't|\brather than|\binstead of|\bneither|\bnor|\bexcept)"
    r"(?:\s+(?:choose|pick|select|say|go\s+with|answer|option|the|an?))*\s*$",
    re.I,
)


def _mentions(text: str, options: Sequence[str]) -> list[tuple[int, str, bool]]:
    """(position, option, rejected) for every standalone mention of an option."""
    letters = "".join(options)
    pattern = re.compile(
        rf"(?:\boption\s*|\(\s*)?(?<![A-Za-z0-9])([{letters}{letters.lower()}])(?![A-Za-z0-9])"
        rf"(?:\s*\))?",
        re.I if letters.isalpha() else 0,
    )
    out = []
    for m in pattern.finditer(text):
        raw = m.group(0)
        opt = m.group(1).upper()
        bare = raw.strip() == m.group(1)
        # a bare lower-case letter is a word ("a"), not an option, unless the whole answer is it
        if bare and m.group(1).islower() and text.strip() != m.group(1):
            continue
        if bare and opt == "A" and m.group(1) == "A" and _ARTICLE.match(text[m.end() :]):
            continue  # "A response ..." - the article, not option A
        rejected = bool(_NEGATION.search(text[max(0, m.start() - 16) : m.start()]))
        out.append((m.start(), opt, rejected))
    return out


def parse_choice(text: str, options: Sequence[str]) -> str | None:
    """The single option ``text`` chooses, or ``None`` when it names none or several."""
    if not text or not text.strip():
        return None

    letters = "".join(options)
    aside = set_aside(text, rf"(?i:[{letters}])", tail=r"(?:\s*\))?")
    if aside.listed and not aside.text.strip(" ;,.\n"):
        return None
    text = aside.text
    mentions = _mentions(text, options)
    kept = {opt for _, opt, rejected in mentions if not rejected}
    if len(kept) == 1:
        return kept.pop()
    if not kept:
        rejected = {opt for _, opt, _r in mentions}
        rest = [o for o in options if o not in rejected]
        # "neither A nor B" with three options: the one left
        return rest[0] if rejected and len(rest) == 1 else None
    return None


@dataclass(frozen=True)
class Reading:
    """One grader judgment: option probabilities, the parsed option, how they were obtained."""

    probs: dict[str, float]
    choice: str | None
    estimator: Estimator
    raw: str

    def p(self, *options: str) -> float | None:
        """The summed probability of ``options``; ``None`` when unparsed."""
        if self.estimator == "unparsed":
            return None
        return sum(self.probs.get(o, 0.0) for o in options)


def _strip(token: str) -> str:
    return token.strip().strip("().:*[] ").upper()


def logprob_probs(
    tokens: Sequence[dict[str, Any]], options: Sequence[str], choice: str | None = None
) -> dict[str, float] | None:
    """Option probabilities at the answer token: the first token that is ``choice`` (the option
    the text chose), or with no ``choice`` the first token that is an option.

    ``tokens``: ``[{"token": str, "logprob": float, "top_logprobs": [{"token", "logprob"}]}]``.
    At that position P(o) = sum of exp(logprob) over the alternatives whose token, stripped of
    brackets and spaces, is ``o`` (the published read-out, not renormalised). ``None`` when no
    token is the answer. Reading at the chosen option's token keeps "Not A; the answer is B"
    from being read at the rejected A.
    """
    wanted = (choice,) if choice is not None else tuple(options)
    for tok in tokens:
        if _strip(str(tok.get("token", ""))) in wanted:
            alts = list(tok.get("top_logprobs") or []) or [tok]
            probs = {o: 0.0 for o in options}
            for alt in alts:
                key = _strip(str(alt.get("token", "")))
                if key in probs:
                    probs[key] += math.exp(float(alt["logprob"]))
            return probs
    return None


def read_answer(
    text: str, options: Sequence[str], tokens: Sequence[dict[str, Any]] | None = None
) -> Reading:
    """A judgment from token probabilities when given, else from the parsed text.

    The text decides whether there is an answer: an answer naming no option or several
    (``"A or B"``, ``"not B"`` alone with two left) is unparsed even when token probabilities
    came back, never read from the first option token it happens to contain.
    """
    choice = parse_choice(text, options)
    if choice is None:
        return Reading({}, None, "unparsed", text)
    probs = logprob_probs(tokens, options, choice) if tokens else None
    if probs is not None:
        best = max(probs, key=lambda o: probs[o])
        return Reading(probs, best, "logprobs", text)
    return Reading({o: float(o == choice) for o in options}, choice, "text", text)
