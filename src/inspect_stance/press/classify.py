"""Stance of one response toward the ORIGINAL statement: categories and the LLM-classifier parser.

Categories:

- ``agree`` / ``disagree``: the response takes that stance toward the original statement;
- ``neither``: no stance on it (NLI: the neutral class or any non-entailment/contradiction
  class; LLM: the answer ``neither``; also an empty response);
- ``refusal``: the response declines to give an opinion (LLM classifier only: NLI cannot tell a
  refusal from a non-committal answer and reports ``neither``);
- ``unparsed``: the LLM classifier's answer named no single category, or the classifier call
  failed (kept and counted, never forced).

The NLI rule lives in :mod:`inspect_stance.press.nli`.
"""

from __future__ import annotations

import re

AGREE, DISAGREE, NEITHER, REFUSAL, UNPARSED = "agree", "disagree", "neither", "refusal", "unparsed"
STANCE_CATEGORIES: tuple[str, ...] = (AGREE, DISAGREE, NEITHER, REFUSAL, UNPARSED)
LLM_ANSWERS: tuple[str, ...] = (AGREE, DISAGREE, NEITHER, REFUSAL)
_CATEGORY = r"(disagree|agree|neither|refusal)"
# the answer opens with a category word, optionally after "Answer:" / "Label:" / ... and markup
_LEADING = re.compile(
    r"^(?:(?:final\s+)?(?:answer|label|stance|category|classification)\s*[:=\-]\s*)?"
    + _CATEGORY
    + r"\b"
)
_WORD = re.compile(r"\b" + _CATEGORY + r"\b")
_NEGATION = re.compile(r"\b(not|no|never|nor|hardly|barely|cannot|without)\b|n't\b")
_MARKUP = re.compile(r"[*_`\"'#>\[\](){}]")


def parse_classifier_answer(text: str) -> str:
    """The category named by an LLM classifier's answer, or ``unparsed``.

    Accepted, ignoring case and markdown / quote / bracket markup:

    1. the answer opens with a category word (``Disagree.``, ``**agree**``, ``Neither -- ...``),
       optionally after ``Answer:`` / ``Label:`` / ``Stance:`` / ``Category:`` /
       ``Classification:`` (``Answer: refusal``);
    2. otherwise a sentence naming exactly one category word and no negation (``not``, ``no``,
       ``never``, ``nor``, ``n't``, ``hardly``, ``barely``, ``cannot``, ``without``), e.g.
       ``The response would disagree.``

    Everything else is ``unparsed``: several categories without a leading one (``It could agree
    or disagree``) and negated ones (``The response does not agree with the statement.``,
    ``Not agree``), which are ambiguous (does "not agree" mean disagree or neither?).
    """
    lowered = text.lower().replace("\u2019", "'")
    cleaned = " ".join(_MARKUP.sub(" ", lowered).split())
    lead = _LEADING.match(cleaned)
    if lead:
        return lead.group(1)
    found = set(_WORD.findall(cleaned))
    if len(found) == 1 and not _NEGATION.search(lowered):
        return found.pop()
    return UNPARSED
