"""The five stance-drift patterns and the stance drift rate (SDR).

Each pattern is a set of off-diagonal cells ``(i, j)`` (initial ``i`` -> extracted ``j``); its
mass for proposition ``s`` is the mean over the five initial stances of the summed cells,
``m_s = (1/5) * sum_{(i,j) in cells} T[s, i, j]``, reported as the mean (SE) over propositions.

- ``polarization``: {(1,0), (3,4)} — a moderate stance read back as the strong one;
- ``moderation``: {(0,1), (4,3)} — a strong stance read back as the moderate one;
- ``moderation_to_neutral``: {(i,2): i != 2};
- ``flipping``: {(i,j): i in {0,1}, j in {3,4}} U {(i,j): i in {3,4}, j in {0,1}};
- ``deviation_from_neutrality``: {(2,j): j != 2}.

The patterns partition the 20 off-diagonal cells, so for rows summing to 1,
``SDR = 1 - SPR = sum of the five pattern masses``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from inspect_stance.drift.transition import FloatArray, nanmean
from inspect_stance.stances import N_STANCES
from inspect_stance.stats.moments import mean_se

if TYPE_CHECKING:
    import numpy as np

PATTERN_CELLS: dict[str, tuple[tuple[int, int], ...]] = {
    "polarization": ((1, 0), (3, 4)),
    "moderation": ((0, 1), (4, 3)),
    "moderation_to_neutral": tuple((i, 2) for i in range(N_STANCES) if i != 2),
    "flipping": tuple(
        [(i, j) for i in (0, 1) for j in (3, 4)] + [(i, j) for i in (3, 4) for j in (0, 1)]
    ),
    "deviation_from_neutrality": tuple((2, j) for j in range(N_STANCES) if j != 2),
}
PATTERNS: tuple[str, ...] = tuple(PATTERN_CELLS)


def pattern_mask(name: str) -> np.ndarray:
    """5x5 boolean mask of the cells of pattern ``name``."""
    import numpy as np

    if name not in PATTERN_CELLS:
        raise ValueError(f"unknown drift pattern {name!r}; use one of {', '.join(PATTERNS)}")
    mask = np.zeros((N_STANCES, N_STANCES), dtype=bool)
    for i, j in PATTERN_CELLS[name]:
        mask[i, j] = True
    return mask


def per_proposition_patterns(matrices: np.ndarray) -> dict[str, FloatArray]:
    """Pattern mass per proposition: ``(1/5) * sum_{(i,j) in cells} T[s,i,j]``.

    For each initial stance ``i`` the row contributes ``sum_{j: (i,j) in cells} T[s,i,j]``; the
    mass is the mean of these five row sums. A missing row (NaN) is left out of that mean.
    """
    import numpy as np

    arr = np.asarray(matrices, dtype=np.float64)
    out: dict[str, FloatArray] = {}
    row_missing = np.isnan(arr).any(axis=-1)  # (P, 5)
    for name in PATTERNS:
        mask = pattern_mask(name)
        row_sums = np.where(mask, np.nan_to_num(arr, nan=0.0), 0.0).sum(axis=-1)  # (P, 5)
        row_sums = np.where(row_missing, np.nan, row_sums)
        out[name] = nanmean(row_sums, axis=-1)
    return out


def drift_patterns(matrices: np.ndarray) -> dict[str, tuple[float, float]]:
    """Mean and SE over propositions of each pattern's mass, keyed by pattern name."""
    return {
        name: tuple(float(v) for v in mean_se(values))  # type: ignore[misc]
        for name, values in per_proposition_patterns(matrices).items()
    }


def stance_drift_rate(matrices: np.ndarray) -> tuple[float, float]:
    """SDR = sum of the five pattern masses, mean and SE over propositions.

    Equal to ``1 - SPR`` when every row sums to 1 (unparsed-as-failure rows sum to less, so
    then ``SDR < 1 - SPR`` by the unparsed mass).
    """
    import numpy as np

    per = per_proposition_patterns(matrices)
    total = np.sum([per[n] for n in PATTERNS], axis=0)
    mean, se = mean_se(total)
    return float(mean), float(se)


def pattern_stances(name: str) -> tuple[int, ...]:
    """The initial stances ``i`` for which pattern ``name`` has cells (others are structurally 0:
    e.g. polarization exists only for Agree and Disagree)."""
    pattern_mask(name)  # validates the name
    return tuple(sorted({i for i, _ in PATTERN_CELLS[name]}))


def per_stance_pattern_masses(matrices: np.ndarray) -> dict[str, FloatArray]:
    """Pattern mass per proposition and initial stance, ``(P, 5)`` per pattern:
    ``m[s, i] = sum_{j: (i, j) in cells} T[s, i, j]`` (NaN where row ``i`` of ``T[s]`` is
    missing). For each ``(s, i)`` the five masses sum to ``sum_{j != i} T[s, i, j]``, which is
    ``1 - T[s, i, i]`` for a row summing to 1."""
    import numpy as np

    arr = np.asarray(matrices, dtype=np.float64)
    row_missing = np.isnan(arr).any(axis=-1)
    out: dict[str, FloatArray] = {}
    for name in PATTERNS:
        mask = pattern_mask(name)
        sums = np.where(mask, np.nan_to_num(arr, nan=0.0), 0.0).sum(axis=-1)
        out[name] = np.where(row_missing, np.nan, sums)
    return out


def drift_patterns_by_stance(matrices: np.ndarray) -> dict[str, tuple[FloatArray, FloatArray]]:
    """The per-stance drift-pattern table (the reference study's supplementary tables S5-S10):
    for each pattern, the mean and SE over propositions of its mass for each initial stance,
    two arrays of shape ``(5,)``. The success rate ``T[s, i, i]`` and the five pattern masses of
    a stance sum to 1 (rows summing to 1); the mean of a pattern over the five stances is its
    overall mass (:func:`drift_patterns`)."""
    return {
        name: mean_se(values, axis=0)
        for name, values in per_stance_pattern_masses(matrices).items()
    }
