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


@pytest.mark.slow  # one run (~20 s on 2 busy cores), copied as two -M seed variants
def test_runs_differing_only_in_model_seed_are_named_by_it(tmp_path, capsys):
    import json

    from inspect_ai.log import read_eval_log, write_eval_log

    [log] = inspect_eval(
        stance_drift(limit_propositions=2, trials=2),
        model="stance_sim/respondent",
        log_dir=str(tmp_path / "logs"),
        display="none",
    )
    full = read_eval_log(log.location)
    paths = []
    for seed in (1, 3):
        full.eval.eval_id = f"seed{seed}-run"
        full.eval.model_args = {"seed": seed}
        path = tmp_path / f"seed{seed}.eval"
        write_eval_log(full, str(path))
        paths.append(str(path))
    assert main(["compare", *paths, "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    text = json.dumps(doc)
    assert "seed=1" in text and "seed=3" in text and "#2" not in text
