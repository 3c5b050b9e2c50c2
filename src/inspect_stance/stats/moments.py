"""The mean and its plain standard error over an axis, NaN-aware (the one copy every method
uses where items are independent; :mod:`inspect_stance.stats.headline` for clustered items)."""

from __future__ import annotations

import warnings

import numpy as np
from numpy.typing import NDArray

FloatArray = NDArray[np.float64]


def mean_se(values: np.ndarray, axis: int = 0) -> tuple[FloatArray, FloatArray]:
    """Mean and standard error over ``axis`` ignoring NaN: ``(mean, sd_ddof1 / sqrt(n))``.

    With fewer than two values the standard error is NaN.
    """
    arr = np.asarray(values, dtype=np.float64)
    n = (~np.isnan(arr)).sum(axis=axis)
    with np.errstate(invalid="ignore", divide="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # all-NaN slices give NaN, by design
        mean = np.nanmean(arr, axis=axis) if arr.size else np.full(np.shape(n), np.nan)
        sq = np.nansum((arr - np.expand_dims(mean, axis)) ** 2, axis=axis)
        sd = np.sqrt(sq / (n - 1))
        se = np.where(n > 1, sd / np.sqrt(n), np.nan)
    return np.asarray(mean, dtype=np.float64), np.asarray(se, dtype=np.float64)
