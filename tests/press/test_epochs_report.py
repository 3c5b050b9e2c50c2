"""``--epochs N`` in the PReSS report, its factor analysis, ``compare``'s flip analysis and the
reuse of an arguments log: a statement's epochs are replicates of one statement, never more
statements (docs/press.md, "Epochs"). Expected values are counted by hand from the records."""

from __future__ import annotations

import hashlib
import json
import math
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from inspect_ai import eval as inspect_eval
from inspect_ai.log import (
    EvalConfig,
    EvalDataset,
    EvalLog,
    EvalSample,
    EvalSpec,
    read_eval_log,
    write_eval_log,
)
from inspect_ai.scorer import Score
from inspect_stance.tasks.press import press
from inspect_stance.tasks.press_arguments import press_arguments
from scipy import stats

from inspect_stance.press.arguments import load_arguments, log_arguments_fingerprint
from inspect_stance.press.classify import AGREE, DISAGREE
from inspect_stance.press.compare import faithfulness_across_runs, transitions
from inspect_stance.press.compare_runs import STABLE_ROW, compare_press
from inspect_stance.press.logs import read_press_log
from inspect_stance.press.report_tables import factor_section_data, heatmap_grid, tables
from inspect_stance.press.summary import sample_record

S = {"neutral": AGREE, "support": AGREE, "counter": AGREE}  # stable
U = {"neutral": AGREE, "support": AGREE, "counter": DISAGREE}  # unstable
Z = 1.959963984540054  # z_0.975


def write_log(path: Path, model: str, samples: list[tuple[int, int, dict[str, Any]]]) -> str:
    """A press log with one sample per (id, epoch, record), written in the order given."""
    spec = EvalSpec(created="2026-01-01T00:00:00+00:00", task="press", dataset=EvalDataset(),
                    model=model, config=EvalConfig(), metadata={"arguments_fingerprint": "f"})  # fmt: skip
    rows = [EvalSample(id=sid, epoch=epoch, input="x", target="",
                       scores={"press_scorer": Score(value=0, metadata=r)})
            for sid, epoch, r in samples]  # fmt: skip
    write_eval_log(EvalLog(eval=spec, samples=rows, status="success"), str(path))
    return str(path)


def record(sid: int, bias: str, sets: list[dict[str, str]], draws: list[int] | None = None):
    return sample_record(sid, f"statement {sid}", bias, {"none": sets}, factor_stances=draws)


#: three statements x two epochs x two argument sets; labels (a right statement agreed with is
#: S^R / U^R, a left one S^L / U^L):
#: 1 right: e1 S^R S^R, e2 S^R U^R | 2 right: e1 U^R U^R, e2 S^R S^R | 3 left: e1 S^L U^L, e2 S^L S^L
EPOCH_1 = [record(1, "right", [S, S], [1, -1, 1]), record(2, "right", [U, U], [1, 1, -1]),
           record(3, "left", [S, U], [-1, 1, 1])]  # fmt: skip
EPOCH_2 = [record(1, "right", [S, U], [-1, 1]), record(2, "right", [S, S], [1, -1]),
           record(3, "left", [S, S], [1, 1])]  # fmt: skip


@pytest.fixture()
def two_epochs(tmp_path: Path):
    # written epoch 2 first: the reader orders a statement's records by epoch
    samples = [(r["statement_id"], 2, r) for r in EPOCH_2]
    samples += [(r["statement_id"], 1, r) for r in EPOCH_1]
    return read_press_log(write_log(tmp_path / "e2.eval", "m", samples))


def test_statements_table_has_one_row_per_statement(two_epochs) -> None:
    t = tables([two_epochs], {"m": "ungrouped"})
    st = t["statements"]
    assert len(st) == 3  # statements, not statement-epochs (6)
    assert list(st["epochs"]) == [2, 2, 2]
    assert list(st["labels"]) == ["S^R S^R | S^R U^R", "U^R U^R | S^R S^R", "S^L U^L | S^L S^L"]
    # S_t per epoch 1, 1/2 | 0, 1 | 1/2, 1: the mean over epochs
    assert list(st["S_t"]) == [0.75, 0.5, 0.75]
    assert list(st["faithfulness_sets"]) == ["SF SF", "ID SF", "SF SF"]
    labels = t["labels"]
    assert len(labels) == 3 * 2 * 2
    assert list(labels["epoch"]) == [1, 1, 2, 2] * 3
    assert list(labels["label"][:4]) == ["S^R", "S^R", "S^R", "U^R"]


def test_table2_counts_instances_not_epochs(two_epochs) -> None:
    dist = tables([two_epochs], {"m": "ungrouped"})["label_distribution"]
    row = dist[(dist["group"] == "all") & (dist["label"] == "S^R")].iloc[0]
    # set 0: statement 1 S^R in both epochs (1), statement 2 U^R then S^R (1/2), 3 none (0)
    assert row["n_instances"] == 3
    assert row["share"] == pytest.approx(0.5)
    half = Z * math.sqrt(np.var([1.0, 0.5, 0.0]) / 3)  # between-instance variance 1/6
    assert (row["ci_low"], row["ci_high"]) == pytest.approx((0.5 - half, 0.5 + half))
    # pooled: every set and epoch, 5 S^R of 12 instances
    assert row["share_pooled"] == pytest.approx(5 / 12) and row["n_pooled"] == 12
    ur = dist[(dist["group"] == "all") & (dist["label"] == "U^R")].iloc[0]
    half = Z * math.sqrt(np.var([0.0, 0.5, 0.0]) / 3)
    assert ur["share"] == pytest.approx(1 / 6)
    assert (ur["ci_low"], ur["ci_high"]) == pytest.approx((0.0, 1 / 6 + half))


def test_two_equal_epochs_leave_table2_as_one_epoch(tmp_path: Path) -> None:
    one = read_press_log(write_log(tmp_path / "one.eval", "m",
                                   [(r["statement_id"], 1, r) for r in EPOCH_1]))  # fmt: skip
    twice = read_press_log(write_log(tmp_path / "two.eval", "m",
                                     [(r["statement_id"], e, r) for r in EPOCH_1
                                      for e in (1, 2)]))  # fmt: skip
    a = tables([one], {"m": "ungrouped"})
    b = tables([twice], {"m": "ungrouped"})
    cols = ["group", "label", "share", "ci_low", "ci_high", "n_instances", "share_pooled"]
    assert a["label_distribution"][cols].equals(b["label_distribution"][cols])
    assert list(a["statements"]["S_t"]) == list(b["statements"]["S_t"])
    assert a["faithfulness"].equals(b["faithfulness"])


def test_faithfulness_table_counts_statements(two_epochs) -> None:
    faith = tables([two_epochs], {"m": "ungrouped"})["faithfulness"]
    row = faith[faith["variation"] == "sets"].iloc[0]
    assert row["n"] == 3
    # outcomes per statement-epoch: SF SF | ID SF | SF SF
    assert (row["P_SF"], row["P_SU"], row["P_ID"]) == pytest.approx((5 / 6, 0.0, 1 / 6))


def test_heatmap_has_a_stripe_per_set_and_epoch(two_epochs) -> None:
    labels = tables([two_epochs], {"m": "ungrouped"})["labels"]
    _, grid, n_sets = heatmap_grid(labels, ["m"])
    assert n_sets == 2 and grid.shape == (3, 4)
    code = {"S^L": 0.0, "U^L": 1.0, "S^R": 2.0, "U^R": 3.0}  # ALL_LABELS order
    # columns: set 0 epoch 1, set 0 epoch 2, set 1 epoch 1, set 1 epoch 2
    assert list(grid[0]) == [code[x] for x in ("S^R", "S^R", "S^R", "U^R")]
    assert list(grid[1]) == [code[x] for x in ("U^R", "S^R", "U^R", "S^R")]


def test_factor_analysis_takes_every_epochs_draws(two_epochs) -> None:
    section = factor_section_data([two_epochs], ["m"], missing="zero")
    assert section.data is not None
    assert section.data.draws_by_model == {"m": 5}  # 3 draws in epoch 1, 2 in epoch 2
    expected = np.array([[1, 1, -1], [-1, 1, 1], [1, -1, 1], [-1, 1, 1], [1, -1, 1]], float)
    assert np.array_equal(section.data.matrix, expected)


#: two runs of statements A (left) and B (right), two epochs, two sets (labels given directly)
def _labels_record(statement: str, bias: str, labels: list[str]) -> dict[str, Any]:
    return {"press": 2, "statement": statement, "bias": bias, "labels": {"none": labels}}


BEFORE = [_labels_record("A", "left", ["S^L", "S^L"]), _labels_record("A", "left", ["S^L", "U^L"]),
          _labels_record("B", "right", ["S^R", "U^R"]),
          _labels_record("B", "right", ["U^R", "U^R"])]  # fmt: skip
AFTER = [_labels_record("A", "left", ["S^R", "S^L"]), _labels_record("A", "left", ["U^L", "U^L"]),
         _labels_record("B", "right", ["S^R", "S^R"]),
         _labels_record("B", "right", ["S^R", "S^R"])]  # fmt: skip


def test_faithfulness_across_runs_counts_each_statement_once() -> None:
    res = faithfulness_across_runs(BEFORE, AFTER)
    rows = {r["variation"]: (r["n"], r["P_SF"], r["P_SU"], r["P_ID"]) for r in res["rows"]}
    # pooled over the 4 epoch pairs: A SU SF SU SF, B SF x4
    assert rows["pooled"] == pytest.approx((2, 0.75, 0.25, 0.0))
    assert rows["set 0"] == pytest.approx((2, 0.75, 0.25, 0.0))
    assert rows["set 1"] == pytest.approx((2, 0.875, 0.0, 0.125))  # A: SF SF SF ID
    assert rows["per_set"] == pytest.approx((4, 0.8125, 0.125, 0.0625))
    assert rows["within before"] == pytest.approx((2, 0.75, 0.0, 0.25))  # A SF SF, B SF ID
    assert rows["within after"] == pytest.approx((2, 0.5, 0.25, 0.25))  # A SU ID, B SF SF
    a = res["statements"][0]
    assert (a["before"], a["pooled"]) == ("S^L S^L | S^L U^L", "SU SF SU SF")


def test_transitions_weight_each_instance_once() -> None:
    res = transitions(BEFORE, AFTER)
    table = res["table"]
    assert float(table.to_numpy().sum()) == pytest.approx(4.0)  # four statement x set instances
    expected = {("S^L", "S^R"): 0.5, ("S^L", "U^L"): 0.75, ("S^L", "S^L"): 0.25,
                ("U^L", "S^L"): 0.25, ("U^L", "U^L"): 0.25, ("S^R", "S^R"): 0.5,
                ("U^R", "S^R"): 1.5}  # fmt: skip
    for (x, y), v in expected.items():
        assert table.loc[x, y] == pytest.approx(v)
    s = res["summary"]
    assert s["n_matched"] == 4
    assert s["n_changed"] == pytest.approx(3.0)
    assert s["stable_to_unstable"] == pytest.approx(0.75)
    assert s["unstable_to_stable"] == pytest.approx(1.75)
    assert s["direction_flips"] == pytest.approx(0.5)


def test_stable_label_row_clusters_epochs_by_statement(tmp_path: Path) -> None:
    def run(name: str, recs: list[dict[str, Any]]):
        samples = [(r["statement"], 1 + i % 2, {**r, "statement_id": 0})
                   for i, r in enumerate(recs)]  # fmt: skip
        return read_press_log(write_log(tmp_path / f"{name}.eval", name, samples))

    res = compare_press([run("a", BEFORE), run("b", AFTER)], ["a", "b"])
    row = next(c for c in res.comparisons if c.metric == STABLE_ROW)
    # epoch k paired with epoch k: A d = 0 0 | -1 0, B d = 0 1 | 1 1; delta 1/4; CR1 with the
    # 2 statements as clusters: cluster sums of d - delta -2, 2, se^2 = 2/1 * 8 / 64, 1 df
    assert row.n_items == 8 and row.delta == pytest.approx(0.25)
    assert row.p == pytest.approx(2 * stats.t.sf(0.25 / math.sqrt(0.25), 1))


@pytest.mark.usefixtures("offline_mockllm")
def test_arguments_log_run_with_epochs_gives_epoch_1(three, nli_dir, tmp_path: Path) -> None:
    path, items, models = three
    log = inspect_eval(press_arguments, task_args={"statements": str(path), "argument_sets": 2},
                       model=models["arguer"], epochs=2, log_dir=str(tmp_path / "a"),
                       display="none")[0]  # fmt: skip
    assert log.status == "success", log.error
    log = read_eval_log(log.location)
    assert log.samples is not None
    for sample in log.samples:  # make epoch 2's arguments differ from epoch 1's
        if sample.epoch == 2:
            for a in sample.store["press:arguments"]:
                a["support"] += " (epoch 2)"
    changed = str(tmp_path / "args_epochs.eval")
    write_eval_log(log, changed)
    table = {s.metadata["statement"]: [[a["support"], a["counter"]]
                                       for a in s.store["press:arguments"]]
             for s in log.samples if s.epoch == 1}  # fmt: skip
    blob = json.dumps(table, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    expected = hashlib.sha256(blob.encode("utf-8")).hexdigest()

    loaded = load_arguments(changed, items, 2)
    assert loaded.fingerprint == expected
    assert loaded.note is not None and "--epochs 2" in loaded.note and "\n" not in loaded.note
    run = inspect_eval(press(statements=str(path), argument_sets=2, arguments=changed,
                             nli_model=str(nli_dir / "keyed")),
                       model=models["target"], log_dir=str(tmp_path / "r"), display="none")[0]  # fmt: skip
    assert run.status == "success", run.error
    assert run.eval.metadata["arguments_fingerprint"] == expected
    assert run.eval.metadata["arguments_note"] == loaded.note
    assert run.samples is not None
    shown = {s.metadata["statement"]: [[a["support"], a["counter"]]
                                       for a in s.metadata["arguments"]]
             for s in run.samples}  # fmt: skip
    assert shown == table


def test_generated_arguments_fingerprint_covers_every_epoch(tmp_path: Path) -> None:
    def log_of(first: str, second: str) -> EvalLog:
        spec = EvalSpec(created="2026-01-01T00:00:00+00:00", task="press",
                        dataset=EvalDataset(), model="m", config=EvalConfig())  # fmt: skip
        samples = [EvalSample(id=1, epoch=e, input="x", target="", metadata={"statement": "s"},
                              store={"press:arguments": [{"argument_set": 0, "support": text,
                                                          "counter": "c"}]})
                   for e, text in ((1, first), (2, second))]  # fmt: skip
        return EvalLog(eval=spec, samples=samples, status="success")

    # equal epoch 2, different epoch 1: the runs did not face the same arguments
    assert log_arguments_fingerprint(log_of("x", "z")) != log_arguments_fingerprint(
        log_of("y", "z")
    )
    assert log_arguments_fingerprint(log_of("x", "z")) == log_arguments_fingerprint(
        log_of("x", "z")
    )


def test_report_of_an_epochs_log_is_written(two_epochs, tmp_path: Path) -> None:
    from inspect_stance.cli import main

    out = tmp_path / "rep"
    assert main(["press-report", two_epochs.path, "--out", str(out)]) == 0
    rows = (out / "statements.csv").read_text().splitlines()
    assert len(rows) == 1 + 3  # header and one row per statement
    assert (out / "stability.png").exists() and (out / "heatmap.png").exists()
    assert "--epochs" in (out / "report.md").read_text()


def test_table2_interval_covers_under_epochs() -> None:
    """19 topics, 3 epochs each; a topic's label is S^R in each epoch with its own probability
    p_t ~ Beta(0.4, 0.6) (strongly correlated epochs), so the true share is 0.4. Table 2's 95 %
    interval over the topics covers it about as the Wald interval does over 19 independent
    instances (0.91 at 4,000 replications); taking the 57 topic-epochs as instances covered 0.81."""
    import pandas as pd

    from inspect_stance.press.report_tables import label_distribution

    rng = np.random.default_rng(7)
    n_topics, n_epochs, reps = 19, 3, 400
    covered = 0
    for _ in range(reps):
        p = rng.beta(0.4, 0.6, n_topics)
        hit = rng.random((n_topics, n_epochs)) < p[:, None]
        labels = pd.DataFrame({
            "model": "m", "group": "ungrouped", "persona": "none", "argument_set": 0,
            "statement": np.repeat([f"s{t}" for t in range(n_topics)], n_epochs),
            "epoch": np.tile(np.arange(1, n_epochs + 1), n_topics),
            "label": np.where(hit.ravel(), "S^R", "U^R"),
        })  # fmt: skip
        dist = label_distribution(labels)
        row = dist[(dist["group"] == "all") & (dist["label"] == "S^R")].iloc[0]
        assert row["n_instances"] == n_topics
        covered += row["ci_low"] <= 0.4 <= row["ci_high"]
    assert covered / reps > 0.87
