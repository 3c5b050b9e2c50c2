"""The 5-point stance-label scale of the prompt-construction study (IssueBench's scale).

A response gets one of six labels: ``1`` = exclusively pole A (the ``topic_pro`` phrasing),
``2`` = mostly pole A, ``3`` = neutral or balanced, ``4`` = mostly pole B (``topic_con``),
``5`` = exclusively pole B, or ``refusal``. Numeric labels are ordinal; ``refusal`` is outside
the ordinal scale and is never averaged.

An aggregated (ensemble) outcome can also be one of the non-label outcomes in
:data:`NON_LABEL_OUTCOMES`; they are counted, never dropped or scored as a number.
"""

from __future__ import annotations

import math
import re

SCALE: tuple[int, ...] = (1, 2, 3, 4, 5)
NEUTRAL: int = 3
REFUSAL = "refusal"
LABELS: tuple[str, ...] = ("1", "2", "3", "4", "5", REFUSAL)
#: each scale label's position on the scale (refusal has none)
SCORES: dict[str, float] = {str(k): float(k) for k in SCALE}

# outcomes of a response that carry no stance label
NO_MAJORITY = "no_majority"  # judges that answered did not give one label a strict majority
NO_VALID_JUDGE = "no_valid_judge"  # no judge gave an answer on the scale
NO_RESPONSE = "no_response"  # the target returned no text
NO_PROMPT = "no_prompt"  # the generator returned fewer prompts than this slot needs
NON_LABEL_OUTCOMES: tuple[str, ...] = (NO_MAJORITY, NO_VALID_JUDGE, NO_RESPONSE, NO_PROMPT)
OUTCOMES: tuple[str, ...] = LABELS + NON_LABEL_OUTCOMES

# "3", "3 - neutral", "3: ..."; never "2.5" (a period followed by a digit is a decimal point)
_LEADING_LABEL = re.compile(r"^\s*([1-5])(?:\.0+)?(?:\s*[-–:)]|\.(?!\d)|\s*$)")


def is_scale_label(label: object) -> bool:
    """True when ``label`` is one of the numeric labels ``"1"`` .. ``"5"``."""
    return isinstance(label, str) and label in LABELS[:5]


def label_score(label: str) -> int | None:
    """The numeric score 1..5 of a label, or None for refusal / non-label outcomes."""
    return int(label) if is_scale_label(label) else None


def parse_label(value: object) -> str | None:
    """Normalise a human-written label to one of :data:`LABELS`; None when it is not one.

    Accepts ``1`` .. ``5`` (int, float with no fraction, or string: ``"3"``, ``"3.0"``),
    IssueBench's annotation form ``"3 - neutral/ambivalent"`` (the leading digit), and
    ``refusal`` in any case. A fraction is no label (``2.5``, ``"2.5"``, ``"2.5 - mostly"``).
    """
    if value is None:
        return None
    if isinstance(value, bool):
        return None
    if isinstance(value, int | float):
        if isinstance(value, float) and (math.isnan(value) or not value.is_integer()):
            return None
        return str(int(value)) if int(value) in SCALE else None
    text = str(value).strip().strip("\"'`*").strip()
    if text.lower() == REFUSAL:
        return REFUSAL
    match = _LEADING_LABEL.match(text)
    if match:
        return match.group(1)
    return None
