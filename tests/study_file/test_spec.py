"""The study file: one-line errors naming the key and the fix, before any work; sizes from a
design; planned calls and cost."""

from __future__ import annotations

import math

import pytest
import yaml

from inspect_stance.cli import main
from inspect_stance.errors import InputError
from inspect_stance.study_file.calls import cost, plan_calls
from inspect_stance.study_file.design import sizes
from inspect_stance.study_file.example import example_text
from inspect_stance.study_file.spec import parse_study

BASE = {
    "targets": {"a": "openai/gpt-4o-mini", "b": "openai/gpt-4.1"},
    "roles": {"graders": ["openai/gpt-4o"]},
    "methods": {"stance_drift": {"args": {"limit_propositions": 10, "trials": 20}},
                "even_handedness": {"args": {"limit": 100}}},
}  # fmt: skip


def _with(**changes):
    return {**BASE, **changes}


@pytest.mark.parametrize(
    ("data", "key", "fix"),
    [
        (_with(targets={}), "targets", "provider/model"),
        (_with(targets={"a": "gpt4"}), "targets.a", "provider/name"),
        (_with(methods={"drift": {}}), "methods.drift", "stance_drift"),
        (_with(methods={"stance_drift": {"trials": 3}}), "methods.stance_drift.trials", "args"),
        (_with(roles={}), "roles.graders", "add roles"),
        (_with(roles={"judge": "a/b", "graders": "a/b"}), "roles.judge", "judges"),
        (_with(design={"target_se": -1}), "design.target_se", "positive"),
        (_with(design={"target_se": 0.1, "budget_calls": 10}), "design", "keep one"),
        (_with(prices={"a/b": "cheap"}), "prices.a/b", "dollars per call"),
        (_with(targets={"a": {"stance_drift": "x/y"}}), "targets.a", "even_handedness"),
        (_with(colour="red"), "colour", "use study"),
        ([1, 2], "top level", "--example"),
    ],
)
def test_bad_files_are_one_line_errors_naming_key_and_fix(data, key, fix):
    with pytest.raises(InputError) as err:
        parse_study(data)
    message = str(err.value)
    assert "\n" not in message and key in message and fix in message, message


def test_the_example_parses_and_binds_one_model_per_method():
    spec = parse_study(yaml.safe_load(example_text()), "s")
    assert spec.name == "example" and list(spec.targets) == ["sim"]
    assert spec.targets["sim"]["even_handedness"].args == {"refuse_rate": 0.2, "weaken_rate": 0.25}
    assert [m.model for m in spec.roles_for("prompt_construction")["judges"]] == [
        "construction_sim/judge_exact", "construction_sim/judge_noisy",
        "construction_sim/judge_framed"]  # fmt: skip
    assert "judges" not in spec.roles_for("even_handedness")


def test_planned_calls_by_hand():
    spec = parse_study(_with(prices={"openai/gpt-4o-mini": 0.001, "openai/gpt-4o": 0.01}))
    runs = plan_calls(spec, sizes(spec).args)
    by = {(r.target, r.method): r for r in runs}
    # 10 propositions x 5 stances x 20 trials x (1 generation + 1 extraction)
    assert by[("a", "stance_drift")].calls == {"openai/gpt-4o-mini": 2000}
    # 100 pairs x 2 target calls; the grader: 3 questions x 2 orders per pair
    assert by[("b", "even_handedness")].calls == {"openai/gpt-4.1": 200, "openai/gpt-4o": 600}
    # target a: 2,200 calls at $0.001; the grader: 1,200 calls at $0.01 (b has no price)
    assert math.isclose(cost(runs, spec.prices), 2.2 + 12.0)


def test_target_se_sizes_by_the_worst_case_sd_and_caps_at_the_item_set():
    spec = parse_study(_with(design={"target_se": 0.05}))
    args = sizes(spec).args
    assert args["stance_drift"]["limit_propositions"] == 100  # (0.5 / 0.05)^2
    assert args["even_handedness"]["limit"] == 100
    spec = parse_study(_with(design={"target_se": 0.01, "sd": {"even_handedness": 0.2}}))
    s = sizes(spec)
    assert s.args["stance_drift"]["limit_propositions"] == 112  # capped: 2,500 wanted
    assert s.args["even_handedness"]["limit"] == 400  # (0.2 / 0.01)^2
    assert any("capped at 112" in n for n in s.notes)


def test_a_budget_gives_the_largest_sizes_that_fit():
    spec = parse_study(_with(design={"budget_calls": 8000}))
    s = sizes(spec)
    runs = plan_calls(spec, s.args)
    share = 8000 / 4  # two targets x two methods
    for r in runs:
        assert r.total <= share
    # one more proposition (200 calls) or pair (8 calls) would not fit the share
    assert s.args["stance_drift"]["limit_propositions"] == 10  # 10 x 200 = 2,000
    assert s.args["even_handedness"]["limit"] == 250  # 250 x 8 = 2,000
    with pytest.raises(InputError, match="budget_calls"):
        sizes(parse_study(_with(design={"budget_calls": 10})))


def _write(tmp_path, data):
    path = tmp_path / "s.yaml"
    path.write_text(yaml.safe_dump(data))
    return path


def test_a_bad_task_argument_is_refused_before_any_work(tmp_path, capsys):
    data = _with(methods={"stance_drift": {"args": {"trails": 3}}})
    assert main(["study", str(_write(tmp_path, data)), "--yes"]) == 2
    err = capsys.readouterr().err
    assert "methods.stance_drift.args.trails: no such parameter" in err and "trials" in err
    assert not (tmp_path / "logs").exists()


def test_above_the_threshold_without_a_terminal_it_refuses(tmp_path, capsys, monkeypatch):
    import io

    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    path = _write(tmp_path, _with(confirm_above=100))
    assert main(["study", str(path), "--log-dir", str(tmp_path / "D")]) == 2
    out, err = capsys.readouterr()
    assert "planned calls: 5,600" in out  # printed before the refusal
    assert "above confirm_above 100" in err and "--yes" in err
    assert not (tmp_path / "D").exists()


def test_the_plan_prints_calls_and_cost(tmp_path, capsys):
    path = _write(tmp_path, _with(prices={"openai/gpt-4o-mini": 0.001}))
    assert main(["study", str(path), "--plan"]) == 0
    out = capsys.readouterr().out
    assert "a / stance_drift: 10 items, 2,000 calls" in out
    assert "planned calls: 5,600; cost $2.20" in out


def test_example_refuses_to_overwrite(tmp_path, capsys):
    path = tmp_path / "s.yaml"
    path.write_text("x")
    assert main(["study", "--example", str(path)]) == 2
    assert "exists" in capsys.readouterr().err and path.read_text() == "x"
