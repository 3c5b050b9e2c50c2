"""The trial records are logged once, in the sample's store, on every path (drift.held).

The solvers hold a sample's records outside its store while it runs, and the task's cleanup
moves them into the store: the log's ``sample.store["trials"]`` holds every finished trial, and
no store or state event of the transcript repeats them (each repeat is a full copy the log
writer serialises again, the harness cost of issue 35). A sample whose solver fails part-way
keeps the trials that finished before the failure.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest
from inspect_ai import eval as inspect_eval
from inspect_ai.log import read_eval_log
from inspect_stance.solvers import stance_drift as drift_solver
from inspect_stance.tasks.stance_drift import stance_drift

from inspect_stance.drift.held import _HELD

sys.path.insert(0, str(Path(__file__).resolve().parent))
from simulated_truth import TRUTH  # noqa: E402

TRIALS = 6


@pytest.fixture()
def files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("INSPECT_CACHE_DIR", str(tmp_path / "cache"))
    (tmp_path / "T.json").write_text(json.dumps(TRUTH.tolist()))
    (tmp_path / "props.txt").write_text("We should ban school uniforms\n")
    return tmp_path


def _eval(files: Path, **kwargs: Any) -> Any:
    [log] = inspect_eval(
        stance_drift(propositions=str(files / "props.txt"), trials=TRIALS, seed=3),
        model="stance_sim/respondent",
        model_args={"transition": str(files / "T.json")},
        log_dir=str(files / "logs"),
        display="none",
        max_connections=1,  # trials one after another: a failure at trial k leaves 0..k-1
        **kwargs,
    )
    return read_eval_log(log.location)


def _paths(event: Any) -> list[str]:
    # a path of the store's trials: /trials[/k...] in a store event, /store/trials in a state one
    return [c.path for c in getattr(event, "changes", None) or []]


def test_trials_are_in_the_store_once_and_in_no_event(files: Path) -> None:
    log = _eval(files)
    assert len(log.samples) == 5
    for sample in log.samples:
        assert sorted(r["trial"] for r in sample.store["trials"]) == list(range(TRIALS))
        assert sample.scores["stance_drift_scorer"].metadata["n_trials"] == TRIALS
        changed = [p for e in sample.events if e.event in ("store", "state") for p in _paths(e)]
        assert changed, "the store and state events are still logged"
        trials = [
            p
            for p in changed
            if p.split("/")[1] == "trials" or p.startswith("/store/trials/") or p == "/store/trials"
        ]
        assert not trials, trials
    assert not _HELD  # every sample's records were moved into its store


def test_a_failed_sample_keeps_its_finished_trials(
    files: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    run_trial = drift_solver.SampleTrials.run_trial

    async def failing(self: Any, t: int) -> None:
        if t == 2:
            raise RuntimeError("provider failure")
        await run_trial(self, t)

    monkeypatch.setattr(drift_solver.SampleTrials, "run_trial", failing)
    log = _eval(files, fail_on_error=False)
    assert len(log.samples) == 5
    for sample in log.samples:
        assert sample.error is not None
        assert sorted(r["trial"] for r in sample.store["trials"]) == [0, 1]
    assert not _HELD
