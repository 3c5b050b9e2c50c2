"""Shards 1/2 and 2/2 of an even-handedness study pool into the unsharded run in every reader
(``even-handedness-report``, ``report``, ``compare``, ``gate``, ``plan``, ``runs_df`` and the
card), and so does Inspect's ``<name>.shards/<k>/`` layout. The simulated target and graders
(``even_sim``) answer by content, so the pooled figures must equal those of one unsharded run
of the same pairs; incomplete, repeated and foreign shards are refused in one line."""

from __future__ import annotations

import json
import math
import shutil
from pathlib import Path
from typing import Any

import pytest
from inspect_ai import eval as inspect_eval
from inspect_ai.model import get_model

from inspect_stance.cli import main
from inspect_stance.errors import InputError
from inspect_stance.even_handedness.data import load_pairs, select_pairs
from inspect_stance.even_handedness.dataset import pair_key, shard_pairs
from inspect_stance.even_handedness.options import EvenOptions

#: 8 topics' humor pairs: small, and more than one topic for the clustered errors
TOPICS = sorted({p.topic_name for p in load_pairs()})[:8]
SUBSET: dict[str, Any] = {"topics": ",".join(TOPICS), "template_categories": "humor"}
N = len(select_pairs(None, TOPICS, ["humor"], None, None))


def _run(log_dir: Path, sample_id: list[str] | None = None, **task_args: Any) -> str:
    """One run on fresh simulated models (a target that refuses and weakens some answers, a
    grader with a position bias): every answer depends on the prompt only."""
    target = get_model("even_sim/target", memoize=False, seed=1, weaken_rate=0.3, refuse_rate=0.3)
    graders = [get_model("even_sim/grader", memoize=False),
               get_model("even_sim/grader2", memoize=False, position_bias=0.3)]  # fmt: skip
    (log,) = inspect_eval("inspect_stance/even_handedness", task_args={**SUBSET, **task_args},
                          model=target, model_roles={"graders": graders}, log_dir=str(log_dir),
                          sample_id=sample_id, display="none")  # fmt: skip
    assert log.status == "success", log.error
    return str(log.location)


@pytest.fixture(scope="module")
def logs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    root = tmp_path_factory.mktemp("eh_shards")
    ids = sorted(p.sample_id for p in select_pairs(None, TOPICS, ["humor"], None, None))
    study = root / "layout" / "study.shards"
    out: dict[str, Any] = {
        "whole": _run(root / "whole"),
        "one": _run(root / "one", shard="1/2"),
        "two": _run(root / "two", shard="2/2"),
        "other": _run(root / "other", shard="2/2", threshold=0.4, topics=",".join(TOPICS[:3])),
        "layout": study,
        "layout_logs": [_run(study / "1", ids[0::2]), _run(study / "2", ids[1::2])],
    }
    out["one_again"] = _another_run_of(out["one"], root / "again.eval")
    return out


def _another_run_of(path: str, to: Path) -> str:
    """A second run of the same shard (its log under another eval id, as a rerun writes)."""
    from inspect_ai.log import read_eval_log, write_eval_log

    log = read_eval_log(path)
    log.eval.eval_id, log.eval.run_id = "rerun-eval-id", "rerun-run-id"
    write_eval_log(log, str(to))
    return str(to)


def _report(capsys: Any, out: Path, *argv: str) -> dict[str, Any]:
    assert main(["even-handedness-report", *argv, "--out", str(out)]) == 0, capsys.readouterr()
    capsys.readouterr()
    [run] = json.loads((out / "report.json").read_text()).values()
    return dict(run)


def _same(a: Any, b: Any, where: str = "") -> None:
    """``a`` equals ``b`` with every number to 1e-9 (NaN equal to NaN)."""
    if isinstance(a, dict):
        assert isinstance(b, dict) and set(a) == set(b), where
        for k in a:
            _same(a[k], b[k], f"{where}.{k}")
    elif isinstance(a, list):
        assert isinstance(b, list) and len(a) == len(b), where
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            _same(x, y, f"{where}[{i}]")
    elif isinstance(a, float) or isinstance(b, float):
        assert (math.isnan(a) and math.isnan(b)) or a == pytest.approx(b, abs=1e-9), where
    else:
        assert a == b, where


def _figures(run: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in run.items() if k != "source"}


def test_split_is_a_partition_independent_of_input_order() -> None:
    pairs = select_pairs(None, TOPICS, ["humor"], None, None)
    one, m1 = shard_pairs(pairs, EvenOptions.parse(shard="1/2"))
    two, m2 = shard_pairs(pairs[::-1], EvenOptions.parse(shard="2/2"))
    again, _ = shard_pairs(pairs[::-1], EvenOptions.parse(shard="1/2"))
    assert {p.sample_id for p in one} == {p.sample_id for p in again}  # the file's order aside
    assert not {p.sample_id for p in one} & {p.sample_id for p in two}
    assert {p.sample_id for p in one} | {p.sample_id for p in two} == {p.sample_id for p in pairs}
    assert abs(len(one) - len(two)) <= 1
    assert m1["shard"]["study"] == m2["shard"]["study"] and m1["shard"]["items_total"] == N
    # the study is the pair set and the settings: the same pairs by another filter agree, ...
    by_topics = EvenOptions.parse(shard="1/2", topics=",".join(reversed(TOPICS)))
    assert shard_pairs(pairs, by_topics)[1] == m1
    # ... other settings or other pairs do not
    assert shard_pairs(pairs, EvenOptions.parse(shard="1/2", threshold=0.4))[1] != m1
    assert shard_pairs(pairs[1:], EvenOptions.parse(shard="1/2"))[1] != m1
    assert len({pair_key(p) for p in load_pairs()}) == len(load_pairs())  # keys are unique
    with pytest.raises(InputError, match="shard '3/2'"):
        EvenOptions.parse(shard="3/2")


def test_logs_record_their_shard(logs: dict[str, Any]) -> None:
    from inspect_ai.log import read_eval_log

    def meta(path: str) -> dict[str, Any]:
        return dict(read_eval_log(path, header_only=True).eval.metadata or {})

    whole, one, two = meta(logs["whole"]), meta(logs["one"]), meta(logs["two"])
    assert "shard" not in whole and whole["pairs"] == N
    assert (one["shard"]["k"], two["shard"]["k"], one["shard"]["n"]) == (1, 2, 2)
    assert one["shard"]["study"] == two["shard"]["study"] != meta(logs["other"])["shard"]["study"]
    assert one["shard"]["items_total"] == N and one["pairs"] + two["pairs"] == N


def test_report_pools_to_the_unsharded_figures(logs: dict[str, Any], capsys: Any,
                                               tmp_path: Path) -> None:  # fmt: skip
    whole = _report(capsys, tmp_path / "a", logs["whole"])
    pooled = _report(capsys, tmp_path / "b", logs["two"], logs["one"])
    assert whole["metrics"]["pairs"] == N and whole["model"] == pooled["model"]
    _same(_figures(pooled), _figures(whole))
    # the headline table of report.md is the same line
    headline = [ln for ln in (tmp_path / "a" / "report.md").read_text().splitlines()
                if ln.startswith("| even_sim/target")]  # fmt: skip
    assert headline and headline[0] in (tmp_path / "b" / "report.md").read_text()
    # the generic report over a folder of the two shards writes the same figures
    folder = tmp_path / "study"
    folder.mkdir()
    for log in (logs["one"], logs["two"]):
        shutil.copy(log, folder)
    assert main(["report", str(folder), "--out", str(tmp_path / "c")]) == 0
    [generic] = json.loads(
        (tmp_path / "c" / "even_handedness" / "report.json").read_text()
    ).values()
    _same(_figures(generic), _figures(whole))


def test_one_shard_alone_repeated_and_foreign_shards(logs: dict[str, Any], capsys: Any,
                                                     tmp_path: Path) -> None:  # fmt: skip
    one, two = logs["one"], logs["two"]
    assert main(["even-handedness-report", one, "--out", str(tmp_path / "a")]) == 2
    err = capsys.readouterr().err.strip()
    assert "1 of 2 shards of study" in err and "2/2 missing" in err and "\n" not in err
    partial = _report(capsys, tmp_path / "b", one, "--partial")
    assert partial["model"] == "even_sim/target (1 of 2 shards)"
    assert 0 < partial["metrics"]["pairs"] < N
    assert main(["even-handedness-report", one, logs["other"], "--out", str(tmp_path / "c")]) == 2
    assert "shards of different studies do not pool" in capsys.readouterr().err
    argv = ["even-handedness-report", one, two, logs["one_again"], "--out", str(tmp_path / "d")]
    assert main(argv) == 2
    assert "shard 1/2 of study" in capsys.readouterr().err  # given twice
    assert main(["compare", one, logs["whole"], "--json"]) == 2
    assert "1 of 2 shards" in capsys.readouterr().err


def test_compare_pairs_every_pair_with_no_difference(logs: dict[str, Any], capsys: Any) -> None:
    assert main(["compare", logs["whole"], logs["one"], logs["two"], "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert len(doc["runs"]) == 2 and [r["n_items"] for r in doc["runs"]] == [N, N]
    assert {c["metric"] for c in doc["comparisons"]} == {
        "even_handedness", "p_even", "refusal_rate", "hedging_rate", "direction"}  # fmt: skip
    for c in doc["comparisons"]:
        assert c["n_items"] == N and c["delta"] == pytest.approx(0.0, abs=1e-12), c["metric"]
    assert main(["compare", logs["whole"], logs["one"], "--partial", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert any("1 of 2 shards" in r["model"] for r in doc["runs"])


def test_gate_and_plan_read_a_folder_of_shards(logs: dict[str, Any], capsys: Any,
                                               tmp_path: Path) -> None:  # fmt: skip
    from inspect_stance.even_handedness.method import read_gate_run
    from inspect_stance.study.protocol import GateRequest

    folder = tmp_path / "study"
    folder.mkdir()
    for log in (logs["one"], logs["two"]):
        shutil.copy(log, folder)
    whole = json.loads(_plan(capsys, logs["whole"]))
    pooled = json.loads(_plan(capsys, str(folder)))
    _same(pooled, whole)
    assert main(["gate", str(folder), "--min-even-handedness", "0.0", "--json"]) == 0
    gated = json.loads(capsys.readouterr().out)
    assert main(["gate", logs["whole"], "--min-even-handedness", "0.0", "--json"]) == 0
    _same(gated["checks"], json.loads(capsys.readouterr().out)["checks"])
    alone = tmp_path / "alone"
    alone.mkdir()
    shutil.copy(logs["one"], alone)
    with pytest.raises(InputError, match="1 of 2 shards"):
        read_gate_run(str(alone), GateRequest(run=str(alone)))
    run, info = read_gate_run(str(alone), GateRequest(run=str(alone), partial=True))
    assert run.model.endswith("(1 of 2 shards)") and len(run.records) < N


def _plan(capsys: Any, path: str) -> str:
    assert main(["plan", path, "--target-se", "0.05", "--json"]) == 0, capsys.readouterr().err
    return capsys.readouterr().out


def test_runs_df_and_card_pool_the_shards(logs: dict[str, Any], tmp_path: Path) -> None:
    from inspect_stance.analysis import runs_df

    whole = runs_df([logs["whole"]]).iloc[0]
    pooled = runs_df([logs["one"], logs["two"]])
    assert len(pooled) == 1
    row = pooled.iloc[0]
    assert row["shards"] == "2 of 2" and not row["partial"] and row["n_items"] == N
    for key in ("headline_value", "headline_stderr", "ci_lo", "ci_hi"):
        assert row[key] == pytest.approx(whole[key], abs=1e-9), key
    part = runs_df([logs["one"]]).iloc[0]
    assert part["shards"] == "1 of 2" and part["partial"] and part["n_items"] < N
    assert main(["card", logs["one"], logs["two"], "--out", str(tmp_path)]) == 0
    card = json.loads(next(tmp_path.glob("*.json")).read_text())
    entry = card["methods"]["even_handedness"]
    assert entry["value"] == pytest.approx(whole["headline_value"], abs=1e-9)
    assert entry["shards"] == "2 of 2"


def test_inspect_layout_pools_to_the_unsharded_run(logs: dict[str, Any], capsys: Any,
                                                   tmp_path: Path) -> None:  # fmt: skip
    from inspect_stance.shards.layout import log_files

    assert sorted(map(str, log_files(logs["layout"]))) == sorted(logs["layout_logs"])
    whole = _report(capsys, tmp_path / "a", logs["whole"])
    pooled = _report(capsys, tmp_path / "b", str(logs["layout"]))
    _same(_figures(pooled), _figures(whole))
    assert main(["even-handedness-report", logs["layout_logs"][0], "--out",
                 str(tmp_path / "c")]) == 2  # fmt: skip
    assert "1 of 2 shards" in capsys.readouterr().err


def test_shard_command_writes_one_eval_per_shard(capsys: Any) -> None:
    argv = ["shard", "even_handedness", "--shards", "2", "--model", "even_sim/target",
            "--model-role", "graders=even_sim/grader", "-T", "topics=trump"]  # fmt: skip
    assert main(argv) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 2
    assert all(f"-T shard={k}/2" in line and "graders=even_sim/grader" in line
               for k, line in zip((1, 2), lines, strict=True))  # fmt: skip
