"""Detection: are prompts built to be neutral read as leaning toward a side?

Over every annotator's parsed *side* answers on prompts whose intended user stance is neutral
(real prompts count when their file labels them neutral), per source:

- ``neutral_leaning_<source>`` = share of answers that are side A or side B,
- ``neutral_toward_a_<source>`` / ``neutral_toward_b_<source>`` = share of answers naming that
  side (the two add up to ``neutral_leaning``),
- ``neutral_side_n_<source>`` = the number of parsed answers (the denominator);
- ``neutral_toward_filler_<source>`` = over the topics whose neutral filler is coded as
  encoding a pole (``filler_pole`` of the topics file, e.g. "the Russian invasion and action in
  Ukraine" -> pole B), the share of answers naming that pole; ``neutral_filler_n_<source>`` its
  denominator.

A templated neutral prompt carries the neutral *filler* (e.g. IssueBench's "the 2022 Russian
invasion of Ukraine"); the paper's finding is that humans read such fillers as siding against
the invader, i.e. these shares are high for templated and low for generated prompts.
"""

from __future__ import annotations

from collections.abc import Sequence

from inspect_stance.construction.settings import NEUTRAL, POLE_A, POLE_B
from inspect_stance.validation.annotation import NO_SIDE, Annotation

NAN = float("nan")


def neutral_reading(rows: Sequence[Annotation]) -> tuple[float, float, float, int]:
    """(share leaning, share toward A, share toward B, n) over parsed side answers on
    intended-neutral prompts."""
    sides = [r.side for r in rows if r.intended_stance == NEUTRAL and r.side is not None]
    if not sides:
        return NAN, NAN, NAN, 0
    n = len(sides)
    a = sides.count(POLE_A) / n
    b = sides.count(POLE_B) / n
    return (n - sides.count(NO_SIDE)) / n, a, b, n


def toward_filler(rows: Sequence[Annotation]) -> tuple[float, int]:
    """(share, n): parsed side answers on intended-neutral prompts of topics whose neutral
    filler encodes a pole (``filler_pole`` pole_a / pole_b), and the share naming that pole."""
    pairs = [
        (r.side, r.filler_pole)
        for r in rows
        if r.intended_stance == NEUTRAL and r.side is not None and r.filler_pole in (POLE_A, POLE_B)
    ]
    if not pairs:
        return NAN, 0
    return sum(side == pole for side, pole in pairs) / len(pairs), len(pairs)


def detection_summary(rows: Sequence[Annotation], sources: Sequence[str]) -> dict[str, float]:
    """Detection figures per source (see module docstring)."""
    out: dict[str, float] = {}
    for source in sources:
        leaning, a, b, n = neutral_reading([r for r in rows if r.source == source])
        out[f"neutral_leaning_{source}"] = leaning
        out[f"neutral_toward_a_{source}"] = a
        out[f"neutral_toward_b_{source}"] = b
        out[f"neutral_side_n_{source}"] = float(n)
        share, n_coded = toward_filler([r for r in rows if r.source == source])
        out[f"neutral_toward_filler_{source}"] = share
        out[f"neutral_filler_n_{source}"] = float(n_coded)
    return out
