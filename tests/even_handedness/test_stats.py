"""Even-handedness statistics against hand computations, scipy/statsmodels and simulations:
topic-clustered differences, per-side group differences, Krippendorff's alpha, Dawid-Skene,
PPI coverage at small n, and the variance-components planner against subsampling."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest
from scipy import stats

from inspect_stance.even_handedness.audit import (
    dawid_skene_even,
    family_flags,
    grader_alpha,
    ppi_even,
)
from inspect_stance.even_handedness.clustered import CLUSTER_TEST, PLAIN_TEST, clustered_delta
from inspect_stance.even_handedness.groups import group_differences, group_metrics
from inspect_stance.even_handedness.planning import components, plan_study


def test_clustered_delta_is_the_hand_formula() -> None:
    d = [0.0, 1.0, 1.0, -1.0, 0.0, 1.0, 1.0, 0.0]
    topics = ["t1", "t1", "t2", "t2", "t3", "t3", "t3", "t4"]
    res = clustered_delta(d, topics)
    n, mean = len(d), sum(d) / len(d)
    sums: dict[str, float] = {}
    sizes: dict[str, int] = {}
    for v, t in zip(d, topics, strict=True):
        sums[t] = sums.get(t, 0.0) + v - mean
        sizes[t] = sizes.get(t, 0) + 1
    # CR2: sum_g u_g^2 / (1 - n_g / n) / n^2; sizes 2, 2, 3, 1 of n = 8
    se = math.sqrt(sum(sums[t] ** 2 / (1 - sizes[t] / n) for t in sums)) / n
    # Bell-McCaffrey df: n^2 / (sum n_g^2 + ((sum w n_g^2)^2 - sum w^2 n_g^4) / n^2)
    w = {t: n / (n - m) for t, m in sizes.items()}
    s2 = sum(w[t] * m * m for t, m in sizes.items())
    s3 = sum((w[t] * m * m) ** 2 for t, m in sizes.items())
    df = n * n / (sum(m * m for m in sizes.values()) + (s2 * s2 - s3) / n**2)
    assert res.delta == pytest.approx(mean)
    assert res.se == pytest.approx(se, rel=1e-10)
    assert res.p == pytest.approx(2 * stats.t.sf(mean / se, df), rel=1e-10)
    q = stats.t.ppf(0.975, df)
    assert res.ci == pytest.approx((mean - q * se, mean + q * se))
    assert res.test.startswith(CLUSTER_TEST) and res.clusters == 4


def test_one_topic_falls_back_to_the_plain_paired_t() -> None:
    d = [1.0, 0.0, 1.0, 1.0, 0.0]
    res = clustered_delta(d, ["t"] * 5)
    ref = stats.ttest_1samp(d, 0.0)
    assert res.p == pytest.approx(float(ref.pvalue)) and res.test == PLAIN_TEST


def _rec(topic: str, ga: str, gb: str, ra: int, rb: int, **kw: Any) -> dict[str, Any]:
    return {"topic_name": topic, "prompt_a_group": ga, "prompt_b_group": gb, "refusal_a": ra,
            "refusal_b": rb, "hedging_a": 0, "hedging_b": 0, **kw}  # fmt: skip


def test_group_differences_match_statsmodels_and_scipy() -> None:
    from statsmodels.stats.contingency_tables import mcnemar

    ab = [(0, 1)] * 6 + [(1, 0)] * 1 + [(0, 0)] * 5 + [(1, 1)] * 2
    recs = [_rec(f"t{k % 3}", "pro_x", "anti_x", a, b) for k, (a, b) in enumerate(ab)]
    row = group_differences(recs, "refusal")[0]
    a, b = np.array([x for x, _ in ab]), np.array([y for _, y in ab])
    assert row["pairs"] == 14 and row["difference"] == pytest.approx((a - b).mean())
    assert row["mcnemar_p"] == pytest.approx(mcnemar([[5, 1], [6, 2]], exact=True).pvalue)
    assert row["t_p"] == pytest.approx(stats.ttest_rel(a, b).pvalue)
    assert row["topics"] == 3
    ref = clustered_delta(list(a - b), [r["topic_name"] for r in recs])
    assert row["p"] == pytest.approx(ref.p) and row["se"] == pytest.approx(ref.se)
    m = group_metrics(recs)
    assert m["refusal_diff__pro_x__anti_x"] == pytest.approx(-5 / 14)
    assert m["refusal_diff_p"] == pytest.approx(ref.p)
    assert m["hedging_diff_p"] == 1.0  # no difference at all: exact


def _graders(choices: dict[str, str]) -> dict[str, Any]:
    return {g: {"orders": {"ab": {"choice": c}}} for g, c in choices.items()}


def test_krippendorff_alpha_by_hand() -> None:
    # units (A,A) (B,B) (C,C) (A,B): D_o = 2/8, D_e = 2 (3*3 + 3*2 + 3*2) / (8*7) = 0.75
    pairs = [("A", "A"), ("B", "B"), ("C", "C"), ("A", "B")]
    recs = {str(k): {"graders": _graders({"g1": x, "g2": y})} for k, (x, y) in enumerate(pairs)}
    assert grader_alpha(recs) == pytest.approx(1 - 0.25 / 0.75)
    one = {k: {"graders": {"g1": r["graders"]["g1"]}} for k, r in recs.items()}
    assert math.isnan(grader_alpha(one))


def test_dawid_skene_recovers_the_truth_and_ranks_a_noisy_grader_last() -> None:
    rng = np.random.default_rng(3)
    truth = rng.choice(list("ABC"), size=300, p=[0.25, 0.25, 0.5])
    recs: dict[str, Any] = {}
    for k, t in enumerate(truth):
        noisy = str(rng.choice(list("ABC")))
        good = {g: (t if rng.random() < 0.9 else str(rng.choice(list("ABC")))) for g in "xyz"}
        recs[str(k)] = {"graders": _graders({**good, "noise": noisy})}
    ds = dawid_skene_even(recs)
    assert ds["pairs"] == 300
    assert ds["even_handedness"] == pytest.approx(float((truth == "C").mean()), abs=0.03)
    assert min(ds["accuracy"], key=ds["accuracy"].get) == "noise"
    assert ds["accuracy"]["noise"] < 0.5 < min(ds["accuracy"][g] for g in "xyz")


def test_family_flags_reuse_the_construction_rule() -> None:
    rows = family_flags("openai/gpt-4o-mini", ["openai/gpt-4.1", "anthropic/claude-3-5-haiku"])
    assert [r["same_family_as_target"] for r in rows] == [True, False]


@pytest.mark.parametrize("n_labelled", [20, 40])
def test_ppi_covers_the_true_share_at_small_n(n_labelled: int) -> None:
    """A biased ensemble (says C for 30 % of non-C pairs) over 300 pairs, true share 0.5: the
    naive share is biased by +0.15 (covers ~1 %); PPI with 20 / 40 human labels covers the
    truth at 0.931 / 0.933 over 1,000 replications (10 labels: 0.775, documented), so 400
    replications must land within 4 binomial SEs of that."""
    rng = np.random.default_rng(n_labelled)
    cover, naive_cover, reps = 0, 0, 400
    for _ in range(reps):
        truth = rng.random(300) < 0.5
        f = np.where(truth, rng.random(300) < 0.95, rng.random(300) < 0.3)
        recs = {str(i): {"even_handed": int(f[i])} for i in range(300)}
        human = {str(i): ("C" if truth[i] else "A") for i in range(n_labelled)}
        est = ppi_even(recs, human)
        cover += est["ci_low"] <= 0.5 <= est["ci_high"]
        naive_se = math.sqrt(f.mean() * (1 - f.mean()) / 300)
        naive_cover += abs(f.mean() - 0.5) <= 1.96 * naive_se
    assert 0.88 <= cover / reps <= 0.985
    assert naive_cover / reps < 0.2


def test_components_recover_known_variances() -> None:
    rng = np.random.default_rng(0)
    n, k = 4000, 3
    y = 0.5 + rng.normal(0, 0.2, (n, 1)) + rng.normal(0, 0.3, (n, k))
    c = components(y)
    assert c.s2_pair == pytest.approx(0.04, rel=0.1)
    assert c.s2_grader == pytest.approx(0.09, rel=0.05)


@pytest.mark.parametrize(("pairs", "graders"), [(50, 1), (100, 2), (200, 3)])
def test_planner_prediction_matches_subsampling(pairs: int, graders: int) -> None:
    """The predicted SE(N, K) against the spread of the mean over subsamples of N pairs (with
    replacement) and K of the pilot's 5 graders (without replacement)."""
    rng = np.random.default_rng(pairs)
    pool = np.clip(rng.beta(2, 2, (3000, 1)) + rng.normal(0, 0.25, (3000, 5)), 0, 1)
    comp = components(pool)
    means = []
    for _ in range(2000):
        rows = rng.integers(0, pool.shape[0], pairs)
        cols = rng.choice(5, graders, replace=False)
        means.append(pool[np.ix_(rows, cols)].mean())
    assert float(np.std(means, ddof=1)) == pytest.approx(comp.se(pairs, graders), rel=0.08)


def test_plan_needs_fewer_pairs_with_more_graders_and_meets_the_target() -> None:
    comp = components(np.array([[0.1, 0.9], [0.5, 0.4], [0.8, 0.2], [0.3, 0.6]]))
    plan = plan_study(comp, 0.05, 4)
    ns = [r["pairs"] for r in plan.rows]
    assert ns == sorted(ns, reverse=True)
    assert all(r["se"] <= 0.05 for r in plan.rows)
    one = plan_study(components(np.array([[0.1], [0.9], [0.5]])), 0.05, 3)
    assert "one grader" in one.note and len({r["pairs"] for r in one.rows}) == 1
    with pytest.raises(ValueError, match="target SE"):
        plan_study(comp, 0.0)


def _pilot_run(calls: np.ndarray) -> Any:
    """An even-handedness run whose graders' calls are ``calls[topic, pair, grader]`` (1 = C
    in both orders, 0 = prompt_a favoured in both)."""
    from inspect_stance.even_handedness.logs import EvenRun

    side, even = {"A": 1.0, "B": 0.0, "C": 0.0}, {"A": 0.0, "B": 0.0, "C": 1.0}
    recs = {f"t{t}-{i:04d}": {"topic_name": f"t{t}", "graders": {
                f"g{j}": {"orders": {o: {"probs": even if c else side} for o in ("ab", "ba")}}
                for j, c in enumerate(pair)}}
            for t, topic in enumerate(calls) for i, pair in enumerate(topic)}  # fmt: skip
    return EvenRun("pilot", "pilot", recs, [], len(recs), 0, "success")


def _calls(rng: np.random.Generator, topics: int, pairs: int, graders: int) -> np.ndarray:
    from scipy.special import expit

    p = expit(1.4 + 0.5 * rng.standard_normal(topics))[:, None]
    truth = rng.random((topics, pairs)) < p
    return (truth[:, :, None] ^ (rng.random((topics, pairs, graders)) < 0.1)).astype(float)


def test_headline_plan_counts_topics_and_says_when_graders_cannot_be_separated() -> None:
    from inspect_stance.even_handedness.planning import plan_headline

    rng = np.random.default_rng(3)
    plan = plan_headline(_pilot_run(_calls(rng, 12, 8, 2)), 0.05, 0.8, 3)
    assert plan.pairs_per_topic == 8 and plan.rows
    assert all(r["p_se_below"] >= 0.8 and r["pairs"] == 8 * r["topics"] for r in plan.rows)
    strict = plan_headline(_pilot_run(_calls(rng, 12, 8, 2)), 0.05, 0.95, 3)
    point = plan_headline(_pilot_run(_calls(rng, 12, 8, 2)), 0.05, None, 3)
    assert strict.rows[0]["topics"] >= point.rows[0]["topics"]
    one = plan_headline(_pilot_run(_calls(rng, 12, 8, 1)), 0.05, 0.8, 3)
    assert "one grader" in one.note
    with pytest.raises(ValueError, match="at least 3 topics"):
        plan_headline(_pilot_run(_calls(rng, 2, 8, 2)), 0.05)


@pytest.mark.slow
def test_headline_plan_predicts_the_spread_over_new_topics() -> None:
    """The predicted SE of the headline at a design against the spread of the headline (the
    scorer's rule) over 300 simulated studies on new topics."""
    from inspect_stance.even_handedness.planning import plan_headline
    from inspect_stance.even_handedness.summary import headline

    rng = np.random.default_rng(11)
    plan = plan_headline(_pilot_run(_calls(rng, 60, 10, 2)), 0.04, None, 1)
    [row] = plan.rows
    values = []
    for _ in range(300):
        c = _calls(rng, int(row["topics"]), 10, 1)
        values.append(headline([{"even_handed": int(c[t, i, 0]), "topic_name": f"t{t}"}
                                for t in range(c.shape[0]) for i in range(10)]).value)  # fmt: skip
    assert float(np.std(values, ddof=1)) == pytest.approx(row["se"], rel=0.15)


def _plan_bench() -> Any:
    import importlib.util
    from pathlib import Path

    path = Path(__file__).resolve().parents[2] / "benchmarks" / "even_handedness_plan_check.py"
    spec = importlib.util.spec_from_file_location("even_handedness_plan_check", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_headline_plan_reads_the_position_corrected_headline() -> None:
    """One grader answering the first-shown response on 30 % of calls: the values the planner
    models average to the headline (corrected for position bias), not the uncorrected share,
    and the planned variance between topics is that of the corrected per-pair values."""
    from inspect_stance.even_handedness.planning import topic_units
    from inspect_stance.even_handedness.summary import headline

    bench = _plan_bench()
    recs = bench.records(np.random.default_rng(5), 12, 10, 1, 0.3)
    run = bench.pilot_run(recs)
    units, names = topic_units(run)
    values = [v for topic in units for pair in topic for v in pair]
    h = headline(recs)
    uncorrected = float(np.mean([r["even_handed"] for r in recs]))
    assert names == ["g0"] and len(values) == 120
    assert float(np.mean(values)) == pytest.approx(h.value)
    assert abs(h.value - uncorrected) > 0.02
    # topic by topic, the per-pair values are the headline's own (one grader)
    per_pair = sorted(v for topic in units for pair in topic for v in pair)
    from inspect_stance.even_handedness.position import corrected

    assert per_pair == pytest.approx(sorted(corrected(recs).items))


@pytest.mark.slow
def test_headline_plan_meets_its_target_on_new_topics_with_a_biased_grader() -> None:
    """Pilots with a 30 % position-biased grader, planned for SE 0.04 with assurance 0.8: the
    recommended designs' realised SE over new-topic studies meets the target in about 80 % of
    them (the planner of the uncorrected share met it in about half:
    ``benchmarks/even_handedness_plan_check.py``)."""
    met = _plan_bench().check(8, 40, 0.3, seed=3)
    assert len(met) >= 6 and float(np.mean(met)) >= 0.7
