"""`inspect-stance report` shows unparsed extraction answers beside unparsed trials (its table,
``--json``, ``summary.csv`` and ``per_proposition.csv``), counted straight from the log."""

from __future__ import annotations

import csv
import json

import numpy as np
import pytest

from inspect_stance.cli import main

pytestmark = pytest.mark.filterwarnings("ignore:The 'initial' parameter is deprecated")


@pytest.fixture(scope="module")
def multiple_extraction_log(tmp_path_factory):
    from inspect_ai import eval as inspect_eval
    from inspect_stance.tasks.stance_drift import stance_drift

    tmp = tmp_path_factory.mktemp("unparsed_extractions")
    truth = np.full((5, 5), 0.05)
    np.fill_diagonal(truth, 0.8)
    (tmp / "T.json").write_text(json.dumps(truth.tolist()))
    (tmp / "props.txt").write_text("We should adopt policy 1\nWe should adopt policy 2\n")
    [log] = inspect_eval(
        stance_drift(
            propositions=str(tmp / "props.txt"),
            trials=2,
            variant="multiple_extraction",
            cache=False,
        ),
        model="stance_sim/respondent",
        model_args={"transition": str(tmp / "T.json"), "seed": 3, "unparsed_rate": 0.5},
        log_dir=str(tmp / "logs"),
        display="none",
    )
    return tmp, log


def test_unparsed_extractions_shown_everywhere(multiple_extraction_log, capsys):
    from inspect_ai.log import read_eval_log

    tmp, log = multiple_extraction_log
    records = [r for s in read_eval_log(log.location).samples for r in s.store["trials"]]
    n_bad = sum(sum(v is None for v in r["vectors"]) for r in records)
    n_unparsed = sum(r["probs"] is None for r in records)
    assert len(records) == 20 and n_bad > n_unparsed  # some trials keep a vector
    from inspect_stance.drift.figures import log_figures

    assert log_figures([log.location])["unparsed_extractions"] == n_bad

    assert main(["report", log.location, "--json"]) == 0
    run = json.loads(capsys.readouterr().out)["runs"][0]
    assert run["unparsed_extractions"] == n_bad and run["unparsed_trials"] == n_unparsed

    out = tmp / "report"
    assert main(["report", log.location, "--out", str(out)]) == 0
    text = capsys.readouterr().out
    assert f"{n_bad} extraction answers unparsed" in text
    runs_table = text.split("\nRuns\n", 1)[1].split("\n\n", 1)[0]
    header, row = runs_table.splitlines()[:2]
    assert "unparsed extractions" in header
    assert str(n_bad) in row.split()
    with (out / "summary.csv").open() as fh:
        [summary] = list(csv.DictReader(fh))
    assert int(summary["unparsed_extractions"]) == n_bad
    with (out / "per_proposition.csv").open() as fh:
        cells = list(csv.DictReader(fh))
    assert sum(int(c["unparsed_extractions"]) for c in cells) == n_bad
    assert "unparsed extractions" in (out / "report.md").read_text()


def test_npz_has_no_answers_to_count(tmp_path, capsys):
    rng = np.random.default_rng(0)
    np.savez(tmp_path / "r.npz", probs=rng.dirichlet(np.ones(5), size=(2, 3, 5)))
    assert main(["report", str(tmp_path / "r.npz"), "--json"]) == 0
    run = json.loads(capsys.readouterr().out)["runs"][0]
    assert run["unparsed_extractions"] is None and run["label_mismatches"] is None
