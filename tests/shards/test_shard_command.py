"""``inspect-stance shard``: the definitions it writes run, and their shards pool into one study."""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys

import pytest
import yaml

from inspect_stance.cli import main

SIM = ["stance_drift", "--model", "stance_sim/respondent", "-T", "limit_propositions=4",
       "-T", "trials=2", "-T", "cache=false"]  # fmt: skip


def _report(capsys, folder):
    assert main(["report", str(folder), "--json"]) == 0, capsys.readouterr().err
    return json.loads(capsys.readouterr().out)["runs"]


@pytest.mark.slow
def test_commands_run_as_separate_processes_and_pool(tmp_path, capsys):
    logs = tmp_path / "logs"
    assert main(["shard", *SIM, "--shards", "2", "--log-dir", str(logs)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 2 and "-T shard=1/2" in lines[0] and "-T shard=2/2" in lines[1]
    env = {**os.environ, "INSPECT_DISPLAY": "none"}
    procs = [subprocess.Popen(shlex.split(line), env=env, cwd=tmp_path) for line in lines]
    assert [p.wait(timeout=300) for p in procs] == [0, 0]
    [run] = _report(capsys, logs)
    assert run["n_propositions"] == 4


@pytest.mark.slow
def test_eval_set_script_runs_and_pools(tmp_path, capsys):
    script = tmp_path / "study.py"
    logs = tmp_path / "logs"
    argv = ["shard", *SIM, "--shards", "2", "--format", "eval-set", "--log-dir", str(logs)]
    assert main([*argv, "--out", str(script)]) == 0
    capsys.readouterr()
    env = {**os.environ, "INSPECT_DISPLAY": "none"}
    subprocess.run([sys.executable, str(script)], check=True, env=env, cwd=tmp_path, timeout=300)
    [run] = _report(capsys, logs)
    assert run["n_propositions"] == 4


def test_hawk_config_lists_every_shard_and_role(capsys):
    argv = ["shard", "prompt_construction", "--shards", "3", "--model", "openai/gpt-4o-mini",
            "--model-role", "judges=a/x", "--model-role", "prompter=b/y", "--format", "hawk",
            "-T", "templates_per_setting=2"]  # fmt: skip
    assert main(argv) == 0
    config = yaml.safe_load(capsys.readouterr().out)
    [tasks] = config["tasks"]
    assert [i["args"]["shard"] for i in tasks["items"]] == ["1/3", "2/3", "3/3"]
    assert all(i["args"]["templates_per_setting"] == 2 for i in tasks["items"])
    assert config["models"][0]["items"] == [{"name": "openai/gpt-4o-mini"}]
    assert config["model_roles"]["judges"]["items"] == [{"name": "a/x"}]
    assert config["model_roles"]["prompter"]["items"] == [{"name": "b/y"}]
    # Hawk binds one model per role: several judges are refused in the hawk form
    assert main([*argv[:-4], "--model-role", "judges=a/x,b/y", "--format", "hawk"]) == 2
    assert "one model per role" in capsys.readouterr().err


@pytest.mark.parametrize(
    "argv, message",
    [
        (["inspect_evals/mask", "--shards", "2", "--model", "m/x"], "does not take -T shard"),
        (["press", "--shards", "0", "--model", "m/x"], "--shards 0"),
        (["press", "--shards", "2", "--model", "m/x", "-T", "shard=1/2"], "set by the job"),
        (["press", "--shards", "2", "--model", "m/x", "-T", "bogus=1"], "-T bogus"),
        (["press", "--shards", "2", "--model", "m/x", "-T", "trials"], "NAME=VALUE"),
        (["press", "--shards", "2", "--model", "m/x", "--model-role", "arguer"], "ROLE=MODEL"),
    ],
)
def test_bad_arguments_are_one_line_errors(argv, message, capsys):
    assert main(["shard", *argv]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1
