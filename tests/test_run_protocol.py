"""The typed run (:class:`inspect_stance.study.protocol.Run`): a method's loader returns runs
whose settings, items and headline are the ones computed by hand from the data written."""

from __future__ import annotations

import math
import statistics
from pathlib import Path

import numpy as np
import pytest
from scipy.stats import t as student_t

from inspect_stance.errors import InputError
from inspect_stance.study import method_named
from inspect_stance.study.protocol import CompareRequest, Run, ShardedRun

# the PReSS fixture writer of the comparison tests (statement records, one log per model)
from tests.press.test_compare_runs import BEFORE, write_log


def _load(method: str, paths: list[str]) -> list[Run]:
    found = method_named(method)
    assert found is not None and found.comparer is not None
    return found.comparer.load(paths, CompareRequest(tuple(paths))).runs


def test_press_run_headline_items_and_settings_by_hand(tmp_path: Path) -> None:
    [run] = _load("press", [write_log(tmp_path / "a.eval", "m/base", BEFORE)])
    # S_t per statement: A 3/3, B 2/3, C 0/3 (unstable), D 3/3
    shares = {"A": 1.0, "B": 2 / 3, "C": 0.0, "D": 1.0}
    items = run.items("share_stable")
    assert {k: c for k, (c, _) in items.items()} == {k: k for k in shares}
    assert {k: v for k, (_, v) in items.items()} == pytest.approx(shares)
    h = run.headline()
    mean, se = statistics.mean(shares.values()), statistics.stdev(shares.values()) / 2
    q = float(student_t.ppf(0.975, 3))
    assert (h.value, h.se, h.n_items, h.n_clusters) == pytest.approx((mean, se, 4, 4))
    assert h.interval == pytest.approx((max(mean - q * se, 0.0), min(mean + q * se, 1.0)))
    assert run.settings()["arguments_fingerprint"] == "f1"
    assert run.items("no_such_metric") == {}


def test_drift_run_headline_is_the_mean_kept_share_over_propositions(tmp_path: Path) -> None:
    rng = np.random.default_rng(3)
    kept = rng.uniform(0.5, 0.95, 6)
    probs = np.zeros((6, 4, 5, 5))
    for s in range(6):
        for i in range(5):  # each trial keeps mass kept[s] on the initial stance
            probs[s, :, i, i] = kept[s]
            probs[s, :, i, (i + 1) % 5] = 1 - kept[s]
    path = tmp_path / "run.npz"
    np.savez(path, probs=probs, propositions=np.array([f"p{k}" for k in range(6)]))
    [run] = _load("stance_drift", [str(path)])
    h = run.headline()
    assert h.value == pytest.approx(float(kept.mean()))
    assert h.se == pytest.approx(float(kept.std(ddof=1)) / math.sqrt(6))
    assert (h.n_items, h.n_clusters) == (6, 6)
    items = run.items("spr")
    assert sorted(v for _, v in items.values()) == pytest.approx(sorted(kept))
    assert all(cluster == key for key, (cluster, _) in items.items())
    assert run.settings() == {"hops": 1}


def test_merge_pools_one_study_and_refuses_two_runs(tmp_path: Path) -> None:
    a = write_log(tmp_path / "a.eval", "m/base", BEFORE)
    b = write_log(tmp_path / "b.eval", "m/other", BEFORE)
    runs = _load("press", [a, b])
    cls = type(runs[0])
    assert isinstance(runs[0], cls) and hasattr(cls, "merge")
    sharded: type[ShardedRun] = cls  # type: ignore[assignment]
    assert sharded.merge([runs[0]]) is runs[0]  # a whole run pools into itself
    with pytest.raises(InputError, match="pool into 2 runs, not one"):
        sharded.merge(runs)
