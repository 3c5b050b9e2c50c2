"""Variance components and design predictions: statsmodels, hand formulas, known-answer
simulations and subsampling of the reference runs."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest

from inspect_stance.drift.metrics.spr import stance_preservation_rate
from inspect_stance.drift.planning.design import (
    PairComponents,
    cheapest,
    design,
    least_propositions_for_power,
    pair_from_runs,
    power_multiplier,
)
from inspect_stance.drift.planning.variance import cell_values, decompose, decompose_run
from inspect_stance.drift.run import load_npz
from inspect_stance.drift.transition import transition_matrices
from inspect_stance.errors import InputError

REF = Path(__file__).resolve().parents[3] / "shared" / "data" / "stance_drift_reference"
needs_ref = pytest.mark.skipif(not REF.is_dir(), reason="reference data not present")


def _simulate(rng, p, t, k, sa, sb, se, stance_effects=None):
    eff = np.zeros(k) if stance_effects is None else np.asarray(stance_effects)
    a = rng.normal(0, math.sqrt(sa), (p, 1, 1))
    b = rng.normal(0, math.sqrt(sb), (p, 1, k))
    e = rng.normal(0, math.sqrt(se), (p, t, k))
    return 0.5 + eff[None, None, :] + a + b + e


def test_balanced_estimates_match_hand_anova() -> None:
    """The moment estimates equal the expected-mean-square solutions written out by hand."""
    rng = np.random.default_rng(3)
    x = _simulate(rng, 6, 4, 5, 0.02, 0.01, 0.05)
    p, t, k = x.shape
    cell = x.mean(axis=1)
    grand = x.mean()
    ms_a = k * t * ((x.mean(axis=(1, 2)) - grand) ** 2).sum() / (p - 1)
    inter = cell - cell.mean(axis=1, keepdims=True) - cell.mean(axis=0, keepdims=True) + grand
    ms_ab = t * (inter**2).sum() / ((p - 1) * (k - 1))
    ms_e = ((x - cell[:, None, :]) ** 2).sum() / (p * k * (t - 1))
    vc = decompose(x)
    assert vc.within_cell == pytest.approx(ms_e, rel=1e-12)
    assert vc.stance_within_proposition == pytest.approx((ms_ab - ms_e) / t, rel=1e-12)
    assert vc.additive_between_propositions == pytest.approx((ms_a - ms_ab) / (k * t), rel=1e-12)


def test_components_recover_known_values() -> None:
    """Averaged over simulated runs, the estimates are the components that generated them."""
    rng = np.random.default_rng(7)
    est = np.array(
        [
            (v.additive_between_propositions, v.stance_within_proposition, v.within_cell)
            for v in (decompose(_simulate(rng, 40, 10, 5, 0.01, 0.02, 0.05)) for _ in range(200))
        ]
    )
    assert est.mean(axis=0) == pytest.approx([0.01, 0.02, 0.05], rel=0.08)


@needs_ref
def test_predicted_se_at_own_design_is_se_over_propositions() -> None:
    """``S_a / P`` at the run's design: the SPR standard error the report computes, on every
    reference run."""
    for path in sorted(REF.glob("*.npz")):
        probs = load_npz(path).probs
        vc = decompose_run(probs)
        assert not vc.truncated
        _, se = stance_preservation_rate(transition_matrices(probs))
        assert math.sqrt(vc.spr_variance(112, 100)) == pytest.approx(se, rel=1e-9), path.name


def test_pure_noise_truncates_and_says_so() -> None:
    """No proposition effect: the between-proposition estimate is cut at 0 and named."""
    rng = np.random.default_rng(1)
    vc = decompose(rng.random((30, 8, 5)))
    assert vc.between_propositions >= 0.0
    if vc.truncated:
        assert vc.between_propositions == 0.0 or vc.stance_within_proposition == 0.0


def test_predicted_se_matches_simulated_spread_of_new_designs() -> None:
    """A design's predicted SE(SPR) is the spread of SPR over fresh simulated studies."""
    rng = np.random.default_rng(11)
    pilot = decompose(_simulate(rng, 60, 20, 5, 0.01, 0.05, 0.06, [0.3, -0.3, 0.1, 0.0, -0.1]))
    sprs = [_simulate(rng, 30, 5, 5, 0.01, 0.05, 0.06).mean() for _ in range(3000)]
    truth = math.sqrt((0.01 + 0.05 / 5 + 0.06 / 25) / 30)
    assert float(np.std(sprs, ddof=1)) == pytest.approx(truth, rel=0.05)
    assert math.sqrt(pilot.spr_variance(30, 5)) == pytest.approx(truth, rel=0.25)


def test_missing_cells_are_an_input_error() -> None:
    x = np.ones((3, 4, 5))
    x[1, :, 2] = np.nan
    with pytest.raises(InputError, match="no usable trial"):
        decompose(x)


def _mixedlm_check(x: np.ndarray) -> None:
    """REML of the mixed model (stance fixed, proposition and cell random) equals the moment
    estimates (balanced, none negative)."""
    import pandas as pd
    import statsmodels.formula.api as smf

    vc = decompose(x)
    assert vc.additive_between_propositions > 0 and not vc.truncated
    p, t, k = x.shape
    s, _, i = np.meshgrid(np.arange(p), np.arange(t), np.arange(k), indexing="ij")
    df = pd.DataFrame({"y": x.ravel(), "prop": s.ravel(), "stance": i.ravel()})
    model = smf.mixedlm(
        "y ~ C(stance)", df, groups="prop", re_formula="1", vc_formula={"cell": "0 + C(stance)"}
    )
    fit = model.fit(reml=True, method="lbfgs")
    assert float(fit.cov_re.iloc[0, 0]) == pytest.approx(vc.additive_between_propositions, rel=2e-3)
    assert float(fit.vcomp[0]) == pytest.approx(vc.stance_within_proposition, rel=2e-3)
    assert float(fit.scale) == pytest.approx(vc.within_cell, rel=2e-3)


@needs_ref
def test_components_match_statsmodels_on_a_reference_run() -> None:
    """gpt_4o_mini_reversed (its additive proposition component is positive), first 10 trials."""
    _mixedlm_check(cell_values(load_npz(REF / "gpt_4o_mini_reversed.npz").probs)[:, :10])


def test_components_match_statsmodels_on_simulated_data() -> None:
    x = _simulate(np.random.default_rng(2), 40, 6, 5, 0.02, 0.03, 0.05, [0.2, -0.2, 0, 0.1, 0])
    _mixedlm_check(x)


def test_design_calls_and_cost_by_hand() -> None:
    from inspect_stance.drift.planning.design import Pricing

    vc = decompose(_simulate(np.random.default_rng(0), 10, 6, 5, 0.01, 0.02, 0.05))
    d = design(vc, 20, 7, 2, pricing=Pricing(300, 120, 0.15, 0.60, 0.5))
    assert d.calls == 20 * 5 * 7 * 2
    assert d.cost == pytest.approx((1400 * 300 * 0.15 + 1400 * 120 * 0.60) / 1e6 * 0.5)
    assert d.spr_se == pytest.approx(
        math.sqrt((vc.between_propositions + vc.within_cell / 35) / 20)
    )


def test_cheapest_equals_brute_force() -> None:
    vc = decompose(_simulate(np.random.default_rng(5), 40, 20, 5, 0.01, 0.03, 0.08))
    best = cheapest(vc, 2, 112, 100, target_se=0.02)
    assert best is not None
    brute = min(
        (p * 5 * t * 2, -t, p)
        for p in range(2, 113)
        for t in range(2, 101)
        if math.sqrt(vc.spr_variance(p, t)) <= 0.02
    )
    assert (best.calls, -best.trials, best.propositions) == brute


def test_power_agrees_with_statsmodels() -> None:
    """The propositions for a paired test agree with statsmodels' noncentral-t power solver
    within one proposition."""
    from statsmodels.stats.power import TTestPower

    pair = PairComponents(between=0.004, within_a=0.05, within_b=0.05)
    for detect in (0.02, 0.03, 0.05):
        ours = least_propositions_for_power(pair, detect, 10, 10_000)
        sd = math.sqrt(pair.variance(1, 10))
        theirs = TTestPower().solve_power(effect_size=detect / sd, alpha=0.05, power=0.8)
        assert ours is not None and abs(ours - math.ceil(theirs)) <= 1
    assert power_multiplier(10_000, 0.05, 0.8) == pytest.approx(1.95996 + 0.84162, abs=1e-3)


@needs_ref
def test_pair_from_runs_at_own_design_is_paired_se() -> None:
    a = load_npz(REF / "gpt_4o_mini.npz")
    b = load_npz(REF / "gpt_4o_mini_assert.npz")
    va, vb = decompose_run(a.probs), decompose_run(b.probs)
    pair = pair_from_runs(va, vb)
    d = va.proposition_means - vb.proposition_means
    assert math.sqrt(pair.variance(112, 100)) == pytest.approx(
        d.std(ddof=1) / math.sqrt(112), rel=1e-9
    )


@needs_ref
def test_prediction_matches_subsampling_of_a_reference_run() -> None:
    """Subsampling k trials per cell of gpt_4o_mini: the predicted SE(SPR) is the spread of
    SPR over propositions resampled with the subsample (reduced size; all runs:
    benchmarks/plan_check.py)."""
    x = cell_values(load_npz(REF / "gpt_4o_mini.npz").probs)
    vc = decompose(x)
    rng = np.random.default_rng(0)
    for k in (5, 20):
        # trial noise: subsample k trials per cell; the spread of SPR around the full-data SPR
        # must match the trial part of the prediction, sigma_e^2 (1/k - 1/T) / (K P) (finite
        # population of T trials)
        sprs = []
        for _ in range(400):
            idx = np.argsort(rng.random(x.shape), axis=1)[:, :k]
            sprs.append(np.take_along_axis(x, idx, axis=1).mean())
        predicted = vc.within_cell * (1 / k - 1 / 100) / (5 * 112)
        assert float(np.var(sprs, ddof=1)) == pytest.approx(predicted, rel=0.2)
