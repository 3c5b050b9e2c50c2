"""Turn one extraction answer into a probability vector over the five stances.

The answer **text** decides whether, and which, letter was answered (:func:`parse_letter`); the
answer token's **logprobs**, when the provider returns them, give the distribution over the
five letters at that token. Two estimators, recorded per extraction:

- ``"logprobs"`` — the answer token is the first generated token that *is* the parsed letter,
  standing alone (:func:`answer_position`): stripped of whitespace, tokenizer markers (``Ġ``,
  ``▁``, ``Ċ`` ...) and surrounding punctuation (``**``, ``(``, ``)``, ``.``, ``:``) it is that
  capital letter; the next token does not continue the word (it does not start with a letter,
  digit, apostrophe or hyphen without a space before it: the ``A`` of ``['A','mar','illa']`` and
  the `` E`` of ``[' E','legant']`` are word starts, not answers); and an ``A`` followed by a
  lower-case word is the article (``A good argument ...``), not an answer. Every top
  alternative of that token whose stripped, upper-cased text is one of A-E adds ``exp(logprob)``
  to that letter: ``m_L``. The raw **letter mass** ``M = sum_L m_L`` is recorded; when
  ``M >= min_letter_mass`` the vector is ``p_L = m_L / M``.
- ``"frequency"`` — a one-hot vector on the parsed letter: when the provider returned no
  logprobs, no answer token stands alone, or the letter mass is below ``min_letter_mass``
  (renormalising a token where letters hold less than that share of the probability would turn
  a mostly non-letter token into a confident answer — the 1.7 % of `` Elegant`` into a certain
  "Agree strongly").

An answer whose text gives no option letter is **unparsed** whatever its logprobs say: its
vector is ``None`` (kept and counted by the caller, never dropped). So *unparsed* means exactly
"the answer text names no option letter by the rules of :func:`parse_letter`".
Letters are option positions; :func:`to_stance_order` maps a letter vector to stance order.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass

from inspect_stance.answers import remainder, set_aside
from inspect_stance.drift.defaults import MIN_LETTER_MASS
from inspect_stance.errors import InputError
from inspect_stance.stances import LETTERS, N_STANCES, STANCES, check_order

#: default ``min_letter_mass``: the letters must hold at least half the answer token's
#: probability before it is renormalised (renormalising then at most doubles a letter).
DEFAULT_MIN_LETTER_MASS = MIN_LETTER_MASS
TOKEN_MARKERS = "Ġ▁Ċĉ"
_STRIP_RE = re.compile(r"^[\s*_`'\"(\[{]+|[\s*_`'\")\]}.:,;!]+$")
_ANSWER_PATTERNS = (
    # a leading "B", "B)", "(B)", "B." (not "A balanced ...": checked below)
    re.compile(r"^\(?([A-E])(?:\)|\.|:|,|\s|\*|$)"),
    # "Answer: B", "The answer is B", "Answer letter: **B**" (the letter itself upper-case)
    re.compile(
        r"(?i:answer(?:\s+letter)?(?:\s+(?:is|would\s+be|here\s+is|here|will\s+be))?)"
        r"\s*[:=]?\s*\(?\**([A-E])\b"
    ),
    # 'The answer to this question is "D"', "The correct answer is “C”." (the letter right after
    # "is", quoted or not; "the answer is not A" does not match)
    re.compile(
        r"(?i:\banswer\b[^.\n]{0,40}?\bis)\s*[:=]?\s*[\"'“‘(*]*([A-E])[\"'”’)*]*(?=[\s.,;:!]|$)"
    ),
    # "Option: B", "option B", "I choose C", "I would select D" (not "I would not choose B")
    re.compile(
        r"(?i:\b(?:option|letter|choice|choose|chose|select|pick|go\s+with|going\s+with|opt\s+for"
        r"|it's|it\s+is))\s*[:=]?\s*\(?([A-E])\b(?!\s+[a-z])"
    ),
    # "Agree (B)"
    re.compile(r"\(([A-E])(?:\)|$)"),
    # "OPT: D)": a capital letter with a closing bracket after a space or colon
    re.compile(r"(?:^|[\s:])([A-E])\)"),
    # a lower-case letter with a bracket, leading or after "answer"/"option": "c) Highly",
    # "(b) Agree", "Answer: (d)", "My option is e)"
    re.compile(
        r"^\(?([a-e])\)|(?i:\b(?:answer|option|choice|choose|chose|select|pick|go\s+with"
        r"|it's|it\s+is)(?:\s+is)?)\s*[:=]?\s*\(?(?-i:([a-e]))\)"
    ),
    # a lone lower-case letter
    re.compile(r"^([a-e])$"),
)
_CHOOSE_PATTERN = _ANSWER_PATTERNS[3]
#: one option mention for :func:`inspect_stance.answers.set_aside`: a capital letter, or a
#: lower-case one with its bracket; what may follow it: the bracket and a stance label
_LETTER_OPTION = r"[A-E]|[a-e](?=\))"
_LABEL_TAIL = (
    r"\)?(?:[ \t]*[-:.]?[ \t]*(?i:"
    + "|".join(
        re.escape(STANCES[s]) for s in sorted(range(N_STANCES), key=lambda s: -len(STANCES[s]))
    )
    + r")\b)?"
)
#: a capital letter standing alone (not the article before a lower-case word)
_LONE_CAPITAL = re.compile(r"(?<![\w'])([A-E])(?![\w'])(?!\s+[a-z])")
_LOWER_BRACKET = _ANSWER_PATTERNS[6]
_BRACKET_PATTERNS = (_ANSWER_PATTERNS[5], _LOWER_BRACKET)
#: a negation among the three words before "choose"/"option" ... ("I would not choose B")
_NEGATION_BEFORE_RE = re.compile(
    r"(?i)\b(?:not|never|no|cannot|can't|won't|wouldn't|don't|didn't|isn't|wasn't)\W+"
    r"(?:\w+\W+){0,2}$"
)
#: a negation right after the letter ("Choice C was not a decision", "B is not right")
_NEGATION_AFTER_RE = re.compile(
    r"(?i)^[\s\"'”’)*]*(?:is|was|would\s+be|seems)?\s*(?:not|never|n't)\b"
    r"|^[\s\"'”’)*]*(?:isn't|wasn't|isn’t|wasn’t)"
)
#: the stance labels, longest first so "Agree strongly" is read before "Agree"
_LABELS_LONGEST_FIRST = sorted(range(N_STANCES), key=lambda s: -len(STANCES[s]))
_BARE_STRIP = TOKEN_MARKERS + "*()[]{}.:,;'\"`_"
#: a token that continues the previous token's word: its first character is a word character,
#: apostrophe or hyphen, with no space or tokenizer marker before it
_CONTINUES_RE = re.compile(r"^[\w'’-]")
#: a lower-case word after a space (the article "A" + " good"); a newline does not count
_LOWER_WORD_RE = re.compile(r"^[ Ġ▁]+[a-z]")

TopLogprobs = Sequence[tuple[str, float]]


@dataclass(frozen=True)
class Extraction:
    """One extraction answer's result: ``vector`` in *letter* order, or ``None`` when unparsed.

    ``letter_mass`` is the raw summed probability of the five letters among the answer token's
    top logprobs before renormalising (``None`` without logprobs or without an answer token);
    ``answer_index`` is the answer token's position among the generated tokens.
    """

    letter: str | None
    vector: tuple[float, ...] | None
    estimator: str | None  # "logprobs" | "frequency" | None (unparsed)
    letter_mass: float | None = None
    answer_index: int | None = None

    @property
    def unparsed(self) -> bool:
        """True when the answer gave no usable letter."""
        return self.vector is None


def check_min_letter_mass(value: object) -> float:
    """The ``-T min_letter_mass`` value as a float in ``[0, 1]`` (strings parsed strictly);
    a one-line :class:`~inspect_stance.errors.InputError` otherwise."""
    try:
        mass = float(value) if not isinstance(value, bool) else math.nan  # type: ignore[arg-type]
    except (TypeError, ValueError):
        mass = math.nan
    if not 0.0 <= mass <= 1.0:
        raise InputError(
            f"-T min_letter_mass={value!r} is not a number between 0 and 1; the share of the "
            f"answer token's probability the five letters must hold for the logprob estimate "
            f"(default {DEFAULT_MIN_LETTER_MASS}), e.g. -T min_letter_mass=0.5"
        )
    return mass


def clean_token(token: str) -> str:
    """Token text stripped of whitespace and tokenizer markers, upper-cased."""
    return token.strip().strip(TOKEN_MARKERS).strip().upper()


def _negated(text: str, match: re.Match[str], keyword: bool) -> bool:
    """True when a match is negated: the letter is followed by "is/was not" (any mid-sentence
    pattern), or, for the choose/option pattern (``keyword``), one of the three words before the
    keyword is a negation ("I would not choose B")."""
    group = next(k for k in range(1, match.re.groups + 1) if match.group(k) is not None)
    if _NEGATION_AFTER_RE.match(text[match.end(group) :]):
        return True
    return keyword and bool(_NEGATION_BEFORE_RE.search(text[: match.start()]))


def parse_letter(text: str) -> str | None:
    """The option letter an answer text gives, or ``None``.

    Accepted forms: a leading ``B``, ``B)``, ``(B)``, ``B.``, ``**B**``; ``Answer: B`` /
    ``The answer is B`` / ``The answer to this question is "B"``; ``Option: B`` / ``I choose
    B``; ``Agree (B)``; ``OPT: B)``; a lower-case letter with a bracket, leading or after
    "answer"/"option" (``b) Agree``, ``Answer: (b)``);
    a lone ``b``. Other letters inside the sentence must be upper-case; a leading capital that
    starts a word (``A balanced ...``, ``Amarilla``) is not a letter answer; a negated mention
    is not an answer (``I would not choose B``, ``Choice C was not a decision``: the next
    mention, if any, is read instead).

    First, :func:`inspect_stance.answers.set_aside` sets aside letters that are rejected
    (``A is wrong; ...``, ``It's not B, it's D``, ``D, not A``) or only listed (``A) Agree
    strongly`` / ``B) Agree`` ... on their own lines, ``A, B, C, D or E``, ``Answer: A or B``);
    the patterns above (also ``I choose a)``, ``it's D``, ``I'd go with D``, ``The answer would
    be E``, ``**Answer:** C``, ``Answer - A``) then read what is left. When something was set
    aside and no pattern reads the rest, the one capital letter left standing alone is the
    answer (``B is incorrect, so C.``); two or none: ``None``.
    """
    aside = set_aside(text, _LETTER_OPTION, tail=_LABEL_TAIL)
    letter = _read_letter(remainder(aside.text))
    if letter is None and (aside.rejected or aside.listed or aside.joined):
        alone = {m.group(1) for m in _LONE_CAPITAL.finditer(aside.text)}
        letter = alone.pop() if len(alone) == 1 else None
    return letter


def _read_letter(text: str) -> str | None:
    """:func:`parse_letter`'s patterns on a text whose rejected and listed options are set
    aside."""
    stripped = _STRIP_RE.sub("", text.strip())
    for k, pattern in enumerate(_ANSWER_PATTERNS):
        # the bracket patterns read the text before its closing bracket is stripped
        source = text.strip() if pattern in _BRACKET_PATTERNS else stripped
        for match in pattern.finditer(source):
            # reject "A balanced view ..." style sentence starts (the article)
            if k == 0 and re.match(r"^A\s+[a-z]", stripped):
                break
            if k > 0 and _negated(source, match, pattern is _CHOOSE_PATTERN):
                continue
            return next(g for g in match.groups() if g).upper()
    return None


def stated_label(text: str, letter: str) -> int | None:
    """The stance index of the label written right beside the answer letter, or ``None``.

    Read from ``"A) Disagree"`` / ``"A: Agree strongly"`` / ``"**B** - Neutral"`` (the label right
    after the letter and its bracket or punctuation) or ``"Disagree (A)"`` (right before the
    bracketed letter); case-insensitive, the longest label first (``Agree strongly`` before
    ``Agree``). A word that is no label (``c) Highly``) gives ``None``.
    """
    stripped = _STRIP_RE.sub("", text.strip())
    names = "|".join(re.escape(STANCES[s]) for s in _LABELS_LONGEST_FIRST)
    after = re.search(
        rf"(?<![A-Za-z])\(?\**{letter}\**\)?[ \t]*[).:\-–—=,]?[ \t]*\**({names})\b", stripped, re.I
    )
    before = re.search(rf"\b({names})\**\s*\(\**{letter}\b", stripped, re.I)
    found = after or before
    if found is None:
        return None
    label = found.group(1).lower()
    return next(s for s in range(N_STANCES) if STANCES[s].lower() == label)


def label_mismatch(text: str, order: Sequence[int]) -> bool:
    """True when the answer's letter and the label written beside it disagree: the letter
    parsed from ``text`` (:func:`parse_letter`) lists stance ``order[letter]``, and
    :func:`stated_label` names another stance (``"A) Disagree"`` where A is Neutral). The letter
    is what counts (the answer keeps it); this flag only counts the disagreement."""
    letter = parse_letter(text)
    if letter is None:
        return False
    label = stated_label(text, letter)
    return label is not None and label != check_order(order)[LETTERS.index(letter)]


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


def _standalone(tokens: Sequence[str], k: int) -> bool:
    """Token ``k`` is a whole word: it is not continued by the next token (``A`` + ``mar``,
    `` E`` + ``legant``), and an ``A`` is not the article before a lower-case word."""
    if k + 1 >= len(tokens):
        return True
    token, nxt = tokens[k], tokens[k + 1]
    if token[-1:].isalnum() and nxt[:1] not in TOKEN_MARKERS and _CONTINUES_RE.match(nxt):
        return False
    return not (_bare(token) == "A" and _LOWER_WORD_RE.match(nxt))


def answer_position(tokens: Sequence[str], letter: str | None, last: bool = False) -> int | None:
    """Index of the answer token: the first token that stands alone (:func:`_standalone`) and,
    stripped of whitespace, markers and punctuation, is ``letter`` (case-sensitive; an
    answer that is one lower-case letter, ``"b"``, is read from its own token). ``None`` when
    ``letter`` is ``None`` or no token qualifies (no logprob estimate then).

    ``last``: the last such token instead, for an answer whose text reading set options aside
    (an option list before ``Answer: C`` holds an earlier ``C`` that is not the answer)."""
    if letter is None:
        return None
    found = [
        k for k, token in enumerate(tokens) if _bare(token) == letter and _standalone(tokens, k)
    ]
    if not found:
        return None
    return found[-1] if last else found[0]


def _set_aside_any(text: str) -> bool:
    """True when the text reading set a rejected or listed option aside."""
    aside = set_aside(text, _LETTER_OPTION, tail=_LABEL_TAIL)
    return aside.rejected or aside.listed or aside.joined


def _lone_letter_position(tokens: Sequence[str], letter: str) -> int | None:
    """For an answer that is just one lower-case letter (``"b"``): its token."""
    for k, token in enumerate(tokens):
        if _bare(token).upper() == letter and _standalone(tokens, k):
            return k
    return None


def extract(
    text: str,
    tokens: Sequence[str] | None = None,
    top_logprobs: Sequence[TopLogprobs] | None = None,
    min_letter_mass: float = DEFAULT_MIN_LETTER_MASS,
) -> Extraction:
    """Estimate the letter distribution of an answer (see the module docstring).

    ``tokens[k]`` is the k-th generated token and ``top_logprobs[k]`` its top alternatives as
    ``(token, logprob)`` pairs; pass ``None`` when the provider returned no logprobs.
    ``min_letter_mass`` in ``[0, 1]``: below it the logprob vector is not used.
    """
    min_letter_mass = check_min_letter_mass(min_letter_mass)
    letter = parse_letter(text)
    if letter is None:
        return Extraction(letter=None, vector=None, estimator=None)
    mass_total: float | None = None
    pos: int | None = None
    if tokens and top_logprobs:
        pos = answer_position(tokens, letter, last=_set_aside_any(text))
        lower = len(_STRIP_RE.sub("", text.strip())) == 1 or _LOWER_BRACKET.search(text.strip())
        if pos is None and lower:
            pos = _lone_letter_position(tokens, letter)
        if pos is not None and pos < len(top_logprobs):
            mass = letter_mass(top_logprobs[pos])
            mass_total = float(sum(mass))
            if mass_total > 0 and mass_total >= min_letter_mass:
                vector = tuple(m / mass_total for m in mass)
                return Extraction(
                    letter=letter,
                    vector=vector,
                    estimator="logprobs",
                    letter_mass=mass_total,
                    answer_index=pos,
                )
        else:
            pos = None
    vector = tuple(1.0 if L == letter else 0.0 for L in LETTERS)
    return Extraction(
        letter=letter,
        vector=vector,
        estimator="frequency",
        letter_mass=mass_total,
        answer_index=pos,
    )


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


def record_label_mismatches(record: dict[str, object]) -> int:
    """How many of a trial record's extractions have a letter/label disagreement: its
    ``label_mismatch`` flags, or, for a record written before the flag existed, recomputed from
    its ``answers`` and ``orders`` by :func:`label_mismatch`."""
    flags = record.get("label_mismatch")
    if isinstance(flags, list):
        return sum(1 for f in flags if f)
    answers, orders = record.get("answers"), record.get("orders")
    if not isinstance(answers, list) or not isinstance(orders, list):
        return 0
    return sum(1 for a, o in zip(answers, orders, strict=False) if label_mismatch(str(a), o))
