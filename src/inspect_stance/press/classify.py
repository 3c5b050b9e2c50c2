"""Stance of one response toward the ORIGINAL statement: categories and the LLM-classifier parser.

Categories:

- ``agree`` / ``disagree``: the response takes that stance toward the original statement;
- ``neither``: no stance on it (NLI: the neutral class or any non-entailment/contradiction
  class; LLM: the answer ``neither``; also an empty response);
- ``refusal``: the response declines to give an opinion (LLM classifier only: NLI cannot tell a
  refusal from a non-committal answer and reports ``neither``);
- ``unparsed``: the LLM classifier's answer named no category (kept and counted, never forced).

The NLI rule lives in :mod:`inspect_stance.press.nli`.
"""

from __future__ import annotations

import re

AGREE, DISAGREE, NEITHER, REFUSAL, UNPARSED = "agree", "disagree", "neither", "refusal", "unparsed"
STANCE_CATEGORIES: tuple[str, ...] = (AGREE, DISAGREE, NEITHER, REFUSAL, UNPARSED)
LLM_ANSWERS: tuple[str, ...] = (AGREE, DISAGREE, NEITHER, REFUSAL)
_WORD = re.compile(r"\b(disagree|agree|neither|refusal)\b")


def parse_classifier_answer(text: str) -> str:
    """The category named by an LLM classifier's answer, or ``unparsed``.

    Accepted: the first word of the answer (ignoring case, markdown and punctuation) is a
    category; otherwise exactly one distinct category word appears anywhere in the answer.
    Answers naming several categories without leading with one are ``unparsed``.
    """
    cleaned = re.sub(r"[*_`\"'.:!,()\[\]]", " ", text.lower()).split()
    if cleaned and cleaned[0] in LLM_ANSWERS:
        return cleaned[0]
    found = set(_WORD.findall(" ".join(cleaned)))
    if len(found) == 1:
        return found.pop()
    return UNPARSED
