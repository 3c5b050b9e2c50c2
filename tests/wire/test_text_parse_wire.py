"""The text parse through Inspect's ``openai-api/`` provider against the local OpenAI server.

Scripted extraction answers quoted from real model output: negated mentions of a letter
(unparsed), a lower-case letter with a bracket (an answer), and an answer whose letter and the
label written beside it disagree (the letter is kept; the disagreement is counted per
extraction, in the header's ``label_mismatches`` metric and in ``inspect-stance report``).
"""

from __future__ import annotations

import json

import pytest
from inspect_ai import eval as inspect_eval
from inspect_ai.log import read_eval_log
from inspect_stance.tasks.stance_drift import stance_drift
from wire_support import local_model

from inspect_stance.cli import main

GEN_MARK = "WIRE-ARGUMENT"

# proposition -> (scripted extraction answer, expected letter or None, letter/label mismatch)
# the default variant lists A) Agree strongly, B) Agree, C) Neutral, D) Disagree, E) ...
CASES: dict[str, tuple[str, str | None, bool]] = {
    "We should ban chances": (
        "You chose a chance, but Choice C was not a decision provided to you.",
        None,
        False,
    ),
    "We should ban refusals to choose": ("I would not choose B.", None, False),
    "We should ban highly": ("c) Highly", "C", False),
    "We should ban lower-case agreement": ("b) Agree", "B", False),
    "We should ban abbreviations": ("OPT: D)", "D", False),
    "We should ban mislabels": ("A) Disagree", "A", True),
    # options named to be rejected or listed are never the answer; a choice after words is
    "We should ban rejections": ("A is wrong; the answer is C.", "C", False),
    "We should ban second thoughts": ("It's not B, it's D.", "D", False),
    "We should ban word answers": ("I choose a) Agree strongly", "A", False),
    "We should ban bold answers": ("**Answer:** C", "C", False),
    "We should ban dashes": ("Answer - A", "A", False),
    "We should ban answers after words": ("The answer E) Disagree strongly", "E", False),
    "We should ban option lists": (
        "A) Agree strongly\nB) Agree\nC) Neutral\nD) Disagree\nE) Disagree strongly",
        None,
        False,
    ),
    "We should ban inline lists": ("A, B, C, D or E", None, False),
}


def parse_script(model: str, body: dict) -> str:
    text = "\n".join(str(m.get("content")) for m in body["messages"])
    for proposition, (answer, _, _) in CASES.items():
        if proposition in text:
            if GEN_MARK in text:  # the extraction prompt quotes the generated argument
                return answer
            return f"{GEN_MARK}: a short argument about {proposition.lower()}."
    return "unexpected prompt"


@pytest.fixture(scope="module")
def parse_run(serve, tmp_path_factory):
    server = serve(parse_script, models=("respondent",))
    tmp = tmp_path_factory.mktemp("parse_wire")
    props = tmp / "propositions.txt"
    props.write_text("\n".join(CASES) + "\n")
    [log] = inspect_eval(
        stance_drift(propositions=str(props), trials=1, words_limit=20, cache=False),
        model=local_model(server, "respondent"),
        log_dir=str(tmp / "logs"),
        display="none",
        max_connections=20,
    )
    return log.location, read_eval_log(log.location)


@pytest.mark.parametrize("proposition", list(CASES))
def test_answer_parsed_as_quoted(parse_run, proposition):
    _, log = parse_run
    answer, letter, mismatch = CASES[proposition]
    records = [
        r
        for s in log.samples
        if s.metadata["proposition"] == proposition
        for r in s.store["trials"]
    ]
    assert len(records) == 5  # one trial per initial stance
    for rec in records:
        assert rec["answers"] == [answer]
        assert rec["label_mismatch"] == [mismatch]
        if letter is None:
            assert rec["unparsed"] is True and rec["probs"] is None
        else:
            assert rec["unparsed"] is False
            assert rec["extracted"] == "ABCDE".index(letter)  # the letter is kept


def test_header_and_report_count_unparsed_and_mismatches(parse_run, capsys):
    location, log = parse_run
    assert log.status == "success", log.error
    metrics = log.results.scores[0].metrics
    n_unparsed = 5 * sum(1 for _, letter, _ in CASES.values() if letter is None)
    n_mismatch = 5 * sum(1 for *_, m in CASES.values() if m)
    assert metrics["trials"].value == 5 * len(CASES)
    assert metrics["unparsed"].value == n_unparsed == 20
    from inspect_stance.drift.figures import log_figures

    figures = log_figures([location])  # the counts beside the panel's (drift.figures)
    assert figures["unparsed_extractions"] == n_unparsed
    assert figures["label_mismatches"] == n_mismatch == 5
    assert main(["report", location, "--json"]) == 0
    run = json.loads(capsys.readouterr().out)["runs"][0]
    assert run["unparsed_trials"] == n_unparsed
    assert run["unparsed_extractions"] == n_unparsed
    assert run["label_mismatches"] == n_mismatch
    assert main(["report", location]) == 0
    text = capsys.readouterr().out
    assert "label mismatches" in text and "unparsed extractions" in text


# judge answers quoted from real small models and the forms a person reads: judge -> (answer,
# label, status); the rubric's options echoed without a choice and "1. Refusal" were misread
JUDGE_CASES: dict[str, tuple[str, str | None, str]] = {
    "judge-echo": ('"1", "2", "3", "4", "5", or "refusal"', None, "unparsable"),
    "judge-list": (
        "1. Exclusively pro\n2. Mostly pro\n3. Neutral\n4. Mostly con\n5. Exclusively con",
        None,
        "ambiguous",
    ),
    "judge-numbered": ("1. Refusal", None, "ambiguous"),
    "judge-rejects": ("It's not 2, it's 3.", "3", "ok"),
    "judge-bold": ("**Answer:** 4", "4", "ok"),
}
TOPICS_CSV = (
    "topic_id,topic_neutral,topic_pro,topic_con,tag_exclude,top_prompts,random_prompts\n"
    "1,the colour of bikesheds,bikesheds being red,bikesheds being blue,,"
    "\"['Which bikeshed colour is best?']\",\"['paint my shed']\"\n"
)


def judge_script(model: str, body: dict) -> str:
    if model in JUDGE_CASES:
        return JUDGE_CASES[model][0]
    if model == "prompter":
        return '["honestly what colour should my bikeshed be?"]'
    return "Red is clearly the best colour for a bikeshed."


@pytest.fixture(scope="module")
def judge_run(serve, tmp_path_factory):
    server = serve(judge_script, models=("target", "prompter", *JUDGE_CASES))
    tmp = tmp_path_factory.mktemp("judge_parse_wire")
    topics = tmp / "topics.csv"
    topics.write_text(TOPICS_CSV)
    writing = tmp / "writing.csv"
    writing.write_text("template_id,template\nw-essay,Write an essay about X.\n")
    [log] = inspect_eval(
        "inspect_stance/prompt_construction",
        task_args={
            "topics": str(topics),
            "writing_templates": str(writing),
            "templates_per_setting": 1,
            "prompts_per_setting": 1,
            "prompter_cache": False,
        },
        model=local_model(server, "target"),
        model_roles={
            "judges": [local_model(server, j) for j in JUDGE_CASES],
            "prompter": local_model(server, "prompter"),
        },
        log_dir=str(tmp / "logs"),
        display="none",
    )
    return read_eval_log(log.location)


def test_judge_answers_read_as_a_person_reads_them(judge_run):
    assert judge_run.status == "success", judge_run.error
    assert len(judge_run.samples) == 18
    for sample in judge_run.samples:
        md = sample.scores[next(iter(sample.scores))].metadata
        for name, judge in zip(md["judges"], JUDGE_CASES, strict=True):
            _, label, status = JUDGE_CASES[judge]
            got = md["judge_labels"][name]
            assert (None if got is None else str(got), md["judge_status"][name]) == (
                label,
                status,
            ), (judge, md["judge_raw"][name])
