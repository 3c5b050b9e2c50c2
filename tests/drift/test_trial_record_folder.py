"""A file where the trial-record folder should be: one warning, and the run goes on without it.

The record is a convenience (``-T cache=true``); a file named ``inspect_stance`` in Inspect's
cache folder (or a record sub-folder that is a file) must not make samples error.
"""

from __future__ import annotations

import logging
from pathlib import Path

import pytest
from inspect_ai import eval as inspect_eval
from inspect_ai.model import get_model
from inspect_stance.solvers import trial_record as record_module
from inspect_stance.tasks.stance_drift import stance_drift


def _run(tmp_path: Path):
    (tmp_path / "p.txt").write_text("We should ban school uniforms\n")
    [log] = inspect_eval(
        stance_drift(propositions=str(tmp_path / "p.txt"), trials=2),
        model=get_model("stance_sim/respondent", memoize=False),
        log_dir=str(tmp_path / "logs"),
        display="none",
    )
    return log


@pytest.mark.parametrize("blocked", ["inspect_stance", "inspect_stance/stance_drift"])
def test_a_file_in_place_of_the_record_folder_warns_once(tmp_path, monkeypatch, caplog, blocked):
    cache = tmp_path / "cache"
    monkeypatch.setenv("INSPECT_CACHE_DIR", str(cache))
    monkeypatch.setattr(record_module, "_warned", set(), raising=False)  # a fresh process
    stray = cache / blocked
    stray.parent.mkdir(parents=True, exist_ok=True)
    stray.write_text("not a folder")
    with caplog.at_level(logging.WARNING):
        log = _run(tmp_path)
    assert log.status == "success", log.error
    [scorer] = log.results.scores
    assert scorer.metrics["trials"].value == 10, "every sample ran all its trials"
    assert log.results.completed_samples == 5
    warnings = [r.getMessage() for r in caplog.records if "trial record disabled" in r.getMessage()]
    assert len(warnings) == 1, warnings
    assert "INSPECT_CACHE_DIR" in warnings[0]
    assert stray.read_text() == "not a folder", "the user's file is left alone"
