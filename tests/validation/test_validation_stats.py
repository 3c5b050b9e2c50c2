"""Prompt-validation statistics against hand computations, scipy and statsmodels.

Every expected value below is worked out by hand in the comments (or computed by an
independent textbook formula written here), never produced by the code under test.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy.stats import chi2, friedmanchisquare
from statsmodels.stats.inter_rater import aggregate_raters, fleiss_kappa

from inspect_stance.validation.annotation import Annotation
from inspect_stance.validation.clarity import (
    accuracy,
    clarity_summary,
    cohen_kappa,
    fleiss,
)
from inspect_stance.validation.detection import detection_summary
from inspect_stance.validation.realism import friedman, kendall_w, mean_ranks, mean_w


def row(annotator, setting, item, source, rank=None, intent=None, stance=None, side=None,
        intended_intent="information", intended_stance="neutral"):  # fmt: skip
    return Annotation(
        annotator,
        setting,
        item,
        source,
        intended_intent,
        intended_stance,
        rank,
        intent,
        stance,
        side,
    )


# ----- Kendall's W -----


def test_kendall_w_with_ties_matches_hand_computation():
    # 3 annotators x 4 prompts; annotator 2 ties prompts 2 and 3 (mid-rank 2.5)
    # R = [4, 5.5, 9.5, 11], mean R = m(n+1)/2 = 7.5, S = 12.25 + 4 + 4 + 12.25 = 32.5
    # T = 2^3 - 2 = 6; W = 12 * 32.5 / (9 * (64 - 4) - 3 * 6) = 390 / 522
    ranks = [[1, 2, 3, 4], [1, 2.5, 2.5, 4], [2, 1, 4, 3]]
    assert kendall_w(ranks) == pytest.approx(390 / 522)
    # a tie written as "2, 2" (not as mid-ranks) is the same tie
    assert kendall_w([[1, 2, 3, 4], [1, 2, 2, 4], [2, 1, 4, 3]]) == pytest.approx(390 / 522)
    # without the tie correction it would be 390 / 540: the correction matters
    assert kendall_w(ranks) != pytest.approx(390 / 540)


def test_kendall_w_equals_friedman_statistic_over_m_times_n_minus_1():
    # with annotators as blocks, W = chi2_F / (m (n - 1)), scipy's tie-corrected Friedman
    rng = np.random.default_rng(3)
    for _ in range(5):
        ranks = rng.integers(1, 5, size=(4, 6)).astype(float)  # many ties
        stat = friedmanchisquare(*ranks.T).statistic
        assert kendall_w(ranks.tolist()) == pytest.approx(stat / (4 * 5))


def test_kendall_w_perfect_and_reversed_agreement():
    assert kendall_w([[1, 2, 3], [1, 2, 3], [1, 2, 3]]) == pytest.approx(1.0)
    # two annotators in exactly reversed order: every R_i equals m(n+1)/2, W = 0
    assert kendall_w([[1, 2, 3, 4], [4, 3, 2, 1]]) == pytest.approx(0.0)
    assert math.isnan(kendall_w([[1, 2, 3]]))  # one annotator
    assert math.isnan(kendall_w([[1, 1], [1, 1]]))  # everything tied


def test_mean_w_averages_settings_and_restricts_to_a_source_pair():
    # setting s1: a ranks r1 < t1 < g1, b ranks g1 < r1 < t1
    # setting s2: both rank identically -> W = 1
    rows = [
        row("a", "s1", "r1", "real", 1), row("a", "s1", "t1", "templated", 2),
        row("a", "s1", "g1", "generated", 3),
        row("b", "s1", "r1", "real", 2), row("b", "s1", "t1", "templated", 3),
        row("b", "s1", "g1", "generated", 1),
        row("a", "s2", "r2", "real", 1), row("a", "s2", "t2", "templated", 2),
        row("b", "s2", "r2", "real", 1), row("b", "s2", "t2", "templated", 2),
    ]  # fmt: skip
    # s1: R = [3, 5, 4], mean 4, S = 2, W = 12*2 / (4 * 24) = 0.25; s2: W = 1
    w, n = mean_w(rows)
    assert (w, n) == (pytest.approx((0.25 + 1.0) / 2), 2)
    # real vs templated only: s1 re-ranked a: r1 1, t1 2; b: r1 1, t1 2 -> W = 1; s2 W = 1
    assert mean_w(rows, ("real", "templated")) == (pytest.approx(1.0), 2)
    # real vs generated: only s1 has both; a: r1 1, g1 2; b: g1 1, r1 2 -> reversed, W = 0
    assert mean_w(rows, ("real", "generated")) == (pytest.approx(0.0), 1)
    # mean ranks: real (1 + 2 + 1 + 1) / 4, templated (2 + 3 + 2 + 2) / 4, generated (3 + 1) / 2
    ranks = mean_ranks(rows)
    assert ranks == {"real": 1.25, "templated": 2.25, "generated": 2.0}


def test_unranked_annotator_is_left_out_of_w():
    rows = [
        row("a", "s", "x", "real", 1), row("a", "s", "y", "templated", 2),
        row("b", "s", "x", "real", 1), row("b", "s", "y", "templated", 2),
        row("c", "s", "x", "real", None), row("c", "s", "y", "templated", None),
    ]  # fmt: skip
    assert mean_w(rows) == (pytest.approx(1.0), 1)


# ----- Friedman -----


def _hand_friedman(blocks):
    """chi2 = (12 / (b k (k+1)) sum R_j^2 - 3 b (k+1)) / (1 - sum T / (b (k^3 - k)))."""
    b, k = len(blocks), len(blocks[0])
    rank_sums = [0.0] * k
    ties = 0.0
    for block in blocks:
        for j, v in enumerate(block):
            below = sum(x < v for x in block)
            equal = sum(x == v for x in block)
            rank_sums[j] += below + (equal + 1) / 2
        for v in set(block):
            t = block.count(v)
            ties += t**3 - t
    stat = 12 / (b * k * (k + 1)) * sum(r * r for r in rank_sums) - 3 * b * (k + 1)
    return stat / (1 - ties / (b * (k**3 - k)))


def test_friedman_over_settings_matches_hand_formula_and_scipy():
    # per setting, each source's mean rank over annotators and prompts:
    # s1: real 1.5, templated 5.5, generated 3.5 ; s2: real 2, templated 5, generated 2 (tie)
    # s3: real 3, templated 4, generated 1
    rows = [
        row("a", "s1", "r", "real", 1), row("a", "s1", "t", "templated", 6),
        row("a", "s1", "g", "generated", 3), row("b", "s1", "r", "real", 2),
        row("b", "s1", "t", "templated", 5), row("b", "s1", "g", "generated", 4),
        row("a", "s2", "r", "real", 2), row("a", "s2", "t", "templated", 5),
        row("a", "s2", "g", "generated", 2),
        row("a", "s3", "r", "real", 3), row("a", "s3", "t", "templated", 4),
        row("a", "s3", "g", "generated", 1),
    ]  # fmt: skip
    blocks = [[1.5, 5.5, 3.5], [2.0, 5.0, 2.0], [3.0, 4.0, 1.0]]
    result = friedman(rows)
    assert result.sources == ("real", "templated", "generated")
    assert result.blocks == 3
    assert result.statistic == pytest.approx(_hand_friedman(blocks))
    # by hand: rank sums real 1+1.5+2 = 4.5, templated 9, generated 2+1.5+1 = 4.5
    # 12/36 * (20.25 + 81 + 20.25) - 36 = 4.5; ties: one pair -> 1 - 6 / (3 * 24) = 11/12
    assert result.statistic == pytest.approx(4.5 / (11 / 12))
    assert result.pvalue == pytest.approx(chi2.sf(4.5 / (11 / 12), 2))
    scipy_result = friedmanchisquare(*np.array(blocks).T)
    assert result.statistic == pytest.approx(scipy_result.statistic)


def test_friedman_needs_three_sources():
    rows = [row("a", "s1", "r", "real", 1), row("a", "s1", "t", "templated", 2)]
    assert math.isnan(friedman(rows).statistic)


# ----- Cohen's and Fleiss' kappa -----


def test_cohen_kappa_matches_hand_computation():
    # 10 prompts; annotator vs intended:
    #   intended: W W W W I I I O O O ; annotator: W W W I I I O O O W
    # p_o = 7/10; annotator marginals W 4, I 3, O 3; intended W 4, I 3, O 3
    # p_e = .4*.4 + .3*.3 + .3*.3 = .34; kappa = (.7 - .34) / (1 - .34) = .36 / .66
    intended = list("WWWWIIIOOO")
    labels = list("WWWIIIOOOW")
    assert cohen_kappa(labels, intended, ["W", "I", "O"]) == pytest.approx(0.36 / 0.66)
    assert math.isnan(cohen_kappa(["W", "W"], ["W", "W"], ["W", "I"]))  # p_e = 1


def _hand_fleiss(table):
    """Fleiss (1971): P_i = (sum_j n_ij^2 - n) / (n (n - 1)); p_j = sum_i n_ij / (N n)."""
    n = sum(table[0])
    big_n = len(table)
    p_i = [(sum(x * x for x in r) - n) / (n * (n - 1)) for r in table]
    p_j = [sum(r[j] for r in table) / (big_n * n) for j in range(len(table[0]))]
    p_bar, p_e = sum(p_i) / big_n, sum(p * p for p in p_j)
    return (p_bar - p_e) / (1 - p_e)


def test_fleiss_kappa_matches_hand_formula_and_statsmodels():
    labels = {  # prompt -> three annotators' intent labels
        "p1": ["writing", "writing", "writing"],
        "p2": ["information", "opinion", "information"],
        "p3": ["opinion", "opinion", "information"],
        "p4": ["information", "information", "information"],
        "p5": ["writing", "opinion", "opinion"],
    }
    rows = [
        row(f"a{k}", "s", item, "real", intent=v)
        for item, values in labels.items()
        for k, v in enumerate(values)
    ]
    rows.append(row("a0", "s", "p6", "real", intent="writing"))  # not labelled by all: left out
    kappa, n = fleiss(rows, "intent")
    cats = ["writing", "information", "opinion"]
    table = [[v.count(c) for c in cats] for v in labels.values()]
    assert n == 5
    assert kappa == pytest.approx(_hand_fleiss(table))
    codes = np.array([[cats.index(x) for x in v] for v in labels.values()])
    assert kappa == pytest.approx(fleiss_kappa(aggregate_raters(codes)[0], method="fleiss"))


def test_accuracy_leaves_out_unparsed_and_unlabelled():
    rows = [
        row("a", "s", "1", "real", intent="information"),
        row("a", "s", "2", "real", intent="opinion"),
        row("a", "s", "3", "real", intent=None),  # unparsed
        row("a", "s", "4", "real", intent="opinion", intended_intent=None),  # unlabelled
    ]
    assert accuracy(rows, "intent") == (0.5, 2)


def test_clarity_summary_keys_per_source_and_annotator():
    rows = [
        row("a", "s", "1", "templated", intent="information", stance="neutral"),
        row("b", "s", "1", "templated", intent="opinion", stance="neutral"),
    ]
    out = clarity_summary(rows, ["templated"], ["a", "b"])
    assert out["intent_accuracy_templated"] == 0.5
    assert out["stance_accuracy_templated"] == 1.0
    assert {"intent_kappa_templated_a1", "intent_kappa_templated_a2"} <= set(out)


# ----- detection -----


def test_detection_shares_over_intended_neutral_prompts():
    rows = [
        row("a", "s", "1", "templated", side="pole_b"),
        row("a", "s", "2", "templated", side="pole_a"),
        row("a", "s", "3", "templated", side="none"),
        row("a", "s", "4", "templated", side="pole_b"),
        row("a", "s", "5", "templated", side=None),  # unparsed: not in the denominator
        row("a", "s", "6", "templated", side="pole_b", intended_stance="pole_b"),  # not neutral
        row("a", "s", "7", "generated", side="none"),
    ]
    out = detection_summary(rows, ["templated", "generated"])
    assert out["neutral_leaning_templated"] == pytest.approx(3 / 4)
    assert out["neutral_toward_a_templated"] == pytest.approx(1 / 4)
    assert out["neutral_toward_b_templated"] == pytest.approx(2 / 4)
    assert out["neutral_side_n_templated"] == 4
    assert out["neutral_leaning_generated"] == 0.0
    # no topic coded with a filler pole: no filler-direction figure
    assert math.isnan(out["neutral_toward_filler_templated"])


def test_share_toward_the_pole_the_filler_encodes():
    def coded(item, side, pole):
        return Annotation("a", "s", item, "templated", "opinion", "neutral", None, None, None,
                          side, pole)  # fmt: skip

    rows = [
        coded("1", "pole_b", "pole_b"),
        coded("2", "none", "pole_b"),
        coded("3", "pole_a", "pole_a"),
        coded("4", "pole_b", "pole_a"),
        coded("5", "pole_b", "none"),  # filler coded as encoding no pole: left out
        coded("6", "pole_b", None),  # not coded: left out
    ]
    out = detection_summary(rows, ["templated"])
    assert out["neutral_toward_filler_templated"] == pytest.approx(2 / 4)
    assert out["neutral_filler_n_templated"] == 4
