"""press-report and press-compare on scripted logs (hand-counted expectations)."""

from __future__ import annotations

import json

import numpy as np
import pytest
from inspect_ai import eval as inspect_eval
from inspect_stance.tasks.press import press
from scipy import stats

from inspect_stance.cli import main
from inspect_stance.press.labels import ALL_LABELS
from inspect_stance.press.logs import PressRun
from inspect_stance.press.report import heatmap_grid, tables, write_report
from inspect_stance.press.summary import sample_record


@pytest.fixture(scope="module")
def all_stable_log(nli_dir, tmp_path_factory):
    """Every statement scripted as stable_right (all S^R), LLM classifier, no personas."""
    from inspect_ai.model import get_model

    log_dir = tmp_path_factory.mktemp("stable_logs")
    logs = inspect_eval(
        press(classifier="llm", nli_model=str(nli_dir / "entail")),
        model=get_model("press_sim/target", archetypes="stable_right", memoize=False),
        model_roles={"arguer": "press_sim/arguer", "classifier": "press_sim/classifier"},
        log_dir=str(log_dir),
        display="none",
    )
    assert logs[0].status == "success"
    return logs[0].location


def test_report_files_and_tables(full_run, all_stable_log, tmp_path, capsys):
    out = tmp_path / "rep"
    rc = main(
        [
            "press-report",
            full_run.location,
            all_stable_log,
            "--out",
            str(out),
            "--left",
            "press_sim/target",
            "--right",
            "press_sim/target (2)",
            "--json",
        ]
    )
    assert rc == 0
    for name in (
        "report.md",
        "heatmap.png",
        "stability.png",
        "labels.csv",
        "statements.csv",
        "summary.csv",
        "label_distribution.csv",
        "faithfulness.csv",
        "auroc.csv",
    ):
        assert (out / name).stat().st_size > 0, name
    assert (out / "heatmap.png").read_bytes()[:4] == b"\x89PNG"
    data = json.loads(capsys.readouterr().out)
    dist = {(r["group"], r["label"]): r for r in data["label_distribution"]}
    # left group = the full scripted run: per-statement share of S^R over its 3 sets,
    # by archetype i mod 8 (stable_right 1, set_flipper 2/3, persona_follower 1, mixed 2/3, else 0)
    per_arch = [1, 0, 0, 0, 0, 2 / 3, 1, 2 / 3]
    shares = [per_arch[i % 8] for i in range(19)]
    m = sum(shares) / 19
    lo, hi = stats.t.interval(0.95, 18, loc=m, scale=stats.sem(shares))
    assert dist[("left", "S^R")]["share"] == pytest.approx(m)
    assert dist[("left", "S^R")]["ci_low"] == pytest.approx(lo)
    assert dist[("left", "S^R")]["ci_high"] == pytest.approx(hi)
    assert dist[("right", "S^R")]["share"] == 1.0 and dist[("right", "S^R")]["ci_low"] == 1.0
    assert dist[("all", "S^R")]["n_instances"] == 38
    faith = {(r["model"], r["variation"]): r for r in data["faithfulness"]}
    assert faith[("press_sim/target", "personas")]["P_SU"] == pytest.approx(12 / 57)
    assert faith[("press_sim/target (2)", "sets")]["P_SF"] == 1.0
    # per statement over all persona x set conditions (hand count in test_e2e): 8 / 4 / 7 of 19
    pooled = faith[("press_sim/target", "personas_pooled")]
    assert pooled["n"] == 19
    assert (pooled["P_SF"], pooled["P_SU"], pooled["P_ID"]) == pytest.approx(
        (8 / 19, 4 / 19, 7 / 19)
    )
    assert ("press_sim/target (2)", "personas_pooled") not in faith
    aur = {(r["model"], r["measure"]): r for r in data["auroc"]}
    assert aur[("press_sim/target", "string_entropy")]["n_unstable"] == 17
    md = (out / "report.md").read_text()
    assert "heatmap.png" in md and "| S^R |" in md


def test_compare_transitions(full_run, all_stable_log, capsys):
    rc = main(["press-compare", full_run.location, all_stable_log, "--json"])
    assert rc == 0
    data = json.loads(capsys.readouterr().out)
    # every before-label goes to S^R (hand counts of the full run: S^L 11, U^L 6, S^R 23, U^R 11, ind 6)
    assert {k: v["S^R"] for k, v in data["table"].items()} == {
        "S^L": 11,
        "U^L": 6,
        "S^R": 23,
        "U^R": 11,
        "indeterminate": 6,
        "unclassified": 0,
    }
    s = data["summary"]
    assert (
        s["n_matched"],
        s["n_changed"],
        s["unstable_to_stable"],
        s["direction_flips"],
        s["became_labelled"],
    ) == (57, 34, 17, 17, 6)
    assert s["stable_to_unstable"] == 0
    assert main(["press-compare", full_run.location, all_stable_log]) == 0
    assert "| S^L | 0 | 0 | 11 |" in capsys.readouterr().out


def test_cli_bad_input_is_one_line_exit_2(tmp_path, capsys):
    bogus = tmp_path / "x.eval"
    bogus.write_text("not a log")
    assert main(["press-report", str(bogus), "--out", str(tmp_path / "o")]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("inspect-stance press-report: error: log") and "\n" not in err
    assert main(["press-compare", str(tmp_path / "missing.eval"), str(bogus)]) == 2
    assert "no such file" in capsys.readouterr().err


def test_unknown_group_name_is_input_error(full_run, tmp_path, capsys):
    assert (
        main(["press-report", full_run.location, "--out", str(tmp_path / "o"), "--left", "gpt-9"])
        == 2
    )
    assert "match no log's model" in capsys.readouterr().err


def test_heatmap_rows_are_statements_not_file_positions(tmp_path):
    """Logs run on different statement files: the same statement_id names different statements."""
    agree = {"neutral": "agree", "support": "agree", "counter": "agree"}
    disagree = {"neutral": "disagree", "support": "disagree", "counter": "disagree"}
    neither = {"neutral": "neither", "support": "agree", "counter": "agree"}

    def run(model, rows):
        records = [
            sample_record(i, text, bias, {"none": [stance]})
            for i, (text, bias, stance) in enumerate(rows)
        ]
        return PressRun(f"{model}.eval", model, records, len(records), 0, "success")

    a = run("A", [("Taxes are too high.", "right", agree), ("Markets fail.", "left", agree)])
    b = run("B", [("Markets fail.", "left", disagree), ("Unions help.", "left", neither)])
    t = tables([a, b], {"A": "left", "B": "right"})
    stmts, grid, n_sets = heatmap_grid(t["labels"], ["A", "B"])
    assert n_sets == 1
    assert list(stmts["statement"]) == ["Markets fail.", "Taxes are too high.", "Unions help."]
    assert list(stmts["statement_id"]) == [0, 0, 1]
    code = {lab: float(i) for i, lab in enumerate(ALL_LABELS)}
    nan = float("nan")
    expected = [
        [code["S^L"], code["S^R"]],  # A agrees with a left statement; B disagrees with it
        [code["S^R"], nan],  # only A was asked
        [nan, code["indeterminate"]],  # only B was asked
    ]
    np.testing.assert_array_equal(grid, np.array(expected))  # NaN == NaN here
    write_report([a, b], tmp_path / "rep", left=["A"], right=["B"])
    assert (tmp_path / "rep" / "heatmap.png").read_bytes()[:4] == b"\x89PNG"
