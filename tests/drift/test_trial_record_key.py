"""The trial record replays only what the same model settings would answer, and says so.

The simulated respondent's answers are decided by its ``-M transition`` file: rewriting the file
to the identity between two identical commands must give SPR 1 (the second run calls the model
again), not the first run's SPR replayed from the record. An identical re-run replays every
trial and says how many, in the header (``trials_replayed``), the sample store and the console.
"""

from __future__ import annotations

import json
import logging
from pathlib import Path

import numpy as np
import pytest
from inspect_ai import eval as inspect_eval
from inspect_ai.log import read_eval_log
from inspect_ai.model import get_model
from inspect_stance.tasks.stance_drift import stance_drift

from inspect_stance.hooks import replay_notice

DRIFT = np.array(
    [
        [0.6, 0.3, 0.1, 0.0, 0.0],
        [0.2, 0.5, 0.3, 0.0, 0.0],
        [0.0, 0.2, 0.6, 0.2, 0.0],
        [0.0, 0.0, 0.3, 0.5, 0.2],
        [0.0, 0.0, 0.1, 0.3, 0.6],
    ]
)
TRIALS = 3


@pytest.fixture()
def cache_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "cache"
    monkeypatch.setenv("INSPECT_CACHE_DIR", str(folder))
    return folder


def _run(tmp_path: Path, transition: Path, name: str):
    (tmp_path / "p.txt").write_text("We should ban school uniforms\n")
    # a fresh provider per run (no memoized instance holding the old matrix): what a new
    # `inspect eval` process sees
    model = get_model("stance_sim/respondent", memoize=False, transition=str(transition))
    [log] = inspect_eval(
        stance_drift(propositions=str(tmp_path / "p.txt"), trials=TRIALS),
        model=model,
        log_dir=str(tmp_path / name),
        display="none",
    )
    assert log.status == "success", log.error
    return log


def _metrics(log) -> dict[str, float]:
    [scorer] = log.results.scores
    return {k: v.value for k, v in scorer.metrics.items()}


def test_a_rewritten_transition_file_is_called_again(tmp_path, cache_dir):
    transition = tmp_path / "T.json"
    transition.write_text(json.dumps(DRIFT.tolist()))
    first = _metrics(_run(tmp_path, transition, "first"))
    assert first["spr"] == pytest.approx(float(np.mean(np.diag(DRIFT))))
    transition.write_text(json.dumps(np.eye(5).tolist()))  # same path, new content
    second = _metrics(_run(tmp_path, transition, "second"))
    assert second["spr"] == pytest.approx(1.0)
    assert second["trials_replayed"] == 0


def test_a_copy_of_the_file_under_another_name_replays(tmp_path, cache_dir):
    transition = tmp_path / "T.json"
    transition.write_text(json.dumps(DRIFT.tolist()))
    _run(tmp_path, transition, "first")
    copy = tmp_path / "copy.json"
    copy.write_text(transition.read_text())
    assert _metrics(_run(tmp_path, copy, "second"))["trials_replayed"] == 5 * TRIALS


def test_a_replaying_run_says_so_in_the_log_and_on_the_console(tmp_path, cache_dir, caplog, capsys):
    transition = tmp_path / "T.json"
    transition.write_text(json.dumps(DRIFT.tolist()))
    first = _run(tmp_path, transition, "first")
    assert _metrics(first)["trials_replayed"] == 0
    assert replay_notice(first) is None
    with caplog.at_level(logging.WARNING):
        second = _run(tmp_path, transition, "second")
    m = _metrics(second)
    assert m["trials_replayed"] == 5 * TRIALS and m["trials"] == 5 * TRIALS
    assert m["spr"] == pytest.approx(_metrics(first)["spr"])
    full = read_eval_log(second.location)
    assert all(s.store["trials_replayed"] == TRIALS for s in full.samples)
    assert all(
        s.scores["stance_drift_scorer"].metadata["n_replayed"] == TRIALS for s in full.samples
    )
    line = replay_notice(second)
    assert line is not None and f"{5 * TRIALS} of {5 * TRIALS} trials were replayed" in line
    # under display="none" Inspect's console is silent: the hook writes the line to stderr
    said = capsys.readouterr().err + "".join(r.getMessage() for r in caplog.records)
    head = line.split(" (")[0]
    assert head in said and "recorded from 20" in said, "the console warning"
