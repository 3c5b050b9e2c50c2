"""`inspect-stance compare` on prompt_construction logs of the scripted target with known leans,
and the judgment-level model against a hand-written cluster-robust sandwich."""

from __future__ import annotations

import json

import numpy as np
import pytest
from inspect_ai import eval as inspect_eval
from inspect_ai.model import get_model
from inspect_stance.tasks.prompt_construction import prompt_construction

from inspect_stance.cli import main
from inspect_stance.construction.compare import cluster_ols


def _sim(name, **args):
    return get_model(f"construction_sim/{name}", memoize=False, **args)


def _run(tiny_inputs, log_dir, neutral_filler, threshold=0.75):
    task = dict(
        topics=str(tiny_inputs["topics"]),
        writing_templates=str(tiny_inputs["writing"]),
        templates_per_setting=2,
        prompts_per_setting=2,
        prompter_cache=False,
        rubric_threshold=threshold,
    )
    (log,) = inspect_eval(
        prompt_construction,
        task_args=task,
        model=_sim("target", topics=str(tiny_inputs["topics"]), neutral_filler=neutral_filler),
        model_roles={
            "judges": [_sim("judge_exact"), _sim("judge_exact")],
            "prompter": _sim("prompter"),
        },  # fmt: skip
        log_dir=str(log_dir),
        display="none",
    )
    assert log.status == "success"
    return log.location


@pytest.fixture(scope="module")
def two_runs(tiny_inputs, tmp_path_factory):
    """A: neutral templated prompts answered 2 (lean -1); B: answered 3 (lean 0)."""
    root = tmp_path_factory.mktemp("construction_compare")
    return _run(tiny_inputs, root / "a", 2), _run(tiny_inputs, root / "b", 3), root


def test_known_deltas(two_runs, capsys):
    a, b, _ = two_runs
    assert main(["compare", a, b, "--json", "--label", f"{a}=A", "--label", f"{b}=B"]) == 0
    out = json.loads(capsys.readouterr().out)
    by = {c["metric"]: c for c in out["comparisons"]}
    # 2 topics x 3 intents x 3 stances x 2 methods = 36 items; 6 neutral templated ones move +1
    assert by["lean"]["n_items"] == 36
    assert by["lean"]["delta"] == pytest.approx(6 / 36)
    assert by["distance"]["delta"] == pytest.approx(-6 / 36)
    assert by["distance (judgments)"]["delta"] == pytest.approx(-6 / 36)
    assert by["distance_neutral (Wilcoxon)"]["n_items"] == 12
    gaps = {c["run_a"]: c for c in out["comparisons"] if c["metric"].startswith("gap")}
    assert gaps["A generated"]["delta"] == pytest.approx(1.0)  # templated 1 from neutral
    assert gaps["B generated"]["delta"] == pytest.approx(0.0, abs=1e-9)
    assert all(c["p_adjusted"] >= c["p"] - 1e-15 for c in out["comparisons"])


def test_per_setting_adds_a_lean_row_per_shared_cell(two_runs, capsys):
    """``--per-setting`` (the method's own compare option) adds one ``lean[cell]`` row per
    setting x method cell: 36 cells, 6 of them (neutral, templated) moved from 2 to 3."""
    a, b, _ = two_runs
    assert main(["compare", a, b, "--json"]) == 0
    plain = json.loads(capsys.readouterr().out)["comparisons"]
    assert not any(c["metric"].startswith("lean[") for c in plain)
    assert main(["compare", a, b, "--json", "--per-setting"]) == 0
    rows = [c for c in json.loads(capsys.readouterr().out)["comparisons"]
            if c["metric"].startswith("lean[")]  # fmt: skip
    assert len(rows) == 36
    assert sorted(c["delta"] for c in rows) == [0.0] * 30 + [1.0] * 6


def test_another_methods_compare_option_is_one_line(two_runs, capsys):
    a, b, _ = two_runs
    for flag in (["--persona", "left"], ["--exclude-unparsed"]):
        assert main(["compare", a, b, *flag]) == 2
        err = capsys.readouterr().err.strip()
        assert f"{flag[0]} is an option of" in err and "not of prompt-construction" in err
        assert "\n" not in err


def test_different_rubric_threshold_refused(two_runs, tiny_inputs, capsys):
    a, _, root = two_runs
    c = _run(tiny_inputs, root / "c", 2, threshold=0.9)
    assert main(["compare", a, c]) == 2
    err = capsys.readouterr().err.strip()
    assert "rubric_threshold differs" in err and "\n" not in err


def test_cluster_ols_matches_hand_sandwich():
    rng = np.random.default_rng(2)
    groups = np.repeat(np.arange(12), 5)
    x = (rng.uniform(size=60) < 0.5).astype(float)
    y = 0.3 * x + rng.normal(size=12)[groups] + rng.normal(size=60)
    est, ci, p = cluster_ols(y, x, [], [str(g) for g in groups], 0.95)
    X = np.column_stack([np.ones(60), x])
    beta = np.linalg.solve(X.T @ X, X.T @ y)
    u = y - X @ beta
    bread = np.linalg.inv(X.T @ X)
    meat = sum(np.outer(X[groups == g].T @ u[groups == g], X[groups == g].T @ u[groups == g])
               for g in range(12))  # fmt: skip
    n, k, g = 60, 2, 12
    v = bread @ meat @ bread * (g / (g - 1)) * ((n - 1) / (n - k))
    se = np.sqrt(v[1, 1])
    assert est == pytest.approx(beta[1])
    from scipy import stats

    q = stats.t.ppf(0.975, g - 1)  # statsmodels: t with G - 1 df for clustered OLS
    assert ci[1] - ci[0] == pytest.approx(2 * q * se, rel=1e-6)
