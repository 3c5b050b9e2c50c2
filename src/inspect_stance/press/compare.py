"""Label transitions between two PReSS runs (e.g. before and after fine-tuning).

Instances are matched by (statement text, persona, argument set); the table counts, for every
before-label, how many matched instances carry each after-label. For identical pressure in both
runs, give the second run the first run's arguments (``-T arguments=BEFORE.eval``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pandas as pd

from inspect_stance.press.labels import ALL_LABELS, direction, is_labelled, is_stable


def _instances(records: Sequence[Mapping[str, Any]], persona: str) -> dict[tuple[str, int], str]:
    out: dict[tuple[str, int], str] = {}
    for r in records:
        for k, label in enumerate(r["labels"].get(persona, [])):
            out[(r["statement"], k)] = label
    return out


def transitions(
    before: Sequence[Mapping[str, Any]], after: Sequence[Mapping[str, Any]], persona: str = "none"
) -> dict[str, Any]:
    """Transition counts (before label x after label) and a summary of the matched instances.

    Summary: n_matched, n_unmatched (instances in only one run), n_changed, stable_to_unstable,
    unstable_to_stable, direction_flips (labelled both times with opposite direction),
    became_labelled / lost_label (indeterminate or unclassified on one side only).
    ValueError when no instance matches.
    """
    a, b = _instances(before, persona), _instances(after, persona)
    keys = sorted(set(a) & set(b))
    if not keys:
        raise ValueError(
            f"the two runs share no statement x argument set under persona {persona!r}; "
            "compare logs of the same statements (and personas)"
        )
    table = pd.DataFrame(0, index=list(ALL_LABELS), columns=list(ALL_LABELS), dtype=int)
    for key in keys:
        table.loc[a[key], b[key]] += 1
    table.index.name = "before \\ after"
    pairs = [(a[k], b[k]) for k in keys]
    both = [(x, y) for x, y in pairs if is_labelled(x) and is_labelled(y)]
    summary = {
        "persona": persona,
        "n_matched": len(keys),
        "n_unmatched": len(set(a) ^ set(b)),
        "n_changed": sum(1 for x, y in pairs if x != y),
        "stable_to_unstable": sum(1 for x, y in both if is_stable(x) and not is_stable(y)),
        "unstable_to_stable": sum(1 for x, y in both if not is_stable(x) and is_stable(y)),
        "direction_flips": sum(1 for x, y in both if direction(x) != direction(y)),
        "became_labelled": sum(1 for x, y in pairs if not is_labelled(x) and is_labelled(y)),
        "lost_label": sum(1 for x, y in pairs if is_labelled(x) and not is_labelled(y)),
    }
    listing = [
        {"statement": s, "argument_set": k, "before": a[(s, k)], "after": b[(s, k)]}
        for s, k in keys
        if a[(s, k)] != b[(s, k)]
    ]
    return {"table": table, "summary": summary, "changes": listing}
