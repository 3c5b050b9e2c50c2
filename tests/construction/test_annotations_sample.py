"""``-T annotations=synthetic``: the shipped synthetic judge-validation sample is what its
generator writes, and ``judge_validation`` on it gives the agreement its construction fixes
(hand count: annot2 differs from the final label on rows 4, 8, 16, 20 of 24)."""

from __future__ import annotations

from pathlib import Path

import pytest

from inspect_stance.construction.judge_validation_options import JudgeValidationOptions
from inspect_stance.providers.annotations_sample import SAMPLE, sample_text


def test_the_shipped_sample_is_the_generators():
    assert SAMPLE.read_text(encoding="utf-8") == sample_text()


def test_synthetic_names_the_shipped_file_and_a_path_stays_a_path(tmp_path, monkeypatch):
    assert Path(JudgeValidationOptions.parse(annotations="synthetic").annotations_path) == SAMPLE
    monkeypatch.chdir(tmp_path)
    opts = JudgeValidationOptions.parse(annotations="./synthetic")
    assert Path(opts.annotations_path) != SAMPLE


def test_judge_validation_runs_on_the_sample_with_its_known_agreement(tmp_path):
    from inspect_ai import eval as inspect_eval

    log = inspect_eval(
        "inspect_stance/judge_validation",
        model_roles={"judges": "construction_sim/judge_exact"},
        task_args={"annotations": "synthetic"},
        log_dir=str(tmp_path),
        display="none",
    )[0]
    assert log.status == "success"
    metrics = log.results.scores[0].metrics  # type: ignore[union-attr]
    assert metrics["n_labelled"].value == 24
    assert metrics["exact"].value == pytest.approx(1.0)
    # the figures beyond the panel: the method's figures of the same log
    from inspect_stance.construction.figures import log_agreement_figures

    figures = log_agreement_figures([log.location])
    assert figures["humans_exact"] == pytest.approx(20 / 24)
    assert figures["refusal_rate"] == pytest.approx(4 / 24)
