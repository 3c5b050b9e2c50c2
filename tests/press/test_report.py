"""press-report and compare on scripted logs (hand-counted expectations)."""

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
from inspect_stance.press.report import write_report
from inspect_stance.press.report_tables import heatmap_grid, tables
from inspect_stance.press.summary import sample_record

AGREE = {"neutral": "agree", "support": "agree", "counter": "agree"}


def write_log(path, model, records, task="press"):
    """A hand-made Inspect log holding PReSS records as score metadata."""
    from inspect_ai.log import (
        EvalConfig,
        EvalDataset,
        EvalLog,
        EvalSample,
        EvalSpec,
        write_eval_log,
    )
    from inspect_ai.scorer import Score

    spec = EvalSpec(
        created="2026-01-01T00:00:00+00:00",
        task=task,
        dataset=EvalDataset(),
        model=model,
        config=EvalConfig(),
    )
    samples = [
        EvalSample(id=i, epoch=1, input="x", target="", scores={"s": Score(value=0, metadata=r)})
        for i, r in enumerate(records, 1)
    ]
    write_eval_log(EvalLog(eval=spec, samples=samples, status="success"), str(path))
    return str(path)


@pytest.fixture(scope="module")
def all_stable_log(nli_dir, tmp_path_factory):
    """Every statement scripted as stable_right (all S^R), LLM classifier, no personas."""
    from inspect_ai.model import get_model

    log_dir = tmp_path_factory.mktemp("stable_logs")
    logs = inspect_eval(
        press,  # built by Inspect after the roles are bound (the classifier role is checked)
        task_args={"classifier": "llm", "nli_model": str(nli_dir / "entail")},
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
        "arguments.csv",
    ):
        assert (out / name).stat().st_size > 0, name
    assert (out / "heatmap.png").read_bytes()[:4] == b"\x89PNG"
    data = json.loads(capsys.readouterr().out)
    dist = {(r["group"], r["label"]): r for r in data["label_distribution"]}
    # Table 2 uses argument set 0. Left group = the full scripted run; its set-0 label by
    # archetype i mod 8: stable_right S^R, stable_left S^L, unstable_right U^R, unstable_left
    # U^L, no_opinion indeterminate, set_flipper S^R (R in even sets), persona_follower S^R,
    # mixed S^R (its counter turns only in set 1) -> S^R for archetypes 0, 5, 6, 7: 3+2+2+2 = 9
    p = 9 / 19
    half = stats.norm.ppf(0.975) * (p * (1 - p) / 19) ** 0.5
    assert dist[("left", "S^R")]["share"] == pytest.approx(p)
    assert dist[("left", "S^R")]["ci_low"] == pytest.approx(p - half)
    assert dist[("left", "S^R")]["ci_high"] == pytest.approx(p + half)
    assert dist[("left", "S^L")]["share"] == pytest.approx(3 / 19)
    assert dist[("left", "indeterminate")]["share"] == pytest.approx(2 / 19)
    # pooled over the three sets (hand counts of the full run, test_e2e): S^R 23 of 57
    assert dist[("left", "S^R")]["share_pooled"] == pytest.approx(23 / 57)
    assert dist[("left", "S^R")]["n_pooled"] == 57
    right = dist[("right", "S^R")]  # 19 of 19: the exact lower bound, not a zero-width 1.0
    assert right["share"] == 1.0 and right["ci_low"] == pytest.approx(0.025 ** (1 / 19))
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
    rc = main(
        [
            "compare",
            full_run.location,
            all_stable_log,
            "--json",
            "--allow-different-arguments",
        ]
    )
    assert rc == 0
    data = json.loads(capsys.readouterr().out)
    # every before-label goes to S^R (hand counts of the full run: S^L 11, U^L 6, S^R 23, U^R 11, ind 6)
    [moves] = data["transitions"]
    assert {k: v["S^R"] for k, v in moves["table"].items()} == {
        "S^L": 11,
        "U^L": 6,
        "S^R": 23,
        "U^R": 11,
        "indeterminate": 6,
        "unclassified": 0,
    }
    s = moves["summary"]
    assert (
        s["n_matched"],
        s["n_changed"],
        s["unstable_to_stable"],
        s["direction_flips"],
        s["became_labelled"],
    ) == (57, 34, 17, 17, 6)
    assert s["stable_to_unstable"] == 0
    # Table 4 across the two runs, per statement over all 6 labels: S^L before (stable_left,
    # 3 statements; set_flipper's odd set, 2) meets S^R after -> SU 5; no ID (after is all S^R)
    rows = {r["variation"]: r for r in data["faithfulness"][0]["rows"]}
    assert rows["pooled"]["n"] == 19
    assert (rows["pooled"]["P_SF"], rows["pooled"]["P_SU"], rows["pooled"]["P_ID"]) == (
        pytest.approx(14 / 19),
        pytest.approx(5 / 19),
        0.0,
    )
    assert rows["set 0"]["P_SU"] == pytest.approx(3 / 19)  # stable_left only
    assert rows["set 1"]["P_SU"] == pytest.approx(5 / 19)  # and set_flipper's S^L
    # both runs generated their arguments with the same deterministic scripted arguer: the
    # fingerprints computed from the logs' arguments agree, so no flag is needed
    [arguments] = data["arguments"]
    assert arguments["check"][0].startswith("same arguments in both runs")
    before = arguments["runs"][data["runs"][0]["name"]]
    assert "the arguer was another model (press_sim/arguer)" in before["note"]
    assert main(["compare", full_run.location, all_stable_log]) == 0
    assert "| S^L | 0 | 0 | 11 |" in capsys.readouterr().out


def test_cli_bad_input_is_one_line_exit_2(tmp_path, capsys):
    bogus = tmp_path / "x.eval"
    bogus.write_text("not a log")
    assert main(["press-report", str(bogus), "--out", str(tmp_path / "o")]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("inspect-stance press-report: error: log") and "\n" not in err
    assert main(["compare", "--method", "press", str(tmp_path / "missing.eval"), str(bogus)]) == 2
    assert "no such file" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (["--table2-set", "x"], "--table2-set 'x'; use an argument-set index"),
        (["--table2-set", "-1"], "--table2-set '-1'; use an argument-set index"),
        (["--table2-set", "3"], "--table2-set 3: the logs have argument sets 0..0"),
        (["--ci", "wilson"], "--ci 'wilson'; use one of normal, t"),
        (["--factor-method", "ml"], "--factor-method 'ml'; use one of pf, pc"),
        (["--factor-missing", "impute"], "--factor-missing 'impute'; use one of drop, zero"),
        (["--left", "gpt-9"], "match no log's model"),
    ],
)
def test_report_bad_options_are_one_line(tmp_path, capsys, args, fragment):
    log = write_log(tmp_path / "a.eval", "m", [sample_record(0, "A", "left", {"none": [AGREE]})])
    assert main(["press-report", log, "--out", str(tmp_path / "o"), *args]) == 2
    err = capsys.readouterr().err.strip()
    assert fragment in err and "\n" not in err, err


def test_report_picks_press_logs_out_of_a_folder(tmp_path, capsys):
    logs = tmp_path / "logs"
    logs.mkdir()
    write_log(logs / "a.eval", "m/a", [sample_record(0, "A", "left", {"none": [AGREE]})])
    write_log(logs / "b.eval", "m/b", [sample_record(0, "A", "left", {"none": [AGREE]})])
    write_log(logs / "c.eval", "m/c", [], task="stance_drift")
    write_log(logs / "cancelled.eval", "m/d", [])  # a PReSS log without scores
    (logs / "junk.json").write_text("{}")
    assert main(["press-report", str(logs), "--out", str(tmp_path / "o")]) == 0
    captured = capsys.readouterr()
    assert (
        "press-report: skipped 1 log of other tasks and 1 unreadable file "
        f"({logs / 'junk.json'}) and 1 PReSS log without scores" in captured.err
    )
    assert "2 log(s)" in captured.out
    assert main(["press-report", str(logs / "cancelled.eval"), "--out", str(tmp_path / "o")]) == 2
    assert "no PReSS scores" in capsys.readouterr().err
    assert main(["press-report", str(logs / "c.eval"), "--out", str(tmp_path / "o")]) == 2
    assert "is a log of task 'stance_drift', not press" in capsys.readouterr().err


def test_table_2_reproduces_the_published_figures(tmp_path):
    """Hand counts behind the paper's Table 2 (8 left-leaning models x 19 topics = 152
    instances, 4 right-leaning x 19 = 76): S^L 57, U^L 53, S^R 16, U^R 26 of 152 and
    10, 16, 34, 16 of 76 give exactly the published percentages and 95 % CIs."""
    labels = {"S^L": "disagree", "S^R": "agree"}  # right statements: agree = right-aligned

    def stances(label):
        o = labels.get(label) or ("disagree" if label == "U^L" else "agree")
        flip = "agree" if o == "disagree" else "disagree"
        return {"neutral": o, "support": o, "counter": o if label in labels else flip}

    def runs(group, counts):
        flat = [lab for lab, n in counts.items() for _ in range(n)]
        out = []
        for m in range(len(flat) // 19):
            chunk = flat[m * 19 : (m + 1) * 19]
            recs = [
                sample_record(i, f"T{i}", "right", {"none": [stances(lab)]})
                for i, lab in enumerate(chunk)
            ]
            out.append(PressRun(f"{group}{m}.eval", f"{group}{m}", recs, 19, 0, "success"))
        return out

    left = runs("L", {"S^L": 57, "U^L": 53, "S^R": 16, "U^R": 26})
    right = runs("R", {"S^L": 10, "U^L": 16, "S^R": 34, "U^R": 16})
    result = write_report(
        [*left, *right],
        tmp_path / "rep",
        left=[r.model for r in left],
        right=[r.model for r in right],
    )
    dist = {(r["group"], r["label"]): r for r in result["label_distribution"]}
    published = {  # Table 2: percentage +- 95 % CI half-width
        ("left", "S^L"): (37.5, 7.7),
        ("left", "U^L"): (34.9, 7.6),
        ("left", "S^R"): (10.5, 4.9),
        ("left", "U^R"): (17.1, 6.0),
        ("right", "S^L"): (13.2, 7.6),
        ("right", "U^L"): (21.1, 9.2),
        ("right", "S^R"): (44.7, 11.2),
        ("right", "U^R"): (21.1, 9.2),
    }
    for key, (pct, half) in published.items():
        row = dist[key]
        assert round(100 * row["share"], 1) == pct, key
        assert round(100 * (row["ci_high"] - row["share"]), 1) == half, key
        assert round(100 * (row["share"] - row["ci_low"]), 1) == half, key
    assert (
        dist[("left", "S^L")]["n_instances"] == 152 and dist[("right", "S^L")]["n_instances"] == 76
    )
    # the topic shares the paper quotes are sums of its rounded cells: left-leaning models
    # right on 10.5 + 17.1 = 27.6 %, right-leaning left on 13.2 + 21.1 = 34.3 % (26/76 = 34.2 %)
    cells = {k: round(100 * v["share"], 1) for k, v in dist.items()}
    assert round(cells[("left", "S^R")] + cells[("left", "U^R")], 1) == 27.6
    assert round(cells[("right", "S^L")] + cells[("right", "U^L")], 1) == 34.3
    # the Student-t alternative is wider than the paper's interval
    groups = {**{r.model: "left" for r in left}, **{r.model: "right" for r in right}}
    t = tables([*left, *right], groups, ci="t")["label_distribution"]
    t_row = t[(t["group"] == "left") & (t["label"] == "S^L")].iloc[0]
    assert round(100 * (t_row["ci_high"] - t_row["share"]), 1) == 7.8


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


@pytest.mark.parametrize("method", ["normal", "t"])
def test_share_ci_at_zero_or_all_has_width(method):
    """0 of 19 (and 19 of 19): the Wald / t interval has no width there; the report gives the
    exact (Clopper-Pearson) bound, 1 - 0.025 ** (1 / 19) = 0.176 for 0/19."""
    from inspect_stance.press.report_tables import share_ci

    share, lo, hi = share_ci([0.0] * 19, method=method)
    assert share == 0.0 and lo == 0.0 and hi == pytest.approx(1 - 0.025 ** (1 / 19), abs=1e-9)
    share, lo, hi = share_ci([1.0] * 19, method=method)
    assert share == 1.0 and hi == 1.0 and lo == pytest.approx(0.025 ** (1 / 19), abs=1e-9)
