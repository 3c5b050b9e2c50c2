"""Sample limits on a sample of many trials: nothing finished is lost (issue 10).

A per-sample ``--time-limit`` / ``--token-limit`` stops a sample mid-way. The finished trials
must stay in the store, be scored, and the sample must be flagged incomplete (score metadata,
metrics, the report reader and the gate). Re-running the same command replays the recorded
trials and runs only the missing ones. A sample that finished every trial before its limit
fired is complete (the reader counts it complete; the gate accepts it).

The limits here are token limits: the simulated respondent's usage per call is fixed, so where
a limit stops a sample does not depend on the machine's speed (a 1 s time limit did).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np
import pytest
from inspect_ai import eval as inspect_eval
from inspect_ai.log import EvalSampleLimit, read_eval_log, write_eval_log
from inspect_stance.tasks.stance_drift import stance_drift

from inspect_stance.cli import main as cli_main
from inspect_stance.drift.logs import read_drift_log

sys.path.insert(0, str(Path(__file__).resolve().parent))
from simulated_truth import TRUTH  # noqa: E402

TRIALS = 30


@pytest.fixture()
def files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    # each test its own trial record (the record keys T.json by content, the same in each test)
    monkeypatch.setenv("INSPECT_CACHE_DIR", str(tmp_path / "cache"))
    (tmp_path / "T.json").write_text(json.dumps(TRUTH.tolist()))
    (tmp_path / "props.txt").write_text("We should ban school uniforms\n")
    return tmp_path


def _eval(files: Path, log_dir: Path, **limits):
    [log] = inspect_eval(
        stance_drift(propositions=str(files / "props.txt"), trials=TRIALS, seed=5),
        model="stance_sim/respondent",
        # a sample's 30 trials take about 9,000 tokens: a limit of 3,000 or 6,000 stops each
        # sample part-way, wherever the machine's speed
        model_args={"transition": str(files / "T.json")},
        log_dir=str(log_dir),
        display="none",
        max_connections=2,
        **limits,
    )
    return log


def metrics(log) -> dict[str, float]:
    from inspect_stance.drift.figures import log_figures

    # the panel's metrics and the figures that moved to the report and card (drift.figures)
    [scorer] = log.results.scores
    return {**log_figures([log.location]), **{k: v.value for k, v in scorer.metrics.items()}}


@pytest.mark.parametrize("limit", [{"token_limit": 6000}, {"token_limit": 3000}])
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
    first = _eval(files, tmp_path / "first", token_limit=3000)
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


def test_a_sample_that_finished_before_its_limit_fired_is_complete(files, tmp_path):
    """Inspect marks a sample ``limit`` when the limit fires after its last trial (a time limit
    at the end of the solver): it holds every planned trial, so it is complete."""
    log = _eval(files, tmp_path / "first")
    full = read_eval_log(log.location)
    assert all(len(s.store["trials"]) == TRIALS for s in full.samples)
    full.samples[0].limit = EvalSampleLimit(type="time", limit=1)
    late = tmp_path / "late.eval"
    write_eval_log(full, str(late))
    run = read_drift_log(late)
    assert run.incomplete_samples == 0 and run.n_missing == 0
    assert cli_main(["gate", str(late), "--min-spr", "0.1"]) == 0
