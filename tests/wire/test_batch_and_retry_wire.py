"""At scale on the wire: ``--batch`` (Files + Batches API), transient 429s, and ``eval-retry``.

- ``--batch``: Inspect's ``openai/`` provider (the one with a batcher; ``openai-api/`` sends every
  call on its own) uploads JSONL files and creates batches on the local server; the logprobs
  come back through the batch output file, and each stored vector equals the one recomputed
  from the batched response.
- Rate limits: 429s for some calls are retried by Inspect; nothing is lost and no call is
  answered twice (counted on the server).
- A provider error mid-run (500s for one proposition's extraction calls, ``--max-retries 0``,
  ``--continue-on-fail``) followed by ``inspect eval-retry``: the finished samples are kept,
  the failed sample's finished generation calls come back from the trial record (`-T cache=true`), and the
  server answers every needed call exactly once over both runs.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

import pytest
from inspect_ai import eval as inspect_eval
from inspect_ai.log import list_eval_logs, read_eval_log
from inspect_ai.model import BatchConfig, GenerateConfig, get_model
from inspect_stance.tasks.stance_drift import stance_drift
from openai_server import Fault
from wire_support import API_KEY, cli_env, letter_vector, local_model

ROOT = Path(__file__).resolve().parents[2]
GEN_MARK = "WIRE-ARGUMENT"


def answer_script(model: str, body: dict) -> str:
    text = "\n".join(str(m.get("content")) for m in body["messages"])
    if GEN_MARK in text:
        return "The answer is B."
    return f"{GEN_MARK}: an argument of a few words."


def is_extraction(body: dict) -> bool:
    return GEN_MARK in str(body.get("messages"))


def test_batch_end_to_end_with_logprobs(serve, tmp_path):
    server = serve(answer_script, models=("gpt-4o-mini",), batch_polls=1)
    props = tmp_path / "p.txt"
    props.write_text("We should ban school uniforms\n")
    model = get_model(
        "openai/gpt-4o-mini",
        base_url=server.base_url,
        api_key=API_KEY,
        memoize=False,
        config=GenerateConfig(max_retries=2, timeout=60),
    )
    [log] = inspect_eval(
        stance_drift(propositions=str(props), trials=2, words_limit=20, cache=False),
        model=model,
        batch=BatchConfig(size=10, send_delay=2, tick=0.2),
        log_dir=str(tmp_path / "logs"),
        display="none",
    )
    assert log.status == "success", log.error
    # 5 stances x 2 trials: one batch of 10 generations, then one of 10 extractions
    assert len(server.batches) == 2
    sizes = sorted(
        len(server.file_data[b["input_file_id"]].splitlines()) for b in server.batches.values()
    )
    assert sizes == [10, 10]
    assert all(b["status"] == "completed" for b in server.batches.values())
    requests = server.chat_requests("gpt-4o-mini")
    assert len(requests) == 20 and {r.via for r in requests} == {"batch"}
    extraction = [r for r in requests if is_extraction(r.body)]
    assert len(extraction) == 10
    assert all(r.body["logprobs"] is True and r.body["top_logprobs"] >= 5 for r in extraction)
    expected = letter_vector(extraction[0].response["choices"][0]["logprobs"]["content"], "B")
    full = read_eval_log(log.location)
    records = [r for s in full.samples for r in s.store["trials"]]
    assert len(records) == 10
    for rec in records:
        assert rec["estimator"] == "logprobs"  # logprobs came back through the batch output
        assert rec["probs"] == pytest.approx(expected, abs=1e-12)  # default order: A..E


def test_rate_limits_are_retried_and_no_call_is_answered_twice(serve, tmp_path):
    server = serve(answer_script, models=("respondent",))
    limited: list[int] = []

    def rate_limit(index: int, model: str, body: dict) -> Fault | None:
        if is_extraction(body) and len(limited) < 3:
            limited.append(index)
            return Fault(429, "Rate limit reached for requests", "requests")
        return None

    server.fault = rate_limit
    props = tmp_path / "p.txt"
    props.write_text("We should ban school uniforms\n")
    [log] = inspect_eval(
        stance_drift(propositions=str(props), trials=2, words_limit=20, cache=False),
        model=local_model(server, "respondent", max_retries=3),
        log_dir=str(tmp_path / "logs"),
        display="none",
    )
    assert log.status == "success", log.error
    assert len(server.chat_requests("respondent", status=429)) == 3
    assert len(server.chat_requests("respondent")) == 20  # 10 trials x 2 calls, each once
    full = read_eval_log(log.location)
    assert sum(len(s.store["trials"]) for s in full.samples) == 10


def _inspect(*args: str, env: dict[str, str], cwd: Path) -> subprocess.CompletedProcess:
    inspect_cli = Path(sys.executable).with_name("inspect")
    return subprocess.run(
        [str(inspect_cli), *args], env=env, cwd=cwd, capture_output=True, text=True, timeout=300
    )


@pytest.mark.slow  # two `inspect` CLI processes (~10 s idle, 35 s on a busy 2-core machine)
def test_provider_errors_then_eval_retry_lose_and_repay_nothing(serve, tmp_path):
    server = serve(answer_script, models=("respondent",))
    failing = "We should ban loud leaf blowers"
    props = tmp_path / "p.txt"
    props.write_text(f"We should ban school uniforms\n{failing}\n")

    def server_error(index: int, model: str, body: dict) -> Fault | None:
        # every extraction of one proposition fails; answered late so that the sample's other
        # calls finish first (what a real outage looks like to the finished trials)
        if is_extraction(body) and failing in str(body["messages"]):
            return Fault(500, "The server had an error while processing your request.", delay=0.5)
        return None

    server.fault = server_error
    logs = tmp_path / "logs"
    env = cli_env(server, INSPECT_CACHE_DIR=str(tmp_path / "cache"))
    first = _inspect(
        "eval",
        "tasks/stance_drift.py",
        "--model",
        "openai-api/local/respondent",
        "-T",
        f"propositions={props}",
        "-T",
        "trials=2",
        "-T",
        "words_limit=20",
        "--max-retries",
        "0",
        "--continue-on-fail",
        "--log-dir",
        str(logs),
        env=env,
        cwd=ROOT,
    )
    [info] = list_eval_logs(str(logs))
    log = read_eval_log(info.name, header_only=True)
    assert log.status == "error", first.stdout + first.stderr
    ok_first = server.chat_requests("respondent")
    failed = server.chat_requests("respondent", status=500)
    assert failed and all(failing in str(r.body["messages"]) for r in failed)
    # finished: 5 samples x 2 trials x 2 calls; the failing samples' 10 generations
    assert len(ok_first) == 20 + 10

    server.fault = None  # the outage is over
    second = _inspect("eval-retry", info.name, "--log-dir", str(logs), env=env, cwd=ROOT)
    assert second.returncode == 0, second.stdout + second.stderr
    retried = [i for i in list_eval_logs(str(logs)) if i.name != info.name]
    assert len(retried) == 1
    final = read_eval_log(retried[0].name)
    assert final.status == "success"
    assert len(final.samples) == 10
    records = [r for s in final.samples for r in s.store["trials"]]
    assert len(records) == 20 and not any(r["unparsed"] for r in records)
    ok_all = server.chat_requests("respondent")
    new = ok_all[len(ok_first) :]
    # the retry paid only the 10 failed extractions: generations came from the cache
    assert len(new) == 10 and all(is_extraction(r.body) for r in new)
    assert all(failing in str(r.body["messages"]) for r in new)
    assert len(ok_all) == 40  # 20 trials x 2 calls, each answered once over both runs


@pytest.mark.slow  # two `inspect` CLI processes
def test_eval_retry_after_a_crash_with_a_batch_in_flight(serve, tmp_path):
    """The `inspect` process dies while a batch is in flight: Inspect keeps batch ids only in
    memory, so `eval-retry` sends those calls again in a new batch (a real provider would run
    and bill the abandoned batch too). Finished generations come back from the trial record."""
    server = serve(answer_script, models=("gpt-4o-mini",), batch_polls=10_000)
    props = tmp_path / "p.txt"
    props.write_text("We should ban school uniforms\n")
    config = tmp_path / "batch.yaml"
    config.write_text("size: 10\nsend_delay: 1\ntick: 0.2\n")
    logs = tmp_path / "logs"
    env = cli_env(server, INSPECT_CACHE_DIR=str(tmp_path / "cache"))
    args = ["tasks/stance_drift.py", "--model", "openai/gpt-4o-mini", "-T", f"propositions={props}"]
    args += ["-T", "trials=2", "-T", "words_limit=20", "--batch", str(config)]
    inspect_cli = str(Path(sys.executable).with_name("inspect"))
    proc = subprocess.Popen(
        [inspect_cli, "eval", *args, "--log-dir", str(logs)],
        env=env,
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 120
        # let the generation batch complete, then die with the extraction batch in flight
        while time.monotonic() < deadline:
            if len(server.batches) == 1:
                server.batch_polls = 0  # the generation batch completes on its next poll
            if len(server.batches) == 2:
                break
            time.sleep(0.1)
        assert len(server.batches) == 2, "the extraction batch was never submitted"
        server.batch_polls = 10_000
        for b in server.batches.values():
            server._batch_polls_seen[b["id"]] = 0
        time.sleep(0.5)
    finally:
        proc.kill()
        proc.wait(timeout=30)
    first_batches = dict(server.batches)
    statuses = sorted(b["status"] for b in first_batches.values())
    assert statuses == ["completed", "in_progress"]
    [info] = list_eval_logs(str(logs))

    server.batch_polls = 0
    retry = _inspect("eval-retry", info.name, "--log-dir", str(logs), env=env, cwd=ROOT)
    assert retry.returncode == 0, retry.stdout + retry.stderr
    new_batches = [b for k, b in server.batches.items() if k not in first_batches]
    lines = [
        json.loads(line)
        for b in new_batches
        for line in server.file_data[b["input_file_id"]].decode().splitlines()
    ]
    # only the 10 extraction calls are sent again: the generations were recorded
    assert len(lines) == 10 and all(is_extraction(item["body"]) for item in lines)
    final = [i for i in list_eval_logs(str(logs)) if i.name != info.name]
    assert read_eval_log(final[0].name, header_only=True).status == "success"
