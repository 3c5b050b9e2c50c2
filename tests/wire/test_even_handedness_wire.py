"""even_handedness through Inspect's ``openai-api/`` provider against the local OpenAI server.

The target answers each request with a marker naming its pair and side; the grader answers the
pair prompt and the refusal / hedging prompts with the forms graders really write ("(C)", "C)",
"Option C", lower case, an answer naming one option to reject it, two options, none). Every
answer is read as a person reads it, in both orders, from the text and from the token
probabilities the server returns (read at the chosen option's token, not at a rejected one),
and what cannot be read is counted as unparsed.
"""

from __future__ import annotations

import re

import pytest
from inspect_ai import eval as inspect_eval
from inspect_ai.log import read_eval_log
from wire_support import local_model

from inspect_stance.even_handedness.data import select_pairs

# pair k -> (the grader's answer to the pair prompt, in both orders; the option it chose)
PAIR_CASES: list[tuple[str, str | None]] = [
    ("(C)", "C"),
    ("C)", "C"),
    ("Option C", "C"),
    ("c", "C"),
    ("option b", "B"),
    ("Not A; the answer is B.", "B"),
    ("The answer is (A), not (C).", "A"),
    ("I would not choose B.", None),
    ("A or B", None),
]
# pair k -> (refusal answer, level), (hedging answer, level)
SCALE_CASES: list[tuple[str, str | None]] = [
    ("(5)", "5"), ("1)", "1"), ("Option 4", "4"), ("It's not 5, it's 2.", "2"), ("3 or 4", None),
]  # fmt: skip
N = len(PAIR_CASES)
MARK = re.compile(r"WIRE-(\d+)-([ab])")


def _requests() -> dict[str, tuple[int, str]]:
    pairs = select_pairs(None, None, None, None, N)
    out = {}
    for k, p in enumerate(pairs):
        out[p.prompt_a], out[p.prompt_b] = (k, "a"), (k, "b")
    return out


REQUESTS = _requests()


def script(model: str, body: dict) -> str:
    text = "\n".join(str(m.get("content")) for m in body["messages"])
    if model == "target":
        k, side = REQUESTS[text.strip()]
        return f"WIRE-{k}-{side}: a full answer."
    marks = MARK.findall(text)
    k = int(marks[0][0])
    if "<dialogue_a>" in text:
        return PAIR_CASES[k][0]
    return SCALE_CASES[k % len(SCALE_CASES)][0]


@pytest.fixture(scope="module", params=[True, False], ids=["logprobs", "text"])
def wire_log(request, serve, tmp_path_factory):
    server = serve(script, models=("target", "grader"))
    [log] = inspect_eval(
        "inspect_stance/even_handedness",
        task_args={"limit": N, "grader_logprobs": request.param},
        model=local_model(server, "target"),
        model_roles={"graders": local_model(server, "grader")},
        log_dir=str(tmp_path_factory.mktemp("eh_wire")),
        display="none",
    )
    assert log.status == "success", log.error
    return request.param, read_eval_log(log.location)


def test_every_grader_answer_is_read_right(wire_log):
    logprobs, log = wire_log
    assert len(log.samples) == N
    for sample in log.samples:
        rec = sample.scores["even_handedness_scorer"].metadata["even_handedness"]
        k = int(MARK.search(sample.store["even_handedness:responses"]["a"]).group(1))
        expected = PAIR_CASES[k][1]
        [grader] = rec["graders"].values()
        assert rec["judged_orders"] == ["ab", "ba"]
        for order, j in grader["orders"].items():
            assert j["shown_choice"] == expected, (k, order, j["raw"])
            back = {"A": "B", "B": "A"}.get(expected, expected) if order == "ba" else expected
            assert j["choice"] == back
            want = "unparsed" if expected is None else ("logprobs" if logprobs else "text")
            assert j["estimator"] == want
            if expected is not None and logprobs:
                assert max(j["probs"], key=j["probs"].get) == back
        level = SCALE_CASES[k % len(SCALE_CASES)][1]
        for kind in ("refusal", "hedging"):
            for x in ("a", "b"):
                assert grader[kind][x]["choice"] == level, (k, kind, grader[kind][x]["raw"])


def test_unparsed_answers_are_counted_in_the_header(wire_log):
    _, log = wire_log
    pair_none = sum(2 for _, c in PAIR_CASES if c is None)
    scale_none = sum(4 for k in range(N) if SCALE_CASES[k % len(SCALE_CASES)][1] is None)
    metrics = log.results.scores[0].metrics
    assert metrics["unparsed"].value == pair_none + scale_none
    assert metrics["pairs"].value == N
    # the wire grader gives the same shown answer in both orders: an "A" (or "B") names the
    # first (second) shown response both times, prompt_a's side once and prompt_b's once, so
    # no side is favoured in both orders and every judged pair is even-handed (a tie)
    judged = [c for c in (c for _, c in PAIR_CASES) if c is not None]
    assert judged.count("C") < len(judged)  # the cases do include A and B answers
    assert metrics["even_handedness"].value == 1.0
