"""One road for a sharded run: the shards of one study (``-T shard=K/2``), read by ``compare``
(:attr:`~inspect_stance.study.protocol.Comparer.load`, the shards pooled by the run class) and
by every surface (``runs_df``'s pooled row, the card's entry, ``report --json``'s run), give the
same headline exactly, and the same item-level values.
"""

from __future__ import annotations

import math
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.test_one_road import RUNS

ROOT = Path(__file__).resolve().parents[1]

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def shards(tmp_path_factory) -> dict[str, list[str]]:
    """Per task, the logs of its two shards."""
    from inspect_ai.log import list_eval_logs

    from inspect_stance.providers.tiny_nli import build_tiny_nli

    root = tmp_path_factory.mktemp("one_road_shards")
    nli = root / "nli"
    build_tiny_nli(nli, "keyed")
    env = {**os.environ, "OMP_NUM_THREADS": "1"}
    inspect = str(Path(sys.executable).with_name("inspect"))
    out: dict[str, list[str]] = {}
    for task, args in RUNS.items():
        logs = []
        for k in (1, 2):
            log_dir = root / f"{task}-{k}"
            argv = [inspect, "eval", *(a.replace("{nli}", str(nli)) for a in args),
                    "-T", f"shard={k}/2", "--log-dir", str(log_dir), "--display", "none"]  # fmt: skip
            done = subprocess.run(argv, cwd=ROOT, env=env, capture_output=True, text=True,
                                  timeout=600, check=False)  # fmt: skip
            assert done.returncode == 0, done.stderr[-3000:]
            (info,) = list_eval_logs(str(log_dir))
            logs.append(info.name.removeprefix("file://"))
        out[task] = logs
    return out


def _same(a: Any, b: Any) -> bool:
    return (math.isnan(a) and math.isnan(b)) if isinstance(a, float) and a != a else a == b


@pytest.mark.parametrize("task", list(RUNS))
def test_every_surface_reads_compares_pooled_run(shards, task):
    from inspect_stance.analysis import runs_df
    from inspect_stance.analysis.run_headlines import run_headlines
    from inspect_stance.card.entries import build_cards
    from inspect_stance.study.protocol import CompareRequest
    from inspect_stance.study.registry import method_of_task, task_headline, task_run

    logs = shards[task]
    method = method_of_task(task)
    spec = task_headline(task)
    assert method is not None and method.comparer is not None and spec is not None
    (theirs,) = method.comparer.load(logs, CompareRequest(tuple(logs))).runs
    h = theirs.headline()
    ours = task_run(task, logs, partial=False)
    assert type(ours) is type(theirs)
    assert ours.headline() == h
    for metric in method.comparer.metrics():
        assert ours.items(metric.name) == theirs.items(metric.name), metric.name
    (row,) = runs_df(logs).to_dict("records")
    assert row["shards"] == "2 of 2" and not row["partial"]
    got = (row["headline_value"], row["headline_stderr"], row["ci_lo"], row["ci_hi"],
           row["n_items"], row["n_clusters"])  # fmt: skip
    want = (h.value, h.se, *h.interval, h.n_items, h.n_clusters)
    assert all(_same(a, b) for a, b in zip(got, want, strict=True)), (got, want)
    (entry,) = [c["methods"][task] for c in build_cards(runs_df(logs)).values()]
    assert (entry["value"], entry["ci"], entry["n_items"]) == (h.value, list(h.interval),
                                                               h.n_items)  # fmt: skip
    (reported,) = run_headlines(logs)
    assert reported["headline"] == h.to_json()
