"""Inspect's shard layout, written by Inspect's own API: ``study.shards/<k>/`` holding each
worker's attempts at a selection of the task's samples (``eval(..., sample_id=...)``), and a
merged ``study.eval`` beside it (``EvalSpec.shards``). Read as Inspect lists it: the current
attempt of each shard, or the merged log when it covers the shards; the pooled run reports
the unsharded SPR to 1e-9 (the simulated respondent answers each sample by its content)."""

from __future__ import annotations

import json
import os
import time

import pytest
from inspect_ai import eval as inspect_eval
from inspect_ai.log import EvalShardEntry, EvalShards, read_eval_log, write_eval_log
from inspect_stance.tasks.stance_drift import stance_drift

from inspect_stance.cli import main
from inspect_stance.errors import InputError
from inspect_stance.shards.layout import log_files

PROPS = [f"We should fund programme number {i}" for i in range(8)]


def _run(task, log_dir, ids=None):
    (log,) = inspect_eval(task, model="stance_sim/respondent", log_dir=str(log_dir),
                          sample_id=ids, display="none")  # fmt: skip
    assert log.status == "success"
    return log.location


@pytest.fixture(scope="module")
def layout(tmp_path_factory):
    root = tmp_path_factory.mktemp("layout")
    (root / "props.txt").write_text("\n".join(PROPS) + "\n")

    def task():
        return stance_drift(propositions=str(root / "props.txt"), trials=2, cache=False)

    ids = sorted(str(s.id) for s in task().dataset)
    one, two = ids[0::2], ids[1::2]  # splits propositions' initial stances between shards
    whole = _run(task(), root / "whole")
    study = root / "logs" / "study.shards"
    first = _run(task(), study / "1", one)
    _run(task(), study / "2", two[:3])  # an attempt that a retry supersedes
    time.sleep(1.1)  # the retry's file name (its timestamp) sorts after the first attempt's
    second = _run(task(), study / "2", two)
    return {"root": root, "whole": whole, "study": study, "current": [first, second]}


def _spr(capsys, path):
    assert main(["report", str(path), "--json"]) == 0, capsys.readouterr().err
    [run] = json.loads(capsys.readouterr().out)["runs"]
    return run


def test_shard_set_lists_current_attempts_and_pools_to_the_unsharded_run(layout, capsys):
    assert sorted(map(str, log_files(layout["study"]))) == sorted(layout["current"])
    whole = _spr(capsys, layout["whole"])
    pooled = _spr(capsys, layout["study"])
    assert pooled["n_propositions"] == whole["n_propositions"] == 8
    assert abs(pooled["spr"] - whole["spr"]) < 1e-9
    assert abs(_spr(capsys, layout["root"] / "logs")["spr"] - whole["spr"]) < 1e-9


def test_one_shard_folder_alone_is_an_ordinary_log(layout, capsys):
    # a <k>/ given itself lists its logs as ordinary logs (Inspect's rule): two attempts of
    # shard 2, whose samples are a selection; neither is pooled with anything
    assert len(log_files(layout["study"] / "2")) == 2


def test_merged_log_covers_its_shards_until_a_shard_is_retried(layout, capsys):
    first, second = (read_eval_log(p) for p in layout["current"])
    merged = first.model_copy(deep=True)
    merged.samples = [*(first.samples or []), *(second.samples or [])]
    merged.eval.dataset.sample_ids = [s.id for s in merged.samples]
    merged.eval.shards = EvalShards(
        selection="ids",
        ledger=[
            EvalShardEntry(
                shard=k,
                log=os.path.basename(p),
                status="success",
                samples=n,
                selected=n,
                selection_digest="-",
                size=os.path.getsize(p),
            )  # fmt: skip
            for k, p, n in (
                ("1", layout["current"][0], len(first.samples or [])),
                ("2", layout["current"][1], len(second.samples or [])),
            )  # fmt: skip
        ],
    )
    target = layout["study"].parent / "study.eval"
    write_eval_log(merged, str(target))
    assert log_files(layout["study"].parent) == [target]
    whole = _spr(capsys, layout["whole"])
    assert abs(_spr(capsys, layout["study"].parent)["spr"] - whole["spr"]) < 1e-9
    # a shard written after the merge makes the merge stale: the shards are read instead
    later = time.time() + 5
    os.utime(layout["current"][1], (later, later))
    assert sorted(map(str, log_files(layout["study"].parent))) == sorted(layout["current"])
    target.unlink()


def test_a_shard_run_with_another_model_is_refused(layout, tmp_path):
    from inspect_stance.drift.shards import load_folder_run

    study = tmp_path / "other.shards"
    ids = sorted(str(s.id) for s in stance_drift(
        propositions=str(layout["root"] / "props.txt"), trials=2, cache=False).dataset)  # fmt: skip
    for k, part in ((1, ids[:20]), (2, ids[20:])):
        (log,) = inspect_eval(
            stance_drift(propositions=str(layout["root"] / "props.txt"), trials=2, cache=False),
            model="stance_sim/respondent", model_args={"seed": k}, sample_id=part,
            log_dir=str(study / str(k)), display="none",
        )  # fmt: skip
        assert log.status == "success"
    with pytest.raises(InputError, match="different models or generation settings"):
        load_folder_run(study)


def test_inspect_bookkeeping_files_are_not_logs(tmp_path):
    """``logs.json`` and ``eval-set.json`` (written by Inspect's eval sets into a log folder)
    are not logs: a folder lists only its logs, and nothing counts them as unreadable."""
    from inspect_stance.shards.layout import log_files

    (tmp_path / "sub").mkdir()
    for name in ("logs.json", "eval-set.json", "sub/logs.json", "2026-01-01_task_x.eval", "a.json"):
        (tmp_path / name).write_text("{}")
    assert [p.name for p in log_files(tmp_path)] == ["2026-01-01_task_x.eval", "a.json"]
