"""Per-trial extraction vectors -> per-proposition 5x5 transition matrices.

Array convention used by the whole stance-drift core: ``probs`` has shape
``(propositions, trials, 5, 5)``; ``probs[s, t, i, j]`` is the probability that trial ``t`` of
proposition ``s`` with initial stance ``i`` was extracted as stance ``j`` (stance order, see
:mod:`inspect_stance.stances`). A trial whose extraction had no usable letter (an *unparsed*
trial) is an all-NaN or all-zero row.

Unparsed-trial policy (``unparsed``):

- ``"failure"`` (default, as in the reference study): the row counts as a zero vector, so the
  trial contributes 0 to every cell, including the diagonal;
- ``"exclude"``: the trial is dropped; the matrix row is the mean over the remaining trials
  (NaN when no trial of that proposition and stance is usable).

The transition matrix of proposition ``s`` is ``T[s, i, j] = mean_t probs[s, t, i, j]``.
"""

from __future__ import annotations

import warnings
from typing import TYPE_CHECKING, Literal, TypeAlias

from inspect_stance.stances import N_STANCES

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

UnparsedPolicy = Literal["failure", "exclude"]
UNPARSED_POLICIES: tuple[str, ...] = ("failure", "exclude")
SUM_TOLERANCE = 1e-6

# A string at run time, so that importing this module (and the modules that name the alias)
# loads no numpy: the entry point reaches it (tests/test_entry_point.py).
FloatArray: TypeAlias = "NDArray[np.float64]"


def check_policy(unparsed: str) -> UnparsedPolicy:
    """Validate an unparsed-trial policy name."""
    if unparsed not in UNPARSED_POLICIES:
        raise ValueError(
            f"unknown unparsed policy {unparsed!r}; use one of {', '.join(UNPARSED_POLICIES)}"
        )
    return unparsed  # type: ignore[return-value]


def check_probs(probs: np.ndarray, name: str = "probs") -> FloatArray:
    """Return ``probs`` as float64 after checking its shape ``(P, T, 5, 5)`` and row sums.

    Every row must be unparsed (all NaN or all zero) or sum to 1 within ``SUM_TOLERANCE``
    (after renormalisation rounding); anything else is a ``ValueError`` naming the problem.
    """
    import numpy as np

    arr = np.asarray(probs, dtype=np.float64)
    if arr.ndim != 4 or arr.shape[2:] != (N_STANCES, N_STANCES):
        raise ValueError(
            f"{name} has shape {arr.shape}; expected (propositions, trials, 5, 5) in stance order"
        )
    if arr.shape[0] == 0 or arr.shape[1] == 0:
        raise ValueError(f"{name} has no propositions or no trials (shape {arr.shape})")
    partial = np.isnan(arr).any(axis=-1) & ~np.isnan(arr).all(axis=-1)
    if partial.any():
        idx = tuple(int(k) for k in np.argwhere(partial)[0])
        raise ValueError(
            f"{name}: {int(partial.sum())} rows are partly NaN (first at index {idx}); an "
            "unparsed trial is an all-NaN or all-zero row"
        )
    unparsed = unparsed_mask(arr)
    sums = np.nansum(arr, axis=-1)
    bad = ~unparsed & (np.abs(sums - 1.0) > SUM_TOLERANCE)
    if bad.any():
        idx = tuple(int(k) for k in np.argwhere(bad)[0])
        raise ValueError(
            f"{name}: {int(bad.sum())} probability rows do not sum to 1 "
            f"(first at index {idx}: sum {sums[idx]:.6f}); rows must be distributions, all-NaN "
            "or all-zero (unparsed)"
        )
    if np.any(arr[~np.isnan(arr)] < -SUM_TOLERANCE):
        raise ValueError(f"{name} contains negative probabilities")
    return arr


def unparsed_mask(probs: np.ndarray) -> NDArray[np.bool_]:
    """Boolean ``(P, T, 5)`` mask of unparsed trials: rows with any NaN or summing to 0."""
    import numpy as np

    arr = np.asarray(probs, dtype=np.float64)
    return np.isnan(arr).any(axis=-1) | (np.nansum(arr, axis=-1) == 0.0)


def transition_matrices(probs: np.ndarray, unparsed: str = "failure") -> FloatArray:
    """Per-proposition transition matrices ``T[s, i, j] = mean_t probs[s, t, i, j]``.

    With ``unparsed="failure"`` unparsed rows are zeros (NaN -> 0) and the mean runs over all
    trials; with ``"exclude"`` the mean runs over parsed trials only (NaN when none).
    Returns shape ``(P, 5, 5)``.
    """
    import numpy as np

    policy = check_policy(unparsed)
    arr = np.asarray(probs, dtype=np.float64)
    mask = unparsed_mask(arr)
    if policy == "failure":
        return np.nan_to_num(arr, nan=0.0).mean(axis=1)
    clean = np.where(mask[..., None], 0.0, np.nan_to_num(arr, nan=0.0))
    counts = (~mask).sum(axis=1)  # (P, 5)
    with np.errstate(invalid="ignore", divide="ignore"):
        out = clean.sum(axis=1) / counts[..., None]
    return np.where(counts[..., None] > 0, out, np.nan)


def argmax_trials(probs: np.ndarray) -> FloatArray:
    """Replace each parsed trial's vector by a point mass on its most probable stance.

    This is the temperature-0 re-analysis: ``e_{argmax_j p_j}``. Ties go to the lowest stance
    index (numpy's ``argmax``). Unparsed rows stay unparsed (all NaN).
    """
    import numpy as np

    arr = np.asarray(probs, dtype=np.float64)
    mask = unparsed_mask(arr)
    idx = np.nan_to_num(arr, nan=-1.0).argmax(axis=-1)
    out = np.eye(N_STANCES)[idx]
    out[mask] = np.nan
    return out


def diagonal(matrices: np.ndarray) -> FloatArray:
    """The diagonal ``T[..., i, i]`` of a stack of 5x5 matrices, shape ``(..., 5)``."""
    import numpy as np

    arr = np.asarray(matrices, dtype=np.float64)
    return np.diagonal(arr, axis1=-2, axis2=-1)


def nanmean(values: np.ndarray, axis: int = -1) -> FloatArray:
    """``numpy.nanmean`` without the warning for all-NaN slices (they give NaN, by design)."""
    import numpy as np

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        return np.asarray(np.nanmean(values, axis=axis), dtype=np.float64)
