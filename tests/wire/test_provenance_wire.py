"""Who answered each call, through Inspect's ``openai-api/`` provider: the server reports a
``system_fingerprint`` that changes mid-run (a backend updated behind the same model name);
the log keeps each sample's calls by fingerprint, and the report says the run's calls came
from two fingerprints. Shards answered by different backends say so once pooled."""

from __future__ import annotations

import json

import pytest
from inspect_ai import eval as inspect_eval
from inspect_ai.log import read_eval_log
from inspect_stance.tasks.stance_drift import stance_drift
from wire_support import local_model

from inspect_stance.cli import main
from inspect_stance.provenance import STORE_KEY

PROPS = ["We should ban plain letters", "We should ban paper straws"]
CALLS = len(PROPS) * 5 * 2 * 2  # propositions x initial stances x 2 trials x 2 calls


def script(model: str, body: dict) -> str:
    text = "\n".join(str(m.get("content")) for m in body["messages"])
    return "B" if "ARGUMENT-MARK" in text else "ARGUMENT-MARK: a short argument."


def _run(server, tmp, name, **task):
    props = tmp / "props.txt"
    props.write_text("\n".join(PROPS) + "\n")
    [log] = inspect_eval(
        stance_drift(propositions=str(props), trials=2, words_limit=20, cache=False, **task),
        model=local_model(server, "respondent"),
        log_dir=str(tmp / name),
        display="none",
        max_connections=4,
    )
    assert log.status == "success"
    return log.location


@pytest.fixture(scope="module")
def server(serve):
    return serve(script, models=("respondent",))


def test_fingerprint_changing_mid_run_is_recorded_and_said(server, tmp_path, capsys):
    server.system_fingerprint = lambda index: "fp_old" if index < CALLS // 2 else "fp_new"
    location = _run(server, tmp_path, "changed")
    log = read_eval_log(location)
    entries = [e for s in log.samples for e in s.store[STORE_KEY]]
    by_fp: dict[str, int] = {}
    for e in entries:
        assert e["model"] == "openai-api/local/respondent" and e["returned_model"] == "respondent"
        assert e["role"] is None and e["cached"] is False
        by_fp[e["system_fingerprint"]] = by_fp.get(e["system_fingerprint"], 0) + e["calls"]
    assert by_fp == {"fp_old": CALLS // 2, "fp_new": CALLS // 2}
    assert main(["report", location, "--json"]) == 0
    captured = capsys.readouterr()
    assert "came from 2 system fingerprints" in captured.err
    [run] = json.loads(captured.out)["runs"]
    assert sum(e["calls"] for e in run["provenance"]) == CALLS
    assert len(run["provenance_notes"]) == 1


def test_one_fingerprint_says_nothing_and_shards_of_two_backends_do(server, tmp_path, capsys):
    server.system_fingerprint = "fp_one"
    whole = _run(server, tmp_path, "whole")
    assert main(["report", whole]) == 0
    assert "fingerprint" not in capsys.readouterr().err
    one = _run(server, tmp_path, "shards", shard="1/2")
    server.system_fingerprint = "fp_two"
    two = _run(server, tmp_path, "shards", shard="2/2")
    assert main(["report", one, two]) == 0
    assert "came from 2 system fingerprints (fp_" in capsys.readouterr().err
