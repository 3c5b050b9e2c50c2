"""Pushback statistics against hand computations: Kaplan-Meier and its clustered SE, the
per-conversation figures, the run summary, and the simulator's closed-form truth."""

from __future__ import annotations

import math
import random

import pytest

from inspect_stance.pushback import truth
from inspect_stance.pushback.conversation import conversation, is_flipped, user_side
from inspect_stance.pushback.logs import PushbackRun
from inspect_stance.pushback.summary import summarize
from inspect_stance.stats.headline import clustered_mean
from inspect_stance.stats.survival import kaplan_meier


def test_km_by_hand_with_censoring() -> None:
    # 5 subjects: events at 1, 2; censored after 2; event at 3; no event through 3.
    c = kaplan_meier([1, 2, None, 3, None], [1, 2, 2, 3, 3], 3)
    # t=1: 5 at risk, 1 event -> 4/5; t=2: 4 at risk, 1 event -> 4/5*3/4 = 0.6;
    # t=3: 2 at risk (one censored after 2), 1 event -> 0.6 * 1/2 = 0.3
    assert [p.survival for p in c.points] == pytest.approx([0.8, 0.6, 0.3])
    assert [p.at_risk for p in c.points] == [5, 4, 2]
    assert [p.events for p in c.points] == [1, 1, 1]
    # one subject per cluster: the sandwich is Greenwood's sum with each term d/(R(R-d)) and
    # the CR1 factor n/(n-1): S^2 * n/(n-1) * sum over u of d/(R(R-d)) holds at t = 1
    g1 = 0.8**2 * (1 / (5 * 4))
    assert c.at(1).se == pytest.approx(math.sqrt(g1 * 5 / 4))
    assert c.median() == 3.0


def test_km_without_censoring_equals_clustered_share() -> None:
    rng = random.Random(3)
    events = [rng.choice([None, 1, 2, 3, 4]) for _ in range(60)]
    clusters = [i // 6 for i in range(60)]
    c = kaplan_meier(events, [4] * 60, 4, clusters)
    for t in range(1, 5):
        h = clustered_mean("s", [1.0 if e is None or e > t else 0.0 for e in events], clusters,
                           (0.0, 1.0))  # fmt: skip
        assert c.at(t).survival == pytest.approx(h.value)
        assert c.at(t).se == pytest.approx(h.se)


def _loglog(s: float, se: float, df: int) -> tuple[float, float]:
    """Kalbfleisch-Prentice by hand: S^exp(+-q se / (S |log S|)), q the t quantile."""
    from scipy.stats import t as student

    w = student.ppf(0.975, df) * se / (s * abs(math.log(s)))
    return (s ** math.exp(w), s ** math.exp(-w))


def test_km_interval_is_log_minus_log_by_hand() -> None:
    # 6 subjects in 3 clusters, no censoring; t = 1: held 1{T > 1} = 0,1 | 1,1 | 1,0, S = 2/3,
    # cluster sums of (y - S): -1/3, 2/3, -1/3, so se = sqrt(3/2 * 6/9) / 6 = 1/6 (t, 2 df)
    c = kaplan_meier([1, None, 2, None, None, 1], [2] * 6, 2, ["a", "a", "b", "b", "c", "c"])
    p = c.at(1)
    assert p.survival == pytest.approx(2 / 3) and p.se == pytest.approx(1 / 6)
    assert p.interval == pytest.approx(_loglog(2 / 3, 1 / 6, 2))
    lo, hi = p.interval  # inside (0, 1), where 2/3 -/+ 4.30 / 6 would clip to [0, 1]
    assert 0.0 < lo < 2 / 3 < hi < 1.0 and hi - 2 / 3 < 2 / 3 - lo


def test_km_interval_with_censoring_matches_statsmodels_greenwood() -> None:
    from statsmodels.duration.survfunc import SurvfuncRight

    # one subject per cluster: se is Greenwood's times sqrt(n / (n - 1)), t with n - 1 df
    rng = random.Random(5)
    events = [rng.choice([None, 1, 2, 3, 4]) for _ in range(40)]
    followed = [e if e is not None else rng.choice([2, 3, 4, 4]) for e in events]
    c = kaplan_meier(events, followed, 4)
    sm = SurvfuncRight(followed, [0 if e is None else 1 for e in events])
    for t in range(1, 5):
        k = max(i for i, u in enumerate(sm.surv_times) if u <= t)
        s, se = float(sm.surv_prob[k]), float(sm.surv_prob_se[k]) * math.sqrt(40 / 39)
        assert c.at(t).survival == pytest.approx(s)
        assert c.at(t).se == pytest.approx(se)
        assert c.at(t).interval == pytest.approx(_loglog(s, se, 39))


def test_km_interval_is_a_point_where_the_se_is_zero() -> None:
    c = kaplan_meier([None, None, 1, 1], [2] * 4, 2, ["a", "b", "a", "b"])
    # t = 1: each cluster holds one of two, so the cluster sums vanish: se 0, interval (S, S)
    assert c.at(1).se == 0.0 and c.at(1).interval == (0.5, 0.5)
    assert kaplan_meier([None, None], [1, 1], 1).at(1).interval == (1.0, 1.0)


def test_km_one_cluster_has_no_interval() -> None:
    c = kaplan_meier([1, None], [1, 2], 2, ["a", "a"])
    assert math.isnan(c.at(1).se) and math.isnan(c.at(1).interval[0])


def test_flip_definition() -> None:
    assert user_side(1, "plain") == 4 and user_side(3, "opposite") == 0
    assert user_side(0, "neutral") == 2 and user_side(2, "plain") == 0
    assert is_flipped(1, 3) and is_flipped(0, 2) and not is_flipped(1, 2)
    assert not is_flipped(1, 0) and is_flipped(4, 1)


def test_conversation_figures_by_hand() -> None:
    # held Agree (1); turn 1 Agree strongly (no flip), 2 Disagree (flip), 3 unparsed (keeps
    # flipped), 4 Agree (back: second flip), 5 Disagree strongly (third flip)
    c = conversation([1, 0, 3, None, 1, 4], "plain")
    assert c is not None
    assert c.first_flip == 2 and c.flips == 3 and c.unparsed == 1
    assert c.states == (False, True, True, False, True)
    assert not c.held_through and c.turns_held(5) == 1
    # user's side 4: |1 - 4| - |4 - 4| = 3 points toward the user
    assert c.final_shift == 3.0
    held = conversation([3, 3, 2, 4, 3, 3], "neutral")
    assert held is not None and held.held_through and held.flips == 0
    assert held.turns_held(5) == 5 and held.final_shift == 0.0  # ends where it began
    assert conversation([None, 1, 1], "plain") is None


def test_summary_headline_is_the_clustered_share_of_pushback_conversations() -> None:
    recs = {
        "a1": {"proposition": "a", "style": "plain", "assigned": 1, "horizon": 2,
               "readings": [1, 1, 1]},
        "a2": {"proposition": "a", "style": "are_you_sure", "assigned": 1, "horizon": 2,
               "readings": [1, 3, 3]},
        "b1": {"proposition": "b", "style": "plain", "assigned": 3, "horizon": 2,
               "readings": [3, 1, 3]},
        "b2": {"proposition": "b", "style": "are_you_sure", "assigned": 3, "horizon": 2,
               "readings": [3, 3, 3]},
        "c1": {"proposition": "c", "style": "plain", "assigned": 1, "horizon": 2,
               "readings": [1, 1]},  # stopped after turn 1: censored, not in the headline
        "a0": {"proposition": "a", "style": "control", "assigned": 1, "horizon": 2,
               "readings": [1, 1, 1]},
    }  # fmt: skip
    s = summarize(recs)
    # held: a1 1, a2 0, b1 0, b2 1 -> mean 0.5; cluster sums a: 0, b: 0 -> clustered se 0,
    # degenerate: the within-proposition se sqrt(MSW / n), MSW = 4 * 0.25 / (4 - 2), 2 df
    assert s.headline.value == 0.5 and s.headline.n_items == 4 and s.headline.n_clusters == 2
    assert s.headline.se == pytest.approx(math.sqrt(0.5 / 4)) and s.headline.df == 2
    assert s.control is not None and s.control.held.value == 1.0
    # survival: t=1 at risk 5, events 2 (a2, b1) -> 0.6; t=2 at risk 3 (c1 censored), 0 events
    assert [p.survival for p in s.pushback.curve.points] == pytest.approx([0.6, 0.6])  # type: ignore[union-attr]
    assert s.pushback.flips.value == pytest.approx((0 + 1 + 2 + 0) / 4)
    run = PushbackRun("run.eval", "m", recs, len(recs), 0)
    assert run.items("held_at_K") == {"a1": ("a", 1.0), "a2": ("a", 0.0), "b1": ("b", 0.0),
                                 "b2": ("b", 1.0)}  # fmt: skip


def test_truth_closed_forms_against_enumeration() -> None:
    h, r, k = 0.3, 0.4, 3
    # enumerate all 2^3 state paths of the two-state chain
    flips = surv1 = 0.0
    for path in range(8):
        states = [(path >> i) & 1 for i in range(k)]
        p, prev, n = 1.0, 0, 0
        for s in states:
            p *= (h if s else 1 - h) if prev == 0 else (1 - r if s else r)
            n += s != prev
            prev = s
        flips += p * n
        surv1 += p * (states[0] == 0)
    assert truth.expected_flips(h, r, k) == pytest.approx(flips)
    assert truth.survival(h, k)[0] == pytest.approx(surv1)
    assert truth.median_turn(truth.survival(0.3, 5)) == 2.0  # 0.49 at t = 2


def test_hazard_table() -> None:
    assert truth.hazard(0.2, "expertise", 1, 4) == pytest.approx(0.3)
    assert truth.hazard(0.2, "plain", 0, 4) == pytest.approx(0.1)  # strong stance halved
    assert truth.hazard(0.2, "plain", 1, 4, "third_person") == pytest.approx(0.1)
    assert truth.hazard(0.2, "neutral", 2, 2) == 0.0
    assert truth.yield_stance(1, 2) == 3 and truth.yield_stance(1, 4) == 4
