"""Construct clarity: do annotators recover the intent and stance a prompt was built to carry?

For a field ``f`` (``intent`` or ``stance``) and a source:

- **Recovery accuracy**: the share of parsed answers equal to the intended label, over every
  annotator's answers on the source's prompts that have an intended label (real prompts
  without labels are left out). Unparsed answers are not in the denominator; they are counted
  separately (``unparsed_<field>``).
- **Cohen's kappa per annotator**: the annotator's labels against the intended labels,
  ``kappa = (p_o - p_e) / (1 - p_e)`` with ``p_o`` the observed agreement and
  ``p_e = sum_c p_annotator(c) p_intended(c)`` (``statsmodels.stats.inter_rater.cohens_kappa``
  on the contingency table over the categories of the field).
- **Fleiss' kappa across annotators** (``statsmodels.stats.inter_rater.fleiss_kappa``): the
  annotators' labels on the prompts every annotator labelled (parsed), no reference to the
  intended labels: ``kappa = (P_bar - P_e) / (1 - P_e)``.

NaN where a figure is undefined (no data, or a single category everywhere: ``p_e = 1``).
"""

from __future__ import annotations

import math
import warnings
from collections import defaultdict
from collections.abc import Sequence

from inspect_stance.validation.annotation import (
    INTENT_LABELS,
    STANCES,
    Annotation,
)

NAN = float("nan")
CATEGORIES: dict[str, tuple[str, ...]] = {"intent": INTENT_LABELS, "stance": STANCES}


def _intended(row: Annotation, field: str) -> str | None:
    return row.intended_intent if field == "intent" else row.intended_stance


def _answer(row: Annotation, field: str) -> str | None:
    value: str | None = getattr(row, field)
    return value


def accuracy(rows: Sequence[Annotation], field: str) -> tuple[float, int]:
    """Share of parsed answers equal to the intended label, and the number of such answers."""
    pairs = [
        (_answer(r, field), _intended(r, field))
        for r in rows
        if _intended(r, field) is not None and _answer(r, field) is not None
    ]
    if not pairs:
        return NAN, 0
    return sum(a == b for a, b in pairs) / len(pairs), len(pairs)


def cohen_kappa(
    labels: Sequence[str], reference: Sequence[str], categories: Sequence[str]
) -> float:
    """Cohen's kappa of two label lists over ``categories`` (statsmodels); NaN when undefined."""
    if not labels or len(labels) != len(reference):
        return NAN
    import numpy as np
    from statsmodels.stats.inter_rater import cohens_kappa

    index = {c: i for i, c in enumerate(categories)}
    table = np.zeros((len(categories), len(categories)))
    for a, b in zip(labels, reference, strict=True):
        table[index[a], index[b]] += 1
    n = table.sum()
    p_e = float((table.sum(axis=1) / n) @ (table.sum(axis=0) / n))
    if math.isclose(p_e, 1.0):
        return NAN
    with warnings.catch_warnings():  # its z statistic divides by zero when kappa = +-1
        warnings.simplefilter("ignore", RuntimeWarning)
        return float(cohens_kappa(table).kappa)


def kappa_per_annotator(rows: Sequence[Annotation], field: str) -> dict[str, float]:
    """Cohen's kappa of each annotator's parsed labels against the intended labels."""
    by: dict[str, tuple[list[str], list[str]]] = defaultdict(lambda: ([], []))
    for r in rows:
        answer, intended = _answer(r, field), _intended(r, field)
        if answer is not None and intended is not None:
            by[r.annotator][0].append(answer)
            by[r.annotator][1].append(intended)
    return {
        a: cohen_kappa(labels, ref, CATEGORIES[field]) for a, (labels, ref) in sorted(by.items())
    }


def fleiss(rows: Sequence[Annotation], field: str) -> tuple[float, int]:
    """Fleiss' kappa over the prompts labelled (parsed) by every annotator of ``rows``, and
    the number of those prompts; under ``--epochs N`` a unit is a prompt in one epoch (each
    epoch's labels are one more round of the prompt, none overwriting another). NaN with
    fewer than two annotators or units."""
    annotators = sorted({r.annotator for r in rows})
    by_item: dict[tuple[str, int], dict[str, str]] = defaultdict(dict)
    for r in rows:
        answer = _answer(r, field)
        if answer is not None:
            by_item[(r.item_id, r.epoch)][r.annotator] = answer
    complete = [v for v in by_item.values() if len(v) == len(annotators)]
    if len(annotators) < 2 or len(complete) < 2:
        return NAN, len(complete)
    import numpy as np
    from statsmodels.stats.inter_rater import fleiss_kappa

    categories = CATEGORIES[field]
    table = np.array([[list(v.values()).count(c) for c in categories] for v in complete])
    p_j = table.sum(axis=0) / table.sum()
    if math.isclose(float((p_j**2).sum()), 1.0):
        return NAN, len(complete)
    return float(fleiss_kappa(table, method="fleiss")), len(complete)


def clarity_summary(
    rows: Sequence[Annotation], sources: Sequence[str], annotators: Sequence[str]
) -> dict[str, float]:
    """Clarity figures of one group of annotators, per source, as flat keys.

    For ``f`` in intent, stance and each source ``s``: ``<f>_accuracy_<s>``, ``<f>_n_<s>``
    (parsed answers with an intended label), ``<f>_fleiss_<s>``, and ``<f>_kappa_<s>_a<i>``
    for the i-th annotator (1-based, in the order of ``annotators``).
    """
    out: dict[str, float] = {}
    for field in ("intent", "stance"):
        for source in sources:
            subset = [r for r in rows if r.source == source]
            acc, n = accuracy(subset, field)
            out[f"{field}_accuracy_{source}"] = acc
            out[f"{field}_n_{source}"] = float(n)
            out[f"{field}_fleiss_{source}"] = fleiss(subset, field)[0]
            kappas = kappa_per_annotator(subset, field)
            for i, name in enumerate(annotators, start=1):
                out[f"{field}_kappa_{source}_a{i}"] = kappas.get(name, NAN)
    return out
