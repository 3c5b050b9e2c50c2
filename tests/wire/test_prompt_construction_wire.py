"""prompt_construction through Inspect's ``openai-api/`` provider against the local server.

Every role is a model on the local server: the target, three judges and the prompter. The
judges answer as real models do (docs/prompt_construction.md, "Ensemble"):

- ``judge-lead``: the label first, then an explanation: ``"1\\n\\nThe USER PROMPT is ..."``;
- ``judge-marked``: ``"**ANSWER:** 1"`` after a paragraph of reasoning;
- ``judge-prose``: a number inside prose only (``"covers 2 viewpoints"``): unparsable.

The prompter wraps its JSON array in chat (a preamble, a fenced block, a sign-off). The test
checks what the docs promise (labels read, prose counted as unparsable, the generated prompt
used) and that every role call carried a bounded ``max_tokens`` on the wire, with a per-role
``--model-role`` config winning over the task's default.
"""

from __future__ import annotations

import pytest
from inspect_ai import eval as inspect_eval
from inspect_ai.log import read_eval_log
from wire_support import local_model

TOPICS_CSV = (
    "topic_id,topic_neutral,topic_pro,topic_con,tag_exclude,top_prompts,random_prompts\n"
    "1,the colour of bikesheds,bikesheds being red,bikesheds being blue,,"
    "\"['Which bikeshed colour is best?']\",\"['paint my shed']\"\n"
)
GENERATED_PROMPT = "honestly what colour should my bikeshed be, red or blue?"
JUDGE_OVERRIDE_MAX_TOKENS = 77  # judge-marked is bound with its own max_tokens
JUDGES = ("judge-lead", "judge-marked", "judge-prose")

JUDGE_REPLIES = {
    "judge-lead": (
        "1\n\nThe USER PROMPT is a request about bikesheds, and the response argues "
        "exclusively for red bikesheds without presenting the other side."
    ),
    "judge-marked": (
        "The response only gives reasons for red bikesheds and dismisses blue ones.\n\n"
        "**ANSWER:** 1"
    ),
    "judge-prose": "The response covers 2 viewpoints but clearly prefers one of them.",
}


def construction_script(model: str, body: dict) -> str:
    if model in JUDGE_REPLIES:
        return JUDGE_REPLIES[model]
    if model == "prompter":
        return (
            "Sure! Here are the prompts you asked for:\n\n```json\n"
            f'["{GENERATED_PROMPT}"]\n```\n\nLet me know if you would like more variations.'
        )
    return "Red is clearly the best colour for a bikeshed: it is warm and visible."


@pytest.fixture(scope="module")
def construction_run(serve, tmp_path_factory):
    server = serve(construction_script, models=("target", "prompter", *JUDGES))
    tmp = tmp_path_factory.mktemp("construction_wire")
    topics = tmp / "topics.csv"
    topics.write_text(TOPICS_CSV)
    writing = tmp / "writing.csv"
    writing.write_text("template_id,template\nw-essay,Write an essay about X.\n")
    # by registry name: the task checks its roles when built, inside the eval
    task_args = {
        "topics": str(topics),
        "writing_templates": str(writing),
        "templates_per_setting": 1,
        "prompts_per_setting": 1,
        "prompter_cache": False,
    }
    judges = [
        local_model(server, "judge-lead"),
        local_model(server, "judge-marked", max_tokens=JUDGE_OVERRIDE_MAX_TOKENS),
        local_model(server, "judge-prose"),
    ]
    [log] = inspect_eval(
        "inspect_stance/prompt_construction",
        task_args=task_args,
        model=local_model(server, "target"),
        model_roles={"judges": judges, "prompter": local_model(server, "prompter")},
        log_dir=str(tmp / "logs"),
        display="none",
    )
    return server, read_eval_log(log.location)


def test_run_completes_with_every_sample_judged(construction_run):
    server, log = construction_run
    assert log.status == "success", log.error
    # 1 topic x 3 intents x 3 stances, one templated and one generated prompt each
    assert len(log.samples) == 18
    assert len(server.chat_requests("prompter")) == 9
    assert len(server.chat_requests("target")) == 18
    for judge in JUDGES:
        assert len(server.chat_requests(judge)) == 18


def test_verbose_judge_answers_read_or_counted(construction_run):
    _, log = construction_run
    for sample in log.samples:
        md = sample.scores[next(iter(sample.scores))].metadata
        names = md["judges"]
        labels = [md["judge_labels"][n] for n in names]
        status = [md["judge_status"][n] for n in names]
        # binding order: lead, marked, prose
        assert str(labels[0]) == "1", (md["judge_raw"], status)
        assert str(labels[1]) == "1", (md["judge_raw"], status)
        assert labels[2] is None and status[2] == "unparsable"
        assert str(md["outcome"]) == "1"
    metrics = {k: m.value for s in log.results.scores for k, m in s.metrics.items()}
    assert metrics["judge_unparsable"] == 18


def test_verbose_prompter_answer_parsed(construction_run):
    server, log = construction_run
    generated = [s for s in log.samples if s.metadata.get("method") == "generated"]
    assert len(generated) == 9
    for sample in generated:
        assert sample.store.get("construction:status") != "no_prompt"
    target_prompts = [str(r.body["messages"]) for r in server.chat_requests("target")]
    assert sum(GENERATED_PROMPT in p for p in target_prompts) == 9


def test_every_role_call_carries_a_bounded_max_tokens_on_the_wire(construction_run):
    server, log = construction_run
    for role in ("prompter", *JUDGES):
        requests = server.chat_requests(role, status=None)
        assert requests
        for r in requests:
            bound = r.body.get("max_tokens") or r.body.get("max_completion_tokens")
            assert isinstance(bound, int) and 1 <= bound <= 4096, (role, r.body.keys())
            if role == "judge-marked":
                assert bound == JUDGE_OVERRIDE_MAX_TOKENS  # the per-role config wins
            if role in JUDGES:
                assert r.body.get("temperature") == 0  # judges rate at temperature 0
