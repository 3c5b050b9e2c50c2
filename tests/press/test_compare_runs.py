"""`inspect-stance compare` on PReSS logs: S_t and SF/SU/ID deltas paired by statement, McNemar
against scipy's binomial test, Newcombe's interval by simulation, settings refusals."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
import statsmodels.api as sm
from inspect_ai.log import EvalConfig, EvalDataset, EvalLog, EvalSample, EvalSpec, write_eval_log
from inspect_ai.scorer import Score

from inspect_stance.cli import main
from inspect_stance.stats.intervals import newcombe_paired

JSON_KEYS = {"metric", "a", "b", "delta", "ci", "p", "p_adjusted", "test", "n_items"}


def rec(statement: str, labels: list[str], bias: str = "left") -> dict:
    return {"press": 2, "statement": statement, "bias": bias, "labels": {"none": labels}}


def write_log(path: Path, model: str, records: list[dict], metadata: dict | None = None,
              task_args: dict | None = None) -> str:  # fmt: skip
    spec = EvalSpec(
        created="2026-01-01T00:00:00+00:00",
        task="press",
        dataset=EvalDataset(),
        model=model,
        config=EvalConfig(),
        metadata={"arguments_fingerprint": "f1", **(metadata or {})},
        task_args=task_args or {},
    )
    samples = [
        EvalSample(id=f"s{i:02d}", epoch=1, input=r["statement"], target="",
                   scores={"press_scorer": Score(value=0, metadata={"statement_id": i, **r})})
        for i, r in enumerate(records)
    ]  # fmt: skip
    write_eval_log(EvalLog(eval=spec, samples=samples, status="success"), str(path))
    return str(path)


BEFORE = [
    rec("A", ["S^L", "S^L", "S^L"]),
    rec("B", ["S^L", "U^L", "S^L"]),
    rec("C", ["U^R", "U^R", "U^R"], "right"),
    rec("D", ["S^R", "S^R", "S^R"], "right"),
]
AFTER = [  # listed in another order: pairing is by statement text
    rec("D", ["U^R", "U^R", "S^R"], "right"),
    rec("C", ["S^R", "U^R", "U^R"], "right"),
    rec("A", ["S^L", "U^L", "U^L"]),
    rec("B", ["U^L", "U^L", "U^L"]),
]


def test_press_compare_by_hand(tmp_path, capsys):
    a = write_log(tmp_path / "a.eval", "m/base", BEFORE)
    b = write_log(tmp_path / "b.eval", "m/tuned", AFTER)
    assert main(["compare", a, b, "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    by = {c["metric"]: c for c in out["comparisons"]}
    for c in out["comparisons"]:
        assert JSON_KEYS <= set(c)
    # S_t: before A 1, B 2/3, C 0, D 1; after A 1/3, B 0, C 1/3, D 1/3
    st_a = np.array([1, 2 / 3, 0, 1])
    st_b = np.array([1 / 3, 0, 1 / 3, 1 / 3])
    assert by["share_stable"]["a"] == pytest.approx(st_a.mean())
    assert by["share_stable"]["delta"] == pytest.approx((st_b - st_a).mean())
    assert by["share_stable"]["n_items"] == 4
    # SF per statement across its own sets: before A, B, D SF, C ID; after A, C, D SF, B ID
    assert by["P_SF"]["a"] == pytest.approx(0.75) and by["P_SF"]["b"] == pytest.approx(0.75)
    assert by["P_ID"]["a"] == pytest.approx(0.25) and by["P_ID"]["delta"] == pytest.approx(0.0)
    # the stable label over the 12 statement x set instances, clustered by statement, against
    # statsmodels' cluster-robust OLS on a constant (t with G - 1 df)
    mc = by["stable_label (by statement)"]
    # stable before/after per instance: A 111/100, B 101/000, C 000/100, D 111/001
    d = np.array([0, -1, -1, -1, 0, -1, 1, 0, 0, -1, -1, 0], dtype=float)
    groups = np.repeat(np.arange(4), 3)
    fit = sm.OLS(d, np.ones((12, 1))).fit(cov_type="cluster", cov_kwds={"groups": groups},
                                          use_t=True)  # fmt: skip
    assert mc["n_items"] == 12
    assert mc["p"] == pytest.approx(float(fit.pvalues[0]))
    assert mc["delta"] == pytest.approx((4 - 9) / 12)
    assert mc["ci"][0] == pytest.approx(max(-1.0, float(fit.conf_int()[0][0])))
    assert out["transitions"][0]["summary"]["n_matched"] == 12
    # the instances by (statement, set): A S^L->S^L, S^L->U^L x2; B S^L->U^L x2, U^L->U^L;
    # C U^R->S^R, U^R->U^R x2; D S^R->U^R x2, S^R->S^R
    table = out["transitions"][0]["table"]
    assert (table["S^L"]["S^L"], table["S^L"]["U^L"], table["U^L"]["U^L"]) == (1, 4, 1)
    assert (table["U^R"]["S^R"], table["U^R"]["U^R"], table["S^R"]["U^R"]) == (1, 2, 2)
    # Table 4 across the two runs, per statement: pooled over 6 labels every statement keeps
    # one direction (SF 4 of 4); set 1: A (S^L, U^L) SF, B (U^L, U^L) ID, C (U^R, U^R) ID,
    # D (S^R, U^R) SF; per statement x set: ID in B set 1, C sets 1 and 2 -> 3 of 12
    rows = {r["variation"]: r for r in out["faithfulness"][0]["rows"]}
    assert (rows["pooled"]["n"], rows["pooled"]["P_SF"]) == (4, 1.0)
    assert (rows["set 1"]["P_SF"], rows["set 1"]["P_ID"]) == (0.5, 0.5)
    assert rows["set 2"]["P_ID"] == 0.25 and rows["per_set"]["n"] == 12
    assert rows["per_set"]["P_ID"] == pytest.approx(3 / 12) and rows["per_set"]["P_SU"] == 0.0
    assert main(["compare", a, b]) == 0
    text = capsys.readouterr().out
    assert "| set 1 | 4 | 0.500 | 0.000 | 0.500 |" in text
    assert "| per_set | 12 | 0.750 | 0.000 | 0.250 |" in text
    assert "| S^L | 1 | 4 | 0 | 0 | 0 | 0 |" in text


def test_newcombe_paired_interval_covers_by_simulation():
    rng = np.random.default_rng(7)
    # paired binary outcomes: P(1,1)=.5, P(1,0)=.2, P(0,1)=.1, P(0,0)=.2 -> true p_B - p_A = -0.1
    probs = [0.5, 0.2, 0.1, 0.2]
    hits = 0
    reps = 2000
    for _ in range(reps):
        n11, n10, n01, n00 = rng.multinomial(60, probs)
        low, high = newcombe_paired(n11, n10, n01, n00)
        hits += low <= -0.1 <= high
        assert -1 <= low <= high <= 1
    assert 0.93 <= hits / reps <= 0.97


def test_newcombe_paired_stays_inside_at_the_boundary():
    low, high = newcombe_paired(0, 0, 10, 0)  # every pair 0 -> 1
    assert 0 < low < high == 1.0


def test_different_arguments_or_classifier_refused(tmp_path, capsys):
    a = write_log(tmp_path / "a.eval", "m/base", BEFORE)
    b = write_log(tmp_path / "b.eval", "m/tuned", AFTER, {"arguments_fingerprint": "f2"})
    assert main(["compare", a, b]) == 2
    err = capsys.readouterr().err.strip()
    assert "the runs faced different arguments (fingerprint f1" in err
    assert "--allow-different-arguments" in err and "\n" not in err
    assert main(["compare", a, b, "--allow-different-settings"]) == 2  # not a setting's flag
    assert "--allow-different-arguments" in capsys.readouterr().err
    c = write_log(tmp_path / "c.eval", "m/tuned", AFTER, task_args={"classifier": "llm"})
    d = write_log(tmp_path / "d.eval", "m/base", BEFORE, task_args={"classifier": "nli"})
    assert main(["compare", c, d]) == 2
    err = capsys.readouterr().err
    assert "classifier differs" in err and "--allow-different-settings" in err
    assert main(["compare", c, d, "--allow-different-settings"]) == 0
    assert "settings differ (compared anyway" in capsys.readouterr().out


def test_same_log_twice_counted_once(tmp_path, capsys):
    a = write_log(tmp_path / "a.eval", "m/base", BEFORE)
    assert main(["compare", a, a]) == 2
    assert "at least two different runs" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("target", "fragment"),
    [("FILE", "is an existing file; give a folder"), ("FILE/sub", "is a file, not a folder")],
)
def test_out_paths_are_one_line_errors(tmp_path, capsys, target, fragment):
    a = write_log(tmp_path / "a.eval", "m/base", BEFORE)
    b = write_log(tmp_path / "b.eval", "m/tuned", AFTER)
    (tmp_path / "FILE").write_text("")
    assert main(["compare", a, b, "--out", str(tmp_path / target)]) == 2
    err = capsys.readouterr().err.strip()
    assert fragment in err and "\n" not in err


def test_folder_with_several_methods_needs_method(tmp_path, capsys):
    folder = tmp_path / "runs"
    folder.mkdir()
    write_log(folder / "a.eval", "m/base", BEFORE)
    write_log(folder / "b.eval", "m/tuned", AFTER)
    np.savez(folder / "drift.npz", probs=np.full((2, 1, 5, 5), 0.2))
    assert main(["compare", str(folder)]) == 2
    err = capsys.readouterr().err.strip()
    assert "several methods (press, stance_drift)" in err and "--method" in err
    assert main(["compare", str(folder), "--method", "press", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["method"] == "press" and [r["model"] for r in out["runs"]] == ["m/base", "m/tuned"]
