"""The PReSS planner: components against the one-way ANOVA by hand and statsmodels' REML, the
prediction at the pilot's design against the SE over statements, the calls of the solver, the
search, bad input, and the subsampling check (slow tier; benchmark in
benchmarks/press_construction_plan_check.py)."""

from __future__ import annotations

import importlib.util
import math
from pathlib import Path

import numpy as np
import pytest

from inspect_stance.errors import InputError
from inspect_stance.press.logs import PressRun
from inspect_stance.press.plan_output import plan_json
from inspect_stance.press.planning import plan_press, press_calls, press_components

ROOT = Path(__file__).resolve().parents[2]


def _sets(rng: np.random.Generator, s: int, k: int, a: float = 2.0, b: float = 2.0
          ) -> np.ndarray:  # fmt: skip
    p = rng.beta(a, b, s)
    return (rng.random((s, k)) < p[:, None]).astype(float)


def _run(x: np.ndarray, task_args: dict | None = None, metadata: dict | None = None) -> PressRun:
    records = [{"press": 2, "statement": f"statement {i}", "bias": "left",
                "labels": {"none": ["S^L" if v else "U^L" for v in row]}}
               for i, row in enumerate(x)]  # fmt: skip
    return PressRun("pilot.eval", "m/x", records, len(records), 0, "success",
                    task_args=task_args or {}, metadata=metadata or {})  # fmt: skip


def test_components_are_the_one_way_anova_by_hand() -> None:
    x = _sets(np.random.default_rng(1), 40, 4)
    vc = press_components({str(i): list(r) for i, r in enumerate(x)})
    within = x.var(axis=1, ddof=1).mean()  # MS_within
    ms_between = 4 * x.mean(axis=1).var(ddof=1)  # MS_between = K var(means)
    assert vc.sigma2[0] == pytest.approx(within)
    assert vc.between == pytest.approx((ms_between - within) / 4)
    # at the pilot's own design the prediction is the SE over statements
    assert vc.se(40, (4,)) == pytest.approx(x.mean(axis=1).std(ddof=1) / math.sqrt(40))


def test_components_match_statsmodels_reml() -> None:
    import pandas as pd
    import statsmodels.formula.api as smf

    rng = np.random.default_rng(3)
    x = 0.5 + 0.3 * rng.standard_normal((60, 1)) + 0.4 * rng.standard_normal((60, 5))
    vc = press_components({str(i): list(r) for i, r in enumerate(x)})
    frame = pd.DataFrame({"y": x.ravel(), "g": np.repeat(np.arange(60), 5)})
    fit = smf.mixedlm("y ~ 1", frame, groups=frame["g"]).fit(reml=True)
    assert vc.between == pytest.approx(float(fit.cov_re.iloc[0, 0]), rel=1e-3)
    assert vc.sigma2[0] == pytest.approx(float(fit.scale), rel=1e-3)


def test_calls_follow_the_solver() -> None:
    x = np.ones((3, 3))
    plain = press_calls(_run(x))  # arguer 2 + 3 responses per set
    assert (plain.per_set, plain.per_statement) == (5.0, 0.0)
    full = press_calls(_run(x, {"personas": True, "classifier": "llm", "entropy_samples": 20,
                                "factor_samples": 10}))  # fmt: skip
    assert (full.per_set, full.per_statement) == (2 + 9 + 9, 20 + 10)
    given = press_calls(_run(x, metadata={"arguments_source": "log:args.eval"}))
    assert given.per_set == 3.0 and not given.generated_arguments


def test_recommendation_is_the_cheapest_meeting_the_target() -> None:
    x = _sets(np.random.default_rng(4), 30, 3)
    plan = plan_press(_run(x), target_se=0.06, assurance=0.8, max_statements=500)
    rec = plan.recommended
    assert rec is not None
    vc = press_components({str(i): list(r) for i, r in enumerate(x)})
    design = (rec.argument_sets,)
    assert vc.prob_se_below(0.06, rec.statements, design) >= 0.8
    assert vc.prob_se_below(0.06, rec.statements - 1, design) < 0.8
    for k in range(1, 11):  # no cheaper design with any number of sets
        for s in range(2, 501):
            if s * 5 * k < rec.calls:
                assert vc.prob_se_below(0.06, s, (k,)) < 0.8
    out = plan_json(plan)
    assert out["recommended"]["calls"] == rec.statements * 5 * rec.argument_sets
    assert out["recommended"]["prob_meets_target"] >= 0.8
    lo, hi = out["recommended"]["predicted_se_range"]
    assert lo < rec.predicted_se < hi


def test_bad_input_is_one_line() -> None:
    x = _sets(np.random.default_rng(5), 10, 3)
    with pytest.raises(InputError, match="strictly between 0 and 1"):
        plan_press(_run(x), detect=1.5)
    with pytest.raises(InputError, match="at least 2"):
        plan_press(_run(x[:1]))
    with pytest.raises(InputError, match="--assurance"):
        plan_press(_run(x), target_se=0.1, assurance=1.0)


def test_one_set_per_statement_is_folded_and_said() -> None:
    plan = plan_press(_run(_sets(np.random.default_rng(6), 20, 1)))
    assert plan.runs[0]["components"]["not_separable"] == ["argument set"]
    assert plan.recommended is not None


def _bench():
    path = ROOT / "benchmarks" / "press_construction_plan_check.py"
    spec = importlib.util.spec_from_file_location("press_construction_plan_check", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.slow
def test_subsampling_check() -> None:
    """Prediction within 5 % of the realised SE; the assured design meets the target in at
    least P of the resamples (less 3 binomial SEs) and more often than the point prediction.
    PReSS's assurance is conservative (about 0.9 at P = 0.8: the pilot's S_t are bounded and
    skewed, so their variance is steadier than the chi-square says)."""
    reps, p = 200, 0.8
    r = _bench().check("press", reps, p)
    noise = 3 * math.sqrt(p * (1 - p) / reps)
    assert abs(r["obs_over_pred"] - 1) < 0.05
    assert r["met_assured"] >= p - noise
    assert r["met_point"] < r["met_assured"]


@pytest.mark.slow
def test_a_scripted_run_is_planned(tmp_path) -> None:
    """A real press_sim log (19 statements x 3 sets, LLM classifier: 8 calls per set)."""
    from inspect_ai import eval as inspect_eval
    from inspect_stance.tasks.press import press

    from inspect_stance.press.plan_output import plan_press_logs

    logs = inspect_eval(press, task_args={"classifier": "llm"}, model="press_sim/target",
                        model_roles={"arguer": "press_sim/arguer",
                                     "classifier": "press_sim/classifier"},
                        log_dir=str(tmp_path), display="none")  # fmt: skip
    assert logs[0].status == "success"
    plan = plan_press_logs([str(tmp_path)], target_se=0.05, max_statements=500)
    assert plan.calls.per_set == 8.0 and plan.runs[0]["statements"] == 19
    rec = plan.recommended
    assert rec is not None and rec.calls == rec.statements * 8 * rec.argument_sets
    copy = tmp_path / "copy.eval"  # a renamed copy is the same run: planned once, not paired
    copy.write_bytes(Path(logs[0].location).read_bytes())
    again = plan_press_logs([logs[0].location, str(copy)], detect=0.2, max_statements=500)
    assert again.target["baseline"] is None and again.recommended is not None


def test_a_paired_plan_uses_the_pairs_own_differences() -> None:
    from inspect_stance.press.planning import paired_components

    rng = np.random.default_rng(8)
    a = _sets(rng, 30, 3)
    b = np.where(rng.random(a.shape) < 0.2, 1 - a, a)  # a second model: 20 % of sets flipped
    pair = paired_components({str(i): list(r) for i, r in enumerate(a)},
                             {str(i): list(r) for i, r in enumerate(b)})  # fmt: skip
    d = a.mean(axis=1) - b.mean(axis=1)
    assert pair.estimate == pytest.approx(d.mean())
    assert pair.unit_variance((3,)) == pytest.approx(d.var(ddof=1))  # at the pilot's design
    plan = plan_press(_run(b), baseline=_run(a), detect=0.1, max_statements=5000)
    rec = plan.recommended
    assert rec is not None and rec.predicted_delta_se is not None
    from scipy import stats

    df = rec.statements - 1  # the paired t-test's power condition holds, and not one fewer
    assert 0.1 / rec.predicted_delta_se >= stats.t.ppf(0.975, df) + stats.t.ppf(0.8, df)
