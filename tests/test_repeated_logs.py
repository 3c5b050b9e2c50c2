"""Every report command counts a run given twice once (same eval id) and says so on stderr:
``report LOG LOG``, a folder holding two copies of one log, ``press-report LOG LOG`` (which
would otherwise report two models and double Table 2's n), ``construction-report`` and
``validation-report``."""

from __future__ import annotations

import json
import shutil

import numpy as np
import pytest
from inspect_ai import eval as inspect_eval

from inspect_stance.cli import main

pytestmark = pytest.mark.filterwarnings("ignore:The 'initial' parameter is deprecated")


def _copies(log, tmp_path, n=2):
    folder = tmp_path / "copies"
    folder.mkdir()
    paths = [folder / f"copy{k}.eval" for k in range(n)]
    for p in paths:
        shutil.copy(log.location, p)
    return folder, paths


def test_drift_report_counts_a_repeated_run_once(tmp_path, capsys):
    from inspect_stance.tasks.stance_drift import stance_drift

    (tmp_path / "props.txt").write_text("We should adopt policy 1\nWe should adopt policy 2\n")
    [log] = inspect_eval(
        stance_drift(propositions=str(tmp_path / "props.txt"), trials=2, cache=False),
        model="stance_sim/respondent",
        log_dir=str(tmp_path / "logs"),
        display="none",
    )
    folder, (a, b) = _copies(log, tmp_path)
    capsys.readouterr()  # what the evaluation printed
    for argv in (
        [log.location, log.location],
        [str(folder)],
        [log.location, str(folder)],
    ):
        assert main(["report", *argv, "--json"]) == 0
        captured = capsys.readouterr()
        runs = json.loads(captured.out)["runs"]
        assert len(runs) == 1 and runs[0]["n_propositions"] == 2
        assert "once" in captured.err and "same run as" in captured.err
        assert len(captured.err.strip().splitlines()) == 1
    # two different runs stay two
    [other] = inspect_eval(
        stance_drift(propositions=str(tmp_path / "props.txt"), trials=2, cache=False),
        model="stance_sim/respondent",
        log_dir=str(tmp_path / "logs"),
        display="none",
    )
    capsys.readouterr()
    assert main(["report", log.location, other.location, "--json"]) == 0
    captured = capsys.readouterr()
    assert len(json.loads(captured.out)["runs"]) == 2 and captured.err == ""
    # an .npz given twice is one run too (same content)
    np.savez(tmp_path / "r.npz", probs=np.full((2, 3, 5, 5), 0.2))
    shutil.copy(tmp_path / "r.npz", tmp_path / "r2.npz")
    assert main(["report", str(tmp_path / "r.npz"), str(tmp_path / "r2.npz"), "--json"]) == 0
    captured = capsys.readouterr()
    assert (
        len(json.loads(captured.out)["runs"]) == 1
        and "same eval id or file content" in captured.err
    )


def test_press_report_counts_a_repeated_log_once(tmp_path, capsys):
    from inspect_stance.tasks.press import press

    from inspect_stance.providers.tiny_nli import build_tiny_nli

    build_tiny_nli(tmp_path / "nli", "keyed")
    (tmp_path / "s.tsv").write_text(
        "bias\tstatement\nleft\tTaxes on the rich should rise.\nright\tMarkets beat planners.\n"
    )
    [log] = inspect_eval(
        press(statements=str(tmp_path / "s.tsv"), argument_sets=1, nli_model=str(tmp_path / "nli")),
        model="press_sim/target",
        log_dir=str(tmp_path / "logs"),
        display="none",
    )
    assert log.status == "success", log.error
    capsys.readouterr()
    out = tmp_path / "once"
    assert main(["press-report", log.location, "--out", str(out), "--json"]) == 0
    single = json.loads(capsys.readouterr().out)
    out2 = tmp_path / "twice"
    assert main(["press-report", log.location, log.location, "--out", str(out2), "--json"]) == 0
    captured = capsys.readouterr()
    twice = json.loads(captured.out)
    assert "counted 1 repeated run once" in captured.err
    for name in ("summary.csv", "labels.csv", "faithfulness.csv"):
        assert (out / name).read_text() == (out2 / name).read_text()
    assert json.dumps(twice, sort_keys=True, default=str).replace(str(out2), "X") == json.dumps(
        single, sort_keys=True, default=str
    ).replace(str(out), "X")


def test_construction_and_validation_reports_count_a_repeated_log_once(tmp_path, capsys):
    from inspect_ai.model import get_model
    from inspect_stance.tasks.prompt_construction import prompt_construction
    from inspect_stance.tasks.prompt_validation import prompt_validation

    def sim(name):
        return get_model(f"construction_sim/{name}", memoize=False)

    [built] = inspect_eval(
        prompt_construction,  # built by Inspect, after the roles are bound
        task_args={
            "topics": "1003",
            "intents": "opinion",
            "templates_per_setting": 1,
            "prompts_per_setting": 1,
        },
        model=sim("target"),
        model_roles={"judges": [sim("judge_exact")], "prompter": sim("prompter")},
        log_dir=str(tmp_path / "logs"),
        display="none",
    )
    assert built.status == "success", built.error
    capsys.readouterr()
    assert (
        main(
            [
                "construction-report",
                built.location,
                built.location,
                "--out",
                str(tmp_path / "c"),
                "--json",
            ]
        )
        == 0
    )
    captured = capsys.readouterr()
    assert "counted 1 repeated run once" in captured.err
    [validated] = inspect_eval(
        prompt_validation,
        task_args={"topics": "1003", "intents": "opinion", "per_source": 1},
        model_roles={
            "prompter": sim("prompter"),
            "annotators": [get_model("annotator_sim/lexical", memoize=False)],
        },
        log_dir=str(tmp_path / "logs"),
        display="none",
    )
    assert validated.status == "success", validated.error
    folder, _ = _copies(validated, tmp_path)
    capsys.readouterr()
    assert main(["validation-report", str(folder), "--out", str(tmp_path / "v"), "--json"]) == 0
    captured = capsys.readouterr()
    assert "counted 1 repeated run once" in captured.err
