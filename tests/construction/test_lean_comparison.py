"""Lean, refusal rate and the neutral-setting comparison against hand computations and scipy."""

from __future__ import annotations

import math

import pytest
from scipy.stats import wilcoxon

from inspect_stance.construction.comparison import (
    compare_distances,
    direction_counts,
    lean_direction,
    neutral_comparison,
)
from inspect_stance.construction.lean import summarize
from inspect_stance.construction.records import Record
from inspect_stance.construction.settings import Setting


def test_summarize_counts_and_lean():
    s = summarize(["1", "2", "2", "refusal", "no_majority", "no_prompt", "no_response"])
    assert (s.n_samples, s.n_judged, s.n_scored) == (7, 5, 3)
    assert (s.n_refusal, s.n_no_majority, s.n_no_prompt, s.n_no_response) == (1, 1, 1, 1)
    assert s.refusal_rate == pytest.approx(1 / 5)
    assert s.lean == pytest.approx((1 + 2 + 2) / 3 - 3)
    # sd of (1, 2, 2) with ddof 1 = sqrt(1/3); SE = sd / sqrt(3) = 1/3
    assert s.lean_se == pytest.approx(1 / 3)
    empty = summarize(["refusal"])
    assert math.isnan(empty.lean) and empty.refusal_rate == 1.0


def _records(setting, method, labels):
    return [
        Record(sample_id=f"{setting.key}-{method}-{i}", setting=setting, method=method, outcome=x)
        for i, x in enumerate(labels)
    ]


def test_neutral_comparison_by_hand():
    s1, s2, s3, s4 = (Setting(t, "writing", "neutral") for t in (1, 2, 3, 4))
    records = (
        _records(s1, "templated", ["1", "2"])  # lean -1.5 -> distance 1.5
        + _records(s1, "generated", ["3", "4"])  # lean 0.5
        + _records(s2, "templated", ["4", "4"])  # 1.0
        + _records(s2, "generated", ["5", "5"])  # 2.0
        + _records(s3, "templated", ["2"])  # 1.0
        + _records(s3, "generated", ["4"])  # 1.0 -> tie
        + _records(s4, "templated", ["refusal"])  # no lean -> unpaired
        + _records(s4, "generated", ["3"])
        + _records(Setting(1, "writing", "pole_a"), "templated", ["1"])  # not neutral
    )
    c = neutral_comparison(records)
    assert (c.n_neutral_settings, c.n_pairs, c.unpaired) == (4, 3, ("4-writing-neutral",))
    assert c.distance_templated == pytest.approx((1.5 + 1.0 + 1.0) / 3)
    assert c.distance_generated == pytest.approx((0.5 + 2.0 + 1.0) / 3)
    assert c.mean_difference == pytest.approx((1.0 - 1.0 + 0.0) / 3)
    assert (c.templated_further, c.generated_further, c.ties) == (1, 1, 1)
    expected = wilcoxon([1.5, 1.0, 1.0], [0.5, 2.0, 1.0], zero_method="wilcox")
    assert c.wilcoxon_p == pytest.approx(expected.pvalue)


def test_all_templated_further_gives_the_exact_sign_rank_p():
    stats = compare_distances([1.0] * 6, [0.0] * 6)
    # every one of 6 differences positive: exact two-sided p = 2 / 2**6
    assert stats["wilcoxon_p"] == pytest.approx(2 / 2**6)
    assert (stats["templated_further"], stats["generated_further"], stats["ties"]) == (6, 0, 0)
    zero = compare_distances([1.0, 2.0], [1.0, 2.0])
    assert math.isnan(zero["wilcoxon_p"]) and zero["ties"] == 2


def _poled(setting, method, labels, pole):
    return [
        Record(
            sample_id=f"{setting.key}-{method}-{i}",
            setting=setting,
            method=method,
            outcome=x,
            filler_pole=pole,
        )
        for i, x in enumerate(labels)
    ]


def test_direction_relative_to_the_filler_pole_by_hand():
    # lean < 0 points to pole A (topic_pro), > 0 to pole B
    a, b, c, d, e = (Setting(t, "opinion", "neutral") for t in (1, 2, 3, 4, 5))
    records = (
        _poled(a, "templated", ["2", "2"], "pole_a")  # lean -1, filler A: toward
        + _poled(a, "generated", ["3", "4"], "pole_a")  # +0.5: away
        + _poled(b, "templated", ["4", "3"], "pole_b")  # +0.5, filler B: toward
        + _poled(b, "generated", ["3", "3"], "pole_b")  # 0: tie
        + _poled(c, "templated", ["2"], "pole_b")  # -1, filler B: away
        + _poled(c, "generated", ["refusal"], "pole_b")  # no scored response: no_lean
        + _poled(d, "templated", ["1"], "none")  # the filler encodes no pole
        + _poled(d, "generated", ["5"], "none")
        + _poled(e, "templated", ["1"], None)  # not coded: no pole either
        + _poled(Setting(1, "opinion", "pole_a"), "templated", ["1"], "pole_a")  # not neutral
    )
    counts = direction_counts(records)
    assert counts["templated"] == {"toward": 2, "away": 1, "tie": 0, "no_pole": 2, "no_lean": 0}
    assert counts["generated"] == {"toward": 0, "away": 1, "tie": 1, "no_pole": 1, "no_lean": 1}
    assert lean_direction(-0.06, "pole_b") == "away"  # the review's US/Israel-Iran example
    assert lean_direction(float("nan"), "pole_a") == "no_lean"
