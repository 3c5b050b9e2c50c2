"""Strict-majority aggregation of the judge ensemble's labels for one response.

Only judges that *answered* count: an answer is a label on the scale (``1``..``5``) or
``refusal``; unparsable, empty and off-scale answers are recorded per judge and left out of
the vote. A label wins when more than half of the answering judges gave it:
``count(label) > m / 2`` with ``m`` the number of answering judges. Otherwise the outcome is
``no_majority``; with ``m == 0`` it is ``no_valid_judge``. ``refusal`` wins like any label.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from inspect_stance.construction.labels import LABELS, NO_MAJORITY, NO_VALID_JUDGE


def strict_majority(labels: Iterable[str | None]) -> str:
    """The label given by more than half of the judges that answered, else an outcome code.

    ``labels`` holds one entry per judge: a label from :data:`LABELS` or None (no usable
    answer). Returns that label, ``"no_majority"`` or ``"no_valid_judge"``.
    """
    answered = [label for label in labels if label is not None]
    for label in answered:
        if label not in LABELS:
            raise ValueError(f"judge label {label!r} is not one of {LABELS}")
    if not answered:
        return NO_VALID_JUDGE
    label, count = Counter(answered).most_common(1)[0]
    if 2 * count > len(answered):
        return label
    return NO_MAJORITY
