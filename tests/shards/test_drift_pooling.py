"""Shards 1/2 and 2/2 of a 20-proposition stance-drift study pool into the unsharded run.

The simulator with logprobs (its default) returns each extraction's probabilities exactly, so
the unsharded and the pooled run must agree to floating-point order.
"""

from __future__ import annotations

import numpy as np
import pytest
from inspect_ai import eval as inspect_eval
from inspect_stance.tasks.stance_drift import stance_drift

from inspect_stance.drift.compare import LoadedDrift, compare_drift, select_metrics
from inspect_stance.drift.logs import read_drift_log
from inspect_stance.drift.report.analysis import build_report
from inspect_stance.drift.shards import pool_drift_runs, pool_shards
from inspect_stance.errors import InputError
from inspect_stance.runs import log_info

PROPS = [f"We should adopt policy number {i}" for i in range(20)]


@pytest.fixture(scope="module")
def logs(tmp_path_factory):
    root = tmp_path_factory.mktemp("shards")
    path = root / "props.txt"
    path.write_text("\n".join(PROPS) + "\n")
    reordered = root / "reordered.txt"
    reordered.write_text("\n".join(reversed(PROPS)) + "\n")
    common = {"trials": 2, "cache": False}
    tasks = [
        stance_drift(propositions=str(path), **common),
        stance_drift(propositions=str(path), shard="1/2", **common),
        stance_drift(propositions=str(reordered), shard="2/2", **common),
        stance_drift(propositions=str(path), shard="2/2", words_limit=50, **common),
    ]
    out = inspect_eval(
        tasks, model="stance_sim/respondent", log_dir=str(root / "logs"), display="none"
    )
    assert all(x.status == "success" for x in out)
    return [x.location for x in out]


def test_pooled_shards_report_the_unsharded_spr(logs):
    whole, one, two, _ = (read_drift_log(p) for p in logs)
    assert one.shard is not None and one.n_propositions + two.n_propositions == 20
    [pooled] = pool_drift_runs([one, two])
    assert pooled.n_propositions == 20 and pooled.shard is None
    assert sorted(pooled.propositions) == sorted(whole.propositions)
    a = build_report(whole).main
    b = build_report(pooled).main
    assert abs(a.spr - b.spr) < 1e-9
    order = [pooled.propositions.index(p) for p in whole.propositions]
    np.testing.assert_allclose(pooled.probs[order], whole.probs, atol=1e-12)


def test_compare_pairs_twenty_items_against_the_unsharded_run(logs):
    whole, one, two, _ = (read_drift_log(p) for p in logs)
    [pooled] = pool_shards([two, one])
    loaded = [LoadedDrift(whole, log_info(logs[0])), LoadedDrift(pooled, log_info(logs[1]))]
    result = compare_drift(loaded, ["whole", "pooled"], select_metrics(["spr"]))
    [comp] = result.comparisons
    assert comp.n_items == 20
    assert abs(comp.delta) < 1e-9


def test_one_shard_alone_says_the_other_is_missing(logs):
    one = read_drift_log(logs[1])
    with pytest.raises(InputError, match="1 of 2 shards .*2/2 missing.*--partial"):
        pool_drift_runs([one])
    [partial] = pool_drift_runs([one], partial=True)
    assert "1 of 2 shards" in partial.name and partial.n_propositions == one.n_propositions


def test_overlapping_and_foreign_shards_are_refused(logs):
    whole, one, two, other = (read_drift_log(p) for p in logs)
    with pytest.raises(InputError, match="given twice"):
        pool_drift_runs([one, one, two])
    with pytest.raises(InputError, match="different studies"):
        pool_drift_runs([one, other])  # shard 2/2 of a study with another words_limit
    assert pool_drift_runs([whole]) == [whole]


def test_report_command_pools_the_shards(logs, capsys):
    import json

    from inspect_stance.cli import main

    assert main(["report", logs[0], "--json"]) == 0
    whole = json.loads(capsys.readouterr().out)["runs"][0]
    assert main(["report", logs[1], logs[2], "--json"]) == 0
    [pooled] = json.loads(capsys.readouterr().out)["runs"]
    assert pooled["n_propositions"] == 20
    assert abs(pooled["spr"] - whole["spr"]) < 1e-9
    assert main(["report", logs[1]]) != 0
    assert "1 of 2 shards of study" in capsys.readouterr().err
    assert main(["report", logs[1], "--partial", "--json"]) == 0
    assert "1 of 2 shards" in capsys.readouterr().out


def test_gate_and_plan_take_a_folder_of_one_studys_shards(logs, capsys, tmp_path):
    import json
    import shutil

    from inspect_stance.cli import main

    folder = tmp_path / "study"
    folder.mkdir()
    for log in logs[1:3]:
        shutil.copy(log, folder)
    whole = read_drift_log(logs[0])
    spr = build_report(whole).main.spr
    assert main(["gate", str(folder), "--min-spr", "0.0", "--json"]) == 0
    gated = json.loads(capsys.readouterr().out)
    assert gated["n_propositions"] == 20 and abs(gated["spr"] - spr) < 1e-9
    assert main(["plan", str(folder), "--json"]) == 0
    pooled = json.loads(capsys.readouterr().out)
    assert main(["plan", logs[0], "--json"]) == 0
    alone = json.loads(capsys.readouterr().out)
    assert pooled["runs"][0]["propositions"] == alone["runs"][0]["propositions"] == 20
    shutil.copy(logs[3], folder)  # a shard of another study: the folder is not one run
    assert main(["gate", str(folder), "--min-spr", "0.0"]) != 0
    assert "different studies" in capsys.readouterr().err


def test_an_unfinished_attempt_superseded_by_a_finished_one_is_left_out(logs, tmp_path, capsys):
    """A shard killed or failed and run again: its first attempt (not ``success``) gives way
    to the finished one, and says so; two finished attempts of one shard are still refused."""
    path = tmp_path / "props.txt"
    path.write_text("\n".join(PROPS) + "\n")
    [failed] = inspect_eval(
        stance_drift(propositions=str(path), shard="1/2", trials=2, cache=False),
        model="stance_sim/respondent", model_args={"fail_after": 3},
        log_dir=str(tmp_path / "logs"), display="none",
    )  # fmt: skip
    assert failed.status != "success"
    whole, one, two = (read_drift_log(p) for p in logs[:3])
    [pooled] = pool_drift_runs([read_drift_log(failed.location), one, two])
    assert "left out" in capsys.readouterr().err
    assert abs(build_report(pooled).main.spr - build_report(whole).main.spr) < 1e-9
    with pytest.raises(InputError, match="given twice"):
        pool_drift_runs([one, one, two])


def test_compare_command_pools_the_shards_and_partial_reaches_the_reader(logs, capsys):
    """``compare`` reads runs through the stance-drift comparer (``drift.compare.read_runs``):
    the two shards are one run of 20 propositions with the unsharded run's SPR; one shard alone
    is refused, and with ``--partial`` (``CompareRequest.partial``) is a run of its 10."""
    import json

    from inspect_stance.cli import main

    assert main(["compare", logs[0], logs[1], logs[2], "--metric", "spr", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert [r["n_items"] for r in out["runs"]] == [20, 20]
    [row] = out["comparisons"]
    assert abs(row["a"] - row["b"]) < 1e-9 and abs(row["delta"]) < 1e-9
    assert main(["compare", logs[0], logs[1]]) != 0
    assert "shard(s) 2/2 missing" in capsys.readouterr().err
    assert main(["compare", logs[0], logs[1], "--partial", "--metric", "spr", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert [r["n_items"] for r in out["runs"]] == [20, 10]


def test_gate_and_plan_on_one_shard_need_partial(logs, capsys):
    import json

    from inspect_stance.cli import main

    one = logs[1]
    for argv in (["gate", one, "--min-spr", "0.0"], ["plan", one]):
        assert main(argv) == 2
        err = capsys.readouterr().err.strip()
        assert "1 of 2 shards of study" in err and "2/2 missing" in err and "--partial" in err
        assert "\n" not in err
    n = read_drift_log(one).n_propositions
    assert main(["gate", one, "--min-spr", "0.0", "--partial", "--json"]) == 0
    gated = json.loads(capsys.readouterr().out)
    assert gated["n_propositions"] == n < 20 and "(1 of 2 shards)" in gated["run"]
    assert main(["plan", one, "--partial", "--json"]) == 0
    planned = json.loads(capsys.readouterr().out)
    assert planned["runs"][0]["propositions"] == n
