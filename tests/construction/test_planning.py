"""The prompt-construction planner: nested components against the textbook balanced nested
ANOVA, the prediction at the pilot's design against the gap's own SE over settings, the calls
of the solver and scorer, reading a log, bad input, and the subsampling check (slow tier)."""

from __future__ import annotations

import importlib.util
import math
from pathlib import Path

import numpy as np
import pytest

from inspect_stance.construction.compare import construction_gap
from inspect_stance.construction.plan_output import plan_json
from inspect_stance.construction.planning import (
    construction_calls,
    gap_components,
    plan_construction_gap,
)
from inspect_stance.construction.records import Record
from inspect_stance.construction.settings import GENERATED, TEMPLATED, Setting
from inspect_stance.errors import InputError

ROOT = Path(__file__).resolve().parents[2]
B, P, R, J = 12, 4, 3, 3


def _array(rng: np.random.Generator, b: int = B, p: int = P, r: int = R) -> np.ndarray:
    """Judgments |score - 3| shaped (settings, 2 methods, prompts, responses, judges)."""
    gap = rng.normal(0, 0.4, (b, 1, 1, 1, 1)) * np.array([1, 0]).reshape(1, 2, 1, 1, 1)
    x = (3.5 + gap + rng.normal(0, 0.5, (b, 2, p, 1, 1)) + rng.normal(0, 0.4, (b, 2, p, r, 1))
         + rng.normal(0, 0.5, (b, 2, p, r, J)))  # fmt: skip
    return np.abs(np.clip(np.rint(x), 1, 5) - 3)


def _records(x: np.ndarray) -> list[Record]:
    out = []
    for s in range(x.shape[0]):
        for m, method in enumerate((TEMPLATED, GENERATED)):
            for k in range(x.shape[2]):
                for r in range(x.shape[3]):
                    labels = tuple(str(int(3 + v)) for v in x[s, m, k, r])
                    out.append(Record(f"{s}-{method}-{k}-r{r}", Setting(s, "writing", "neutral"),
                                      method, labels[0], labels, judges=("a", "b", "c"),
                                      prompt_text=f"{s}-{method}-{k}"))  # fmt: skip
    return out


def _nested_anova(y: np.ndarray) -> tuple[float, float, float]:
    """Textbook balanced nested ANOVA of one method, y (settings, prompts, responses, judges):
    sigma_J = MS_J, sigma_R = (MS_R - MS_J) / J, sigma_P = (MS_P - MS_R) / (R J)."""
    b, p, r, j = y.shape
    resp = y.mean(axis=3)
    prom = resp.mean(axis=2)
    ms_j = ((y - resp[..., None]) ** 2).sum() / (b * p * r * (j - 1))
    ms_r = j * ((resp - prom[..., None]) ** 2).sum() / (b * p * (r - 1))
    ms_p = r * j * ((prom - prom.mean(axis=1, keepdims=True)) ** 2).sum() / (b * (p - 1))
    return (ms_p - ms_r) / (r * j), (ms_r - ms_j) / j, ms_j


def test_components_are_the_nested_anova_by_hand() -> None:
    x = _array(np.random.default_rng(1))
    vc = gap_components(_records(x))
    for m, name in enumerate(("templated", "generated")):
        hand = _nested_anova(x[:, m])
        for level, value in zip(("prompt", "response", "judge"), hand, strict=True):
            got = vc.sigma2[vc.level_names.index(f"{name} {level}")]
            assert got == pytest.approx(max(value, 0.0))
    means = x.mean(axis=(2, 3, 4))
    d = means[:, 0] - means[:, 1]
    within = sum(_nested_anova(x[:, m])[0] / P + _nested_anova(x[:, m])[1] / (P * R)
                 + _nested_anova(x[:, m])[2] / (P * R * J) for m in (0, 1))  # fmt: skip
    assert vc.between == pytest.approx(max(d.var(ddof=1) - within, 0.0))
    # at the pilot's design the prediction is the gap's SE over settings, as compare tests it
    gap = construction_gap(_records(x), "x", 0.95)
    assert gap is not None and gap.delta == pytest.approx(d.mean())
    assert vc.se(B, (P, R, J)) == pytest.approx(d.std(ddof=1) / math.sqrt(B))


def test_calls_follow_the_solver_and_scorer() -> None:
    plain = construction_calls({}, judges=3)  # 3 stances, 1 judge prompt, a prompter call
    assert plain.calls(18, 10, 1) == 18 * 3 * (1 + 2 * 10 * 1 * (1 + 3))
    ctl = construction_calls({"judge_prompt": "original,none,swapped", "reversed_rubric": True,
                              "prompts_from": "p.csv", "stances": "neutral"}, judges=2)  # fmt: skip
    assert ctl.calls(4, 5, 2) == 4 * 1 * (0 + 2 * 5 * 2 * (1 + 2 * 4))


def test_recommendation_and_json() -> None:
    x = _array(np.random.default_rng(2))
    plan = plan_construction_gap(_records(x), {}, target_se=0.05, max_settings=2000)
    rec = plan.recommended
    assert rec is not None and rec.judges == J
    vc = gap_components(_records(x))
    d = (rec.prompts, rec.responses, rec.judges)
    assert (
        vc.prob_se_below(0.05, rec.settings, d) >= 0.8 > vc.prob_se_below(0.05, rec.settings - 1, d)
    )
    out = plan_json(plan)
    assert out["recommended"]["calls"] == rec.calls
    assert out["recommended"]["calls_by_variant"]["neutral_only"] * 3 == rec.calls


def test_bad_input_is_one_line() -> None:
    x = _array(np.random.default_rng(3))
    with pytest.raises(InputError, match="at least 2"):
        plan_construction_gap(_records(x[:1]))
    with pytest.raises(InputError, match="between 0 and 2"):
        plan_construction_gap(_records(x), detect=2.5)
    with pytest.raises(InputError, match="judge_prompt"):
        plan_construction_gap(_records(x), {"judge_prompt": "sideways"})


def test_one_response_per_prompt_is_folded() -> None:
    plan = plan_construction_gap(_records(_array(np.random.default_rng(4), r=1)))
    folded = plan.runs[0]["components"]["not_separable"]
    assert folded == ["templated response", "generated response"]


def _bench():
    path = ROOT / "benchmarks" / "press_construction_plan_check.py"
    spec = importlib.util.spec_from_file_location("press_construction_plan_check", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.slow
def test_subsampling_check() -> None:
    """Prediction within 5 % of the realised SE; the assured design meets the target in P of
    the resamples within 3 binomial SEs; the point prediction in fewer."""
    reps, p = 200, 0.8
    r = _bench().check("construction", reps, p)
    noise = 3 * math.sqrt(p * (1 - p) / reps)
    assert abs(r["obs_over_pred"] - 1) < 0.05
    assert abs(r["met_assured"] - p) < noise
    assert r["met_point"] < p - noise


def write_construction_log(path: Path, x: np.ndarray, task: str = "prompt_construction") -> str:
    """A prompt_construction log whose samples carry the scorer's metadata for ``x``."""
    from inspect_ai.log import (
        EvalConfig,
        EvalDataset,
        EvalLog,
        EvalSample,
        EvalSpec,
        write_eval_log,
    )
    from inspect_ai.scorer import Score

    samples = []
    for r in _records(x):
        meta = {"topic_id": r.setting.topic_id, "intent": r.setting.intent,
                "stance": r.setting.stance, "method": r.method, "outcome": r.outcome,
                "judges": list(r.judges), "prompt_text": r.prompt_text,
                "judge_labels": dict(zip(r.judges, r.judge_labels, strict=True))}  # fmt: skip
        samples.append(EvalSample(id=r.sample_id, epoch=1, input="x", target="",
                                  scores={"stance_ensemble": Score(value=r.outcome,
                                                                   metadata=meta)}))  # fmt: skip
    spec = EvalSpec(created="2026-01-01T00:00:00+00:00", task=task, dataset=EvalDataset(),
                    model="m/target", config=EvalConfig(),
                    task_args={"stances": "neutral", "responses_per_prompt": R})  # fmt: skip
    write_eval_log(EvalLog(eval=spec, samples=samples, status="success"), str(path))
    return str(path)


def test_a_log_is_read_and_planned(tmp_path) -> None:
    from inspect_stance.construction.plan_output import load_pilot

    x = _array(np.random.default_rng(7))
    records, args, model = load_pilot(write_construction_log(tmp_path / "c.eval", x))
    assert model == "m/target" and args["stances"] == "neutral"
    plan = plan_construction_gap(records, args, target_se=0.08)
    assert plan.calls.stances == 1 and plan.recommended is not None
    assert plan.runs[0]["gap"] == pytest.approx(
        float((x[:, 0].mean(axis=(1, 2, 3)) - x[:, 1].mean(axis=(1, 2, 3))).mean())
    )


def test_plan_command_gives_recommended(tmp_path, capsys) -> None:
    import json

    from inspect_stance.cli import main

    path = write_construction_log(tmp_path / "c.eval", _array(np.random.default_rng(9)))
    assert main(["plan", path, "--json", "--target-se", "0.1", "--max-settings", "500"]) == 0
    out = json.loads(capsys.readouterr().out)
    r = out["recommended"]
    assert r["method"] == "prompt_construction" and r["judges"] == J
    assert r["calls"] == r["settings"] * (1 + 2 * r["prompts"] * r["responses"] * (1 + J))
    assert r["prob_meets_target"] >= 0.8
    x = _array(np.random.default_rng(9), b=1)
    assert main(["plan", write_construction_log(tmp_path / "one.eval", x)]) == 2
    assert "at least 2" in capsys.readouterr().err
