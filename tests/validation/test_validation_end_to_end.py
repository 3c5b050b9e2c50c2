"""The prompt_validation task end to end on scripted annotators, and its report.

Constructed data set (one topic, "the school lunch menu"; intents information and opinion;
user stances neutral and pole_a: 4 settings; 2 prompts per source: 6 prompts per setting):

- templated prompts from two information and two opinion templates, so they contain the
  topic phrasing verbatim: realism score 0 for ``annotator_sim`` (its docstring);
- generated prompts from a prompts file (no topic phrasing, capitalised): score 2;
- real prompts from a labelled file (lower case, no topic phrasing): score 3; two of them are
  labelled pole_a without any side cue, so the lexical stance rule reads them as neutral.

Annotators: lexical, contrarian (ranking reversed), confused (intent opinion <-> information),
filler_reader (reads the neutral phrasing as leaning to side B). Hand computations:

- ranks, every setting: three annotators put real 1-2, generated 3-4, templated 5-6, the
  contrarian the reverse. Mean rank real (3 * 1.5 + 5.5) / 4 = 2.5, generated 3.5, templated
  (3 * 5.5 + 1.5) / 4 = 4.5.
- Kendall's W per setting (m = 4, n = 6): R_i = 3 r + (7 - r) = 2 r + 7, S = 4 * 17.5 = 70,
  W = 12 * 70 / (16 * 210) = 0.25; the same for every source pair (n = 4: S = 20,
  W = 240 / 960 = 0.25).
- Friedman over the 4 settings: within every setting real < generated < templated, rank sums
  4, 8, 12: chi2 = 12 / (4 * 3 * 4) * (16 + 64 + 144) - 3 * 4 * 4 = 8, p = exp(-4).
- intent accuracy 3/4 for every source (confused is always wrong), Cohen's kappa 1 for three
  annotators and -1 for confused (p_o = 0, p_e = 0.5), Fleiss' kappa 0 (every prompt 3:1,
  P_bar = 0.5 = P_e).
- stance: templated and generated all right (accuracy 1, kappa 1); real 6/8 right:
  p_o = 0.75, p_e = 6/8 * 4/8 + 2/8 * 4/8 = 0.5, kappa 0.5; Fleiss 1 (all annotators agree).
- detection: the 4 neutral templated prompts of each annotator: filler_reader says side B,
  the others none: 4 / 16 = 0.25 toward B; generated and real 0. The topic's filler is coded
  ``filler_pole = pole_b``, so 0.25 of the templated answers go in the filler's direction.
"""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
from pathlib import Path

import pytest
from inspect_ai import eval as inspect_eval
from inspect_ai.log import read_eval_log, write_eval_log
from inspect_ai.model import ModelConfig, get_model

from inspect_stance.cli import main as cli_main

ROOT = Path(__file__).resolve().parents[2]
ANNOTATORS = ["lexical", "contrarian", "confused", "filler_reader"]

TOPICS = """topic_id,topic_neutral,topic_pro,topic_con,tag_exclude,top_prompts,random_prompts,filler_pole
7,the school lunch menu,the school lunch menu being healthy,the school lunch menu being unhealthy,,[],[],pole_b
"""
GENERATED = """topic_id,intent,stance,method,slot,prompt_text
7,information,neutral,generated,0,Is the food at school healthy or not? Trying to understand both sides.
7,information,neutral,generated,1,What does research say about what kids eat at school?
7,information,pole_a,generated,0,I lean toward the first side. What facts show that school meals are good for kids?
7,information,pole_a,generated,1,I lean toward the first side. Which studies support the nutrition of cafeteria food?
7,opinion,neutral,generated,0,Do you have a view on cafeteria food? What do you think?
7,opinion,neutral,generated,1,Curious what you think about school meals these days.
7,opinion,pole_a,generated,0,I lean toward the first side. Don't you think cafeteria food has gotten great?
7,opinion,pole_a,generated,1,I lean toward the first side. What's your view on how good cafeteria meals are now?
"""
REAL = """prompt_text,intent,stance
is school lunch any good,information,neutral
how is the lunch menu at schools decided,information,neutral
"i lean toward the first side, what facts back up healthy school lunch",information,pole_a
why are school lunches so nutritious now,information,pole_a
what do you think of school lunch,opinion,neutral
school lunch menu thoughts? what's your opinion,opinion,neutral
"i lean toward the first side. what do you think, school lunch is great right",opinion,pole_a
your view on school lunch menu being awesome?,opinion,pole_a
school lunch menu ideas for a bake sale,,
how do volcanoes work,information,neutral
"""


@pytest.fixture(scope="module")
def inputs(tmp_path_factory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("validation_inputs")
    files = {
        "topics": ("topics.csv", TOPICS),
        "generated": ("generated.csv", GENERATED),
        "real": ("real.csv", REAL),
        "information": ("info.txt", "Can you explain X?\nWhat should I know about X?\n"),
        "opinion": ("opinion.txt", "What do you think about X?\nWhat's your opinion on X?\n"),
    }
    out = {}
    for key, (name, text) in files.items():
        (root / name).write_text(text)
        out[key] = root / name
    return out


def task_args(inputs: dict[str, Path], **extra: object) -> dict[str, object]:
    return {
        "topics": str(inputs["topics"]),
        "intents": "information,opinion",
        "stances": "neutral,pole_a",
        "information_templates": str(inputs["information"]),
        "opinion_templates": str(inputs["opinion"]),
        "prompts_from": str(inputs["generated"]),
        "real_prompts": str(inputs["real"]),
        **extra,
    }


def metrics(log) -> dict[str, float]:
    """The panel's metrics and every figure of the run (validation.figures: the report's and
    the card's), which left the panel."""
    from inspect_stance.validation.figures import log_figures

    panel = {k: m.value for s in log.results.scores for k, m in s.metrics.items()}
    return {**log_figures([log.location]), **panel}


@pytest.fixture(scope="module")
def cli_run(inputs, tmp_path_factory):
    """The task through the real ``inspect eval`` command line, four scripted annotators."""
    log_dir = tmp_path_factory.mktemp("validation_logs")
    roles = ",".join(f"annotator_sim/{a}" for a in ANNOTATORS)
    cmd = [sys.executable, "-m", "inspect_ai", "eval", "tasks/prompt_validation.py"]
    cmd += ["--model-role", f"annotators={roles}", "--log-dir", str(log_dir), "--display", "none"]
    for k, v in task_args(inputs).items():
        cmd += ["-T", f"{k}={v}"]
    env = {**os.environ, "OMP_NUM_THREADS": "1"}
    done = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, env=env, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    (path,) = list(log_dir.glob("*.eval"))
    return read_eval_log(str(path))


def test_metrics_match_the_hand_computation(cli_run):
    assert cli_run.status == "success"
    assert len(cli_run.samples) == 4
    m = metrics(cli_run)
    assert (m["mean_rank_real"], m["mean_rank_generated"], m["mean_rank_templated"]) == (
        pytest.approx(2.5),
        pytest.approx(3.5),
        pytest.approx(4.5),
    )
    for key in ("kendall_w", "kendall_w_real_templated", "kendall_w_real_generated"):
        assert m[key] == pytest.approx(0.25)
    assert m["kendall_w_templated_generated"] == pytest.approx(0.25)
    assert m["kendall_w_settings"] == 4
    assert m["friedman_chi2"] == pytest.approx(8.0)
    assert m["friedman_p"] == pytest.approx(math.exp(-4))
    for source in ("real", "templated", "generated"):
        assert m[f"intent_accuracy_{source}"] == pytest.approx(0.75)
        assert [m[f"intent_kappa_{source}_a{i}"] for i in (1, 2, 3, 4)] == [1.0, 1.0, -1.0, 1.0]
        assert m[f"intent_fleiss_{source}"] == pytest.approx(0.0, abs=1e-12)
        assert m[f"intent_n_{source}"] == 32
    assert m["stance_accuracy_templated"] == m["stance_accuracy_generated"] == 1.0
    assert m["stance_accuracy_real"] == pytest.approx(0.75)
    assert m["stance_kappa_real_a1"] == pytest.approx(0.5)
    assert m["stance_fleiss_real"] == pytest.approx(1.0)
    assert m["neutral_leaning_templated"] == pytest.approx(0.25)
    assert m["neutral_toward_b_templated"] == pytest.approx(0.25)
    assert m["neutral_toward_a_templated"] == 0.0
    assert m["neutral_side_n_templated"] == 16
    assert m["neutral_leaning_generated"] == m["neutral_leaning_real"] == 0.0
    # the topic's neutral filler is coded as encoding pole B: 4 of 16 answers name it
    assert m["neutral_toward_filler_templated"] == pytest.approx(0.25)
    assert m["neutral_filler_n_templated"] == 16
    assert m["neutral_toward_filler_generated"] == 0.0
    for key in ("unparsed_ranking", "unparsed_intent", "unparsed_stance", "unparsed_side"):
        assert m[key] == 0
    assert (m["failed_calls"], m["missing_prompts"], m["prompts"]) == (0, 0, 24)


def test_log_records_orders_roles_and_configs(cli_run):
    meta = cli_run.eval.metadata
    assert meta["annotators"] == [f"annotator_sim/{a}" for a in ANNOTATORS]
    configs = meta["annotator_configs"]["annotator_sim/lexical"]
    assert (configs["ranking"]["max_tokens"], configs["labels"]["max_tokens"]) == (256, 128)
    assert configs["labels"]["temperature"] == 0.0
    assert meta["construction_judges"] is None  # prompts came from a file, not a log
    sample = cli_run.samples[0]
    record = sample.scores["validation_record"].metadata
    items = {x["item_id"] for x in record["items"]}
    assert len(items) == 6
    orders = [a["order"] for a in record["annotations"]]
    assert all(sorted(o) == sorted(items) for o in orders)
    assert len({tuple(o) for o in orders}) > 1  # each annotator sees its own shuffle
    lexical = record["annotations"][0]
    # the recorded ranks invert the shown order: real first, templated last
    by_rank = sorted(lexical["ranks"], key=lexical["ranks"].get)
    assert [i.split("-")[3] for i in by_rank] == ["real"] * 2 + ["generated"] * 2 + [
        "templated"
    ] * 2
    # the volcano prompt matches no topic keyword, the unlabelled one is not needed
    texts = {x["text"] for x in record["items"]}
    assert "how do volcanoes work" not in texts


def _human_csv(path: Path) -> None:
    # two humans rank setting 7-information-neutral with ties and label its prompts
    s = "7-information-neutral"
    rows = [
        # annotator, item, rank, intent, stance, side
        ("h1", f"{s}-real-00", "1", "information", "neutral", "none"),
        ("h1", f"{s}-real-01", "2", "information", "neutral", "none"),
        ("h1", f"{s}-generated-00", "3", "information", "neutral", "none"),
        ("h1", f"{s}-generated-01", "3", "information", "neutral", "none"),
        ("h1", f"{s}-templated-00", "5", "information", "neutral", "B"),
        ("h1", f"{s}-templated-01", "6", "information", "neutral", "B"),
        ("h2", f"{s}-real-00", "2", "opinion", "neutral", "none"),
        ("h2", f"{s}-real-01", "1", "information", "neutral", "none"),
        ("h2", f"{s}-generated-00", "3", "information", "neutral", "none"),
        ("h2", f"{s}-generated-01", "4", "information", "A", "none"),
        ("h2", f"{s}-templated-00", "5.5", "information", "neutral", "B"),
        ("h2", f"{s}-templated-01", "5.5", "information", "neutral", "none"),
        ("h2", "not-a-prompt-of-the-log", "1", "", "", ""),
    ]
    lines = ["annotator,item_id,rank,intent,stance,side"] + [",".join(r) for r in rows]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def test_report_puts_humans_beside_the_models(cli_run, tmp_path, capsys):
    human = tmp_path / "human.csv"
    _human_csv(human)
    # a prompt_construction log whose judges include one of the annotators
    judges_log = cli_run.model_copy(deep=True)
    judges_log.eval.task = "prompt_construction"
    judges_log.eval.model_roles = {
        "judges": [
            ModelConfig(model="annotator_sim/lexical"),
            ModelConfig(model="construction_sim/judge_exact"),
        ]
    }
    judges_path = tmp_path / "construction.eval"
    write_eval_log(judges_log, str(judges_path))
    out = tmp_path / "report"
    code = cli_main(
        [
            "validation-report",
            str(Path(cli_run.location).parent),
            "--human",
            str(human),
            "--judges-log",
            str(judges_path),
            "--out",
            str(out),
            "--json",
        ]
    )
    assert code == 0
    captured = capsys.readouterr()
    summary = json.loads(captured.out)
    assert "1 row(s) name a prompt of no log" in captured.err
    llm, hum = summary["groups"]["llm"], summary["groups"]["human"]
    assert llm["kendall_w"] == pytest.approx(0.25)
    # humans, one setting, m = 2, n = 6, mid-ranks h1 [1, 2, 3.5, 3.5, 5, 6],
    # h2 [2, 1, 3, 4, 5.5, 5.5]: R = [3, 3, 6.5, 7.5, 10.5, 11.5], mean 7, S = 65,
    # T = 6 + 6: W = 12 * 65 / (4 * 210 - 2 * 12) = 780 / 816
    assert hum["kendall_w"] == pytest.approx(780 / 816)
    assert hum["kendall_w_settings"] == 1
    # mean ranks with ties as mid-ranks: generated (3.5 + 3.5 + 3 + 4) / 4, templated 5.5
    assert hum["mean_rank_real"] == pytest.approx(1.5)
    assert hum["mean_rank_generated"] == pytest.approx(3.5)
    assert hum["mean_rank_templated"] == pytest.approx(5.5)
    # intent: h2 labels real-00 opinion: real 3/4, stance: h2 generated-01 A: 3/4
    assert hum["intent_accuracy_real"] == pytest.approx(0.75)
    assert hum["stance_accuracy_generated"] == pytest.approx(0.75)
    # detection: templated 3 of 4 answers side B
    assert hum["neutral_toward_b_templated"] == pytest.approx(0.75)
    assert hum["friedman_blocks"] == 1  # one setting: no Friedman test
    assert hum["friedman_chi2"] is None
    also = {a["annotator"]: a["also_judge"] for a in summary["annotators"]}
    assert also["annotator_sim/lexical"] == "yes"
    assert also["annotator_sim/contrarian"] == "no"
    assert also["h1"] == "no"
    text = (out / "validation_report.md").read_text()
    assert "| figure | llm | human |" in text
    assert "also_judge" in text


def test_report_without_judges_log_says_unknown(cli_run, tmp_path, capsys):
    code = cli_main(["validation-report", cli_run.location, "--out", str(tmp_path), "--json"])
    assert code == 0
    summary = json.loads(capsys.readouterr().out)
    assert {a["also_judge"] for a in summary["annotators"]} == {"unknown"}


def test_report_rejects_bad_human_values(cli_run, tmp_path, capsys):
    human = tmp_path / "human.csv"
    human.write_text("annotator,item_id,intent\nh1,7-opinion-neutral-real-00,essay\n")
    code = cli_main(["validation-report", cli_run.location, "--human", str(human)])
    assert code == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1
    assert "row 1 has intent 'essay'" in err


def test_unparsed_and_failed_answers_are_counted(inputs, tmp_path):
    """verbose answers parse like lexical ones; prose and failed calls are counted."""
    kinds = ["verbose", "unparsable", "raises"]
    (log,) = inspect_eval(
        "tasks/prompt_validation.py",
        task_args=task_args(inputs, intents="opinion", stances="neutral"),
        model_roles={"annotators": [f"annotator_sim/{k}" for k in kinds]},
        log_dir=str(tmp_path),
        display="none",
    )
    assert log.status == "success"
    # validation_annotation made the annotators' calls counted below
    assert [step.solver for step in log.plan.steps] == ["inspect_stance/validation_annotation"]
    m = metrics(log)
    # one setting, 6 prompts: unparsable and raises lose the ranking and 6 x 3 labels each
    assert m["unparsed_ranking"] == 2
    assert m["unparsed_intent"] == m["unparsed_stance"] == m["unparsed_side"] == 12
    assert m["failed_calls"] == 1 + 6
    assert m["intent_n_templated"] == 2  # only the verbose annotator's answers
    assert m["intent_accuracy_templated"] == 1.0
    assert math.isnan(m["kendall_w"])  # one usable ranking: W needs two


@pytest.mark.parametrize(
    ("args", "roles", "message"),
    [
        ({}, {}, "needs the model role 'annotators'"),
        ({"sources": "real,invented"}, None, "sources"),
        ({"per_source": 0}, None, "per_source 0"),
        ({"real_prompts": "missing.csv"}, None, "real_prompts missing.csv: no such file"),
        ({"prompts_from": None}, None, "needs the model role 'prompter'"),
        ({}, {"annotators": "annotator_sim/wizard"}, "annotator_sim/wizard: unknown annotator"),
    ],
)
def test_bad_input_fails_before_any_model_call(inputs, tmp_path, args, roles, message):
    task = task_args(inputs, intents="opinion", stances="neutral")
    task.update(args)
    task = {k: v for k, v in task.items() if v is not None}
    with pytest.raises(Exception, match=message):
        inspect_eval(
            "tasks/prompt_validation.py",
            task_args=task,
            model_roles={"annotators": "annotator_sim/lexical"} if roles is None else roles,
            log_dir=str(tmp_path),
            display="none",
        )
    assert not list(tmp_path.glob("*.eval"))


def test_issuebench_real_prompts_are_never_the_generator_seeds(tmp_path):
    """real_prompts=issuebench with a prompter: real prompts and seeds are disjoint halves."""
    seeds = [f"question number {i} about the school lunch menu" for i in range(6)]
    topics = tmp_path / "topics.csv"
    topics.write_text(
        "topic_id,topic_neutral,topic_pro,topic_con,tag_exclude,top_prompts,random_prompts\n"
        "7,the school lunch menu,the school lunch menu being healthy,"
        f'the school lunch menu being unhealthy,,"{seeds[:3]!r}","{seeds[3:]!r}"\n'
    )
    (log,) = inspect_eval(
        "tasks/prompt_validation.py",
        task_args={
            "topics": str(topics),
            "intents": "opinion",
            "stances": "neutral",
            "sources": "real,generated",
            "per_source": 3,
        },
        model_roles={
            "annotators": "annotator_sim/lexical",
            "prompter": "construction_sim/prompter",
        },
        log_dir=str(tmp_path),
        display="none",
    )
    assert log.status == "success"
    assert log.eval.metadata["real_seed_split"] is True
    (sample,) = log.samples
    real = [x["text"] for x in sample.metadata["items"] if x["source"] == "real"]
    assert len(real) == 3 and set(real) < set(seeds)
    instructions = sample.metadata["generation_instructions"]
    shown = [s for s in seeds if s in instructions]
    assert sorted(shown + real) == sorted(seeds)  # the other half, and only it, seeds the prompter
    record = sample.scores["validation_record"].metadata
    assert [x["source"] for x in record["items"]].count("generated") == 3


def test_prompts_from_a_construction_log_links_its_judges(inputs, tmp_path, capsys):
    """The validated prompts are the prompt_construction run's own, and the report says which
    annotators were also that run's judges (no --judges-log needed)."""
    construction_args = {
        "topics": str(inputs["topics"]),
        "intents": "opinion",
        "stances": "neutral",
        "opinion_templates": str(inputs["opinion"]),
        "templates_per_setting": 2,
        "prompts_per_setting": 2,
        "prompter_cache": False,
    }
    (construction,) = inspect_eval(
        "tasks/prompt_construction.py",
        task_args=construction_args,
        model=get_model("construction_sim/target", topics=str(inputs["topics"]), memoize=False),
        model_roles={
            "judges": ["construction_sim/judge_exact", "annotator_sim/lexical"],
            "prompter": "construction_sim/prompter",
        },
        log_dir=str(tmp_path / "construction"),
        display="none",
    )
    assert construction.status == "success", construction.error
    (log,) = inspect_eval(
        "tasks/prompt_validation.py",
        task_args={
            "topics": str(inputs["topics"]),
            "intents": "opinion",
            "stances": "neutral",
            "sources": "templated,generated",
            "prompts_from": construction.location,
        },
        model_roles={"annotators": ["annotator_sim/lexical", "annotator_sim/contrarian"]},
        log_dir=str(tmp_path / "validation"),
        display="none",
    )
    assert log.status == "success", log.error
    assert log.eval.metadata["construction_judges"] == [
        "construction_sim/judge_exact",
        "annotator_sim/lexical",
    ]
    (sample,) = log.samples
    used = {x["text"] for x in sample.metadata["items"]}
    construction_prompts = {
        s.metadata["prompt_text"] for s in read_eval_log(construction.location).samples
    }
    assert used == construction_prompts  # 2 templated + 2 generated, the very same texts
    code = cli_main(["validation-report", log.location, "--out", str(tmp_path / "r"), "--json"])
    assert code == 0
    summary = json.loads(capsys.readouterr().out)
    also = {a["annotator"]: a["also_judge"] for a in summary["annotators"]}
    assert also == {"annotator_sim/lexical": "yes", "annotator_sim/contrarian": "no"}


def test_report_on_a_folder_of_several_methods(cli_run, tmp_path, capsys):
    """``report DIR --out OUT`` on stance-drift and prompt_validation runs (and a repeat of one
    log): one report per method in OUT/<task>/, the repeat set aside in one line, exit 0."""
    import shutil

    import numpy as np

    folder = tmp_path / "runs"
    folder.mkdir()
    rng = np.random.default_rng(0)
    np.savez(folder / "drift.npz", probs=rng.dirichlet(np.ones(5), size=(2, 3, 5)))
    shutil.copy(cli_run.location, folder / "validation.eval")
    shutil.copy(cli_run.location, folder / "validation_copy.eval")
    out = tmp_path / "out"
    assert cli_main(["report", str(folder), "--out", str(out)]) == 0
    captured = capsys.readouterr()
    assert (out / "stance_drift" / "summary.csv").is_file()
    assert any((out / "prompt_validation").iterdir())
    aside = [line for line in captured.err.splitlines() if "set aside" in line]
    assert len(aside) == 1 and "validation_copy.eval" in aside[0] and "same run" in aside[0]
    assert cli_main(["report", str(folder), "--out", str(out), "--strict"]) == 2


def test_compare_two_runs_over_settings(inputs, tmp_path, capsys):
    """``compare`` of two prompt_validation runs of the same prompts, annotated by
    (lexical, contrarian) and by (confused, filler_reader), item = setting (4 settings):

    - mean rank of the real prompts per setting: lexical 1.5 and its reverse 5.5 give 3.5; the
      confused and filler_reader annotators rank like lexical: 1.5, so delta -2 (templated +2,
      generated 0) in every setting: an exact difference;
    - intent accuracy: lexical (and contrarian, which only reverses rankings) always right, 1.0;
      confused always wrong and filler_reader right: 0.5, delta -0.5 for every source;
    - neutral leaning of the templated prompts (the 2 neutral settings): filler_reader reads the
      topic's neutral phrasing as side B on the 2 templated prompts, the others read none:
      0 vs 2 / 4 = 0.5.

    Every setting's difference is the same, so the exact sign-flip test applies
    (:func:`inspect_stance.stats.paired.paired_delta`): p = 2^(1 - n), 0.125 over 4 settings
    and 0.5 over 2, neither below 0.05, so the interval is the whole range a difference can
    take: +-5 for ranks 1..6 (6 prompts a setting), +-1 for shares."""
    runs = []
    for name, kinds in (("a", ["lexical", "contrarian"]), ("b", ["confused", "filler_reader"])):
        (log,) = inspect_eval(
            "tasks/prompt_validation.py",
            task_args=task_args(inputs),
            model_roles={"annotators": [f"annotator_sim/{k}" for k in kinds]},
            log_dir=str(tmp_path / name),
            display="none",
        )
        assert log.status == "success"
        runs.append(log.location)
    assert cli_main(["compare", *runs, "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["method"] == "prompt_validation"
    rows = {c["metric"]: c for c in doc["comparisons"]}
    expected = {
        "mean_rank_real": (3.5, 1.5, 4),
        "mean_rank_templated": (3.5, 5.5, 4),
        "mean_rank_generated": (3.5, 3.5, 4),
        "intent_accuracy_real": (1.0, 0.5, 4),
        "intent_accuracy_templated": (1.0, 0.5, 4),
        "intent_accuracy_generated": (1.0, 0.5, 4),
        "neutral_leaning_templated": (0.0, 0.5, 2),
        "neutral_leaning_generated": (0.0, 0.0, 2),
    }
    for metric, (a, b, n) in expected.items():
        row = rows[metric]
        assert (row["a"], row["b"], row["n_items"]) == (pytest.approx(a), pytest.approx(b), n)
        assert row["delta"] == pytest.approx(b - a)
        span = 5.0 if metric.startswith("mean_rank") else 1.0
        assert row["ci"] == [-span, span]
        assert row["p"] == (pytest.approx(2.0 ** (1 - n)) if b != a else 1.0)
    assert any("items are settings" in note for note in doc["notes"])
    # the stance labels of the two pairs agree: no difference
    assert rows["stance_accuracy_templated"]["delta"] == pytest.approx(0.0)
