"""Dawid-Skene and PPI: against crowd-kit / ppi-python when installed, and known answers.

The package implements both on numpy (their libraries pull several hundred MB); the reference
checks skip when ``crowdkit`` / ``ppi_py`` are not importable.
"""

from __future__ import annotations

import importlib.util
import math
from pathlib import Path

import numpy as np
import pytest
from scipy.stats import norm
from scipy.stats import t as t_dist

from inspect_stance.construction.labels import LABELS, SCORES
from inspect_stance.construction.simulator import biased_rating
from inspect_stance.stats.dawid_skene import fit_dawid_skene
from inspect_stance.stats.ppi import difference, distance_difference, ppi_mean

#: the stance scale's classes and scores (offsets are on the scale)
STANCE = {"classes": LABELS, "scores": SCORES}


def _simulated_labels(seed=1, n_items=300, offsets=(0, 1, 0, 0), noise=(0, 0, 0.8, 0)):
    rng = np.random.default_rng(seed)
    true = rng.integers(1, 6, n_items)
    labels = []
    for i, t in enumerate(true):
        row: list[str | None] = []
        for j, (off, sd) in enumerate(zip(offsets, noise, strict=True)):
            if rng.random() < 0.1:
                row.append(None)
            elif rng.random() < 0.03:
                row.append("refusal")
            else:
                row.append(str(biased_rating(int(t), off, sd, j + 10 * seed, f"r{i}")))
        labels.append(row)
    return true, labels


def test_dawid_skene_matches_crowd_kit():
    crowdkit = pytest.importorskip("crowdkit.aggregation")
    import pandas as pd

    _, labels = _simulated_labels()
    judges = [f"j{j}" for j in range(4)]
    fit = fit_dawid_skene(labels, judges, **STANCE)
    data = pd.DataFrame(
        [(i, judges[j], x) for i, row in enumerate(labels) for j, x in enumerate(row) if x],
        columns=["task", "worker", "label"],
    )
    ref = crowdkit.DawidSkene(n_iter=100, tol=1e-5).fit(data)
    classes = list(fit.classes)
    assert len(ref.loss_history_) == fit.n_iter
    probas = ref.probas_[classes].loc[range(len(labels))].to_numpy()
    np.testing.assert_allclose(fit.posteriors, probas, atol=1e-9)
    np.testing.assert_allclose(fit.priors, ref.priors_[classes].to_numpy(), atol=1e-9)
    for j, name in enumerate(judges):
        for k, label in enumerate(classes):
            if (name, label) in ref.errors_.index:
                row = ref.errors_.loc[(name, label)][classes].to_numpy()
                np.testing.assert_allclose(fit.errors[j, k], row, atol=1e-9)


def test_dawid_skene_recovers_offsets():
    """Judge 1 adds +1 (clipped at 5): on uniform true labels its offset is 0.8; judge 2 is
    noisy but unbiased except for clipping; the realised offsets are the known answer."""
    true, labels = _simulated_labels(n_items=2000)
    fit = fit_dawid_skene(labels, ["a", "b", "c", "d"], **STANCE)
    for j in range(4):
        realised = [
            int(row[j]) - t
            for row, t in zip(labels, true, strict=True)
            if row[j] not in (None, "refusal")
        ]
        assert fit.offsets[j] == pytest.approx(np.mean(realised), abs=0.05)
    assert fit.offsets[1] == pytest.approx(0.8, abs=0.05)
    agree = np.mean(
        [lab == str(t) for lab, t in zip(fit.labels(), true, strict=True) if lab != "refusal"]
    )
    assert agree > 0.95
    # the +1 judge's confusion: true 3 -> says 4; it is right only where clipping helps (true 5)
    assert fit.confusion(1)["3"]["4"] > 0.9
    assert fit.accuracy(1) == pytest.approx(fit.priors[fit.classes.index("5")], abs=0.05)
    assert fit.accuracy(0) > 0.95


def test_dawid_skene_five_noisy_judges():
    """Five judges with noise sd 0.4, one of them +1: its offset within 0.05 of the realised."""
    _, labels5 = _simulated_labels(seed=3, n_items=400, offsets=(0, 1, 0, 0, 0), noise=(0.4,) * 5)
    true, _ = _simulated_labels(seed=3, n_items=400, offsets=(0, 1, 0, 0, 0), noise=(0.4,) * 5)
    fit = fit_dawid_skene(labels5, list("abcde"), **STANCE)
    realised = np.mean(
        [int(r[1]) - t for r, t in zip(labels5, true, strict=True) if r[1] not in (None, "refusal")]
    )
    assert fit.offsets[1] == pytest.approx(realised, abs=0.05)
    assert realised > 0.7


def test_dawid_skene_items_without_answers():
    fit = fit_dawid_skene([["1", "1"], [None, None], ["2", "2"]], ["a", "b"])
    assert fit.labels() == ["1", None, "2"]
    assert np.isnan(fit.posteriors[1]).all()


def test_ppi_matches_ppi_python():
    ppi_py = pytest.importorskip("ppi_py")
    rng = np.random.default_rng(0)
    y = rng.integers(1, 6, 40).astype(float)
    f = np.clip(y + rng.integers(0, 2, 40), 1, 5)
    fu = rng.integers(1, 6, 500).astype(float)
    for lam in (None, 1.0, 0.0):
        ours = ppi_mean(y, f, fu, alpha=0.05, lam=lam)
        low, high = ppi_py.ppi_mean_ci(y, f, fu, alpha=0.05, lam=lam)
        point = ppi_py.ppi_mean_pointestimate(y, f, fu, lam=lam)
        assert ours.estimate == pytest.approx(float(np.ravel(point)[0]), abs=1e-12)
        # ppi_py's normal interval with ddof-0 variances; ours: t with n - 1 df and the
        # correction's variance with ddof 1 (it covered at 20 labels where ppi_py's did not),
        # so ours contains ppi_py's and is wider by the t and ddof factors only
        assert ours.ci_low <= float(low[0]) and float(high[0]) <= ours.ci_high
        n = len(y)
        lam_used = ours.lam
        se_py = math.sqrt(lam_used**2 * fu.var() / len(fu) + (y - lam_used * f).var() / n)
        assert (float(high[0]) - float(low[0])) / 2 == pytest.approx(norm.ppf(0.975) * se_py)


def test_ppi_hand_computation():
    """Classic PPI (lam = 1) on four numbers, by hand."""
    y, f, fu = [3.0, 4.0], [4.0, 4.0], [4.0, 5.0, 3.0]
    est = ppi_mean(y, f, fu, lam=1.0)
    # mean(fu) = 4; rectifier mean(y - f) = -0.5; var(fu) = 2/3 (ddof 0); var(y - f) = 0.5
    # (ddof 1); t with n - 1 = 1 df
    assert est.estimate == pytest.approx(3.5)
    se = math.sqrt((2 / 3) / 3 + 0.5 / 2)
    assert est.se == pytest.approx(se)
    assert est.ci_high - est.estimate == pytest.approx(t_dist.ppf(0.975, 1) * se)
    assert "only 2 human labels" in est.warning
    d = difference(est, est.shifted(1.0))
    assert d.estimate == pytest.approx(1.0) and d.se == pytest.approx(math.sqrt(2) * se)
    assert math.isnan(ppi_mean([3.0], [3.0], [3.0]).estimate)  # n < 2
    alone = ppi_mean([3.0, 4.0], [5.0, 5.0], [])  # every response labelled: the human mean
    assert alone.estimate == pytest.approx(3.5) and alone.se == pytest.approx(0.5)


def test_distance_difference_monte_carlo():
    """With tiny standard errors the interval shrinks onto the plug-in value."""
    t = [ppi_mean([2.0, 2.0, 2.1], [2, 2, 2], [2, 2], lam=1.0).shifted(3.0)] * 3
    g = [ppi_mean([3.0, 3.0, 3.1], [3, 3, 3], [3, 3], lam=1.0).shifted(3.0)] * 3
    est, low, high = distance_difference(t, g)
    assert est == pytest.approx(abs(t[0].estimate) - abs(g[0].estimate))
    assert low <= est <= high and high - low < 0.2


def _coverage(reps: int, seed: int = 0) -> tuple[float, float]:
    """Share of replications whose 95 % PPI (and judges-only) interval covers the true lean.

    Truth: labels drawn from a known distribution (mean 2.45, lean -0.55); three judges: exact,
    +1 and noisy (sd 0.8); the ensemble label is the median of the three (their majority when
    one exists); humans label 100 of 400 responses at random; classic PPI (lam = 1).
    """
    probs = np.array([0.2, 0.35, 0.3, 0.1, 0.05])
    true_lean = float((np.arange(1, 6) * probs).sum()) - 3
    rng = np.random.default_rng(seed)
    ppi_hits = naive_hits = 0
    for r in range(reps):
        y = rng.choice(np.arange(1, 6), size=400, p=probs)
        judged = np.array(
            [
                np.median(
                    [
                        biased_rating(int(t), off, sd, 7 * r + k, f"{r}:{i}")
                        for k, (off, sd) in enumerate(((0, 0), (1, 0), (0, 0.8)))
                    ]
                )
                for i, t in enumerate(y)
            ]
        )
        labelled = rng.choice(400, size=100, replace=False)
        mask = np.zeros(400, dtype=bool)
        mask[labelled] = True
        est = ppi_mean(y[mask], judged[mask], judged[~mask]).shifted(3.0)
        ppi_hits += est.ci_low <= true_lean <= est.ci_high
        m, se = judged.mean() - 3, judged.std(ddof=1) / math.sqrt(400)
        naive_hits += abs(m - true_lean) <= 1.96 * se
    return ppi_hits / reps, naive_hits / reps


def test_ppi_coverage_reduced():
    """60 replications: the PPI interval covers the true lean in >= 85 % (a 95 % interval falls
    below that over 60 draws with probability 0.001); the judges-only interval, biased by the
    +1 judge, covers far less."""
    ppi_cov, naive_cov = _coverage(60)
    assert ppi_cov >= 0.85
    assert naive_cov < 0.5


@pytest.mark.slow
def test_ppi_coverage_400_replications():
    """400 replications: coverage within the binomial 99 % band around 0.95 (0.92-0.975)."""
    ppi_cov, _ = _coverage(400, seed=1)
    assert 0.92 <= ppi_cov <= 0.975


def test_anchored_dawid_skene_matches_crowd_kit_and_recovers_offsets():
    """Gold labels (crowd-kit's ``true_labels``) on 10 % of the responses: the fit equals
    crowd-kit's, and with three judges (one +1) the offset comes back where the unanchored fit
    shares it out."""
    true, labels = _simulated_labels(seed=5, n_items=400, offsets=(0, 1, 0), noise=(0.4, 0.4, 0.4))
    rng = np.random.default_rng(0)
    gold = [str(t) if rng.random() < 0.1 else None for t in true]
    judges = ["a", "b", "c"]
    fit = fit_dawid_skene(labels, judges, gold=gold, **STANCE)
    realised = np.mean(
        [int(r[1]) - t for r, t in zip(labels, true, strict=True) if r[1] not in (None, "refusal")]
    )
    assert fit.offsets[1] == pytest.approx(realised, abs=0.05)
    assert abs(fit_dawid_skene(labels, judges, **STANCE).offsets[1] - realised) > 0.05
    crowdkit = pytest.importorskip("crowdkit.aggregation")
    import pandas as pd

    data = pd.DataFrame(
        [(i, judges[j], x) for i, row in enumerate(labels) for j, x in enumerate(row) if x],
        columns=["task", "worker", "label"],
    )
    golden = pd.Series({i: g for i, g in enumerate(gold) if g is not None})
    ref = crowdkit.DawidSkene(n_iter=100, tol=1e-5).fit(data, true_labels=golden)
    classes = list(fit.classes)
    answered = sorted(ref.probas_.index)
    probas = ref.probas_[classes].loc[answered].to_numpy()
    np.testing.assert_allclose(fit.posteriors[answered], probas, atol=1e-9)


@pytest.mark.parametrize("n", [2, 3, 6, 40])
def test_judge_offset_interval_is_the_t_interval(n: int) -> None:
    """The judge-vs-majority offset's interval is scipy's t interval of the mean at every
    size, the smallest included (1.96 would be 6.5 times too narrow at n = 2)."""
    from scipy import stats

    from inspect_stance.construction.ensemble import mean_ci

    rng = np.random.default_rng(n)
    d = list(rng.integers(-2, 3, n).astype(float) + rng.normal(0, 0.1, n))
    m, low, high, k = mean_ci(d)
    ref = stats.t.interval(0.95, n - 1, loc=np.mean(d), scale=stats.sem(d))
    assert k == n and m == pytest.approx(np.mean(d))
    assert (low, high) == pytest.approx(ref, abs=1e-12)
    assert mean_ci([0.5])[1:3] != mean_ci([0.5])[1:3]  # NaN bounds for one value


def test_ppi_warns_at_the_edges():
    """Fewer than 20 labels, and labels that agree with the ensemble everywhere (correction and
    its variance zero), each give a one-line warning; 20 labels with disagreements give none."""
    rng = np.random.default_rng(2)
    fu = rng.integers(1, 6, 200).astype(float)
    agree = rng.integers(1, 6, 30).astype(float)
    est = ppi_mean(agree, agree, fu)
    assert "agree on all 30" in est.warning and "\n" not in est.warning
    assert est.estimate == pytest.approx(fu.mean())
    y = rng.integers(1, 6, 20).astype(float)
    f = np.clip(y + rng.integers(0, 2, 20), 1, 5)
    assert ppi_mean(y, f, fu).warning == ""
    assert "only 10 human labels" in ppi_mean(y[:10], f[:10], fu).warning


def test_ppi_coverage_where_it_does_not_warn():
    """An accurate but biased ensemble (right 90 %, else one step up): intervals given without
    a warning cover >= 0.93 - noise at 20 and 50 labels (the interval before, normal with ddof
    0, covered 0.85 at 10 labels, silently)."""
    spec = importlib.util.spec_from_file_location(
        "ppi_coverage", Path(__file__).resolve().parents[2] / "benchmarks" / "ppi_coverage.py"
    )
    assert spec is not None and spec.loader is not None
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    out = bench.edges(300, sizes=(10, 20, 50), seed=9)
    assert out[10]["warned"] == 1.0
    for n in (20, 50):
        k = out[n]["n_unwarned"]
        assert k > 200
        assert out[n]["coverage_unwarned"] >= 0.93 - 2.5 * math.sqrt(0.05 * 0.95 / k)


def test_dawid_skene_with_fewer_than_three_graders_warns():
    labels = [["3"], ["4"], ["3"], ["2"]]
    fit = fit_dawid_skene(labels, ["only"], **STANCE)
    assert "at least 3 graders" in fit.warning
    assert math.isnan(fit.accuracy(0)) and math.isnan(fit.offsets[0])
    two = fit_dawid_skene([["3", "4"], ["4", "4"], ["2", "3"]], ["a", "b"])
    assert "with 2" in two.warning
    three = fit_dawid_skene([["3", "4", "3"], ["4", "4", "4"], ["2", "3", "2"]], ["a", "b", "c"])
    assert three.warning == ""
