"""Appendix-B factor analysis on hand-made draws whose answer is known."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from statsmodels.multivariate.factor import Factor

from inspect_stance.press.factor_analysis import (
    factor_analysis,
    factor_observations,
    factor_tables,
    squared_multiple_correlations,
)
from inspect_stance.press.logs import PressRun
from inspect_stance.press.report import write_report
from inspect_stance.press.summary import sample_record

STABLE = {"neutral": "agree", "support": "agree", "counter": "agree"}


def records(columns: dict[str, tuple[str, list[int]]]) -> list[dict]:
    """Statement records holding only what the factor analysis reads."""
    return [
        {"statement": s, "bias": b, "statement_id": i, "factor_stances": list(draws)}
        for i, (s, (b, draws)) in enumerate(columns.items())
    ]


def two_blocks() -> list[tuple[str, list[dict]]]:
    """Statements A, B (right) always answer alike; C, D (left) always alike; the two blocks
    vary independently (every combination equally often), over two models of 4 draws."""
    x = [1, 1, -1, -1]
    y = [1, -1, 1, -1]
    runs = []
    for m in ("m1", "m2"):
        cols = {"A": ("right", x), "B": ("right", x), "C": ("left", y), "D": ("left", y)}
        runs.append((m, records(cols)))
    return runs


@pytest.mark.parametrize("method", ["pc", "pf"])
def test_two_perfect_blocks(method):
    data = factor_observations(two_blocks())
    assert data is not None and data.matrix.shape == (8, 4)
    result = factor_analysis(data, method)
    # R = [[1,1,0,0],[1,1,0,0],[0,0,1,1],[0,0,1,1]]: eigenvalues 2, 2, 0, 0 (sum = 4 statements);
    # every SMC is 1 (each statement is predicted exactly by its twin), so pf = pc here
    np.testing.assert_allclose(result.eigenvalues, [2, 2, 0, 0], atol=1e-9)
    np.testing.assert_allclose(
        result.eigenvalues, np.sort(np.linalg.eigvalsh(result.correlation))[::-1], atol=1e-9
    )
    assert result.eigenvalues.sum() == pytest.approx(4)
    assert result.n_retained == 2 and result.rotated
    np.testing.assert_allclose(result.proportion, [0.5, 0.5, 0, 0], atol=1e-9)
    # varimax: each block loads +-1 on its own factor, 0 on the other. The tied eigenvalues make
    # the unrotated eigenvectors an arbitrary basis of the plane, so this is the rotation's work.
    # Signed to the right: right statements A, B +1; left statements C, D -1.
    np.testing.assert_allclose(np.abs(result.loadings), [[1, 0], [1, 0], [0, 1], [0, 1]], atol=1e-6)
    assert result.loadings[0, 0] == pytest.approx(1) and result.loadings[2, 1] == pytest.approx(-1)
    np.testing.assert_allclose(result.uniqueness, 0, atol=1e-9)
    np.testing.assert_allclose(result.uniqueness_positive, 0, atol=1e-9)
    np.testing.assert_allclose(result.rotated_variance, [2, 2], atol=1e-9)


def noisy_blocks(seed: int = 3, n: int = 200) -> np.ndarray:
    """+-1 answers of 6 statements: the first three driven by one latent stance, the last three
    by another, plus noise."""
    rng = np.random.default_rng(seed)
    f = rng.normal(size=(n, 2))
    load = np.array([[0.9, 0.9, 0.8, 0.0, 0.1, 0.0], [0.0, 0.1, 0.0, 0.9, 0.9, 0.8]])
    return np.sign(f @ load + 0.4 * rng.normal(size=(n, 6))).astype(int)


def as_runs(x: np.ndarray, biases: list[str]) -> list[tuple[str, list[dict]]]:
    cols = {f"s{j}": (biases[j], [int(v) for v in x[:, j]]) for j in range(x.shape[1])}
    return [("m", records(cols))]


@pytest.mark.filterwarnings("ignore:divide by zero encountered in log10:RuntimeWarning")
def test_principal_factors_match_statsmodels_and_numpy():
    x = noisy_blocks()
    data = factor_observations(as_runs(x, ["right"] * 3 + ["left"] * 3))
    result = factor_analysis(data, "pf")
    r = np.corrcoef(x, rowvar=False)
    # SMC = 1 - 1 / (R^-1)_ii for an invertible R
    np.testing.assert_allclose(
        squared_multiple_correlations(r), 1 - 1 / np.diag(np.linalg.inv(r)), atol=1e-10
    )
    reduced = r.copy()
    np.fill_diagonal(reduced, 1 - 1 / np.diag(np.linalg.inv(r)))
    np.testing.assert_allclose(
        result.eigenvalues, np.sort(np.linalg.eigvalsh(reduced))[::-1], atol=1e-10
    )
    # proportion over the sum of all eigenvalues (= trace of the reduced matrix, < 6 here)
    assert result.proportion.sum() == pytest.approx(1.0)
    assert result.eigenvalues.sum() == pytest.approx(np.trace(reduced))
    # the same as statsmodels' non-iterated principal axis factoring
    fa = Factor(corr=r, n_factor=result.n_retained, method="pa", smc=True).fit(maxiter=1)
    np.testing.assert_allclose(result.eigenvalues, fa.eigenvals, atol=1e-10)
    np.testing.assert_allclose(
        np.abs(result.loadings_unrotated), np.abs(fa.loadings_no_rot), atol=1e-10
    )
    fa.rotate("varimax")
    got = sorted(map(tuple, np.round(np.abs(result.loadings.T), 8)))
    want = sorted(map(tuple, np.round(np.abs(fa.loadings.T), 8)))
    np.testing.assert_allclose(got, want, atol=1e-6)
    # two factors survive Kaiser; the first three statements load on one, the rest on the other
    assert result.n_retained == 2
    big = np.abs(result.loadings) > 0.5
    assert big[:3].sum(axis=0).tolist() in ([3, 0], [0, 3])
    assert big[3:].sum(axis=0).tolist() in ([3, 0], [0, 3])
    # right statements load positive, left ones negative on their factor
    assert (result.loadings[:3][big[:3]] > 0).all() and (result.loadings[3:][big[3:]] < 0).all()
    # statements whose factor-1 loading has their bias's sign, from statsmodels' varimax
    # loadings: the column equal (up to sign) to factor 1, signed so that sum_q b_q L_q >= 0
    b = np.array([1.0] * 3 + [-1.0] * 3)
    (j,) = [
        j
        for j in range(fa.loadings.shape[1])
        if np.allclose(np.abs(fa.loadings[:, j]), np.abs(result.loadings[:, 0]), atol=1e-6)
    ]
    first = fa.loadings[:, j] * np.sign(b @ fa.loadings[:, j])
    assert result.n_sign_consistent == int(np.sum(np.sign(first) == b))
    # uniqueness over the kept factors equals statsmodels'; over every positive-eigenvalue
    # factor it is 1 - sum_j lambda_j v_qj^2 (statsmodels with all positive factors kept)
    np.testing.assert_allclose(result.uniqueness, fa.uniqueness, atol=1e-10)
    n_pos = int(np.sum(result.eigenvalues > 0))
    fa_all = Factor(corr=r, n_factor=n_pos, method="pa", smc=True).fit(maxiter=1)
    np.testing.assert_allclose(result.uniqueness_positive, fa_all.uniqueness, atol=1e-10)


def test_principal_components_eigenvalues_sum_to_statements():
    x = noisy_blocks(seed=5)
    result = factor_analysis(factor_observations(as_runs(x, ["right"] * 6)), "pc")
    np.testing.assert_allclose(
        result.eigenvalues, np.sort(np.linalg.eigvalsh(np.corrcoef(x, rowvar=False)))[::-1]
    )
    assert result.eigenvalues.sum() == pytest.approx(6)
    assert result.n_retained == int(np.sum(result.eigenvalues > 1))


def test_one_factor_is_not_rotated():
    # six statements driven by one latent stance: one eigenvalue > 1
    rng = np.random.default_rng(1)
    f = rng.normal(size=(200, 1))
    x = np.sign(f @ np.full((1, 6), 0.9) + 0.5 * rng.normal(size=(200, 6))).astype(int)
    result = factor_analysis(factor_observations(as_runs(x, ["right"] * 6)), "pf")
    assert result.n_retained == 1 and not result.rotated
    np.testing.assert_allclose(result.loadings, result.loadings_unrotated)
    assert (result.loadings[:, 0] > 0).all()  # signed to the right
    tables = factor_tables(result)
    assert list(tables["rotated_variance"]["factor"]) == ["Factor 1"]
    assert list(tables["eigenvalues"]["kaiser_retained"]) == [True] + [False] * 5


def test_zero_stances_drop_observations_or_count_as_zero():
    cols = {
        "A": ("right", [1, -1, 1, -1, 0]),
        "B": ("right", [1, -1, 1, 1, 1]),
        "C": ("left", [-1, 1, 1, 1, -1]),
    }
    data = factor_observations([("m", records(cols))])
    assert data.matrix.shape == (4, 3) and data.n_dropped == 1
    assert data.n_zero == {"A": 1, "B": 0, "C": 0}
    kept = factor_observations([("m", records(cols))], missing="zero")
    assert kept.matrix.shape == (5, 3) and kept.n_dropped == 0
    assert kept.matrix[4].tolist() == [0.0, 1.0, -1.0]


def test_statements_without_variance_or_missing_from_a_log_are_left_out():
    m1 = records({"A": ("right", [1, -1, 1]), "B": ("left", [1, 1, 1]), "C": ("left", [1, -1, -1])})
    m2 = records({"A": ("right", [1, 1, -1]), "B": ("left", [1, 1, 1]), "C": ("left", [-1, 1, 1])})
    m2.append({"statement": "D", "bias": "right", "statement_id": 9, "factor_stances": [1, -1]})
    data = factor_observations([("m1", m1), ("m2", m2), ("m3", [{"statement": "A"}])])
    assert data.statements == ["A", "C"]
    assert "no variance" in data.left_out["B"] and data.left_out["D"] == "not drawn in every log"
    assert set(data.draws_by_model) == {"m1", "m2"}  # m3 has no draws
    assert data.models == ["m1"] * 3 + ["m2"] * 3


def test_no_draws_and_bad_values():
    assert factor_observations([("m", [{"statement": "A", "bias": "left"}])]) is None
    bad = records({"A": ("right", [1, 2])})
    with pytest.raises(ValueError) as ex:
        factor_observations([("m", bad)])
    assert "factor_stances must be a list of -1 / 0 / +1" in str(ex.value)
    with pytest.raises(ValueError, match="needs at least 2 statements"):
        factor_analysis(factor_observations([("m", records({"A": ("right", [1, -1, 1])}))]))


def press_run(model: str, cols: dict[str, tuple[str, list[int]]]) -> PressRun:
    recs = [
        sample_record(i, s, b, {"none": [STABLE]}, factor_stances=draws)
        for i, (s, (b, draws)) in enumerate(cols.items())
    ]
    return PressRun(f"{model}.eval", model, recs, len(recs), 0, "success")


def test_report_writes_factor_tables_and_scree(tmp_path):
    combos = list(itertools.product([1, -1], repeat=2))
    x = [a for a, _ in combos] * 2
    y = [b for _, b in combos] * 2
    cols = {"A": ("right", x), "B": ("right", x), "C": ("left", y), "D": ("left", y)}
    runs = [press_run("m1", cols), press_run("m2", cols)]
    result = write_report(runs, tmp_path / "rep")
    out = tmp_path / "rep"
    assert (out / "scree.png").read_bytes()[:4] == b"\x89PNG"
    for name in ("eigenvalues", "rotated_variance", "loadings", "observations"):
        assert (out / f"factor_{name}.csv").stat().st_size > 0
    eig = result["factor_analysis"]["eigenvalues"]
    assert [round(r["eigenvalue"], 9) for r in eig] == [2, 2, 0, 0]
    md = (out / "report.md").read_text()
    assert "Kaiser criterion (eigenvalue > 1): 2 factor(s) retained." in md
    assert "16 observations kept, 0 dropped, from 2 model(s)" in md
    assert "The correlation matrix is singular (rank 2 < 4 statements" in md


def test_report_without_draws_says_so(tmp_path):
    run = PressRun("a.eval", "a", [sample_record(0, "A", "right", {"none": [STABLE]})], 1, 0, "ok")
    result = write_report([run], tmp_path / "rep")
    assert result["factor_analysis"] == {}
    md = (tmp_path / "rep" / "report.md").read_text()
    assert "No factor-analysis draws in these logs" in md and "-T factor_samples=20" in md
    assert not (tmp_path / "rep" / "scree.png").exists()


def test_report_when_every_observation_holds_a_zero(tmp_path):
    cols = {"A": ("right", [1, 0, -1]), "B": ("left", [0, 1, 1]), "C": ("left", [1, -1, 0])}
    result = write_report([press_run("m1", cols)], tmp_path / "rep")
    assert result["factor_analysis"]["factor_observations"][0]["observations_dropped"] == 3
    md = (tmp_path / "rep" / "report.md").read_text()
    assert "No factor analysis: no observation is left" in md and "--factor-missing zero" in md
