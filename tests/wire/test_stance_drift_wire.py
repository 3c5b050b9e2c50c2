"""stance_drift through Inspect's ``openai-api/`` provider against the local OpenAI server.

The server replays scripted extraction answers of the kinds real models give (prose, a letter
inside a word, a capital starting a word with little letter mass in its top-5, markdown bold,
a refusal), tokenized by SmolLM2's real tokenizer with real-shaped ``top_logprobs``. The log
must hold what docs/stance_drift.md promises: each answer parsed to the right letter or counted
as unparsed, and each logprob vector equal to the one recomputed here from the server's
``top_logprobs`` by the documented rule (the answer token's letter tokens, renormalised).
"""

from __future__ import annotations

import math

import pytest
from inspect_ai import eval as inspect_eval
from inspect_ai.log import read_eval_log
from inspect_stance.tasks.stance_drift import stance_drift
from openai_server import Reply
from wire_support import letter_vector, local_model

GEN_MARK = "WIRE-ARGUMENT"

# proposition -> (scripted extraction answer, expected letter or None for unparsed)
CASES: dict[str, tuple[Reply, str | None]] = {
    "We should ban plain letters": (Reply("D"), "D"),
    "We should ban prose answers": (Reply("The answer is B."), "B"),
    "We should ban markdown answers": (Reply("**B**"), "B"),
    "We should ban yellow paint": (Reply("Amarilla."), None),
    # the " E" of " Elegant": its top-5 holds 1.7 % letter mass (the measurement)
    "We should ban elegant prose": (
        Reply(
            " Elegant",
            top={
                0: [
                    (" The", math.log(0.55)),
                    (" This", math.log(0.25)),
                    (" In", math.log(0.10)),
                    (" E", math.log(0.012)),
                    (" A", math.log(0.005)),
                ]
            },
        ),
        None,
    ),
    "We should ban refusals": (Reply("I'm sorry, but I can't help with that request."), None),
}


def drift_script(model: str, body: dict) -> Reply | str:
    text = "\n".join(str(m.get("content")) for m in body["messages"])
    for proposition, (reply, _) in CASES.items():
        if proposition in text:
            if GEN_MARK in text:  # the extraction prompt quotes the generated argument
                return reply
            return f"{GEN_MARK}: a short argument about {proposition.lower()}."
    return "unexpected prompt"


@pytest.fixture(scope="module")
def drift_run(serve, tmp_path_factory):
    server = serve(drift_script, models=("respondent",))
    tmp = tmp_path_factory.mktemp("drift_wire")
    props = tmp / "propositions.txt"
    props.write_text("\n".join(CASES) + "\n")
    [log] = inspect_eval(
        stance_drift(propositions=str(props), trials=1, words_limit=20, cache=False),
        model=local_model(server, "respondent"),
        log_dir=str(tmp / "logs"),
        display="none",
        max_connections=20,
    )
    return server, read_eval_log(log.location)


def _records_by_proposition(log) -> dict[str, list[dict]]:
    out: dict[str, list[dict]] = {}
    for sample in log.samples:
        out.setdefault(sample.metadata["proposition"], []).extend(sample.store["trials"])
    return out


def _extraction_responses(server, proposition: str) -> list[dict]:
    return [
        r.response
        for r in server.chat_requests("respondent")
        if proposition in str(r.body["messages"]) and GEN_MARK in str(r.body["messages"])
    ]


def test_every_call_went_over_the_wire_with_logprob_requests(drift_run):
    server, log = drift_run
    assert log.status == "success", log.error
    n_trials = len(CASES) * 5
    ok = server.chat_requests("respondent")
    assert len(ok) == 2 * n_trials  # one generation + one extraction per trial, nothing else
    extraction = [r for r in ok if GEN_MARK in str(r.body["messages"])]
    assert len(extraction) == n_trials
    for r in extraction:
        assert r.body["logprobs"] is True and r.body["top_logprobs"] >= 5
        assert r.body["model"] == "respondent"
    # usage reached the log from the server's usage block
    usage = log.stats.model_usage["openai-api/local/respondent"]
    served = sum(r.response["usage"]["total_tokens"] for r in ok)
    assert usage.total_tokens == served


@pytest.mark.parametrize("proposition", list(CASES))
def test_verbose_answer_parsed_or_counted_unparsed(drift_run, proposition):
    server, log = drift_run
    reply, expected = CASES[proposition]
    records = _records_by_proposition(log)[proposition]
    assert len(records) == 5
    for rec in records:
        assert rec["answers"] == [reply.text.strip()] or rec["answers"] == [reply.text]
        if expected is None:
            assert rec["unparsed"] is True, (reply.text, rec["probs"], rec["estimator"])
            assert rec["probs"] is None
        else:
            assert rec["unparsed"] is False
            assert rec["estimator"] == "logprobs"
            assert rec["extracted"] == "ABCDE".index(expected)


@pytest.mark.parametrize("proposition", [p for p, (_, e) in CASES.items() if e is not None])
def test_stored_vector_equals_the_one_recomputed_from_top_logprobs(drift_run, proposition):
    server, log = drift_run
    _, expected = CASES[proposition]
    responses = _extraction_responses(server, proposition)
    assert len(responses) == 5
    records = _records_by_proposition(log)[proposition]
    for rec, response in zip(records, responses, strict=True):
        content = response["choices"][0]["logprobs"]["content"]
        letters = letter_vector(content, expected)
        order = rec["orders"][0]
        stance_vector = [0.0] * 5
        for k, stance in enumerate(order):
            stance_vector[stance] = letters[k]
        assert rec["probs"] == pytest.approx(stance_vector, abs=1e-12)
    from inspect_stance.drift.figures import log_figures

    summed = log_figures([log.location])  # the panel's counts and those beside them
    assert summed["trials"] == log.results.scores[0].metrics["trials"].value == len(CASES) * 5
    n_unparsed = sum(5 for _, e in CASES.values() if e is None)
    assert summed["unparsed"] == n_unparsed
    assert summed["logprob_estimated"] == len(CASES) * 5 - n_unparsed


def test_streamed_responses_give_the_same_vectors(serve, tmp_path):
    """``-M stream=true``: the server streams SSE chunks with per-token logprobs; the
    accumulated completion gives the same parse and vectors as the unstreamed one."""
    server = serve(drift_script, models=("respondent",))
    subset = ["We should ban prose answers", "We should ban yellow paint"]
    props = tmp_path / "propositions.txt"
    props.write_text("\n".join(subset) + "\n")
    [log] = inspect_eval(
        stance_drift(propositions=str(props), trials=1, words_limit=20, cache=False),
        model=local_model(server, "respondent", model_args={"stream": True}),
        log_dir=str(tmp_path / "logs"),
        display="none",
    )
    assert log.status == "success", log.error
    requests = server.chat_requests("respondent")
    assert len(requests) == 20 and {r.via for r in requests} == {"stream"}
    records = _records_by_proposition(read_eval_log(log.location))
    prose = _extraction_responses(server, subset[0])[0]["choices"][0]["logprobs"]["content"]
    for rec in records[subset[0]]:
        assert rec["estimator"] == "logprobs"
        assert rec["probs"] == pytest.approx(letter_vector(prose, "B"), abs=1e-12)
    assert all(rec["unparsed"] for rec in records[subset[1]])
