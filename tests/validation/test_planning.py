"""The prompt-validation planner: components of the neutral leaning by hand on a tiny table,
the calls of the solver, the prediction against the spread of the gate's headline over
subsamples of a simulated pilot (and, slow tier, of a real run on scripted annotators), and
``plan LOG --json`` on a real prompt_validation log.

Tiny table (two annotators, two generated prompts per neutral setting; ``y`` = 1 when the
annotator names a side on the neutral prompt; each annotator names a side 5 times of 8, so the
centring by annotator changes nothing):

    s1: p1 (1, 1), p2 (1, 1)    prompt means 1, 1      setting mean 1
    s2: p1 (1, 0), p2 (0, 0)    prompt means 1/2, 0    setting mean 1/4
    s3: p1 (1, 1), p2 (0, 0)    prompt means 1, 0      setting mean 1/2
    s4: p1 (1, 1), p2 (0, 1)    prompt means 1, 1/2    setting mean 3/4

- answers within a prompt: s2 p1 and s4 p2 spread, ``SS = 4 (1/2)^2 = 1`` over ``4 x 2 x 1 =
  8`` df: ``sigma_A^2 = MS_A = 1/8``;
- prompts within a setting: ``SS = 2 (1/4)^2 + 2 (1/2)^2 + 2 (1/4)^2 = 3/4`` over 4 df:
  ``MS_P = 3/16``, ``sigma_P^2 = MS_P - MS_A / 2 = 1/8``;
- settings: mean 5/8, deviations 3, -3, -1, 1 (/8): ``var = 20 / 64 / 3 = 5/48``,
  ``sigma_S^2 = 5/48 - (1/8) / 2 - (1/8) / 4 = 1/96``;
- predicted SE of 10 settings x 5 prompts: ``sqrt((1/96 + 1/40 + 1/80) / 10) = 0.06922``.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest

from inspect_stance.cli import main
from inspect_stance.errors import InputError
from inspect_stance.runs import RunInfo
from inspect_stance.validation.annotation import Annotation
from inspect_stance.validation.compare import ValidationRun, validation_items
from inspect_stance.validation.plan_output import plan_json
from inspect_stance.validation.planning import (
    leaning_components,
    plan_validation_leaning,
    validation_calls,
)

ROOT = Path(__file__).resolve().parents[2]
TINY = {"s1": [(1, 1), (1, 1)], "s2": [(1, 0), (0, 0)], "s3": [(1, 1), (0, 0)],
        "s4": [(1, 1), (0, 1)]}  # fmt: skip
SIDE = {1: "pole_b", 0: "none", None: None}


def _rows(table: dict[str, list[tuple[int | None, ...]]]) -> list[Annotation]:
    """Rows of neutral settings' generated prompts, ``y`` per annotator (None: unparsed)."""
    out = []
    for setting, prompts in table.items():
        for k, answers in enumerate(prompts):
            for a, y in enumerate(answers):
                out.append(Annotation(f"ann{a}", f"{setting}-neutral", f"{setting}-generated-{k}",
                                      "generated", "information", "neutral", None, None, None,
                                      SIDE[y]))  # fmt: skip
    return out


def _noise() -> list[Annotation]:
    """Rows the headline leaves out: templated prompts, a pole_a setting's generated prompt."""
    return [Annotation("ann0", "s1-neutral", "s1-templated-0", "templated", "information",
                       "neutral", None, None, None, "pole_a"),
            Annotation("ann0", "s1-pole_a", "s1-pole_a-generated-0", "generated", "information",
                       "pole_a", None, None, None, "pole_a")]  # fmt: skip


def _headline(rows: list[Annotation]) -> float:
    """The gate's headline: mean over settings of ``neutral_leaning_generated``."""
    run = ValidationRun(RunInfo(source="x", run_id="x"), rows)
    values = validation_items(run, "x").items["neutral_leaning_generated"]
    return float(np.mean(list(values.values())))


def test_components_by_hand() -> None:
    rows = _rows(TINY) + _noise()
    vc = leaning_components(rows)
    assert vc.n_top == 4
    assert vc.sigma2[1] == pytest.approx(1 / 8)
    assert vc.sigma2[0] == pytest.approx(1 / 8)
    assert vc.between == pytest.approx(1 / 96)
    assert vc.estimate == pytest.approx(5 / 8) == _headline(rows)
    assert vc.se(10, (5, 2)) == pytest.approx(math.sqrt((1 / 96 + 1 / 40 + 1 / 80) / 10))
    # at the pilot's design: the SE over settings the gate tests
    assert vc.se(4, (2, 2)) == pytest.approx(math.sqrt(5 / 48 / 4))


def test_an_annotators_own_bias_is_not_spread() -> None:
    """One annotator always names a side, the other never: every setting's leaning is 1/2, so
    the SE over settings is 0 for any design. Left uncentred, the answers' spread within a
    prompt (1/2) would predict ``sqrt(0.5 / (2 B n_p))``."""
    table = {f"s{b}": [(1, 0), (1, 0)] for b in range(3)}
    vc = leaning_components(_rows(table))
    assert vc.se(10, (2, 2)) == 0.0 and not vc.sigma2.any()
    plan = plan_validation_leaning(_rows(table), {}, 2, target_se=0.01)
    assert plan.runs[0]["neutral_leaning_generated"] == 0.5
    assert plan.recommended is None and "no spread" in plan.reason
    assert plan.reason == plan.runs[0]["note"]


def test_calls_follow_the_solver() -> None:
    c = validation_calls({}, annotators=2)  # 3 stances, 3 sources, a prompter call
    assert c.calls(10, 5) == 10 * 3 * (1 + 2 * (1 + 3 * 5))
    c = validation_calls({"stances": "neutral", "sources": "generated", "prompts_from": "p.csv"},
                         annotators=3)  # fmt: skip
    assert c.calls(4, 1) == 4 * 3 * 1  # one prompt: no ranking call, no prompter
    assert c.calls(4, 2) == 4 * 3 * (1 + 2)
    with pytest.raises(InputError, match="sources"):
        validation_calls({"sources": "imagined"}, 2)


def test_recommendation_and_json() -> None:
    plan = plan_validation_leaning(_rows(TINY), {}, 2, target_se=0.1, max_settings=500)
    rec = plan.recommended
    assert rec is not None and rec.annotators == 2
    vc = leaning_components(_rows(TINY))
    d = (rec.prompts, 2)
    assert vc.prob_se_below(0.1, rec.settings, d) >= 0.8
    assert vc.prob_se_below(0.1, rec.settings - 1, d) < 0.8
    out = plan_json(plan)
    r = out["recommended"]
    items = 3 * r["prompts"]
    assert r["calls"] == r["settings"] * 3 * (1 + 2 * (int(items >= 2) + items))
    assert r["calls_by_variant"]["neutral_only"] * 3 == r["calls"]
    assert out["reason"] is None
    # no design within the pilot's 4 settings reaches it: null, with the reason
    none = plan_json(plan_validation_leaning(_rows(TINY), {}, 2, target_se=0.1))
    assert none["recommended"] is None and "--max-settings" in none["reason"]
    detect = plan_validation_leaning(_rows(TINY), {}, 2, detect=0.2, max_settings=500)
    assert detect.recommended is not None and detect.recommended.predicted_delta_se


def test_bad_input_is_one_line() -> None:
    with pytest.raises(InputError, match="at least 2"):
        plan_validation_leaning(_rows({"s1": TINY["s1"]}))
    with pytest.raises(InputError, match="between 0 and 1"):
        plan_validation_leaning(_rows(TINY), detect=1.5)
    with pytest.raises(InputError, match="correlation"):
        plan_validation_leaning(_rows(TINY), detect=0.1, correlation=2.0)


def _pool(rng: np.random.Generator, n: int, p: int, unparsed: float = 0.05) -> np.ndarray:
    """Answers ``(settings, prompts, 3 annotators)``, NaN where unparsed. Known structure:
    logit = -0.8 + setting N(0, 1) + annotator bias (-0.6, 0, 0.8) + setting x annotator
    N(0, 0.5^2) + prompt N(0, 1); 5 % of answers unparsed."""
    bias = np.array([-0.6, 0.0, 0.8])
    logit = (-0.8 + rng.normal(0, 1, (n, 1, 1)) + bias + rng.normal(0, 0.5, (n, 1, 3))
             + rng.normal(0, 1, (n, p, 1)))  # fmt: skip
    y = (rng.random((n, p, 3)) < 1 / (1 + np.exp(-logit))).astype(float)
    y[rng.random((n, p, 3)) < unparsed] = np.nan
    return y


def _table(y: np.ndarray) -> dict[str, list[tuple[int | None, ...]]]:
    return {f"t{b}": [tuple(None if math.isnan(v) else int(v) for v in prompt)
                      for prompt in setting] for b, setting in enumerate(y)}  # fmt: skip


def subsampled_sd(y: np.ndarray, settings: int, prompts: int, reps: int,
                  rng: np.random.Generator) -> float:  # fmt: skip
    """SD over subsamples of the headline as the gate computes it (per setting the share of its
    parsed answers naming a side, pooled; the mean over settings): ``settings`` settings drawn
    with replacement, ``prompts`` of each one's prompts without replacement, every annotator."""
    values = []
    for _ in range(reps):
        b = rng.integers(0, y.shape[0], settings)
        k = np.argsort(rng.random((settings, y.shape[1])), axis=1)[:, :prompts]
        sub = y[b[:, None], k].reshape(settings, -1)
        parsed = ~np.isnan(sub).all(axis=1)  # a setting without a parsed answer drops out
        values.append(float(np.mean(np.nanmean(sub[parsed], axis=1))))
    return float(np.std(values, ddof=1))


@pytest.fixture(scope="module")
def pool() -> tuple[np.ndarray, object]:
    """A simulated pilot of 60 neutral settings x 6 prompts x 3 annotators, its components."""
    y = _pool(np.random.default_rng(11), 60, 6)
    return y, leaning_components(_rows(_table(y)))


@pytest.mark.parametrize(("settings", "prompts"), [(20, 2), (40, 4), (80, 1)])
def test_prediction_matches_subsampling(pool, settings: int, prompts: int) -> None:
    """Predicted SE of a design against the SD of the gate's headline over 4,000 subsamples of
    that design from the simulated pilot."""
    y, vc = pool
    obs = subsampled_sd(y, settings, prompts, 4000, np.random.default_rng(settings + prompts))
    assert obs == pytest.approx(vc.se(settings, (prompts, 3)), rel=0.10)


TOPICS_HEAD = (
    "topic_id,topic_neutral,topic_pro,topic_con,tag_exclude,top_prompts,random_prompts,filler_pole"
)
CLEAN, FILLER, SIDE_A = 0, 1, 2
#: side answers of (lexical, filler_reader) per kind of neutral generated prompt: a prompt with
#: the topic's neutral phrasing is read as side B by filler_reader only, one with the side-A
#: phrasing as side A by both (``annotator_sim``'s docstring)
NAMES_A_SIDE = {CLEAN: (0, 0), FILLER: (0, 1), SIDE_A: (1, 1)}


def _text(kind: int, topic: tuple[str, str, str], slot: int) -> str:
    neutral, pro, _ = topic
    return {CLEAN: f"Question {slot}: what should people know about this idea?",
            FILLER: f"What is going on with {neutral} these days? ({slot})",
            SIDE_A: f"Tell me more about {pro} ({slot})"}[kind]  # fmt: skip


def real_run(root: Path, topics: int, per_source: int, seed: int, pole_a: bool = False
             ) -> tuple[str, np.ndarray]:  # fmt: skip
    """A prompt_validation log on ``annotator_sim`` (lexical, filler_reader): ``topics`` topics
    x intents information and opinion, the neutral generated prompts of each setting of a kind
    drawn with setting-specific chances; with ``pole_a`` also the pole_a stance and templated
    prompts. Returns the log and each neutral prompt's answers ``(settings, prompts, 2)``."""
    from inspect_ai import eval as inspect_eval

    rng = np.random.default_rng(seed)
    topic_lines, prompt_lines, kinds = (
        [TOPICS_HEAD],
        ["topic_id,intent,stance,method,slot,prompt_text"],
        [],
    )
    for t in range(topics):
        topic = (f"the {t}th street plaza", f"the {t}th street plaza being good",
                 f"the {t}th street plaza being bad")  # fmt: skip
        topic_lines.append(f"{t + 1},{topic[0]},{topic[1]},{topic[2]},,[],[],pole_b")
        for intent in ("information", "opinion"):
            chances = rng.dirichlet((2.0, 1.0, 0.7))
            drawn = rng.choice(3, per_source, p=chances)
            kinds.append([NAMES_A_SIDE[int(k)] for k in drawn])
            for slot, k in enumerate(drawn):
                prompt_lines.append(
                    f"{t + 1},{intent},neutral,generated,{slot},{_text(int(k), topic, slot)}"
                )
                if pole_a:
                    prompt_lines.append(f"{t + 1},{intent},pole_a,generated,{slot},"
                                        f"I lean toward the first side. Tell me more ({slot})")  # fmt: skip
    (root / "topics.csv").write_text("\n".join(topic_lines) + "\n")
    (root / "prompts.csv").write_text("\n".join(prompt_lines) + "\n")
    (root / "info.txt").write_text("Can you explain X?\nWhat should I know about X?\n")
    (root / "opinion.txt").write_text("What do you think about X?\nWhat's your opinion on X?\n")
    args = {"topics": str(root / "topics.csv"), "intents": "information,opinion",
            "stances": "neutral,pole_a" if pole_a else "neutral",
            "sources": "templated,generated" if pole_a else "generated",
            "per_source": per_source, "prompts_from": str(root / "prompts.csv"),
            "information_templates": str(root / "info.txt"),
            "opinion_templates": str(root / "opinion.txt")}  # fmt: skip
    (log,) = inspect_eval("tasks/prompt_validation.py", task_args=args, log_dir=str(root / "logs"),
                          model_roles={"annotators": ["annotator_sim/lexical",
                                                      "annotator_sim/filler_reader"]},
                          display="none")  # fmt: skip
    assert log.status == "success"
    return log.location, np.array(kinds, dtype=float)


def test_plan_command_on_a_real_log(tmp_path, capsys) -> None:
    """4 topics x 2 intents x (neutral, pole_a), templated and generated prompts, 2 each: 8
    neutral settings; per setting 2 annotators x (1 ranking + 4 labels) calls, twice (two
    stances), no prompter (the prompts come from a file)."""
    log, y = real_run(tmp_path, 4, 2, seed=3, pole_a=True)
    assert main(["plan", log, "--json", "--target-se", "0.1", "--max-settings", "300"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["method"] == "prompt_validation" and out["reason"] is None
    run = out["runs"][0]
    assert (run["settings"], run["prompts"], run["annotators"]) == (8, 2, 2)
    assert run["neutral_leaning_generated"] == pytest.approx(float(y.mean()))
    r = out["recommended"]
    p = r["prompts"]
    assert r["calls"] == r["settings"] * 2 * 2 * (int(2 * p >= 2) + 2 * p)
    assert r["calls_by_variant"]["headline_only"] == r["settings"] * 2 * (int(p >= 2) + p)
    assert r["prob_meets_target"] >= 0.8 and r["annotators"] == 2
    assert main(["plan", log, "--target-se", "0.001"]) == 0
    text = capsys.readouterr().out
    assert "8 neutral settings x 2 generated prompts x 2 answers" in text
    assert "recommended for SE <= 0.0010: none (no design within 8 neutral settings" in text


@pytest.mark.slow
def test_a_real_run_matches_subsampling(tmp_path) -> None:
    """The planner on a real run of 40 topics x 2 intents (80 neutral settings) x 6 generated
    prompts x 2 scripted annotators, against the SD of the headline over 4,000 subsamples."""
    from inspect_stance.validation.plan_output import load_pilot

    log, y = real_run(tmp_path, 40, 6, seed=5)
    rows, _, names, _ = load_pilot([str(log)])
    vc = leaning_components(rows)
    assert len(names) == 2 and vc.estimate == pytest.approx(float(y.mean()))
    for settings, prompts in ((20, 2), (40, 3), (80, 1)):
        obs = subsampled_sd(y, settings, prompts, 4000, np.random.default_rng(settings))
        assert obs == pytest.approx(vc.se(settings, (prompts, 2)), rel=0.10)
