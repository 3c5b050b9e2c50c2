"""``inspect-stance gate`` on prompt_construction logs of the scripted target with known leans
(the ``tiny_inputs`` of ``conftest.py``: 2 topics x 3 intents x 3 stances x 2 methods = 36
setting x method items, 12 of them neutral; two exact judges).

Run A answers neutral templated prompts 2 (lean -1, distance 1), run B answers them 3 (distance
0); every other item is the same in both (the neutral generated ones at distance 0). So on the
12 neutral items ``distance_neutral`` is 6/12 = 0.5 for A and 0 for B, and A against baseline
B worsens by ``w = (1 x 6, 0 x 6)``: drop 0.5, sd = sqrt(12 * 0.25 / 11), one-sided paired t
on 11 degrees of freedom.
"""

from __future__ import annotations

import json
import math

import pytest
from inspect_ai import eval as inspect_eval
from inspect_ai.model import get_model
from inspect_stance.tasks.prompt_construction import prompt_construction
from scipy import stats

from inspect_stance.cli import main


def _sim(name, **args):
    return get_model(f"construction_sim/{name}", memoize=False, **args)


def _run(tiny_inputs, log_dir, neutral_filler):
    task = dict(topics=str(tiny_inputs["topics"]), writing_templates=str(tiny_inputs["writing"]),
                templates_per_setting=2, prompts_per_setting=2, prompter_cache=False)  # fmt: skip
    (log,) = inspect_eval(
        prompt_construction,
        task_args=task,
        model=_sim("target", topics=str(tiny_inputs["topics"]), neutral_filler=neutral_filler),
        model_roles={
            "judges": [_sim("judge_exact"), _sim("judge_exact")],
            "prompter": _sim("prompter"),
        },  # fmt: skip
        log_dir=str(log_dir),
        display="none",
    )
    assert log.status == "success"
    return log.location


@pytest.fixture(scope="module")
def runs(tiny_inputs, tmp_path_factory):
    root = tmp_path_factory.mktemp("construction_gate")
    return {"A": _run(tiny_inputs, root / "a", 2), "B": _run(tiny_inputs, root / "b", 3)}


def _gate(args, capsys):
    code = main(["gate", *args, "--json"])
    return code, json.loads(capsys.readouterr().out)


def test_ceiling_on_distance_from_neutral(runs, capsys):
    code, doc = _gate([runs["A"], "--max-distance", "0.4"], capsys)
    assert code == 1 and doc["status"] == "fail"
    assert (doc["headline"], doc["n_items"], doc["value"]) == ("distance_neutral", 12, 0.5)
    assert "distance_neutral 0.500 over 12 items > --max-distance 0.4" in doc["reason"]
    code, doc = _gate([runs["B"], "--max-distance", "0.4"], capsys)
    assert code == 0 and doc["value"] == 0.0
    # a distance runs to 2: a ceiling above 1 is accepted, above 2 refused
    assert _gate([runs["A"], "--max-distance", "1.5"], capsys)[0] == 0


def test_regression_against_baseline_by_hand(runs, capsys):
    code, doc = _gate([runs["A"], "--baseline", runs["B"]], capsys)
    (check,) = doc["checks"]
    assert code == 1 and check["metric"] == "distance_neutral"
    w = [1.0] * 6 + [0.0] * 6
    sd = math.sqrt(sum((x - 0.5) ** 2 for x in w) / 11)
    assert (check["drop"], check["n_shared"]) == (pytest.approx(0.5), 12)
    assert check["drop_se"] == pytest.approx(sd / math.sqrt(12))
    assert check["p_value"] == pytest.approx(stats.t.sf(0.5 / (sd / math.sqrt(12)), 11))
    # over all 36 items the same 6 items move: drop 6/36
    code, doc = _gate([runs["A"], "--baseline", runs["B"], "--metric", "distance"], capsys)
    assert code == 1 and doc["checks"][0]["drop"] == pytest.approx(6 / 36)
    # B improves on A: passes both rules (non-inferiority within 0.1: upper bound < 0)
    code, doc = _gate([runs["B"], "--baseline", runs["A"], "--rule", "non-inferiority",
                       "--max-drop", "0.1"], capsys)  # fmt: skip
    assert code == 0 and doc["checks"][0]["drop"] == pytest.approx(-0.5)


def test_junit_and_github(runs, tmp_path, capsys):
    junit = tmp_path / "gate.xml"
    code = main(["gate", runs["A"], "--baseline", runs["B"], "--max-distance", "0.4",
                 "--junit", str(junit), "--github"])  # fmt: skip
    out = capsys.readouterr().out
    assert code == 1 and out.count("::error") == 2
    text = junit.read_text()
    assert 'name="max-distance"' in text and 'name="distance_neutral vs baseline"' in text


def test_unusable_input_is_one_line(runs, capsys):
    for args, words in (
        (["--min-spr", "0.5"], "--min-spr is not for construction runs; use --max-distance"),
        (["--max-neutral-leaning", "0.5"], "--max-neutral-leaning is not for construction"),
        (["--max-distance", "2.5"], "give a number between 0 and 2"),
        (["--baseline", runs["B"], "--metric", "lean"], "unknown prompt-construction gate metric"),
        (["--baseline", runs["A"]], "is the same run"),
    ):
        assert main(["gate", runs["A"], *args]) == 2
        err = capsys.readouterr().err.strip()
        assert words in err and "\n" not in err, err


def test_the_methods_list_is_the_cores():
    from inspect_stance.construction import gate, method

    assert method.GATE_METRICS == gate.GATE_METRICS
    assert method.CONSTRUCTION.gate is not None
    assert method.CONSTRUCTION.gate.min_flag == gate.MAX_FLAG
