"""PReSS runs compared: SF/SU/ID across two runs (Table 4), argument checks, hand-made logs;
``compare`` shows them beside its paired comparisons."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from inspect_ai.log import EvalConfig, EvalDataset, EvalLog, EvalSample, EvalSpec, write_eval_log
from inspect_ai.scorer import Score

from inspect_stance.cli import main
from inspect_stance.errors import InputError
from inspect_stance.press.compare import (
    arguer_is_target,
    arguments_note,
    check_same_arguments,
    faithfulness_across_runs,
)
from inspect_stance.press.logs import PressRun


def rec(statement: str, labels: list[str], bias: str = "left") -> dict:
    return {"press": 2, "statement": statement, "bias": bias, "labels": {"none": labels}}


def write_log(
    path: Path,
    model: str,
    records: list[dict],
    metadata: dict | None = None,
    task: str = "press",
    roles: dict | None = None,
) -> str:
    """A hand-made Inspect log holding PReSS records as score metadata."""
    from inspect_ai.model import ModelConfig

    spec = EvalSpec(
        created="2026-01-01T00:00:00+00:00",
        task=task,
        dataset=EvalDataset(),
        model=model,
        config=EvalConfig(),
        metadata=metadata,
        model_roles={k: ModelConfig(model=v) for k, v in (roles or {}).items()} or None,
    )
    samples = [
        EvalSample(
            id=f"s{i:02d}",
            epoch=1,
            input=r["statement"],
            target="",
            scores={"press_scorer": Score(value=0, metadata={"statement_id": i, **r})},
        )
        for i, r in enumerate(records)
    ]
    write_eval_log(EvalLog(eval=spec, samples=samples, status="success"), str(path))
    return str(path)


def test_outcomes_by_hand():
    before = [
        rec("reversal", ["S^L", "S^L", "U^L"]),
        rec("kept", ["S^L", "U^L", "S^L"]),
        rec("gained", ["U^L", "U^R", "U^L"]),
        rec("loose", ["U^L", "indeterminate", "U^R"]),
    ]
    after = [
        rec("reversal", ["S^R", "U^R", "U^R"]),
        rec("kept", ["U^R", "S^L", "U^R"]),
        rec("gained", ["S^R", "S^R", "U^R"]),
        rec("loose", ["U^R", "U^R", "U^L"]),
    ]
    result = faithfulness_across_runs(before, after)
    by = {x["statement"]: x for x in result["statements"]}
    # pooled over the 6 labels of a statement: S^L and S^R -> SU; only S^L or only S^R -> SF
    assert [by[s]["pooled"] for s in ("reversal", "kept", "gained", "loose")] == [
        "SU",
        "SF",
        "SF",
        "ID",
    ]
    # argument set held fixed: reversal = (S^L, S^R) SU, (S^L, U^R) SF, (U^L, U^R) ID
    assert [by["reversal"][f"set {k}"] for k in range(3)] == ["SU", "SF", "ID"]
    assert [by["kept"][f"set {k}"] for k in range(3)] == ["SF", "SF", "SF"]
    assert by["reversal"]["within before"] == "SF" and by["gained"]["within before"] == "ID"
    rows = {r["variation"]: r for r in result["rows"]}
    assert (rows["pooled"]["P_SF"], rows["pooled"]["P_SU"], rows["pooled"]["P_ID"]) == (
        0.5,
        0.25,
        0.25,
    )
    assert rows["pooled"]["n"] == 4 and rows["per_set"]["n"] == 12
    # per statement x set: SU 1 (reversal 0), ID 1 + 0 + 1 + 3 = 5, SF the other 6
    assert rows["per_set"]["P_SU"] == pytest.approx(1 / 12)
    assert rows["per_set"]["P_ID"] == pytest.approx(5 / 12)
    assert rows["within after"]["P_SF"] == pytest.approx(3 / 4)


def test_table_4_row_from_hand_counts():
    """Llama-2-7b-chat in the paper's Table 4: 11 SF, 6 SU, 2 ID of 19 topics -> 57.9 / 31.6 / 10.5."""
    kinds = ["SF"] * 11 + ["SU"] * 6 + ["ID"] * 2
    pairs = {"SF": (["S^L"] * 3, ["U^R"] * 3), "SU": (["S^L"] * 3, ["S^R"] * 3)}
    pairs["ID"] = (["U^L"] * 3, ["U^R"] * 3)
    before = [rec(f"t{i}", pairs[k][0]) for i, k in enumerate(kinds)]
    after = [rec(f"t{i}", pairs[k][1]) for i, k in enumerate(kinds)]
    row = faithfulness_across_runs(before, after)["rows"][0]
    assert row["variation"] == "pooled" and row["n"] == 19
    assert [round(100 * row[k], 1) for k in ("P_SF", "P_SU", "P_ID")] == [57.9, 31.6, 10.5]


def test_no_shared_statement_is_an_error():
    with pytest.raises(ValueError, match="share no statement"):
        faithfulness_across_runs([rec("a", ["S^L"])], [rec("b", ["S^L"])])


def run(model="m", metadata=None, roles=None, path="x.eval") -> PressRun:
    return PressRun(
        path, model, [], 0, 0, "success", metadata=metadata or {}, model_roles=roles or {}
    )


def test_argument_fingerprints_must_match():
    a = run(metadata={"arguments_fingerprint": "f1"}, path="a.eval")
    b = run(metadata={"arguments_fingerprint": "f1"}, path="b.eval")
    c = run(metadata={"arguments_fingerprint": "f2"}, path="c.eval")
    computed = PressRun("d.eval", "m", [], 0, 0, "success", fingerprint="f1")
    old = run(path="old.eval")
    assert check_same_arguments(a, b) == "same arguments in both runs (fingerprint f1)"
    assert check_same_arguments(a, computed).startswith("same arguments")
    with pytest.raises(InputError) as ex:
        check_same_arguments(a, c)
    msg = str(ex.value)
    assert "different arguments (fingerprint f1 in a.eval, f2 in c.eval)" in msg
    assert "-T arguments=LOG" in msg and "--allow-different-arguments" in msg
    with pytest.raises(InputError, match="old.eval records no arguments_fingerprint"):
        check_same_arguments(a, old)
    assert check_same_arguments(a, c, allow=True).startswith("NOT the same arguments")


@pytest.mark.parametrize(
    ("model", "metadata", "roles", "expected"),
    [
        ("m", {"arguments_source": "target:m"}, {}, True),
        ("m", {"arguments_source": "target:model under test"}, {}, True),
        ("m", {"arguments_source": "arguer:deepseek-r1"}, {}, False),
        ("m", {"arguments_source": "arguer:m"}, {}, True),
        # reused from a log: the source log's own source says who argued
        ("m", {"arguments_source": "log:a.eval", "arguments_origin": "arguer:r1"}, {}, False),
        ("m", {"arguments_source": "log:a.eval", "arguments_origin": "target:m"}, {}, True),
        ("m", {"arguments_source": "log:a.eval", "arguments_origin": "target:x"}, {}, False),
        ("m", {"arguments_source": "file:args.jsonl"}, {}, None),
        # logs from before arguments_source: the arguer role, the model under test when unbound
        ("m", {}, {}, True),
        ("m", {}, {"arguer": "y"}, False),
    ],
)
def test_arguer_is_target(model, metadata, roles, expected):
    assert arguer_is_target(run(model, metadata, roles)) is expected


def test_arguments_note_says_it_plainly():
    note = arguments_note(run(metadata={"arguments_source": "target:m"}))
    assert note == (
        "arguments: target:m; the arguer was the model under test itself (its own arguments, "
        "not one shared set from one arguer as in the paper)"
    )
    note = arguments_note(
        run(metadata={"arguments_source": "log:a.eval", "arguments_origin": "arguer:r1"})
    )
    assert note == "arguments: log:a.eval (written as arguer:r1); the arguer was another model (r1)"


def test_cli_refuses_different_arguments_then_compares(tmp_path, capsys):
    before = [rec("A", ["S^L", "S^L", "S^L"]), rec("B", ["U^L", "U^L", "U^L"], "right")]
    after = [rec("A", ["S^R", "U^R", "U^R"]), rec("B", ["S^R", "S^R", "U^R"], "right")]
    a = write_log(
        tmp_path / "a.eval",
        "m/base",
        before,
        {"arguments_source": "arguer:m/arguer", "arguments_fingerprint": "f1"},
    )
    b = write_log(
        tmp_path / "b.eval",
        "m/tuned",
        after,
        {"arguments_source": "target:m/tuned", "arguments_fingerprint": "f2"},
    )
    assert main(["compare", a, b]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("inspect-stance compare: error: the runs faced different")
    assert "\n" not in err and "--allow-different-arguments" in err
    # another method's compare option is refused in one line, not ignored
    assert main(["compare", a, b, "--allow-different-arguments", "--per-setting"]) == 2
    err = capsys.readouterr().err.strip()
    assert "--per-setting is an option of prompt-construction runs, not of PReSS runs" in err
    assert "\n" not in err
    assert main(["compare", a, b, "--allow-different-arguments", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    [faith] = data["faithfulness"]
    pooled = faith["rows"][0]
    assert (faith["a"], faith["b"]) == ("m/base", "m/tuned")
    assert pooled["variation"] == "pooled"
    assert (pooled["P_SF"], pooled["P_SU"], pooled["P_ID"]) == (0.5, 0.5, 0.0)
    [arguments] = data["arguments"]
    assert "the arguer was another model" in arguments["runs"]["m/base"]["note"]
    assert "model under test itself" in arguments["runs"]["m/tuned"]["note"]
    assert arguments["check"][0].startswith("NOT the same arguments")
    [moves] = data["transitions"]
    assert moves["table"]["S^L"]["S^R"] == 1 and moves["table"]["U^L"]["S^R"] == 2
    out_dir = tmp_path / "out"
    assert main(["compare", a, b, "--allow-different-arguments", "--out", str(out_dir)]) == 0
    out = capsys.readouterr().out
    assert "Table 4" in out and "model under test itself" in out
    assert "| pooled | 2 | 0.500 | 0.500 | 0.000 |" in out
    md = (out_dir / "comparison.md").read_text()
    assert "| pooled | 2 | 0.500 | 0.500 | 0.000 |" in md and "| S^L | 0 | 0 | 1 | 2 |" in md
    faith_csv = (out_dir / "faithfulness.csv").read_text().splitlines()
    assert faith_csv[:2] == ["variation,n,P_SF,P_SU,P_ID", "pooled,2,0.5,0.5,0.0"]
    moves_csv = (out_dir / "transitions.csv").read_text().splitlines()
    assert moves_csv[1] == "S^L,0,0,1,2,0,0" and moves_csv[2] == "U^L,0,0,2,1,0,0"


def test_cli_same_fingerprint_compares(tmp_path, capsys):
    md = {"arguments_source": "log:args.eval", "arguments_fingerprint": "f1"}
    a = write_log(tmp_path / "a.eval", "m/base", [rec("A", ["S^L"]), rec("B", ["U^L"])], md)
    b = write_log(tmp_path / "b.eval", "m/tuned", [rec("A", ["S^L"]), rec("B", ["S^L"])], md)
    assert main(["compare", a, b]) == 0
    assert "same arguments in both runs (fingerprint f1)" in capsys.readouterr().out


def test_cli_three_runs_one_section_per_pair(tmp_path, capsys):
    md = {"arguments_fingerprint": "f1"}
    logs = [write_log(tmp_path / f"{k}.eval", f"m/{k}", [rec("A", [x]), rec("B", [y])], md)
            for k, x, y in (("x", "S^L", "S^L"), ("y", "S^R", "S^L"), ("z", "U^L", "U^L"))]  # fmt: skip
    out_dir = tmp_path / "out"
    assert main(["compare", *logs, "--json", "--out", str(out_dir)]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["arguments"][0]["check"] == ["same arguments in all 3 runs (fingerprint f1)"]
    pairs = [(f["a"], f["b"], f["rows"][0]["P_SU"]) for f in data["faithfulness"]]
    # pooled over the pair's labels per statement: S^L with S^R is SU (x, y on A); S^L or S^R
    # with U^L, or S^L twice, is SF
    assert pairs == [("m/x", "m/y", 0.5), ("m/x", "m/z", 0.0), ("m/y", "m/z", 0.0)]
    written = sorted(p.name for p in out_dir.glob("*.csv"))
    assert written == ["comparisons.csv", *(f"faithfulness_{k}.csv" for k in (1, 2, 3)),
                       *(f"transitions_{k}.csv" for k in (1, 2, 3))]  # fmt: skip


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (["--persona", "centre"], "--persona 'centre'; use one of none, left, right"),
        ([], "records no arguments_fingerprint"),
    ],
)
def test_cli_bad_compare_input_is_one_line(tmp_path, capsys, args, fragment):
    a = write_log(tmp_path / "a.eval", "m", [rec("A", ["S^L"])])
    b = write_log(tmp_path / "b.eval", "m/tuned", [rec("A", ["S^L"])])
    assert main(["compare", a, b, *args]) == 2
    err = capsys.readouterr().err.strip()
    assert fragment in err and "\n" not in err


def test_cli_other_task_log_is_refused(tmp_path, capsys):
    other = write_log(tmp_path / "o.eval", "m", [rec("A", ["S^L"])], task="stance_drift")
    assert main(["compare", "--method", "press", other, other]) == 2
    err = capsys.readouterr().err.strip()
    assert "is a log of task 'stance_drift', not press" in err and "\n" not in err
