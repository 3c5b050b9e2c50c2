"""Hostile shard inputs: more shards than items refused in one line by every task, a bounded
``--shards``, one command per line, an eval-set script that runs with a date-like value, and an
unusable ``--out`` refused before anything is written."""

from __future__ import annotations

import subprocess
import sys

import pytest

from inspect_stance.cli import main
from inspect_stance.errors import InputError
from inspect_stance.shards import Shard, select


def _one_line_error(capsys) -> str:
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and "error:" in err, err
    assert "Traceback" not in err and "Error:" not in err.split("error:", 1)[1], err
    return err


def test_more_shards_than_items_is_refused():
    with pytest.raises(InputError, match="at most 3 shards"):
        select(["a", "b", "c"], str, Shard(1, 4))
    assert len(select(["a", "b", "c"], str, Shard(3, 3))) == 1


@pytest.mark.parametrize(
    ("task", "args"),
    [
        ("stance_drift", {"limit_propositions": 2}),
        ("press", {}),
        ("prompt_construction", {"topics": "1003"}),
        ("even_handedness", {"limit": 2}),
        ("pushback", {"limit_propositions": 2}),
    ],
)
def test_every_task_refuses_more_shards_than_items(task, args):
    import importlib

    fn = getattr(importlib.import_module(f"inspect_stance.tasks.{task}"), task)
    with pytest.raises(InputError, match="shards"):
        fn(**args, shard="1/100000")


@pytest.mark.parametrize("n", ["1000000000", "1000000"])
def test_a_huge_shard_count_is_refused_at_once(capsys, n):
    assert main(["shard", "stance_drift", "--shards", n, "--model", "a/b"]) == 2
    assert "at most" in _one_line_error(capsys)


@pytest.mark.parametrize(
    "extra",
    [["--model", "a/b\n::warning::x"], ["--model", "a/b", "-T", "propositions=\"x\\ny\""],
     ["--model", "a/b", "--model-role", "relay=c/d\re"]],
)  # fmt: skip
def test_a_value_with_a_line_break_is_refused(capsys, extra):
    assert main(["shard", "stance_drift", "--shards", "2", *extra]) == 2
    assert "control character" in _one_line_error(capsys)


def test_commands_are_one_per_line(capsys):
    argv = ["shard", "stance_drift", "--shards", "3", "--model", "a/b", "-T", "limit_propositions=3",
            "-T", "propositions=a b.csv"]  # fmt: skip
    assert main(argv) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    assert len(lines) == 3 and all(line.startswith("inspect eval ") for line in lines)


def test_the_eval_set_script_runs_with_a_date_like_value(tmp_path, capsys):
    out = tmp_path / "job.py"
    argv = ["shard", "stance_drift", "--shards", "2", "--model", "stance_sim/respondent",
            "-T", "propositions=2024-01-01", "--format", "eval-set", "--out", str(out)]  # fmt: skip
    assert main(argv) == 0
    code = out.read_text()
    compile(code, str(out), "exec")
    # the module's ARGS evaluate without NameError (the date is its text, as inspect eval -T)
    namespace: dict = {}
    exec(code.split('if __name__ == "__main__":')[0].replace("from inspect_ai import eval_set", ""),
         namespace)  # fmt: skip
    assert namespace["ARGS"] == {"propositions": "2024-01-01"}


@pytest.mark.parametrize("where", ["folder", "missing", "file-parent"])
def test_an_unusable_out_is_refused(tmp_path, capsys, where):
    (tmp_path / "f").write_text("x")
    out = {"folder": tmp_path, "missing": tmp_path / "no" / "job.py",
           "file-parent": tmp_path / "f" / "job.py"}[where]  # fmt: skip
    assert (
        main(["shard", "stance_drift", "--shards", "2", "--model", "a/b", "--out", str(out)]) == 2
    )
    _one_line_error(capsys)


def test_an_unwritable_out_is_refused(tmp_path, capsys):
    import os

    if os.geteuid() == 0:
        pytest.skip("root writes anywhere")
    d = tmp_path / "ro"
    d.mkdir()
    d.chmod(0o500)
    assert (
        main(["shard", "stance_drift", "--shards", "2", "--model", "a/b", "--out", str(d / "j.py")])
        == 2
    )
    _one_line_error(capsys)


def test_the_script_imports_cleanly_in_a_fresh_interpreter(tmp_path):
    out = tmp_path / "job.py"
    argv = ["shard", "even_handedness", "--shards", "2", "--model", "even_sim/target",
            "-T", "limit=4", "--model-role", "graders=even_sim/grader", "--format", "eval-set",
            "--out", str(out)]  # fmt: skip
    assert main(argv) == 0
    r = subprocess.run([sys.executable, "-c", f"import runpy; runpy.run_path({str(out)!r})"],
                       capture_output=True, text=True, timeout=120)  # fmt: skip
    assert r.returncode == 0, r.stderr[-2000:]


@pytest.mark.parametrize("arg", ["hops=1000000", "trials=100000000", "limit_propositions=5000"])
def test_a_shard_job_of_a_huge_size_is_refused(capsys, arg):
    assert main(["shard", "stance_drift", "--shards", "2", "--model", "a/b", "-T", arg]) == 2
    assert "at most" in _one_line_error(capsys)


def test_a_shard_job_the_task_would_refuse_is_refused_before_it_is_written():
    from inspect_stance.shards.jobs import make_job

    with pytest.raises(InputError, match="27 pairs matching the filters"):
        make_job("even_handedness", 2, "m", {"topics": "trump", "limit": 1000})
    with pytest.raises(InputError, match="styles"):
        make_job("pushback", 2, "m", {"styles": "shouting"})
    assert make_job("even_handedness", 2, "m", {"topics": "trump", "limit": 10}).n == 2
