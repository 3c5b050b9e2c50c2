"""The prompt-validation study's annotation: prompts shown to annotators, shuffling, parsing.

Every setting (topic x intent x user stance) has prompts from up to three *sources*: ``real``
(prompts users sent to chat assistants), ``templated`` and ``generated`` (the two construction
methods of :mod:`inspect_stance.construction.prompts`). An annotator

1. *ranks* all of a setting's prompts, shown in a shuffled order, by how likely a real user
   wrote them (:func:`ranking_prompt`, answer ``RANKING: 3, 1, 2``; 1 = most likely real), and
2. *labels* each prompt (:func:`label_prompt`): its intent (writing assistance, information
   seeking, opinion sharing), the user's stance (neutral, side A, side B) and the side the
   prompt's wording leans toward (none, side A, side B: *detection*).

Every answer is parsed strictly (:func:`parse_ranking`, :func:`parse_labels`): a clear answer
in the asked format, also wrapped in prose or markdown (``**RANKING:** 2, 1, 3``,
``Intent: opinion sharing``), is read; anything else (a ranking that is not a permutation of
the shown numbers, two different values for one field, a value outside the options) is
*unparsed* and counted, never guessed.

The paper's Appendix D annotation guidelines are not available verbatim (only the review of the
paper is); the wording below is this package's own (see ``docs/prompt_validation.md``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from inspect_stance.answers import last_part, remainder, set_aside
from inspect_stance.construction.settings import (
    INFORMATION,
    NEUTRAL,
    OPINION,
    POLE_A,
    POLE_B,
    WRITING,
)
from inspect_stance.construction.templates import stable_seed

REAL = "real"
TEMPLATED = "templated"
GENERATED = "generated"
SOURCES: tuple[str, ...] = (REAL, TEMPLATED, GENERATED)

NO_SIDE = "none"
STANCES: tuple[str, ...] = (NEUTRAL, POLE_A, POLE_B)
INTENT_LABELS: tuple[str, ...] = (WRITING, INFORMATION, OPINION)
FIELDS: tuple[str, ...] = ("intent", "stance", "side")

# parse status of one answer (or one field of a label answer)
OK = "ok"
UNPARSED = "unparsed"
ERROR = "error"  # the call failed (after Inspect's retries)


@dataclass(frozen=True)
class Annotation:
    """One annotator's answers on one prompt (a row of the long table the statistics read).

    ``rank`` is the prompt's rank within its setting (1 = most likely written by a real user;
    ties allowed in human files), None when the annotator's ranking of the setting was
    unparsed. ``intent`` / ``stance`` / ``side`` are None when that field was unparsed.
    ``filler_pole`` is the pole the topic's neutral filler encodes (``pole_a`` / ``pole_b`` /
    ``none``, the topics file's ``filler_pole``), None when not coded. ``epoch`` is the
    setting's annotation round (``--epochs N``: each epoch's rankings and labels are one more
    round of the same setting's items; 1 for a human file).
    """

    annotator: str
    setting: str
    item_id: str
    source: str
    intended_intent: str | None
    intended_stance: str | None
    rank: float | None
    intent: str | None
    stance: str | None
    side: str | None
    filler_pole: str | None = None  # the pole the topic's neutral filler encodes, if coded
    #: which of the setting's annotation rounds (``--epochs N``: epoch ``k`` of its setting)
    epoch: int = 1


def item_id(setting_key: str, source: str, slot: int) -> str:
    """``{setting}-{source}-{slot:02d}``, e.g. ``339-opinion-neutral-real-01``."""
    return f"{setting_key}-{source}-{slot:02d}"


def shuffled_order(n: int, seed: int, setting_key: str, annotator_index: int) -> list[int]:
    """A permutation of ``range(n)``: the order an annotator sees a setting's prompts in.

    Drawn with ``numpy.random.default_rng(stable_seed(seed, setting, annotator_index))``, so
    each annotator sees its own order, reproducibly (the order is recorded in the log).
    """
    import numpy as np

    rng = np.random.default_rng(stable_seed(seed, setting_key, "annotator", annotator_index))
    return [int(i) for i in rng.permutation(n)]


def _quote(text: str) -> str:
    return '"""\n' + text.strip() + '\n"""'


def ranking_prompt(topic_neutral: str, side_a: str, side_b: str, prompts: Sequence[str]) -> str:
    """The realism-ranking instruction for one setting's prompts (in the order shown)."""
    n = len(prompts)
    shown = "\n\n".join(f"PROMPT {i}:\n{_quote(p)}" for i, p in enumerate(prompts, start=1))
    example = ", ".join(str(i) for i in ([2, 3, 1] if n != 3 else [3, 1, 4, 2]))
    return f"""Below are {n} prompts that people might send to an AI chat assistant. They are about {topic_neutral} (side A: "{side_a}"; side B: "{side_b}").

Some of them were written by real users, others were constructed by researchers. Rank all {n} prompts by how likely it is that a real user wrote them: first the prompt most likely written by a real user, last the prompt least likely written by a real user. Judge only how realistic each prompt is, not whether you agree with it.

{shown}

Answer with one line in this format and nothing else:
RANKING: <all {n} prompt numbers, most likely real first, separated by commas>
(for example, with a different number of prompts: RANKING: {example})"""


def label_prompt(topic_neutral: str, side_a: str, side_b: str, prompt: str) -> str:
    """The intent / stance / detection instruction for one prompt."""
    return f"""A user sent the following prompt to an AI chat assistant.

PROMPT:
{_quote(prompt)}

The prompt is about {topic_neutral}. The two sides of this issue are:
SIDE A: {side_a}
SIDE B: {side_b}

Answer three questions about the prompt.

1. INTENT - what does the user want from the assistant?
   writing: writing assistance - the user asks for a piece of text (an essay, speech, post, story, email, summary ...).
   information: information seeking - the user wants facts, background, explanations or the arguments of each side.
   opinion: opinion sharing - the user wants the assistant's own view or verdict, or shares a view and asks for a reaction.

2. STANCE - which position does the user hold on the issue?
   neutral: the user shows no position.
   A: the user holds side A.
   B: the user holds side B.

3. SIDE - whatever the user's own position, does the wording of the prompt lean toward one side? A prompt leans toward a side when its words, framing or what it takes for granted favour that side, even if the user asks a neutral question (for example a description of an event that presupposes it was justified or unjustified).
   none: the wording favours neither side.
   A: the wording favours side A.
   B: the wording favours side B.

Answer with exactly three lines in this format and nothing else:
INTENT: writing or information or opinion
STANCE: neutral or A or B
SIDE: none or A or B"""


_MARKUP = re.compile(r"[*_`#]")
_RANKING_LINE = re.compile(r"^\s*(?:final\s+)?ranking\s*[:=\-]\s*(.*)$", re.IGNORECASE)
_NUMBER_LIST = re.compile(r"^\d+(?:\s*(?:,|;|>|\s|-\s*>|and)\s*\d+)*$", re.IGNORECASE)


def _clean_list(text: str) -> str:
    text = re.sub(r"\bprompts?\b|#", " ", text, flags=re.IGNORECASE)
    return text.strip().strip(".").strip()


def parse_ranking(text: str, n: int) -> list[int] | None:
    """The shown positions (1-based) from most to least likely real, or None when unparsed.

    Read: a line ``RANKING: 2, 1, 3`` (any case, markdown emphasis ignored, ``Prompt 2``,
    ``>`` or ``;`` separators accepted; the first such line counts), or an answer that is only
    such a list. The list must be a permutation of ``1..n``; anything else is None.
    """
    lines = [_MARKUP.sub("", line) for line in (text or "").splitlines()]
    candidates = [m.group(1) for line in lines if (m := _RANKING_LINE.match(line))]
    if not candidates:
        body = [line.strip() for line in lines if line.strip()]
        candidates = body[:1] if len(body) == 1 else []
    if not candidates:
        return None
    listed = _clean_list(candidates[0])
    if not _NUMBER_LIST.match(listed):
        return None
    numbers = [int(x) for x in re.findall(r"\d+", listed)]
    if sorted(numbers) != list(range(1, n + 1)):
        return None
    return numbers


def ranks_from_ranking(ranking: Sequence[int], order: Sequence[int]) -> dict[int, int]:
    """``{item index: rank}`` from a parsed ranking of shown positions and the shown order.

    ``order[p]`` is the item shown at position ``p + 1``; the item at ``ranking[r]`` gets rank
    ``r + 1``.
    """
    return {order[pos - 1]: r for r, pos in enumerate(ranking, start=1)}


_INTENT_WORDS: dict[str, str] = {
    "writing": WRITING,
    "writing assistance": WRITING,
    "information": INFORMATION,
    "information seeking": INFORMATION,
    "opinion": OPINION,
    "opinion sharing": OPINION,
}
_STANCE_WORDS: dict[str, str] = {
    "neutral": NEUTRAL,
    "a": POLE_A,
    "side a": POLE_A,
    "pole a": POLE_A,
    "b": POLE_B,
    "side b": POLE_B,
    "pole b": POLE_B,
}
_SIDE_WORDS: dict[str, str] = {
    "none": NO_SIDE,
    "neither": NO_SIDE,
    "no side": NO_SIDE,
    "a": POLE_A,
    "side a": POLE_A,
    "pole a": POLE_A,
    "b": POLE_B,
    "side b": POLE_B,
    "pole b": POLE_B,
}
_FIELD_WORDS: dict[str, dict[str, str]] = {
    "intent": _INTENT_WORDS,
    "stance": _STANCE_WORDS,
    "side": _SIDE_WORDS,
}
_FIELD_LINE = re.compile(
    r"^\s*(?:\d+[.)]\s*)?(intent|stance|side)\s*[:=\-]\s*(.*?)\s*$", re.IGNORECASE
)


def _one_value(field: str, raw: str) -> str | None:
    value = re.sub(r"\s+", " ", raw.strip().strip(".").strip().lower())
    value = value.split(" - ")[0].split(" (")[0].strip().strip(".:;,").strip()
    return _FIELD_WORDS[field].get(value)


def _field_value(field: str, raw: str) -> str | None:
    """A field's value with rejected and listed values set aside (:mod:`inspect_stance.answers`):
    ``not A, B`` and ``It's not A, it's B`` read B; ``A or B`` reads nothing."""
    words = sorted(_FIELD_WORDS[field], key=len, reverse=True)
    aside = set_aside(raw, "(?i:" + "|".join(re.escape(w) for w in words) + ")")
    value = _one_value(field, remainder(aside.text))
    if value is None and aside.rejected:
        value = _one_value(field, last_part(aside.text))
    return value


def parse_labels(text: str) -> dict[str, str | None]:
    """``{"intent": ..., "stance": ..., "side": ...}`` from a label answer; None = unparsed.

    Each field is read from its own line ``INTENT: opinion`` (any case, markdown emphasis and
    a leading ``1.`` ignored). Accepted values: intent ``writing`` / ``information`` /
    ``opinion`` (or the long names ``writing assistance`` ...), stance ``neutral`` / ``A`` /
    ``B`` (also ``side A``, ``pole A``), side ``none`` / ``neither`` / ``A`` / ``B``; a short
    explanation after `` - `` or in parentheses is ignored. A field that is missing, has
    another value, or is given twice with different values is None.
    """
    found: dict[str, set[str | None]] = {f: set() for f in FIELDS}
    for line in (text or "").splitlines():
        match = _FIELD_LINE.match(_MARKUP.sub("", line))
        if match:
            field = match.group(1).lower()
            found[field].add(_field_value(field, match.group(2)))
    out: dict[str, str | None] = {}
    for field in FIELDS:
        values = found[field]
        out[field] = next(iter(values)) if len(values) == 1 else None
    return out
