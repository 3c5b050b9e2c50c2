"""The judge statistics in ``stats/``: Krippendorff's alpha against a hand computation,
Dawid-Skene over any label set, and their refusals and warnings at the edges."""

from __future__ import annotations

import itertools
import math
from collections import Counter

import numpy as np
import pytest

from inspect_stance.stats.agreement import krippendorff_alpha, too_few_human_labels
from inspect_stance.stats.dawid_skene import MIN_GRADERS, fit_dawid_skene
from inspect_stance.stats.ppi import ppi_mean


def _nominal_alpha_by_hand(data: list[list[float]]) -> float:
    """``1 - D_o / D_e`` from the coincidence matrix (Krippendorff 2011, nominal metric)."""
    coincidences: Counter[tuple[float, float]] = Counter()
    for unit in zip(*data, strict=True):
        values = [v for v in unit if not math.isnan(v)]
        m = len(values)
        if m < 2:
            continue
        for a, b in itertools.permutations(range(m), 2):
            coincidences[(values[a], values[b])] += 1 / (m - 1)
    n_c: Counter[float] = Counter()
    for (c, _), w in coincidences.items():
        n_c[c] += w
    n = sum(n_c.values())
    d_o = sum(w for (c, k), w in coincidences.items() if c != k) / n
    d_e = sum(n_c[c] * n_c[k] for c in n_c for k in n_c if c != k) / (n * (n - 1))
    return 1 - d_o / d_e


def test_nominal_alpha_matches_the_coincidence_matrix_by_hand() -> None:
    nan = math.nan
    data = [[1, 2, 3, 3, 2, 1, 4, 1, 2, nan, nan, nan],
            [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, nan, 3.0],
            [nan, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, nan],
            [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, nan]]  # fmt: skip
    assert krippendorff_alpha(data, "nominal") == pytest.approx(_nominal_alpha_by_hand(data))
    # Krippendorff's (2011) worked example gives 0.743 for these data
    assert krippendorff_alpha(data, "nominal") == pytest.approx(0.743, abs=5e-4)


def test_alpha_is_nan_where_undefined() -> None:
    assert math.isnan(krippendorff_alpha([[1.0, 2.0, 3.0]]))  # one coder
    assert math.isnan(krippendorff_alpha([[1.0, math.nan], [math.nan, 2.0]]))  # nothing pairable
    assert math.isnan(krippendorff_alpha([[2.0, 2.0], [2.0, 2.0]]))  # one value: D_e = 0


def test_too_few_human_labels_warns_below_twenty() -> None:
    assert "only 19 human labels" in too_few_human_labels(19)
    assert too_few_human_labels(20) == ""


def _three_graders(n: int = 400, seed: int = 0) -> tuple[list[str], list[list[str | None]]]:
    """Two fair graders (90 % right) and one that says ``A`` on every item."""
    rng = np.random.default_rng(seed)
    truth = rng.choice(["A", "B", "C"], size=n, p=[0.2, 0.2, 0.6])
    rows: list[list[str | None]] = []
    for t in truth:
        fair = [t if rng.random() < 0.9 else str(rng.choice(["A", "B", "C"])) for _ in range(2)]
        rows.append([*fair, "A"])
    return list(truth), rows


def test_dawid_skene_takes_any_label_set_and_singles_out_a_constant_grader() -> None:
    truth, rows = _three_graders()
    fit = fit_dawid_skene(rows, ["fair1", "fair2", "always_a"], classes=("A", "B", "C"))
    assert fit.classes == ("A", "B", "C") and fit.warning == ""
    acc = [fit.accuracy(j) for j in range(3)]
    assert min(acc[:2]) > 0.85 > 0.3 > acc[2]  # the constant grader is right only on A (~0.2)
    assert np.mean([x == t for x, t in zip(fit.labels(), truth, strict=True)]) > 0.9
    assert all(math.isnan(o) for o in fit.offsets)  # no scale given: no offsets


def test_dawid_skene_with_one_grader_has_no_accuracy_and_says_why() -> None:
    """One grader: the fitted truth is its own labels, so 'accuracy 1.000' would be printed."""
    fit = fit_dawid_skene([["A"], ["C"], ["C"]], ["only"], classes=("A", "B", "C"))
    assert math.isnan(fit.accuracy(0))
    assert f"at least {MIN_GRADERS} graders" in fit.warning and "with 1" in fit.warning


def test_dawid_skene_refuses_a_label_outside_its_classes_in_one_line() -> None:
    with pytest.raises(ValueError, match=r"labels \['D'\] are not among the classes") as err:
        fit_dawid_skene([["A", "D"]], ["g1", "g2"], classes=("A", "B", "C"))
    assert "\n" not in str(err.value)


def test_ppi_with_labels_agreeing_everywhere_warns_and_keeps_the_count() -> None:
    """Labels and ensemble agree on all 25 labelled items: the correction's variance is zero,
    the SE is the ensemble's alone, and the warning says so beside the label count."""
    y = [1.0] * 15 + [0.0] * 10
    est = ppi_mean(y, y, [1.0, 0.0] * 100)
    assert est.n_labelled == 25
    assert est.se == pytest.approx(math.sqrt(0.25 / 200))
    assert "agree on all 25 labelled items" in est.warning


def test_the_graders_audit_uses_the_stats_minimum() -> None:
    from inspect_stance.even_handedness import audit

    assert audit.MIN_GRADERS == MIN_GRADERS
