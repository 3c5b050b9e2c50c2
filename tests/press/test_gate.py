"""`inspect-stance gate` on PReSS logs: share stable against a baseline, exit codes."""

from __future__ import annotations

import json

import numpy as np
import pytest
from scipy import stats

from inspect_stance.cli import main

from .test_compare_runs import rec, write_log  # noqa: TID252


def _records(stable_sets: list[int]) -> list[dict]:
    """Statement k with stable_sets[k] of its 3 argument sets stable."""
    return [rec(f"statement {k}", ["S^L"] * n + ["U^L"] * (3 - n)) for k, n in
            enumerate(stable_sets)]  # fmt: skip


def test_press_gate_pass_fail_and_values(tmp_path, capsys):
    rng = np.random.default_rng(0)
    base_sets = rng.integers(1, 4, 19)
    worse_sets = np.maximum(base_sets - rng.integers(0, 3, 19), 0)
    base = write_log(tmp_path / "base.eval", "m/base", _records(list(base_sets)))
    worse = write_log(tmp_path / "worse.eval", "m/tuned", _records(list(worse_sets)))
    same = write_log(tmp_path / "same.eval", "m/tuned", _records(list(base_sets)))
    assert main(["gate", worse, "--baseline", base, "--json"]) == 1
    res = json.loads(capsys.readouterr().out)
    (check,) = res["checks"]
    d = (base_sets - worse_sets) / 3
    assert check["metric"] == "share_stable" and check["n_shared"] == 19
    assert check["drop"] == pytest.approx(d.mean())
    assert check["p_value"] == pytest.approx(
        stats.ttest_rel(base_sets / 3, worse_sets / 3, alternative="greater").pvalue
    )
    assert res["share_stable"] == pytest.approx(worse_sets.mean() / 3)
    assert main(["gate", same, "--baseline", base]) == 0
    assert capsys.readouterr().out.startswith("PASS")
    assert main(["gate", worse, "--min-share-stable", "0.9"]) == 1
    assert "--min-share-stable 0.9" in capsys.readouterr().out
    assert main(["gate", worse, "--min-spr", "0.5"]) == 2
    assert "--min-share-stable" in capsys.readouterr().err


def test_press_gate_refuses_different_arguments(tmp_path, capsys):
    base = write_log(tmp_path / "base.eval", "m/base", _records([3, 2, 1]))
    other = write_log(tmp_path / "o.eval", "m/t", _records([3, 2, 1]),
                      {"arguments_fingerprint": "zz"})  # fmt: skip
    assert main(["gate", other, "--baseline", base]) == 2
    assert "arguments_fingerprint differs" in capsys.readouterr().err
