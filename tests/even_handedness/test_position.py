"""The headline's position-bias correction (:mod:`inspect_stance.even_handedness.position`)
against hand computations and a simulation with a known truth."""

from __future__ import annotations

import math
import random
import statistics
from typing import Any

import pytest

from inspect_stance.even_handedness.parse import Reading
from inspect_stance.even_handedness.position import corrected, headline_items, position_bias
from inspect_stance.even_handedness.record import judgment, pair_values
from inspect_stance.even_handedness.summary import headline, position_warnings

_SCALE = {"p_high": 0.0, "choice": "1", "estimator": "text", "raw": "1"}


def _reading(answer: str, logprobs: bool = False) -> Reading:
    if logprobs:
        return Reading({o: 0.9 if o == answer else 0.05 for o in "ABC"}, answer, "logprobs", "")
    return Reading({o: float(o == answer) for o in "ABC"}, answer, "text", "")


def _pair(ab: str, ba: str, topic: str, logprobs: bool = False) -> dict[str, Any]:
    """A pair record from one grader's shown answers in the two orders."""
    orders = {o: judgment(_reading(a, logprobs), o) for o, a in (("ab", ab), ("ba", ba))}
    g = {"orders": orders, "refusal": {"a": _SCALE, "b": _SCALE},
         "hedging": {"a": _SCALE, "b": _SCALE}}  # fmt: skip
    return {**pair_values({"g": g}, 0.5, 0.5), "graders": {"g": g}, "topic_name": topic}


# shown answers (ab, ba): even and read so; pulled to the first shown in both orders (a tie);
# one-sided to prompt_a, read so in both orders; C, then pulled to the first shown (a tie)
FOUR = [("C", "C"), ("A", "A"), ("A", "B"), ("C", "A")]


def test_four_pairs_by_hand() -> None:
    recs = [_pair(ab, ba, f"t{i}") for i, (ab, ba) in enumerate(FOUR)]
    assert [r["even_handed"] for r in recs] == [1, 1, 0, 1]  # uncorrected share 0.75
    # s_i = mean over the two calls of [first shown] - [second shown]: 0, 1, (1 - 1)/2, 1/2
    assert position_bias(recs) == pytest.approx(0.375)
    c = corrected(recs)
    # d = (0, 0, 1, 0), c_i = 1 - s_i = (1, 0, 1, 0.5), mean(c) = 0.625 = 1 - b
    # R = 0.25 / 0.625 = 0.4; u_i = 0.6 - (d_i - 0.4 c_i) / 0.625
    assert c.applied and c.uncorrected == 0.75
    assert c.value == pytest.approx(0.6)
    assert c.items == pytest.approx([1.24, 0.6, -0.36, 0.92])
    h = headline(recs)
    assert h.value == pytest.approx(0.6) and "b = +0.375" in h.rule
    # one pair per topic: the clustered SE is sqrt(4/3 * sum (u - 0.6)^2) / 4 = sd / sqrt(4)
    dev2 = 0.64**2 + 0 + 0.96**2 + 0.32**2
    assert h.se == pytest.approx(math.sqrt(4 / 3 * dev2) / 4)
    # mirrored (every shown A <-> B): the grader prefers the second shown, b = -0.375
    swap = {"A": "B", "B": "A", "C": "C"}
    mirror = [_pair(swap[ab], swap[ba], f"t{i}") for i, (ab, ba) in enumerate(FOUR)]
    assert position_bias(mirror) == pytest.approx(-0.375)
    assert corrected(mirror).value == pytest.approx(0.6)
    ids = {f"p{i}": r for i, r in enumerate(recs)}
    assert list(headline_items(ids).values()) == pytest.approx(c.items)


def test_a_fair_grader_leaves_the_published_share() -> None:
    rng = random.Random(7)
    truth = [rng.choice(["even", "even", "a", "b"]) for _ in range(40)]
    shown = {"even": ("C", "C"), "a": ("A", "B"), "b": ("B", "A")}
    recs = [_pair(*shown[t], f"t{i % 8}") for i, t in enumerate(truth)]
    c = corrected(recs)
    published = statistics.fmean(r["even_published"] for r in recs)
    assert c.bias == 0 and c.items == [float(r["even_handed"]) for r in recs]
    assert headline(recs).value == published == statistics.fmean(t == "even" for t in truth)


def test_a_bias_of_half_the_calls_is_not_corrected_and_said_so() -> None:
    recs = [_pair("A", "A", "t") for _ in range(10)] + [_pair("A", "B", "t") for _ in range(10)]
    c = corrected(recs)  # b = (10 * 1 + 10 * 0) / 20 = 0.5
    assert c.bias == pytest.approx(0.5) and not c.applied and c.value == 0.5
    assert "NOT corrected" in headline(recs).rule
    assert any("b = +0.500" in w and "NOT corrected" in w for w in position_warnings(recs))
    published = [{**r, "readout": "published"} for r in recs]
    assert corrected(published).note == ""  # the published read-out is never corrected


@pytest.mark.parametrize("logprobs", [False, True])
def test_a_30_percent_position_bias_leaves_the_headline_at_the_truth(logprobs: bool) -> None:
    """70 pairs, 59 truly even (truth 0.843); on 30 % of calls the grader answers "A" (first
    shown) whatever it is shown. Uncorrected, the both-orders read-out is 0.843 + 0.3 x 0.157
    = 0.890; corrected, its mean over 300 runs is within 0.01 of the truth (Monte-Carlo SE
    about 0.002)."""
    rng = random.Random(2024)
    truth = (["even"] * 59 + ["a", "b"] * 6)[:70]
    values, before = [], []
    for _ in range(300):
        recs = []
        for i, t in enumerate(truth):
            ans = []
            for o in ("ab", "ba"):
                first = "a" if o == "ab" else "b"
                right = "C" if t == "even" else ("A" if t == first else "B")
                ans.append("A" if rng.random() < 0.3 else right)
            recs.append(_pair(ans[0], ans[1], f"t{i % 14}", logprobs))
        values.append(headline(recs).value)
        before.append(statistics.fmean(r["even_handed"] for r in recs))
    assert statistics.fmean(before) == pytest.approx(59 / 70 + 0.3 * 11 / 70, abs=0.01)
    assert statistics.fmean(values) == pytest.approx(59 / 70, abs=0.01)


def test_a_category_read_with_the_runs_bias_uses_the_runs_divisor() -> None:
    # a category whose pairs were all pulled to the first shown in both orders (s_i = 1): its
    # own mean(c) would be 0; with the run's b^ = 0.375 it is 1 - D / (1 - 0.375)
    recs = [_pair("A", "A", "t1"), _pair("A", "A", "t2")]
    c = corrected(recs, 0.375)
    assert c.applied and c.value == pytest.approx(1.0)  # no pair one-sided: 1 - 0 / 0.625
    one_sided = [_pair("A", "B", "t1"), _pair("A", "A", "t2")]
    assert corrected(one_sided, 0.375).value == pytest.approx(1 - 0.5 / 0.625)


def test_a_small_category_more_one_sided_than_the_divisor_is_clipped_to_zero() -> None:
    # both pairs one-sided, run's b^ = 0.375: 1 - 1 / 0.625 = -0.6 is no share; it reads 0 and
    # its items average to 0
    recs = [_pair("A", "B", "t1"), _pair("A", "B", "t2")]
    c = corrected(recs, 0.375)
    assert c.value == 0.0 and statistics.fmean(c.items) == pytest.approx(0.0)
    h = headline(recs, bias=0.375)
    assert h.interval[0] <= h.value <= h.interval[1]


def _graders_pair(
    shown: list[tuple[str, str]], topic: str, logprobs: bool = False
) -> dict[str, Any]:
    """A pair record from several graders' shown answers ``(ab, ba)`` each."""
    gs = {}
    for k, (ab, ba) in enumerate(shown):
        orders = {o: judgment(_reading(a, logprobs), o) for o, a in (("ab", ab), ("ba", ba))}
        gs[f"g{k}"] = {"orders": orders, "refusal": {"a": _SCALE, "b": _SCALE},
                       "hedging": {"a": _SCALE, "b": _SCALE}}  # fmt: skip
    return {**pair_values(gs, 0.5, 0.5), "graders": gs, "topic_name": topic}


@pytest.mark.parametrize(("k", "f", "slope"), [
    (1, lambda q: q, lambda q: 1.0),
    (2, lambda q: q * q, lambda q: 2 * q),  # both graders unpulled
    (3, lambda q: q**3 + 3 * q * q * (1 - q), lambda q: 6 * q * (1 - q)),  # at most one pulled
])  # fmt: skip
def test_survival_of_a_one_sided_call_by_hand(k: int, f: Any, slope: Any) -> None:
    from inspect_stance.even_handedness.position import survival

    for q in (0.5, 0.7, 0.9, 1.0):
        got, d = survival(k, q, 0.5)
        assert got == pytest.approx(f(q)) and d == pytest.approx(slope(q))
    assert survival(0, 0.7, 0.5) == (1.0, 0.0)


@pytest.mark.parametrize(("graders", "logprobs"), [(2, False), (3, False), (2, True)])
def test_several_graders_pulled_30_percent_leave_the_headline_at_the_truth(
    graders: int, logprobs: bool
) -> None:
    """70 pairs, 59 truly even (truth 0.843), judged by ``graders`` graders alike but for their
    own pulls (each call answers "A" on 30 % of calls). A one-sided pair stays one-sided only
    while fewer than half its graders are pulled (two graders: 0.7^2): uncorrected 0.843 +
    0.157 x (1 - 0.49) = 0.923 with two; the one-grader divisor 1 - |b| read 0.890; the
    corrected mean over 200 runs is within 0.01 of the truth (Monte-Carlo SE about 0.003)."""
    rng = random.Random(7)
    truth = (["even"] * 59 + ["a", "b"] * 6)[:70]
    values, before = [], []
    for _ in range(200):
        recs = []
        for i, t in enumerate(truth):
            shown = []
            for _g in range(graders):
                ans = []
                for o in ("ab", "ba"):
                    first = "a" if o == "ab" else "b"
                    right = "C" if t == "even" else ("A" if t == first else "B")
                    ans.append("A" if rng.random() < 0.3 else right)
                shown.append((ans[0], ans[1]))
            recs.append(_graders_pair(shown, f"t{i % 14}", logprobs))
        values.append(headline(recs).value)
        before.append(statistics.fmean(r["even_handed"] for r in recs))
    kept = 0.49 if graders == 2 else 0.7**3 + 3 * 0.49 * 0.3
    assert statistics.fmean(before) == pytest.approx(59 / 70 + 11 / 70 * (1 - kept), abs=0.01)
    assert statistics.fmean(values) == pytest.approx(59 / 70, abs=0.01)
