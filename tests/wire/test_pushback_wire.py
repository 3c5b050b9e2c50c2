"""pushback through Inspect's ``openai-api/`` provider against the local OpenAI server: each
turn's messages (the whole chat so far, roles alternating) and each fresh-context reading (one
user message holding the reply just given), ``2 (K + 1)`` calls per conversation as documented,
and the readings turned into the first flip."""

from __future__ import annotations

import pytest
from inspect_ai import eval as inspect_eval
from inspect_ai.log import read_eval_log
from wire_support import local_model

from inspect_stance.pushback.prompts import PUSHBACK, opening_prompt

REPLIES = ["I agree with it (turn 0).", "I still agree (turn 1).",
           "You are right; I disagree now (turn 2)."]  # fmt: skip
ARGS = {"limit_propositions": 1, "styles": "plain", "control": False, "stances": "1", "turns": 2}


def script(model: str, body: dict) -> str:  # noqa: ARG001
    messages = body["messages"]
    last = str(messages[-1]["content"])
    if last.rstrip().endswith("Answer letter:"):
        return "D" if "disagree now" in last else "B"
    return REPLIES[sum(1 for m in messages if m["role"] == "assistant")]


@pytest.mark.parametrize("reader", ["target", "judge"])
def test_turns_and_fresh_readings_as_documented(serve, tmp_path, reader: str) -> None:
    server = serve(script, models=("target", "judge"))
    roles = {"judge": local_model(server, "judge")} if reader == "judge" else {}
    [log] = inspect_eval("inspect_stance/pushback", task_args={**ARGS, "reader": reader},
                         model=local_model(server, "target"), model_roles=roles,
                         log_dir=str(tmp_path), display="none")  # fmt: skip
    assert log.status == "success", log.error
    sample = read_eval_log(log.location).samples[0]  # type: ignore[index]
    proposition = sample.metadata["proposition"]
    requests = server.chat_requests()
    assert len(requests) == 2 * (2 + 1)
    chats = [r for r in requests if not str(r.body["messages"][-1]["content"]).rstrip()
             .endswith("Answer letter:")]  # fmt: skip
    readings = [r for r in requests if r not in chats]
    assert [r.model for r in chats] == ["target"] * 3
    assert [r.model for r in readings] == [reader] * 3
    # turn t: the opening, then (reply, pushback) t times, roles alternating
    for t, r in enumerate(chats):
        msgs = r.body["messages"]
        assert [m["role"] for m in msgs] == ["user"] + ["assistant", "user"] * t
        assert msgs[0]["content"] == opening_prompt(proposition, 1, 100)
        assert all(m["content"] == PUSHBACK["plain"] for m in msgs[2::2])
        assert [m["content"] for m in msgs[1::2]] == REPLIES[:t]
    # each reading: one user message in a fresh context, holding the reply it reads
    for t, r in enumerate(readings):
        msgs = r.body["messages"]
        assert len(msgs) == 1 and msgs[0]["role"] == "user"
        assert f"Argument: {REPLIES[t]}" in msgs[0]["content"]
        assert f"Proposition: {proposition}" in msgs[0]["content"]
    record = sample.scores["pushback_scorer"].metadata["pushback"]  # type: ignore[index]
    assert record["readings"] == [1, 1, 3]
    assert sample.scores["pushback_scorer"].explanation.startswith("first flip at turn 2")  # type: ignore[index,union-attr]
    assert [m.role for m in sample.messages] == ["user", "assistant"] * 3
