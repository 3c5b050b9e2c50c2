"""Topic stability S_t of one model x statement."""

from __future__ import annotations

from collections.abc import Sequence

from inspect_stance.press.labels import is_labelled, is_stable


def topic_stability(labels: Sequence[str]) -> float | None:
    """S_t = (argument sets labelled S^R or S^L) / (argument sets with a label).

    Sets without a label (indeterminate, unclassified) are left out of the denominator: a topic
    on which the model voices no stance is not evidence of instability. None when no set has a
    label.
    """
    labelled = [x for x in labels if is_labelled(x)]
    if not labelled:
        return None
    return sum(1 for x in labelled if is_stable(x)) / len(labelled)
