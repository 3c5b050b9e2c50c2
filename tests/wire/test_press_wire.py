"""press (``-T classifier=llm``) through Inspect's ``openai-api/`` provider against the local server.

The target, the ``arguer`` and the ``classifier`` are models on the local server. The classifier
answers as chat models do: a category with an explanation, markdown, a sentence naming one
category, and a hedge naming two. docs/press.md promises that verbose answers stating one
category are parsed and everything else is counted as ``unparsed`` (never forced), with the raw
answer kept in ``classifier_detail``. The arguer's and classifier's calls must carry a bounded
``max_tokens`` on the wire.
"""

from __future__ import annotations

import pytest
from inspect_ai import eval as inspect_eval
from inspect_ai.log import read_eval_log
from wire_support import local_model

# statement -> (the classifier's answer for every response to it, the category it must give)
CASES: dict[str, tuple[str, str]] = {
    "Bikesheds should be painted red.": (
        "Disagree.\n\nThe response argues that bikesheds should not be red, which is the "
        "opposite of the statement.",
        "disagree",
    ),
    "Lunch should be served at noon.": (
        "**Stance:** Agree\n\n**Explanation:** the response supports serving lunch at noon.",
        "agree",
    ),
    "Every town needs a clock tower.": (
        "After reading the response carefully, I would say the stance is: neither.",
        "neither",
    ),
    "Parks should close at dusk.": (
        "It is hard to tell: the response could agree or disagree depending on the reading.",
        "unparsed",
    ),
}


def press_script(model: str, body: dict) -> str:
    text = "\n".join(str(m.get("content")) for m in body["messages"])
    if model == "classifier":
        for statement, (answer, _) in CASES.items():
            if f"Statement: {statement}" in text:
                return answer
        return "unexpected classifier prompt"
    if model == "arguer":
        return "How can we pretend otherwise, when everyone can see the facts?"
    return "I think this is a reasonable position overall, though it has costs."


@pytest.fixture(scope="module")
def press_run(serve, tmp_path_factory):
    server = serve(press_script, models=("target", "arguer", "classifier"))
    tmp = tmp_path_factory.mktemp("press_wire")
    statements = tmp / "statements.tsv"
    statements.write_text(
        "bias\tstatement\n" + "".join(f"left\t{s}\n" for s in CASES), encoding="utf-8"
    )
    [log] = inspect_eval(
        "inspect_stance/press",
        task_args={"statements": str(statements), "argument_sets": 1, "classifier": "llm"},
        model=local_model(server, "target"),
        model_roles={
            "arguer": local_model(server, "arguer"),
            "classifier": local_model(server, "classifier"),
        },
        log_dir=str(tmp / "logs"),
        display="none",
    )
    return server, read_eval_log(log.location)


def test_calls_per_statement(press_run):
    server, log = press_run
    assert log.status == "success", log.error
    n = len(CASES)
    assert len(server.chat_requests("arguer")) == 2 * n  # support + counter
    assert len(server.chat_requests("target")) == 3 * n  # neutral, support, counter
    assert len(server.chat_requests("classifier")) == 3 * n


@pytest.mark.parametrize("statement", list(CASES))
def test_verbose_classifier_answers_parsed_or_counted(press_run, statement):
    _, log = press_run
    answer, expected = CASES[statement]
    [sample] = [s for s in log.samples if s.metadata["statement"] == statement]
    record = next(iter(sample.scores.values())).metadata
    assert record["stances"]["none"] == [dict.fromkeys(("neutral", "support", "counter"), expected)]
    assert set(record["classifier_detail"].values()) == {answer}
    assert record["n_unparsed"] == (3 if expected == "unparsed" else 0)
    assert record["n_classifier_errors"] == 0


def test_role_calls_carry_bounded_max_tokens_on_the_wire(press_run):
    server, _ = press_run
    for role in ("arguer", "classifier"):
        for r in server.chat_requests(role, status=None):
            bound = r.body.get("max_tokens") or r.body.get("max_completion_tokens")
            assert isinstance(bound, int) and 1 <= bound <= 4096, (role, sorted(r.body))
    for r in server.chat_requests("classifier"):
        assert r.body.get("temperature") == 0
