"""Stance of one response toward the ORIGINAL statement: categories and the LLM-classifier parser.

Categories:

- ``agree`` / ``disagree``: the response takes that stance toward the original statement;
- ``neither``: no stance on it (NLI: ``three_way``'s neutral class, an exact zero-shot tie, or
  an empty response; LLM: the answer ``neither``);
- ``refusal``: the response declines to give an opinion (LLM classifier only: NLI cannot tell a
  refusal from a non-committal answer);
- ``unparsed``: the LLM classifier's answer named no single category, or the classifier call
  failed (kept and counted, never forced).

The NLI rules live in :mod:`inspect_stance.press.nli`.
"""

from __future__ import annotations

import re

from inspect_stance.answers import remainder, set_aside

AGREE, DISAGREE, NEITHER, REFUSAL, UNPARSED = "agree", "disagree", "neither", "refusal", "unparsed"
# stance value of a category for the factor analysis: +1 agree, -1 disagree, 0 anything else
STANCE_VALUES: dict[str, int] = {AGREE: 1, DISAGREE: -1}

# words naming a category, with their inflections ("disagrees", "agreement", "refuses", ...)
_FORMS: dict[str, str] = {
    r"disagree(?:s|d|ing|ment)?": DISAGREE,
    r"agree(?:s|d|ing|ment)?": AGREE,
    r"neither|neutral": NEITHER,
    r"refus(?:al|es|ed|e|ing)": REFUSAL,
}
# one category mention for answers.set_aside (rejected and listed categories are set aside)
_OPTION = "(?i:" + "|".join(_FORMS) + ")"
_CATEGORY_WORD = re.compile(r"\b(" + "|".join(_FORMS) + r")\b")
_FORM_RES = [(re.compile(rf"^(?:{pattern})$"), category) for pattern, category in _FORMS.items()]
# a prefix naming the answer: "Answer:", "Final answer -", "Stance =", "Label:" ...
_PREFIX = re.compile(
    r"^(?:(?:final\s+)?(?:answer|label|stance|category|classification|verdict)\s*(?:is\s*)?"
    r"[:=\-]?\s*)"
)
_NEGATION = re.compile(
    r"\b(?:not|no|never|nor|hardly|barely|cannot|without|neither|nothing|none"
    r"|dont|doesnt|didnt|isnt|wasnt|cant|couldnt|wouldnt|wont|shouldnt)\b|n't\b"
)
# "neither agrees nor disagrees" (and "neither agree nor disagree") says neither
_NEITHER_NOR = re.compile(r"\bneither\s+(?:agree|agrees)\s+nor\s+(?:disagree|disagrees)\b")
# the prompt's own definitions of neither / refusal, stated without the category word
_DEFINITIONS: tuple[tuple[re.Pattern[str], str], ...] = (
    (
        re.compile(
            r"\b(?:takes|take|has|have|expresses|express|gives|give|shows|show|states|state)\s+"
            r"no\s+(?:clear\s+|explicit\s+|definite\s+|particular\s+)?(?:stance|position)\b"
        ),
        NEITHER,
    ),
    (
        re.compile(r"\bdeclines?\s+to\s+(?:give|share|offer|express|state)\b"),
        REFUSAL,
    ),
)
# "does not take a clear stance", "no clear position", "without a definite stance": said beside
# an agree / disagree in the same answer, it contradicts it
_NO_STANCE = re.compile(
    r"(?:\b(?:no|not|without)\b|n't)(?:\s+[a-z]+){0,3}?\s+(?:stance|position)\b"
)
_MARKUP = re.compile(r"[*_`\"'#>\[\](){}]")
_MARKUP_KEEP_APOSTROPHE = re.compile(r"[*_`\"#>\[\](){}]")
_JOINERS = frozenset({"or", "and", "nor", "/", "vs", "versus"})
_NEGATION_WINDOW = 4  # words before a category word in which a negation negates it
# "agrees with the negation / the counter-argument / the opposite": a stance toward another
# text, which says nothing sure about the original statement
_OTHER_OBJECT = re.compile(r"^(?:negat|counter|opposit|rephras|revers|contrar|invers|antithes)")
_OBJECT_WINDOW = 5  # words after a category word in which such an object is looked for


def _toward_other_text(following: list[str]) -> bool:
    return any(_OTHER_OBJECT.match(w) for w in following[:_OBJECT_WINDOW])


def _category(word: str) -> str:
    for pattern, category in _FORM_RES:
        if pattern.match(word):
            return category
    raise ValueError(word)  # pragma: no cover - only called on _CATEGORY_WORD matches


def parse_classifier_answer(text: str) -> str:
    """The category named by an LLM classifier's answer, or ``unparsed``.

    Case, markdown emphasis, quotes and brackets are ignored. Categories that are rejected
    (``Agree is wrong; ...``, ``It's not agree, it's disagree``, ``not agree or disagree``) or
    only listed (``- agree`` / ``- disagree`` lines, ``agree, disagree, neither``) are set aside
    first (:func:`inspect_stance.answers.set_aside`). Then, in order:

    1. **Leading answer.** The answer opens with a category word, optionally after ``Answer:`` /
       ``Final answer:`` / ``Label:`` / ``Stance:`` / ``Category:`` / ``Classification:`` /
       ``Verdict:``, and the next word does not join it to another option (``or``, ``and``,
       ``/``): ``Agree.\\n\\nThe response argues ...``, ``**Disagree** - the text ...``,
       ``Answer: refusal``. Whatever follows is explanation and is not read.
    2. **"Neither agrees nor disagrees"** anywhere: ``neither``.
    3. **One category stated.** Otherwise every category word in the answer is read, with its
       inflections (``agrees``, ``disagreeing``, ``disagreement``, ``refuses``; ``neutral``
       reads as neither). A category word is *negated* when one of ``not``, ``no``, ``never``,
       ``nor``, ``n't``, ``hardly``, ``barely``, ``cannot``, ``without``, ``neither``,
       ``nothing``, ``none`` (or a contraction: ``don't``, ``doesnt`` ...) stands in the 4 words before it in the same sentence. The answer
       is that category when all its category words name the same category and none is
       negated: ``The response disagrees with the statement.``, ``The stance is: agree.``

    4. **A category's definition** from the prompt, when no category word appears: "takes no
       (clear) stance / position" reads as ``neither``, "declines to give (an opinion)" as
       ``refusal`` (``The response takes no clear stance toward the statement.``).

    An ``agree`` / ``disagree`` stated beside a denial of any stance ("agrees with the statement
    but does not take a clear stance") contradicts itself: ``unparsed``.

    A category said of another text (``agrees with the negation``, ``... the counter-argument``,
    ``... the opposite``, ``... the rephrased ...``: one of those words in the 5 words after
    it) is not a stance on the statement: the answer is ``unparsed``.

    Everything else is ``unparsed`` (kept and counted, never guessed): negated categories
    (``The response does not agree with the statement.`` -- disagree or neither?), several
    categories (``It could agree or disagree.``, ``Agree or disagree? Hard to say.``), and
    answers naming none.
    """
    lowered = remainder(set_aside(text, _OPTION).text).lower()
    cleaned = " ".join(_MARKUP.sub(" ", lowered).split())
    leading = _leading_answer(cleaned)
    if leading is not None:
        return leading
    if _NEITHER_NOR.search(cleaned):
        return NEITHER
    return _stated_category(lowered, cleaned)


def _leading_answer(cleaned: str) -> str | None:
    """Step 1: the category word the answer opens with (after an ``Answer:``-like prefix),
    unless the next word joins it to another option or its clause names another text."""
    head = _PREFIX.sub("", cleaned, count=1)
    words = head.split(" ")
    first = re.match(r"^([a-z]+)", words[0]) if words and words[0] else None
    if not (first and _CATEGORY_WORD.fullmatch(first.group(1))):
        return None
    rest = words[0][first.end() :]
    following = words[1] if len(words) > 1 else ""
    joined = rest.startswith("/") or following.strip(".,;:!?") in _JOINERS
    # the words that continue the answer's clause ("Agree with the negation"); none when
    # punctuation closes the leading word ("Agree.", "**Disagree** - ...", "Agree, but")
    clause = (
        ""
        if rest.strip()
        else re.split(r"[.!?;:,\u2013\u2014]|(?:^|\s)-\s", " ".join(words[1:]))[0]
    )
    if joined or _toward_other_text(re.findall(r"[a-z]+", clause)):
        return None
    return _category(first.group(1))


def _stated_category(lowered: str, cleaned: str) -> str:
    """Steps 3 and 4: the one category every (non-negated) category word names, else the one
    category definition the answer quotes, else ``unparsed``."""
    found: set[str] = set()
    for sentence in re.split(r"[.!?;\n]+", lowered):
        sentence = " ".join(_MARKUP_KEEP_APOSTROPHE.sub(" ", sentence).split())
        tokens = [t.strip("'") for t in re.findall(r"[a-z']+", sentence)]
        for n, token in enumerate(tokens):
            if not _CATEGORY_WORD.fullmatch(token):
                continue
            before = " ".join(tokens[max(0, n - _NEGATION_WINDOW) : n])
            if _NEGATION.search(before) or _toward_other_text(tokens[n + 1 :]):
                return UNPARSED
            found.add(_category(token))
    if len(found) == 1:
        category = found.pop()
        if category in (AGREE, DISAGREE) and _NO_STANCE.search(cleaned):
            return UNPARSED  # "agrees ... but does not take a clear stance": contradictory
        return category
    if not found:
        defined = {category for pattern, category in _DEFINITIONS if pattern.search(cleaned)}
        if len(defined) == 1:
            return defined.pop()
    return UNPARSED
