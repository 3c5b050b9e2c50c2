"""Run names in the stance-drift report: the model and variant, then the settings that differ
between runs that share them; ``--label RUN=NAME`` overrides (the naming ``compare`` uses)."""

from __future__ import annotations

import pytest
from inspect_ai import eval as inspect_eval
from inspect_stance.tasks.stance_drift import stance_drift

from inspect_stance.cli import main


@pytest.mark.slow  # two runs and a report (~40 s on 2 busy cores)
def test_runs_named_by_differing_settings_and_labels(tmp_path, capsys):
    logs = []
    for trials in (2, 3):
        [log] = inspect_eval(
            stance_drift(limit_propositions=1, trials=trials),
            model="stance_sim/respondent",
            log_dir=str(tmp_path / "logs"),
            display="none",
        )
        logs.append(log.location)
    out = tmp_path / "out"
    assert main(["report", *logs, "--out", str(out), "--label", f"{logs[1]}=three trials"]) == 0
    capsys.readouterr()
    summary = (out / "summary.csv").read_text()
    assert "stance_sim/respondent / default [trials=2]" in summary
    assert "three trials" in summary and "#2" not in summary
