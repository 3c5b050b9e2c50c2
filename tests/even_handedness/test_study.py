"""Even-handedness through the study layer, on simulated runs with known differences: ``report``
writes DIR/even_handedness/, ``compare`` pairs runs over pairs clustered by topic, the gate's
checks, the planner command, cards and dataframes, and PPI from ``-T human_labels``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from inspect_ai import eval as inspect_eval
from inspect_ai.log import EvalLog
from inspect_ai.model import get_model

from inspect_stance.cli import main
from inspect_stance.errors import InputError
from inspect_stance.even_handedness.data import load_pairs
from inspect_stance.even_handedness.gate import evaluate_even_gate
from inspect_stance.even_handedness.logs import read_even_log

#: 24 topics' humor pairs (61 pairs): enough topics for the topic-clustered intervals
TOPICS = sorted({p.topic_name for p in load_pairs()})[:24]
SUBSET: dict[str, Any] = {"topics": ",".join(TOPICS), "template_categories": "humor"}
N = 61


def _run(tmp: Path, name: str, target: dict[str, Any], graders: list[Any],
         **task_args: Any) -> Path:  # fmt: skip
    log: EvalLog = inspect_eval(
        "inspect_stance/even_handedness",
        task_args={**SUBSET, **task_args},
        model=get_model("even_sim/target", **target),
        model_roles={"graders": graders},
        log_dir=str(tmp / name),
        display="none",
    )[0]
    assert log.status == "success", log.error
    return Path(log.location)


@pytest.fixture(scope="module")
def logs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    tmp = tmp_path_factory.mktemp("eh_study")
    graders = ["even_sim/grader", "even_sim/grader2"]
    return {
        "fair": _run(tmp, "fair", {"seed": 1, "weaken_rate": 0.3}, graders),
        "biased": _run(tmp, "biased", {"seed": 1, "weaken_rate": 0.3, "refuse_rate": 0.5}, graders),
        "fair2": _run(tmp, "fair2", {"seed": 2, "weaken_rate": 0.3}, graders),
    }


def _metrics(path: Path) -> dict[str, float]:
    from inspect_ai.log import read_eval_log

    log = read_eval_log(str(path), header_only=True)
    assert log.results is not None
    return {k: float(v.value) for k, v in log.results.scores[0].metrics.items()}


def _headline(path: Path) -> float:
    from inspect_ai.log import read_eval_log

    log = read_eval_log(str(path), header_only=True)
    assert log.results is not None
    return float(log.results.scores[0].metrics["even_handedness"].value)


def test_report_writes_the_method_folder(logs: dict[str, Path], tmp_path: Path) -> None:
    assert main(["report", str(logs["fair"]), str(logs["biased"]), "--out", str(tmp_path)]) == 0
    folder = tmp_path / "even_handedness"
    md = (folder / "report.md").read_text()
    assert {"report.md", "report.json", "by_category.png"} <= {p.name for p in folder.iterdir()}
    for heading in ("By category", "Least even-handed topics", "Graders: position",
                    "Agreement among graders", "Refusal by side"):  # fmt: skip
        assert heading in md
    doc = json.loads((folder / "report.json").read_text())
    values = sorted(v["metrics"]["even_handedness"] for v in doc.values())
    assert values == pytest.approx(sorted([_headline(logs["fair"]), _headline(logs["biased"])]))


def test_compare_pairs_runs_over_pairs(logs: dict[str, Path], capsys: Any) -> None:
    rc = main(["compare", str(logs["fair"]), str(logs["biased"]), "--json"])
    assert rc == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["method"] == "even_handedness"
    row = next(c for c in doc["comparisons"] if c["metric"] == "even_handedness")
    assert row["n_items"] == N
    assert row["delta"] == pytest.approx(_headline(logs["biased"]) - _headline(logs["fair"]))
    assert row["ci"][1] < 0  # refusing half of one side's requests lowers even-handedness
    assert "topics" in row["test"]


def test_gate_checks(logs: dict[str, Path]) -> None:
    fair, biased = read_even_log(logs["fair"]), read_even_log(logs["biased"])
    value = _headline(logs["fair"])
    assert evaluate_even_gate(fair, value - 0.01).exit_code == 0
    assert evaluate_even_gate(fair, value + 0.01).exit_code == 1
    drop = evaluate_even_gate(biased, None, fair, 0.05)
    assert drop.exit_code == 1 and drop.checks[0].drop > 0.05
    same = evaluate_even_gate(read_even_log(logs["fair2"]), None, fair, 0.3, rule="non-inferiority")
    assert same.exit_code == 0, same.reason
    strict = evaluate_even_gate(read_even_log(logs["fair2"]), None, fair, 0.001,
                                rule="non-inferiority")  # fmt: skip
    assert strict.exit_code == 1
    with pytest.raises(ValueError, match="nothing to check"):
        evaluate_even_gate(fair)


def test_plan_command_reads_a_pilot(logs: dict[str, Path], capsys: Any) -> None:
    assert main(["plan", str(logs["biased"]), "--target-se", "0.05", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["components"]["n_pairs"] == N and doc["components"]["n_graders"] == 2
    assert [r["graders"] for r in doc["rows"]] == [1, 2, 3, 4, 5]
    assert main(["plan", str(logs["biased"]), "--target-se", "2"]) == 2


def test_plan_takes_the_planners_own_options(logs: dict[str, Path], capsys: Any) -> None:
    from inspect_stance.even_handedness.planning import full_plan

    pilot = str(logs["biased"])
    args = ["plan", pilot, "--target-se", "0.05", "--max-graders", "3", "--binary"]
    assert main([*args, "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert [r["graders"] for r in doc["rows"]] == [1, 2, 3]
    # the planner with the same pilot, target, graders and binary calls
    expected, text = full_plan(pilot, 0.05, 3, True)
    assert doc == json.loads(json.dumps(expected))
    assert main(args) == 0
    out = capsys.readouterr().out
    assert out == text + "\n" and "even-handed calls" in out
    assert main(["plan", pilot, "--target-se", "0.05", "--max-graders", "3"]) == 0
    assert "even-handed calls" not in capsys.readouterr().out  # P(C), not the 0/1 calls
    for graders in ("0", "21"):
        assert main(["plan", pilot, "--max-graders", graders]) == 2
        err = capsys.readouterr().err.strip()
        assert f"--max-graders {graders}; give 1..20" in err and "\n" not in err
    # another method's option is refused, not ignored
    assert main(["compare", pilot, str(logs["fair"]), "--allow-different-arguments"]) == 2
    err = capsys.readouterr().err.strip()
    assert "--allow-different-arguments is an option of PReSS runs, not of even-handedness" in err


def test_cards_and_dataframes_read_it(logs: dict[str, Path], tmp_path: Path) -> None:
    from inspect_stance.analysis import items_df, runs_df

    runs = runs_df([logs["fair"]])
    assert runs.loc[0, "headline_metric"] == "even_handedness"
    assert runs.loc[0, "headline_value"] == pytest.approx(_headline(logs["fair"]))
    assert runs.loc[0, "headline_stderr"] > 0 and runs.loc[0, "n_items"] == N
    items = items_df([logs["fair"]])
    samples, pairs = items[items["level"] == "sample"], items[items["level"] == "headline"]
    assert len(samples) == N and samples["item"].str.contains("-").all()
    assert len(pairs) == N and set(pairs["cluster"]) == {t for t in pairs["cluster"]} != set()
    assert main(["card", str(logs["fair"]), "--out", str(tmp_path)]) == 0
    card = json.loads(next(tmp_path.glob("*.json")).read_text())
    assert card["methods"]["even_handedness"]["value"] == pytest.approx(_headline(logs["fair"]))
    # the card reads the headline in one line: the log's value and interval as the scorer wrote
    # them (topic-clustered t interval), with what it counts
    m = _metrics(logs["fair"])
    v, lo, hi = m["even_handedness"], m["ci_low"], m["ci_high"]
    n, g = int(m["n_items"]), int(m["n_clusters"])
    line = (f"helps both sides alike in {100 * v:.0f} % of pairs "
            f"[{100 * lo:.0f}, {100 * hi:.0f}] ({n} pairs over {g} topics; "
            "higher is better)")  # fmt: skip
    assert line in next(tmp_path.glob("*.md")).read_text()


def test_human_labels_give_the_ppi_headline(tmp_path: Path) -> None:
    """People say C on every labelled pair while the graders (reading a run whose target
    refuses one side half the time) often do not: the PPI estimate moves up by the mean
    rectifier, mean(Y - f) over the labelled pairs, exactly."""
    labels = tmp_path / "labels.csv"
    from inspect_stance.even_handedness.data import select_pairs

    ids = [p.sample_id for p in select_pairs(None, TOPICS, ["humor"], None, None)][::6]
    labels.write_text("id,label\n" + "".join(f"{i},c\n" for i in ids))
    path = _run(tmp_path, "ppi", {"seed": 1, "refuse_rate": 0.5}, ["even_sim/grader"],
                human_labels=str(labels))  # fmt: skip
    run = read_even_log(path)
    labelled = [r for r in run.records.values() if r.get("human_label") == "C"]
    assert labelled, "no selected pair carries a label"
    f_all = [r["even_handed"] for r in run.records.values()]
    f_lab = [r["even_handed"] for r in labelled]
    f_unl = [r["even_handed"] for r in run.records.values() if "human_label" not in r]
    expected = sum(f_unl) / len(f_unl) + sum(1 - x for x in f_lab) / len(f_lab)
    from inspect_ai.log import read_eval_log

    from inspect_stance.even_handedness.audit import judge_warnings
    from inspect_stance.even_handedness.summary import summarize

    metrics = read_eval_log(str(path), header_only=True).results.scores[0].metrics  # type: ignore[union-attr]
    figures = summarize(list(run.records.values()))
    assert figures["even_handedness_ppi"] == pytest.approx(expected)
    assert figures["human_labelled"] == len(labelled) < 20
    assert metrics["even_handedness"].value == pytest.approx(sum(f_all) / len(f_all))
    # fewer than 20 labels: a one-line warning with the count, for the report and the card
    [line] = judge_warnings(run)[1:]  # the first says Dawid-Skene is not fitted (one grader)
    assert f"only {len(labelled)} human labels" in line


@pytest.mark.parametrize(
    ("content", "message"),
    [("id,label\ntrump-0001,D\n", "label 'D' is not A, B or C"),
     ("id,label\nnosuch-1,A\n", "none of its ids is a selected pair"),
     ("label\nA\n", "no id")],
)  # fmt: skip
def test_bad_human_labels_stop_before_any_call(tmp_path: Path, content: str, message: str) -> None:
    from inspect_stance.tasks.even_handedness import even_handedness

    f = tmp_path / "l.csv"
    f.write_text(content)
    with pytest.raises(InputError, match=message):
        even_handedness(human_labels=str(f), limit=5)


def test_gate_and_plan_commands_read_it(logs: dict[str, Path], capsys: Any) -> None:
    fair, biased = str(logs["fair"]), str(logs["biased"])
    value = _headline(logs["fair"])
    assert main(["gate", fair, "--min-even-handedness", f"{value - 0.01:.4f}"]) == 0
    assert main(["gate", fair, "--min-even-handedness", f"{value + 0.01:.4f}"]) == 1
    assert main(["gate", biased, "--baseline", fair, "--max-drop", "0.05"]) == 1
    assert main(["gate", str(logs["fair2"]), "--baseline", fair, "--rule", "non-inferiority",
                 "--max-drop", "0.3"]) == 0  # fmt: skip
    capsys.readouterr()
    assert main(["plan", biased, "--target-se", "0.05", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["components"]["n_pairs"] == N and doc["recommended"]["se"] <= 0.05


def test_headline_hooks_read_the_scorers_figures(logs: dict[str, Path]) -> None:
    """The method's TaskHeadline: ``load``'s run gives the log's headline metric to 1e-9 (the
    same rule) and, as items, the pairs with their topics; ``breakdown`` the card's figures."""
    from inspect_stance.study.registry import task_headline

    th = task_headline("even_handedness")
    assert th is not None
    assert th.load is not None and th.breakdown is not None
    m = _metrics(logs["fair"])
    run = th.load([str(logs["fair"])], False)
    h = run.headline()
    assert h.value == pytest.approx(m["even_handedness"], abs=1e-9)
    assert h.se == pytest.approx(m["stderr"], abs=1e-9)
    assert h.interval == pytest.approx((m["ci_low"], m["ci_high"]), abs=1e-9)
    assert (h.n_items, h.n_clusters) == (N, len(TOPICS))
    items = run.items(th.metric)
    assert len(items) == N and {t for t, _ in items.values()} == set(TOPICS)
    assert sum(v for _, v in items.values()) / N == pytest.approx(h.value)
    groups = dict(th.breakdown([str(logs["fair"])]))
    assert {"refusal and hedging", "position bias", "even-handedness by category"} <= set(groups)
    # two graders: Dawid-Skene is not fitted, and the card says so
    assert any("Dawid-Skene not fitted" in r.label for r in groups["judges"])


def test_dawid_skene_refuses_one_grader(logs: dict[str, Path]) -> None:
    from inspect_stance.even_handedness.audit import dawid_skene_even

    run = read_even_log(logs["fair"])
    one = {k: {**r, "graders": {"g": next(iter(r["graders"].values()))}}
           for k, r in run.records.items()}  # fmt: skip
    ds = dawid_skene_even(one)
    assert ds["accuracy"] == {} and ds["even_handedness"] != ds["even_handedness"]  # NaN
    assert "needs at least 3" in ds["note"]
