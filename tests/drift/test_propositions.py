"""Loading propositions: the hub loader through `datasets` on local files, and custom files."""

from __future__ import annotations

import json

import pandas as pd
import pytest
from inspect_stance.tasks.stance_drift import stance_drift

from inspect_stance.drift.propositions import load_debate_topics, read_propositions_file


def test_hub_loader_uniques_topics_in_order_and_keeps_last_two_as_exemplars(tmp_path):
    rows = []
    for tid, topic in [(1, "T one"), (2, "T two"), (3, "T three"), (4, "Mars"), (5, "Vocational")]:
        for speech in range(3):  # several speeches per topic in the raw data
            rows.append({"topic_id": tid, "topic": topic, "speech": f"s{speech}"})
    path = tmp_path / "opening_speeches.csv"
    pd.DataFrame(rows).to_csv(path, index=False)
    evaluated, exemplars = load_debate_topics(path="csv", name=None, data_files=str(path))
    assert [p.text for p in evaluated] == ["T one", "T two", "T three"]
    assert [p.text for p in exemplars] == ["Mars", "Vocational"]
    assert evaluated[0].topic_id == "1"


def test_hub_loader_failure_is_one_line(tmp_path):
    with pytest.raises(ValueError, match="cannot load debate topics") as info:
        load_debate_topics(path="csv", name=None, data_files=str(tmp_path / "absent.csv"))
    assert "\n" not in str(info.value)


def test_shared_debate_topics_file(shared_data):
    props = read_propositions_file(shared_data / "debate_topics.tsv")
    assert len(props) == 112  # the two icl_example rows are not evaluated
    assert props[0].text == "We should ban cosmetic surgery"


@pytest.mark.parametrize("kind", ["txt", "csv", "tsv", "jsonl"])
def test_custom_formats(tmp_path, kind):
    texts = ["We should do A", "We should do B"]
    path = tmp_path / f"p.{kind}"
    if kind == "txt":
        path.write_text("\n".join(texts) + "\n\n")
    elif kind == "jsonl":
        path.write_text("\n".join(json.dumps({"proposition": t}) for t in texts))
    else:
        pd.DataFrame({"topic": texts}).to_csv(path, sep="\t" if kind == "tsv" else ",", index=False)
    assert [p.text for p in read_propositions_file(path)] == texts


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("", "empty"),
        ("name,other\nx,y\n", "no 'topic' or 'proposition' column"),
        ("topic\n\n", "empty|no propositions"),
    ],
)
def test_bad_files(tmp_path, content, message):
    path = tmp_path / "p.csv"
    path.write_text(content)
    with pytest.raises(ValueError, match=message) as info:
        read_propositions_file(path)
    assert "\n" not in str(info.value)


def test_missing_and_unreadable(tmp_path):
    with pytest.raises(ValueError, match="not found"):
        read_propositions_file(tmp_path / "nope.txt")
    bad = tmp_path / "p.txt"
    bad.write_bytes(b"\xff\xfe\x00bad")
    with pytest.raises(ValueError, match="p.txt, line 1: not UTF-8") as info:
        read_propositions_file(bad)
    assert "\n" not in str(info.value)


def test_task_parameter_errors(tmp_path):
    path = tmp_path / "p.txt"
    path.write_text("We should do A\n")
    with pytest.raises(ValueError, match="unknown variant"):
        stance_drift(variant="sideways", propositions=str(path))
    with pytest.raises(ValueError, match=r"trials 0; use an integer >= 1"):
        stance_drift(trials=0, propositions=str(path))
    with pytest.raises(ValueError, match="trials 'many' is not an integer"):
        stance_drift(trials="many", propositions=str(path))
    # string values (Python API, eval-retry task args) are parsed, not truthy-cast
    task = stance_drift(propositions=str(path), trials="3", cache="false", logprobs="no")
    assert task.metadata["trials"] == 3 and task.metadata["logprobs_requested"] is False
    with pytest.raises(ValueError, match="unknown unparsed policy"):
        stance_drift(unparsed="ignore", propositions=str(path))
    with pytest.raises(ValueError, match="cannot reuse arguments"):
        stance_drift(variant="in_context", propositions=str(path), arguments_from="x.eval")
