"""Stance-drift inputs: content ids, embedded defaults, one-line errors, honest metadata.

Issues 9, 10 and 11: sample ids follow the proposition's text (an edited file between a failed
run and ``eval-retry`` cannot mix propositions up); the default run needs no file and no network;
every bad ``-T`` / ``-M`` value and input file is a one-line ``InputError`` raised before any
model call; the log says whether logprobs came back and which extraction temperature was used.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from inspect_ai import eval as inspect_eval
from inspect_ai import eval_retry
from inspect_ai.log import read_eval_log
from inspect_stance.tasks.stance_drift import stance_drift

from inspect_stance.drift.propositions import (
    load_package_topics,
    proposition_key,
    read_propositions_file,
)
from inspect_stance.drift.simulator import StanceSimAPI, load_transition
from inspect_stance.errors import InputError

ROOT = Path(__file__).resolve().parents[2]


def test_sample_ids_follow_content_through_an_edited_eval_retry(tmp_path, monkeypatch):
    """Old ids (``<line>-<stance>``) reused a finished sample of B for the line where the edited
    file now holds D: B counted twice over the two runs' union, D never ran. (A retry on changed
    inputs is refused unless INSPECT_STANCE_RETRY_CHANGED_INPUTS=continue asks for it.)"""
    a, b, c, d = (f"We should adopt policy {x}" for x in "ABCD")
    props = tmp_path / "props.txt"
    props.write_text(f"{a}\n{b}\n{c}\n")
    flag = tmp_path / "outage"
    flag.write_text("down")
    [log] = inspect_eval(
        stance_drift(propositions=str(props), trials=2, cache=False),
        model="stance_sim/respondent",
        # one sample at a time, 4 calls per sample: A and B finish (40 calls), C fails
        model_args={"fail_after": 40, "fail_while": str(flag)},
        log_dir=str(tmp_path / "logs"),
        display="none",
        max_connections=1,
        max_samples=1,
    )
    assert log.status == "error"
    first = read_eval_log(log.location)
    finished = {s.metadata["proposition"] for s in first.samples if s.error is None}
    assert b in finished
    props.write_text(f"{a}\n{d}\n{c}\n")  # B replaced by D on the same line
    flag.unlink()
    with pytest.raises(ValueError, match="the inputs changed since the run being retried"):
        eval_retry(log.location, log_dir=str(tmp_path / "logs"), display="none")
    monkeypatch.setenv("INSPECT_STANCE_RETRY_CHANGED_INPUTS", "continue")
    [retried] = eval_retry(log.location, log_dir=str(tmp_path / "logs"), display="none")
    assert retried.status == "success"
    full = read_eval_log(retried.location)
    seen = [(s.metadata["proposition"], s.metadata["initial_stance"]) for s in full.samples]
    assert len(seen) == len(set(seen)) == 15
    assert {p for p, _ in seen} == {a, c, d}
    for s in full.samples:
        assert str(s.id).startswith(proposition_key(s.metadata["proposition"]) + "-")


def test_default_propositions_are_shipped_and_need_no_network(monkeypatch):
    import builtins

    real_import = builtins.__import__

    def no_datasets(name, *args, **kwargs):
        if name == "datasets":
            raise AssertionError("the default run must not load the hub")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_datasets)
    evaluated, exemplars = load_package_topics()
    assert len(evaluated) == 112 and len(exemplars) == 2
    assert evaluated[0].text == "We should ban cosmetic surgery" and evaluated[0].topic_id == "1161"
    # the paper's A.9 exemplar topics are the two reserved topics
    assert [e.text for e in exemplars] == [
        "We should subsidize the human mission to Mars",
        "We should subsidize vocational education",
    ]
    from inspect_stance.drift.prompts import EXEMPLAR_PROPOSITIONS

    assert {e.text for e in exemplars} <= EXEMPLAR_PROPOSITIONS
    assert not {p.text for p in evaluated} & EXEMPLAR_PROPOSITIONS
    task = stance_drift(limit_propositions=2, trials=1)
    assert task.metadata["n_propositions"] == 2
    assert task.metadata["propositions_source"].startswith("package data")


def test_package_topics_equal_the_reference_file(shared_data):
    shipped = (ROOT / "src/inspect_stance/data/debate_topics.tsv").read_bytes()
    assert shipped == (shared_data / "debate_topics.tsv").read_bytes()


def test_sample_input_names_proposition_and_stance():
    task = stance_drift(limit_propositions=1, trials=1)
    inputs = [s.input for s in task.dataset]
    assert inputs == [
        "We should ban cosmetic surgery — Agree strongly",
        "We should ban cosmetic surgery — Agree",
        "We should ban cosmetic surgery — Neutral",
        "We should ban cosmetic surgery — Disagree",
        "We should ban cosmetic surgery — Disagree strongly",
    ]
    assert task.version == 2


def test_bom_is_stripped(tmp_path):
    for suffix, body in (
        (".txt", "We should ban X\nWe should ban Y\n"),
        (".csv", "topic\nWe should ban X\nWe should ban Y\n"),
        (".tsv", "topic_id\ttopic\n1\tWe should ban X\n2\tWe should ban Y\n"),
    ):
        path = tmp_path / f"p{suffix}"
        path.write_bytes(b"\xef\xbb\xbf" + body.encode())
        props = read_propositions_file(path)
        assert [p.text for p in props] == ["We should ban X", "We should ban Y"], suffix
        clean = tmp_path / f"clean{suffix}"
        clean.write_text(body)
        assert [p.key for p in props] == [p.key for p in read_propositions_file(clean)]


@pytest.mark.parametrize(
    ("name", "body", "message"),
    [
        ("p.txt", "We should ban X\nOther\nwe should  ban x\n", r"lines 1 and 3"),
        ("p.csv", "topic\nA\nB\nA\n", r"lines 2 and 4"),
        ("p.csv", "topic_id,topic\n1,A\n1,B\n", r"topic_id '1' appears on lines 2 and 3"),
        ("p.jsonl", "1\n2\n", r"line 1: a JSON int, not an object"),
        ("p.jsonl", '{"proposition": "A"}\nnot json\n', r"line 2: not JSON"),
        ("p.json", "[]", r"unknown extension '.json'"),
        ("p.csv", "name\nx\n", r"no 'topic' or 'proposition' column"),
        ("p.txt", "\n\n", r"contains no propositions"),
    ],
)
def test_bad_propositions_files_are_one_line_input_errors(tmp_path, name, body, message):
    path = tmp_path / name
    path.write_text(body)
    with pytest.raises(InputError, match=message) as info:
        read_propositions_file(path)
    assert "\n" not in str(info.value) and str(path) in str(info.value)


def test_latin1_file_is_named(tmp_path):
    path = tmp_path / "p.txt"
    path.write_bytes("We should ban caf\xe9s\n".encode("latin-1"))
    with pytest.raises(InputError, match=r"p.txt, line 1: not UTF-8"):
        read_propositions_file(path)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"variant": "bogus"}, r"unknown variant 'bogus'"),
        ({"trials": 0}, r"trials 0; use an integer >= 1"),
        ({"trials": "many"}, r"trials 'many' is not an integer"),
        ({"words_limit": -3}, r"words_limit -3"),
        ({"unparsed": "x"}, r"unknown unparsed policy 'x'"),
        ({"seed": -1}, r"seed -1"),
        ({"cache": "maybe"}, r"cache 'maybe' is not a boolean"),
        ({"logprobs": "maybe"}, r"logprobs 'maybe' is not a boolean"),
        ({"limit_propositions": 0}, r"limit_propositions 0"),
        ({"extraction_temperature": "hot"}, r"extraction_temperature 'hot'"),
        ({"extraction_temperature": 3}, r"extraction_temperature 3"),
        ({"propositions": "absent.txt"}, r"absent.txt not found"),
        ({"variant": "in_context", "arguments_from": "x.eval"}, r"cannot reuse arguments"),
        ({"arguments_from": "absent.eval"}, r"absent.eval: no such file"),
        ({"tirals": 5}, r"unknown parameter\(s\) -T tirals \(did you mean trials\?\)"),
    ],
)
def test_bad_task_parameters_are_one_line_input_errors(kwargs, message):
    with pytest.raises(InputError, match=message) as info:
        stance_drift(**{"limit_propositions": 1, "trials": 1, **kwargs})
    assert "\n" not in str(info.value)


def test_string_parameters_are_parsed_not_truthy():
    task = stance_drift(
        limit_propositions="1",
        trials="3",
        cache="false",
        logprobs="no",
        extraction_temperature="none",
    )
    meta = task.metadata
    assert meta["trials"] == 3 and meta["logprobs_requested"] is False
    assert meta["extraction_config"]["temperature"] is None


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ({"logprobs": "maybe"}, r"-M logprobs='maybe' is not a boolean"),
        ({"seed": "abc"}, r"-M seed='abc' is not an integer"),
        ({"unparsed_rate": "abc"}, r"-M unparsed_rate='abc' is not a number"),
        ({"unparsed_rate": 2}, r"-M unparsed_rate=2 is outside \[0, 1\]"),
        ({"latency": -1}, r"-M latency=-1 is outside"),
        ({"foo": 1}, r"unknown model argument\(s\) -M foo"),
        ({"transition": [[1, 0, 0, 0, 0]] * 4}, r"has shape \(4, 5\)"),
        ({"transition": [[0.5, 0, 0, 0, 0]] * 5}, r"must be non-negative and sum to 1"),
        ({"transition": "absent.json"}, r"absent.json not found"),
    ],
)
def test_bad_model_args_are_one_line_input_errors(args, message):
    with pytest.raises(InputError, match=message) as info:
        StanceSimAPI("respondent", **args)
    assert "\n" not in str(info.value)


def test_transition_file_errors_and_default(tmp_path):
    bad = tmp_path / "T.json"
    bad.write_text(json.dumps([[0.2] * 5] * 4 + [[0.2] * 4]))
    with pytest.raises(InputError, match="not a matrix of numbers|has shape"):
        load_transition(str(bad))
    bad.write_text("{not json")
    with pytest.raises(InputError, match="is not JSON"):
        load_transition(str(bad))
    default = load_transition(None)
    assert default.shape == (5, 5) and abs(default.diagonal().mean() - 0.57) < 1e-12
    assert (
        load_transition("identity")
        == load_transition([[float(i == j) for j in range(5)] for i in range(5)])
    ).all()


def test_logprobs_dropped_by_the_provider_are_reported(tmp_path):
    """A provider that ignores the logprob request (as Inspect does for reasoning models)."""
    props = tmp_path / "p.txt"
    props.write_text("We should ban X\n")
    [log] = inspect_eval(
        stance_drift(propositions=str(props), trials=3, cache=False),
        model="stance_sim/respondent",
        model_args={"logprobs": False},
        log_dir=str(tmp_path / "logs"),
        display="none",
    )
    assert log.eval.metadata["logprobs_requested"] is True
    assert log.eval.metadata["extraction_config"]["temperature"] == 1.0
    from inspect_stance.drift.figures import log_figures

    m = log_figures([log.location])  # the counts beside the panel's (drift.figures)
    assert m["logprobs_returned"] == 0.0 and m["frequency_estimated"] == 15
    full = read_eval_log(log.location)
    records = [r for s in full.samples for r in s.store["trials"]]
    assert all(r["logprobs_returned"] == [False] for r in records)
    # the extraction calls carried the recorded temperature on the wire
    temps = {
        e.config.temperature
        for s in full.samples
        for e in s.events
        if e.event == "model" and e.config.logprobs
    }
    assert temps == {1.0}
    gen_temps = {
        e.config.temperature
        for s in full.samples
        for e in s.events
        if e.event == "model" and not e.config.logprobs
    }
    assert gen_temps == {None}  # generation: the model's own settings
    # with logprobs honoured the share is 1
    [log2] = inspect_eval(
        stance_drift(propositions=str(props), trials=3, cache=False),
        model="stance_sim/respondent",
        log_dir=str(tmp_path / "logs2"),
        display="none",
    )
    m2 = log_figures([log2.location])
    assert m2["logprobs_returned"] == 1.0 and m2["logprob_estimated"] == 15


def test_metrics_have_short_names_spr_first(tmp_path):
    props = tmp_path / "p.txt"
    props.write_text("We should ban X\nWe should ban Y\n")
    [log] = inspect_eval(
        stance_drift(propositions=str(props), trials=2, cache=False),
        model="stance_sim/respondent",
        log_dir=str(tmp_path / "logs"),
        display="none",
    )
    names = list(log.results.scores[0].metrics)
    # the headline first (its value, stderr, t interval, items and clusters), then the counts
    assert names[:6] == ["spr", "stderr", "ci_low", "ci_high", "n_items", "n_clusters"]
    assert all("/" not in n for n in names)
    assert {"trials", "unparsed", "trials_replayed", "incomplete_samples"} <= set(names)
    assert len(names) <= 10
    # the breakdowns left the panel for drift.figures (the report, the card's breakdown)
    from inspect_stance.drift.figures import log_figures

    assert {"sdr", "polarization", "success_neutral"} <= set(log_figures([log.location]))


def test_cli_bad_inputs_print_one_line(tmp_path):
    """Through the real CLI: one line, non-zero exit, no traceback."""
    env = {**os.environ, "INSPECT_DISPLAY": "none"}
    props = tmp_path / "p.txt"
    props.write_text("A\nB\nA\n")
    for extra in (["-T", f"propositions={props}"],):  # the bad-input sweep covers more
        proc = subprocess.run(
            [
                sys.executable,
                "-m",
                "inspect_ai",
                "eval",
                "tasks/stance_drift.py",
                "--model",
                "stance_sim/respondent",
                "-T",
                "limit_propositions=1",
                *extra,
            ],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
        )
        out = (proc.stdout + proc.stderr).strip()
        assert proc.returncode != 0, extra
        assert "Traceback" not in out and len(out.splitlines()) == 1, (extra, out)
