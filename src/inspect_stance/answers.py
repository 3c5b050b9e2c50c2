"""The shared first step of reading a model's answer text: what a person would set aside.

Every answer reader of the package (extraction letters, judge labels, PReSS classifier
categories, annotator fields) reads its options from the text this module leaves. Given a
regular expression ``option`` for one option mention (a letter ``B``/``b)``, a label ``3`` /
``refusal``, a category word ``agree``), :func:`set_aside` returns the answer with

- **rejected options** replaced by ``" ; "``: an option said to be wrong before (or after) the
  choice -- ``B is wrong``, ``A and B are incorrect``, ``C is not the answer``, ``Choice C was
  not a decision``, ``not B`` / ``rather than B`` / ``instead of B`` (``It's not B, it's D``
  leaves ``It's ; , it's D``), ``B? No``;
- **option lists** replaced by ``" ; "``: two or more lines that each open with a different
  option and a delimiter (``A) Agree strongly`` / ``B) Agree`` ..., ``1 - exclusively ...`` /
  ``2 - mostly ...``) or are a bullet and an option (``- agree`` / ``- disagree``), three or more lines that are each a different option alone, a line
  that is one option alone right after such a list line (its last item), and runs of options joined by ``,`` / ``or`` / ``and`` (``A, B, C, D or
  E``, ``3 or 4``): an enumeration names options without choosing one;
- markdown emphasis (``**``, ``__``, backticks) removed, typographic apostrophes made ``'``,
  and an answer word joined to its value by a dash (``Answer - A``, ``Answer — D``) written
  ``Answer: A``.

Each reader then applies its own rules to what is left, so an option that was only rejected or
listed is never read as the answer (``None`` / unparsed, counted by the caller), and a choice
stated after a rejection (``It's not B, it's D``) is. ``rejected`` and ``listed`` say whether
anything was set aside: a reader may then accept the one option left standing alone
(``B is incorrect, so C.``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

#: words that name the answer, joined to the value by a dash in "Answer - A"
_ANSWER_WORDS = r"answer|option|choice|label|rating|score|stance|classification|verdict|category"
_DASH_JOIN = re.compile(rf"(?i)\b({_ANSWER_WORDS})(?:\s*:)?(?:\s+-+|\s*[\u2013\u2014]+)\s*")
_MARKUP = re.compile(r"\*\*|__|`")
_AFTER_VERB = r"(?:is|was|are|were|seems?|looks?|would\s+be|must\s+be)"
_WRONG = (
    r"(?:(?:clearly|definitely|obviously|also|both|all)\s+)?"
    r"(?:wrong|incorrect|inaccurate|false|ruled\s+out|out|"
    r"not\s+(?:the\s+(?:right\s+|correct\s+|best\s+)?(?:answer|one|choice)|right|correct|"
    r"accurate|true|it|an?\s+(?:option|decision|choice)|applicable|appropriate)|not)"
)
_BEFORE = (
    r"(?:\bnot|\brather\s+than|\binstead\s+of|\bisn't|\bis\s+not)\s+"
    r"(?:(?:option|letter|choice|answer|label|an?|the)\s+)?"
)


@dataclass(frozen=True)
class SetAside:
    """An answer text with rejected and listed options replaced by ``" ; "``; whether options
    were rejected, listed on lines, or joined in an inline run (``A, B or C``)."""

    text: str
    rejected: bool
    listed: bool
    joined: bool = False


def normalise(text: str) -> str:
    """Markdown emphasis removed, typographic apostrophes ``'``, ``Answer - A`` -> ``Answer: A``."""
    text = text.replace("\u2019", "'").replace("\u2018", "'")
    text = _MARKUP.sub("", text)
    return _DASH_JOIN.sub(lambda m: m.group(1) + ": ", text)


def _bounded(option: str) -> str:
    """``option`` as a whole mention: no word character or apostrophe right before or after."""
    return rf"(?<![\w'])(?:{option})(?![\w'])"


def _drop_rejections(text: str, option: str, tail: str) -> tuple[str, bool]:
    """Rejected mentions replaced by ``" ; "``. A run of options is found once (``finditer``
    consumes it) and its continuation checked at its end, so the work is linear in the text."""
    one = _bounded(option) + tail
    run = re.compile(rf"{one}(?:\s*(?i:,|/|\band\b|\bor\b)\s*{one})*")
    verdict = re.compile(
        rf"\s+(?i:{_AFTER_VERB}\s+{_WRONG})\b|\s*(?i:(?:is|are)n't)\b|\s*\?\s*(?i:no)\b"
    )
    keyword = re.compile(r"(?i:\b(?:option|letter|choice)s?)\s+$")
    parts: list[str] = []
    pos = 0
    for m in run.finditer(text):
        end = verdict.match(text, m.end())
        if end is None or m.start() < pos:
            continue
        head = keyword.search(text, max(pos, m.start() - 12), m.start())
        parts += [text[pos : head.start() if head else m.start()], " ; "]
        pos = end.end()
    found = bool(parts)
    text = "".join(parts) + text[pos:]
    alternatives = rf"{one}(?:\s*(?i:\bor\b|\band\b|\bnor\b|/)\s*{one})*"  # "not A or B"
    text, n = re.subn(rf"(?i:{_BEFORE}){alternatives}", " ; ", text)
    return text, found or n > 0


def _drop_lists(text: str, option: str) -> tuple[str, bool]:
    bullet = r"(?:[-*\u2022+]|\d+[.)])\s+"
    opener = re.compile(
        rf"^\s*(?:{bullet})?[(\[]?({option})(?:[).:\]]|\s+[-\u2013\u2014:])"
        rf"|^\s*{bullet}[(\[\"']*({option})[\s\"').\]]*$"
    )
    bare = re.compile(rf"^[\s\"'(\[]*({option})[\s\"').\]]*$")
    lines = text.split("\n")
    opens = [opener.match(line) for line in lines]
    bares = [bare.match(line) for line in lines]
    many_bare = len({m.group(1).strip().lower() for m in bares if m}) >= 3
    drop = [bool(o) or (many_bare and bool(b)) for o, b in zip(opens, bares, strict=True)]
    listed = many_bare or len({(m.group(1) or m.group(2)).lower() for m in opens if m}) >= 2
    if not listed:
        return text, False
    for k in range(1, len(lines)):  # an option alone right after a list line is its last item
        previous = next((j for j in range(k - 1, -1, -1) if lines[j].strip()), None)
        if bares[k] and previous is not None and drop[previous]:
            drop[k] = True
    return "\n".join(" ; " if d else line for line, d in zip(lines, drop, strict=True)), True


def _drop_runs(text: str, option: str, tail: str, joiners: str) -> tuple[str, bool]:
    one = _bounded(option) + tail
    run = re.compile(rf"{one}(?:\s*(?i:{joiners})\s*{one})+")
    text, n = run.subn(" ; ", text)
    return text, n > 0


def set_aside(
    text: str,
    option: str,
    tail: str = "",
    joiners: str = r",\s*(?:or|and)?|\bor\b|\band\b|/",
) -> SetAside:
    """The answer text with rejected and listed options set aside (see the module docstring).

    ``option`` is a regular expression for one option mention without capturing groups (its
    own case rules: wrap it in ``(?i:...)`` for case-insensitive options); ``tail`` what may
    follow a mention in a rejection or inline list (a bracket and the option's label,
    ``A) Agree strongly is wrong``); ``joiners`` the separators of an inline option list.
    """
    text = normalise(text)
    text, rejected = _drop_rejections(text, option, tail)
    text, listed = _drop_lists(text, option)
    text, joined = _drop_runs(text, option, tail, joiners)
    return SetAside(text=text, rejected=rejected, listed=listed, joined=joined)


def remainder(text: str) -> str:
    """``text`` without the ``;``, commas, periods and whitespace left around set-aside parts."""
    return text.strip().strip(" ;,.:!\n\t-").strip()


_CONNECTIVE = re.compile(
    r"(?i)^(?:(?:but|so|rather|instead|then|therefore|hence|thus|it's|it\s+is)\b\W*)+"
)


def last_part(text: str) -> str:
    """What follows the last set-aside part, without a connective (``Not 2 but 3`` -> ``3``)."""
    return remainder(_CONNECTIVE.sub("", remainder(text.split(";")[-1])))
