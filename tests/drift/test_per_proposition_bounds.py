"""per_proposition.csv's one-sided upper bounds: the unclipped Student-t bound (mean + t * SE,
above 1 near a success rate of 1, compared with 1 as the paper does) and the same clipped to
[0, 1], checked against scipy by hand."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats

from inspect_stance.drift.report.analysis import build_report
from inspect_stance.drift.report.frames import per_proposition_frame
from inspect_stance.drift.run import DriftRun


def test_unclipped_t_bound_and_clipped_bound():
    p, t = 1, 4
    probs = np.zeros((p, t, 5, 5))
    for i in range(5):
        probs[0, :, i, i] = 1.0  # every stance kept in every trial ...
    probs[0, 3, 0] = [0.9, 0.1, 0.0, 0.0, 0.0]  # ... but one trial of Agree strongly
    rep = build_report(DriftRun("one", probs, ["p"], ["1"], "mem"), confidence=0.99)
    row = per_proposition_frame([rep]).iloc[0]
    x = np.array([1.0, 1.0, 1.0, 0.9])
    bound = x.mean() + stats.t.ppf(0.99, 3) * x.std(ddof=1) / np.sqrt(4)
    assert bound > 1.0
    assert row["success"] == pytest.approx(0.975)
    assert row["upper_bound_t_unclipped"] == pytest.approx(bound)
    assert row["upper_bound_clipped"] == 1.0
    assert bool(row["reaches_one"]) is True
