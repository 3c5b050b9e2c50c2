"""Sample limits on a sample of many trials: nothing finished is lost (issue 10).

A per-sample ``--time-limit`` / ``--token-limit`` stops a sample mid-way. The finished trials
must stay in the store, be scored, and the sample must be flagged incomplete (score metadata,
metrics, the report reader and the gate). Re-running the same command replays the recorded
trials and runs only the missing ones.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from inspect_ai import eval as inspect_eval
from inspect_ai.log import read_eval_log
from inspect_stance.tasks.stance_drift import stance_drift

from inspect_stance.cli import main as cli_main
from inspect_stance.drift.logs import read_drift_log

TRUTH = np.array(
    [
        [0.85, 0.10, 0.05, 0.00, 0.00],
        [0.30, 0.50, 0.10, 0.10, 0.00],
        [0.00, 0.15, 0.70, 0.10, 0.05],
        [0.00, 0.05, 0.15, 0.60, 0.20],
        [0.00, 0.00, 0.00, 0.10, 0.90],
    ]
)
TRIALS = 30


@pytest.fixture()
def files(tmp_path: Path) -> Path:
    (tmp_path / "T.json").write_text(json.dumps(TRUTH.tolist()))
    (tmp_path / "props.txt").write_text("We should ban school uniforms\n")
    return tmp_path


def _eval(files: Path, log_dir: Path, **limits):
    [log] = inspect_eval(
        stance_drift(propositions=str(files / "props.txt"), trials=TRIALS, seed=5),
        model="stance_sim/respondent",
        # 20 ms per call, at most 2 calls at a time shared by 3 samples: about 1.8 s for the
        # first three samples' 180 calls, beyond a 1 s limit
        model_args={"transition": str(files / "T.json"), "latency": 0.02},
        log_dir=str(log_dir),
        display="none",
        max_connections=2,
        **limits,
    )
    return log


def metrics(log) -> dict[str, float]:
    [scorer] = log.results.scores
    return {k: v.value for k, v in scorer.metrics.items()}


@pytest.mark.parametrize("limit", [{"time_limit": 1}, {"token_limit": 3000}])
def test_limit_keeps_scores_and_flags_finished_trials(files, tmp_path, limit):
    log = _eval(files, tmp_path / "first", **limit)
    full = read_eval_log(log.location)
    assert len(full.samples) == 5
    limited = [s for s in full.samples if s.limit is not None]
    assert limited, "the limit should stop samples before all their trials"
    held = {s.id: len(s.store["trials"]) for s in full.samples}
    assert sum(held.values()) > 0, "finished trials must survive the limit"
    for s in limited:
        n = held[s.id]
        assert n < TRIALS and s.store["trials_planned"] == TRIALS
        meta = s.scores["stance_drift_scorer"].metadata
        assert meta["n_trials"] == n and meta["n_missing"] == TRIALS - n
        assert meta["n_incomplete"] == 1
        assert "INCOMPLETE" in s.scores["stance_drift_scorer"].explanation
        if n:
            # scored on the finished trials: logprob vectors are the truth row exactly
            i = s.metadata["initial_stance"]
            assert s.scores["stance_drift_scorer"].value == pytest.approx(TRUTH[i, i])
    m = metrics(log)
    incomplete = [s for s in full.samples if len(s.store["trials"]) < TRIALS]
    assert m["incomplete_samples"] == len(incomplete)
    assert m["missing_trials"] == sum(TRIALS - held[s.id] for s in incomplete)
    assert m["trials"] == sum(held.values())
    # the report reader marks the missing trials and counts the incomplete samples
    run = read_drift_log(log.location)
    assert run.incomplete_samples == len(limited)
    assert run.n_missing == 5 * TRIALS - sum(held.values())
    # the gate refuses the run (exit 2, unusable input)
    assert cli_main(["gate", log.location, "--min-spr", "0.1"]) == 2


def test_rerun_after_a_time_limit_replays_finished_trials(files, tmp_path):
    first = _eval(files, tmp_path / "first", time_limit=1)
    held = {s.id: len(s.store["trials"]) for s in read_eval_log(first.location).samples}
    assert sum(held.values()) < 5 * TRIALS
    second = _eval(files, tmp_path / "second")  # the same command without the limit
    full = read_eval_log(second.location)
    for s in full.samples:
        records = s.store["trials"]
        assert sorted(r["trial"] for r in records) == list(range(TRIALS))
        replayed = sum(1 for r in records if r.get("replayed"))
        assert replayed == held[s.id], "each trial finished under the limit is replayed"
        calls = sum(1 for e in s.events if e.event == "model")
        reused_args = sum(1 for r in records if r.get("argument_replayed"))
        assert calls == 2 * (TRIALS - replayed) - reused_args
    m = metrics(second)
    assert m["incomplete_samples"] == 0 and m["missing_trials"] == 0
    assert m["spr"] == pytest.approx(float(np.mean(np.diag(TRUTH))))
