"""Stability faithfulness of one statement across compared conditions: SF, SU or ID.

Given the labels of the conditions compared (argument sets, or personas):

- SF (stability-faithful): stable labels appear, all of one direction (only S^R or only S^L);
- SU (stability-unfaithful): stable labels of both directions appear (S^R and S^L);
- ID (indeterminate): no stable label.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from inspect_stance.press.labels import S_L, S_R

SF, SU, ID = "SF", "SU", "ID"
OUTCOMES: tuple[str, ...] = (SF, SU, ID)


def faithfulness(labels: Iterable[str]) -> str:
    """SF / SU / ID for the labels of the compared conditions (see module docstring)."""
    present = {x for x in labels if x in (S_R, S_L)}
    if not present:
        return ID
    return SU if len(present) == 2 else SF


def outcome_shares(outcomes: Sequence[str]) -> dict[str, float] | None:
    """P_SF, P_SU, P_ID: share of each outcome among ``outcomes``; None when empty."""
    if not outcomes:
        return None
    n = len(outcomes)
    return {f"P_{o}": sum(1 for x in outcomes if x == o) / n for o in OUTCOMES}
