"""Known answers (slow tier): coverage of the 95 % intervals and family-wise type-I error of the
comparison statistics, a reduced run of ``benchmarks/compare_coverage.py`` (200 replications)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

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
    shifted = bench.simulate(fn, delta, 200)
    assert 0.93 <= shifted["covered"] <= 0.97
    null = bench.simulate(fn, 0.0, 200)
    assert 0.93 <= null["covered"] <= 0.97
    assert null["any_rejected"] <= 0.05
