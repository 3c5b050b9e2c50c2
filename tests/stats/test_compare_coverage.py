"""Known answers (slow tier): coverage of the 95 % intervals and family-wise type-I error of the
comparison statistics, a reduced run of ``benchmarks/compare_coverage.py`` (200 replications)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest
from scipy.stats import binomtest

ROOT = Path(__file__).resolve().parents[2]


def _bench():
    spec = importlib.util.spec_from_file_location("compare_coverage",
                                                  ROOT / "benchmarks" / "compare_coverage.py")  # fmt: skip
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.slow
@pytest.mark.parametrize(
    ("name", "delta"),
    [("drift", 0.05), ("press", 0.15), ("construction", 0.2)],
)
def test_coverage_and_type_one_error(name, delta):
    bench = _bench()
    fn = {"drift": bench.drift_replication, "press": bench.press_replication,
          "construction": bench.construction_replication}[name]  # fmt: skip
    # 200 replications: a figure's own binomial noise is +-1.5 points, so each is checked for
    # consistency with its nominal value (an exact binomial test at the 1 % level) rather than
    # against the 93-97 % / 5 % band, which benchmarks/compare_coverage.py meets at 1,000
    reps = 200
    shifted = bench.simulate(fn, delta, reps)
    null = bench.simulate(fn, 0.0, reps)
    for covered in (shifted["covered"], null["covered"]):
        k = round(covered * reps)
        assert binomtest(k, reps, 0.95).pvalue > 0.01, covered
    k = round(null["any_rejected"] * reps)
    assert binomtest(k, reps, 0.05, alternative="greater").pvalue > 0.01, null["any_rejected"]
