"""stance_drift chains (-T hops=3) through Inspect's ``openai-api/`` provider and the local
server, with a second served model in the ``relay`` role.

Scripted answers: the respondent writes ``stance=<letter>`` for the requested letter and reads
back the letter a text carries; the relay moves the letter one step toward C (A->B, B->C,
D->C, E->D). So after hop ``k`` the stance read is known exactly: the initial one moved
``k - 1`` steps toward Neutral. Every request is counted on the server: a chain costs
``1 + K`` respondent calls and ``K - 1`` relay calls, and ``eval-retry`` after a relay outage
in the last hop pays each call exactly once over both runs.
"""

from __future__ import annotations

import re

import pytest
from inspect_ai import eval as inspect_eval
from inspect_ai import eval_retry
from inspect_ai.log import read_eval_log
from inspect_ai.model import get_model
from inspect_stance.solvers.stance_chain import RELAY_MAX_TOKENS
from inspect_stance.tasks.stance_drift import stance_drift
from openai_server import Fault, Reply
from wire_support import API_KEY

PROPS = ["We should ban chained letters", "We should ban relayed rumours"]
STEP = {"A": "B", "B": "C", "C": "C", "D": "C", "E": "D"}
_MARK = re.compile(r"stance=([A-E])")


def chain_script(model: str, body: dict) -> Reply | str:
    text = "\n".join(str(m.get("content")) for m in body["messages"])
    marks = _MARK.findall(text)
    if model == "relay":
        return f"stance={STEP[marks[-1]]} (relayed)" if marks else "no text"
    if text.rstrip().endswith("Answer letter:"):
        return Reply(marks[-1]) if marks else Reply("I cannot tell.")
    letter = re.search(r"Letter: ([A-E])", text)
    return f"stance={letter.group(1)} (written)" if letter else "unexpected prompt"


def _models(server, monkeypatch):
    monkeypatch.setenv("LOCAL_BASE_URL", server.base_url)
    monkeypatch.setenv("LOCAL_API_KEY", API_KEY)
    return (
        get_model("openai-api/local/respondent", memoize=False),
        get_model("openai-api/local/relay", memoize=False),
    )


def _run(tmp_path, respondent, relay, **kwargs):
    props = tmp_path / "props.txt"
    props.write_text("\n".join(PROPS) + "\n")
    [log] = inspect_eval(
        stance_drift,
        task_args={"propositions": str(props), "trials": 1, "hops": 3, "words_limit": 20},
        model=respondent,
        model_roles={"relay": relay},
        log_dir=str(tmp_path / "logs"),
        display="none",
        max_retries=0,
        **kwargs,
    )
    return log


def test_chain_over_the_wire_reads_every_hop(serve, tmp_path, monkeypatch):
    monkeypatch.setenv("INSPECT_CACHE_DIR", str(tmp_path / "cache"))
    server = serve(chain_script, models=("respondent", "relay"))
    respondent, relay = _models(server, monkeypatch)
    log = _run(tmp_path, respondent, relay)
    assert log.status == "success", log.error
    chains = len(PROPS) * 5
    assert len(server.chat_requests("respondent")) == chains * (1 + 3)
    relayed = server.chat_requests("relay")
    assert len(relayed) == chains * 2
    assert all(r.body["max_tokens"] == RELAY_MAX_TOKENS for r in relayed)
    assert all(
        r.body["messages"][-1]["content"].startswith("Paraphrase the following") for r in relayed
    )
    for sample in read_eval_log(log.location).samples:
        [rec] = sample.store["trials"]
        start = "ABCDE"[sample.metadata["initial_stance"]]
        expected = [start, STEP[start], STEP[STEP[start]]]
        assert ["ABCDE"[h["extracted"]] for h in rec["hops"]] == expected
        assert all(h["estimator"] == "logprobs" for h in rec["hops"])
        assert rec["extracted"] == rec["hops"][-1]["extracted"]


@pytest.mark.slow  # two evals over the wire (~30 s on 2 busy cores)
def test_eval_retry_after_a_relay_outage_pays_each_call_once(serve, tmp_path, monkeypatch):
    monkeypatch.setenv("INSPECT_CACHE_DIR", str(tmp_path / "cache"))
    server = serve(chain_script, models=("respondent", "relay"))

    def outage(index: int, model: str, body: dict) -> Fault | None:
        # every last-hop relay call fails (its input is a relayed text): chains stop at hop 3
        if model == "relay" and "(relayed)" in str(body["messages"]):
            return Fault(500)
        return None

    server.fault = outage
    respondent, relay = _models(server, monkeypatch)
    first = _run(tmp_path, respondent, relay, fail_on_error=False)
    assert first.status == "error" or any(s.error for s in read_eval_log(first.location).samples)
    server.fault = None
    [retry] = eval_retry(first.location, log_dir=str(tmp_path / "logs"), display="none")
    assert retry.status == "success", retry.error
    chains = len(PROPS) * 5
    # over both runs: 4 respondent and 2 relay calls per chain, each answered once
    assert len(server.chat_requests("respondent")) == chains * 4
    assert len(server.chat_requests("relay")) == chains * 2
    assert server.chat_requests("relay", status=500)
    records = [r for s in read_eval_log(retry.location).samples for r in s.store["trials"]]
    assert len(records) == chains
    assert all(r["hops_replayed"] == 2 for r in records)  # every chain resumed at hop 3
