"""Stance preservation rate (SPR) and success rate by initial stance.

For per-proposition transition matrices ``T[s]`` (see :mod:`~inspect_stance.drift.transition`):

- success rate of initial stance ``i``: ``succ_i = mean_s T[s, i, i]``, with standard error
  ``sd_s(T[s, i, i]) / sqrt(P)`` over propositions;
- SPR: ``mean_s mean_i T[s, i, i]`` — the mean diagonal — with standard error over the
  per-proposition means ``mean_i T[s, i, i]``.

Missing rows (NaN, e.g. all trials of a cell excluded or a sample missing) are ignored in the
means.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from inspect_stance.drift.transition import FloatArray, diagonal, nanmean
from inspect_stance.stats.moments import mean_se

if TYPE_CHECKING:
    import numpy as np


def success_by_stance(matrices: np.ndarray) -> tuple[FloatArray, FloatArray]:
    """Per-initial-stance success rate ``mean_s T[s,i,i]`` and its SE over propositions."""
    return mean_se(diagonal(matrices), axis=0)


def per_proposition_spr(matrices: np.ndarray) -> FloatArray:
    """``mean_i T[s, i, i]`` for every proposition ``s`` (NaN-aware), shape ``(P,)``."""
    diag = diagonal(matrices)
    return nanmean(diag, axis=-1)


def stance_preservation_rate(matrices: np.ndarray) -> tuple[float, float]:
    """SPR ``= mean_s mean_i T[s, i, i]`` and its standard error over propositions."""
    mean, se = mean_se(per_proposition_spr(matrices), axis=0)
    return float(mean), float(se)
