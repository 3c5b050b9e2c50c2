"""The construction gap (templated vs generated within a run) and ``distance (judgments)``
between runs: judgments averaged per prompt, then per setting and condition, paired t over
settings; size at 5 % holds with 1, 2 or 5 prompts per method per setting (slow tier)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import numpy as np
import pytest
from scipy import stats
from scipy.stats import binomtest

from inspect_stance.construction.compare import construction_gap, judgment_comparison

ROOT = Path(__file__).resolve().parents[2]


def _bench():
    spec = importlib.util.spec_from_file_location("compare_coverage",
                                                  ROOT / "benchmarks" / "compare_coverage.py")  # fmt: skip
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _by_hand(records, condition):
    """Per setting: mean over prompts of the prompt's mean |score - 3| over its judgments."""
    per: dict[tuple[str, bool], dict[str, list[float]]] = {}
    for r in records:
        for label in r.judge_labels:
            key = (r.setting.key, condition(r))
            per.setdefault(key, {}).setdefault(r.prompt_text, []).append(abs(int(label) - 3))
    settings = sorted({k[0] for k in per})
    m = {k: np.mean([np.mean(v) for v in prompts.values()]) for k, prompts in per.items()}
    return (np.array([m[(s, False)] for s in settings]),
            np.array([m[(s, True)] for s in settings]))  # fmt: skip


def test_gap_is_the_paired_t_over_settings_of_prompt_means():
    bench = _bench()
    recs = bench._gap_records(np.random.default_rng(5), prompts=2)
    g, t = _by_hand(recs, lambda r: r.method == "templated")
    res = construction_gap(recs, "x", 0.95)
    assert res is not None and res.n_items == 18
    assert res.delta == pytest.approx(float(np.mean(t - g)))
    assert res.p == pytest.approx(float(stats.ttest_rel(t, g).pvalue))
    half = stats.t.ppf(0.975, 17) * np.std(t - g, ddof=1) / np.sqrt(18)
    assert res.ci == pytest.approx((np.mean(t - g) - half, np.mean(t - g) + half))


def test_run_comparison_is_the_paired_t_over_settings():
    bench = _bench()
    rng = np.random.default_rng(6)
    a, b = bench._gap_records(rng, 1, run="a"), bench._gap_records(rng, 1, run="b")
    for r in b:
        r.extra["run"] = True
    ma, mb = _by_hand(a + b, lambda r: bool(r.extra.get("run")))
    res = judgment_comparison(a, b, ("a", "b"), 0.95)
    assert res is not None and res.n_items == 18
    assert res.p == pytest.approx(float(stats.ttest_rel(mb, ma).pvalue))


@pytest.mark.slow
@pytest.mark.parametrize("prompts", [1, 2, 5])
def test_size_at_five_percent(prompts):
    """400 null replications: rejections not above 5 % (exact one-sided binomial test, 1 %)."""
    bench = _bench()
    reps = 400
    res = bench.simulate(bench.gap_replication, 0.0, reps, seed=10 + prompts, prompts=prompts,
                         old=False)  # fmt: skip
    for key in ("gap", "runs"):
        k = round(res[key] * reps)
        assert binomtest(k, reps, 0.05, alternative="greater").pvalue > 0.01, (key, res[key])


def test_few_settings_say_the_interval_is_wide():
    bench = _bench()
    recs = bench._gap_records(np.random.default_rng(7), prompts=1, settings=6)
    res = construction_gap(recs, "x", 0.95)
    assert res is not None and res.n_items == 6 and "make the interval wide" in res.test
    assert "wide" not in construction_gap(bench._gap_records(np.random.default_rng(8), 1),
                                          "x", 0.95).test  # fmt: skip
