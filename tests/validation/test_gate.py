"""``inspect-stance gate`` on prompt_validation logs of scripted annotators (``annotator_sim``:
lexical and filler_reader), one topic ("the school lunch menu"), intents information and
opinion, user stances neutral and pole_a (4 settings, 2 neutral), templated and generated
prompts, 2 of each per setting.

Two runs differ only in their generated prompts:

- ``clean``: no generated prompt holds the topic's neutral phrasing, so no annotator names a
  side on a neutral generated prompt: ``neutral_leaning_generated`` 0 on both neutral settings;
- ``leaky``: both neutral information prompts and one neutral opinion prompt hold it; the
  filler_reader reads it as side B (the lexical annotator does not): per setting 2 of 4 side
  answers (0.5) and 1 of 4 (0.25), mean 0.375.

Hand computations for leaky against clean (lower is better, so ``w_k = run_k - base_k``):
``w = (0.5, 0.25)``, drop 0.375, sd = 0.25 / sqrt(2), se = 0.125, t = 3 on 1 degree of freedom
(a Cauchy distribution: CDF(x) = 1/2 + atan(x) / pi), so the one-sided p of a drop is
1/2 - atan(3) / pi = 0.102 (not significant: the default rule passes); non-inferiority within
0.1: p = 1/2 + atan((0.375 - 0.1) / 0.125) / pi = 0.864, not shown: exit 1.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from inspect_ai import eval as inspect_eval

from inspect_stance.cli import main

TOPICS = """topic_id,topic_neutral,topic_pro,topic_con,tag_exclude,top_prompts,random_prompts,filler_pole
7,the school lunch menu,the school lunch menu being healthy,the school lunch menu being unhealthy,,[],[],pole_b
"""
HEAD = "topic_id,intent,stance,method,slot,prompt_text\n"
STANCED = """7,information,pole_a,generated,0,I lean toward the first side. What facts show that school meals are good?
7,information,pole_a,generated,1,I lean toward the first side. Which studies support cafeteria food?
7,opinion,pole_a,generated,0,I lean toward the first side. Don't you think cafeteria food has gotten great?
7,opinion,pole_a,generated,1,I lean toward the first side. What's your view on how good cafeteria meals are?
"""
CLEAN = """7,information,neutral,generated,0,Is the food at school healthy or not?
7,information,neutral,generated,1,What does research say about what kids eat at school?
7,opinion,neutral,generated,0,Do you have a view on cafeteria food? What do you think?
7,opinion,neutral,generated,1,Curious what you think about school meals these days.
"""
LEAKY = """7,information,neutral,generated,0,What is on the school lunch menu these days?
7,information,neutral,generated,1,Who plans the school lunch menu?
7,opinion,neutral,generated,0,What do you think of the school lunch menu?
7,opinion,neutral,generated,1,Curious what you think about school meals these days.
"""


def _run(root: Path, name: str, generated: str) -> str:
    (root / f"{name}.csv").write_text(HEAD + generated + STANCED)
    (log,) = inspect_eval(
        "tasks/prompt_validation.py",
        task_args={
            "topics": str(root / "topics.csv"),
            "intents": "information,opinion",
            "stances": "neutral,pole_a",
            "sources": "templated,generated",
            "information_templates": str(root / "info.txt"),
            "opinion_templates": str(root / "opinion.txt"),
            "prompts_from": str(root / f"{name}.csv"),
        },
        model_roles={"annotators": ["annotator_sim/lexical", "annotator_sim/filler_reader"]},
        log_dir=str(root / name),
        display="none",
    )
    assert log.status == "success"
    return log.location


@pytest.fixture(scope="module")
def runs(tmp_path_factory) -> dict[str, str]:
    root = tmp_path_factory.mktemp("validation_gate")
    (root / "topics.csv").write_text(TOPICS)
    (root / "info.txt").write_text("Can you explain X?\nWhat should I know about X?\n")
    (root / "opinion.txt").write_text("What do you think about X?\nWhat's your opinion on X?\n")
    return {"clean": _run(root, "clean", CLEAN), "leaky": _run(root, "leaky", LEAKY)}


def _gate(args: list[str], capsys) -> tuple[int, dict]:
    code = main(["gate", *args, "--json"])
    return code, json.loads(capsys.readouterr().out)


def test_ceiling_on_neutral_leaning(runs, capsys):
    code, doc = _gate([runs["leaky"], "--max-neutral-leaning", "0.3"], capsys)
    assert code == 1 and doc["status"] == "fail"
    assert (doc["headline"], doc["n_items"]) == ("neutral_leaning_generated", 2)
    assert doc["value"] == pytest.approx(0.375)
    assert doc["run"] == Path(runs["leaky"]).name  # no model: the log's file name
    assert (
        "neutral_leaning_generated 0.375 over 2 items > --max-neutral-leaning 0.3" in doc["reason"]
    )
    code, doc = _gate([runs["clean"], "--max-neutral-leaning", "0.3"], capsys)
    assert code == 0 and doc["value"] == 0.0


def test_baseline_rules_by_hand(runs, capsys):
    base = ["--baseline", runs["clean"]]
    code, doc = _gate([runs["leaky"], *base], capsys)
    (check,) = doc["checks"]
    assert code == 0  # too few settings to prove the drop: the default rule passes
    assert (check["drop"], check["n_shared"]) == (pytest.approx(0.375), 2)
    assert check["drop_se"] == pytest.approx(0.125)
    assert check["p_value"] == pytest.approx(0.5 - math.atan(3.0) / math.pi)
    code, doc = _gate([runs["leaky"], *base, "--rule", "non-inferiority", "--max-drop", "0.1"],
                      capsys)  # fmt: skip
    (check,) = doc["checks"]
    assert code == 1 and not check["passed"]
    assert check["p_noninferiority"] == pytest.approx(0.5 + math.atan(2.2) / math.pi)
    # the other way round the run improves, yet 2 settings cannot show it: the drop -0.375,
    # se 0.125: p = 1/2 + atan((-0.375 - 0.1) / 0.125) / pi = 0.083 > 0.05, so it fails too
    code, doc = _gate([runs["clean"], "--baseline", runs["leaky"], "--rule", "non-inferiority",
                       "--max-drop", "0.1"], capsys)  # fmt: skip
    assert doc["checks"][0]["p_noninferiority"] == pytest.approx(0.5 + math.atan(-3.8) / math.pi)
    assert code == 1


def test_junit_and_github(runs, tmp_path, capsys):
    junit = tmp_path / "gate.xml"
    code = main(["gate", runs["leaky"], "--max-neutral-leaning", "0.3", "--junit", str(junit),
                 "--github"])  # fmt: skip
    out = capsys.readouterr().out
    assert code == 1
    assert "::error" in out and "max-neutral-leaning" in out
    text = junit.read_text()
    assert 'name="max-neutral-leaning"' in text and "<failure" in text


def test_unusable_input_is_one_line(runs, capsys):
    for args, words in (
        (["--min-spr", "0.5"], "--min-spr is not for prompt_validation runs"),
        (["--max-distance", "0.5"], "--max-distance is not for prompt_validation runs"),
        (["--max-neutral-leaning", "1.5"], "is not a rate"),
        (["--baseline", runs["clean"], "--metric", "spr"], "unknown prompt-validation gate metric"),
        ([], "nothing to check"),
    ):
        assert main(["gate", runs["leaky"], *args]) == 2
        err = capsys.readouterr().err.strip()
        assert words in err and "\n" not in err, err


def test_the_methods_list_is_the_cores():
    from inspect_stance.validation import gate, method

    assert set(method.GATE_METRICS) == set(gate.GATE_METRICS)
    assert method.GATE_METRICS[0] == gate.HEADLINE
    assert method.PROMPT_VALIDATION.gate is not None
    assert method.PROMPT_VALIDATION.gate.min_flag == gate.MAX_FLAG
