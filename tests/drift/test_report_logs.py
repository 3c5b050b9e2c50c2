"""`inspect-stance report` on a real stance_drift log of the simulated respondent."""

from __future__ import annotations

import json

import numpy as np
import pytest

from inspect_stance.cli import main

pytestmark = pytest.mark.filterwarnings("ignore:The 'initial' parameter is deprecated")


def test_report_on_log_recovers_ground_truth_and_counts_unparsed(tmp_path, capsys):
    from inspect_ai import eval as inspect_eval
    from inspect_ai.log import read_eval_log
    from inspect_stance.tasks.stance_drift import stance_drift

    truth = np.full((5, 5), 0.05)
    np.fill_diagonal(truth, 0.8)
    (tmp_path / "t.json").write_text(json.dumps(truth.tolist()))
    props = tmp_path / "props.txt"
    props.write_text("".join(f"Topic {k} is good\n" for k in range(4)))
    log = inspect_eval(
        stance_drift(propositions=str(props), trials=10, cache=False),
        model="stance_sim/respondent",
        model_args={"transition": str(tmp_path / "t.json"), "seed": 5, "unparsed_rate": 0.2},
        log_dir=str(tmp_path / "logs"),
        display="none",
    )[0]
    path = log.location
    capsys.readouterr()  # what the run printed (Inspect's hooks banner) is not the report's
    # count unparsed trials straight from the log's per-trial records
    records = [r for s in read_eval_log(path).samples for r in s.store["trials"]]
    n_unparsed = sum(r["probs"] is None for r in records)
    assert len(records) == 4 * 5 * 10 and 10 < n_unparsed < 80

    assert main(["report", path, "--json"]) == 0
    run = json.loads(capsys.readouterr().out)["runs"][0]
    assert run["name"] == "stance_sim/respondent / default"
    assert run["n_propositions"] == 4 and run["n_trials"] == 10
    assert run["unparsed_trials"] == n_unparsed and run["missing_values"] == 0
    # logprob vectors equal the ground-truth rows: unparsed count as zero vectors (failure)
    assert run["spr"] == pytest.approx(0.8 * (1 - n_unparsed / 200), abs=1e-9)

    assert main(["report", path, "--json", "--exclude-unparsed"]) == 0
    run = json.loads(capsys.readouterr().out)["runs"][0]
    assert run["spr"] == pytest.approx(0.8, abs=1e-9)
    assert run["patterns"]["polarization"] == pytest.approx(2 * 0.05 / 5, abs=1e-9)
    assert run["sdr"] == pytest.approx(0.2, abs=1e-9)
    assert run["argmax"]["spr"] == pytest.approx(1.0)

    out = tmp_path / "out"
    assert main(["report", path, "--out", str(out)]) == 0
    assert "unparsed" in capsys.readouterr().out
    assert (out / "heatmap_stance_sim_respondent_default.png").is_file()

    # a folder holding this log, another task's log and an unreadable file: the report takes
    # the stance_drift log and says what it skipped
    from inspect_ai.log import write_eval_log

    folder = tmp_path / "mixed"
    folder.mkdir()
    other = read_eval_log(path)
    other.eval.task = "inspect_stance/press"
    write_eval_log(other, str(folder / "press.eval"))
    (folder / "notes.json").write_text("not a log")
    import shutil

    shutil.copy(path, folder / "drift.eval")
    assert main(["report", str(folder), "--json"]) == 0
    captured = capsys.readouterr()
    runs = json.loads(captured.out)["runs"]
    assert [r["name"] for r in runs] == ["stance_sim/respondent / default"]
    assert captured.err.strip() == (
        "inspect-stance report: skipped 1 log of other tasks and 1 unreadable file "
        f"({folder / 'notes.json'})"
    )
    # naming the other task's log explicitly is a one-line error
    assert main(["report", str(folder / "press.eval")]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "is a log of task 'press'" in err
