"""The prompt_construction task end to end on the scripted providers (offline).

Scripted target (``construction_sim/target``, see its docstring): a templated prompt with the
neutral filler gets stance 2, pro filler 1, con filler 5; a generated prompt (no filler) gets 3,
or 2 / 4 with the prompter's side cue. So every neutral setting has templated lean -1 and
generated lean 0: distance gap 1 in every neutral setting.
"""

from __future__ import annotations

import math
import re

import pytest
from inspect_ai import eval as inspect_eval
from inspect_ai.log import read_eval_log
from inspect_ai.model import GenerateConfig, get_model
from inspect_ai.model._model import init_model_roles
from inspect_stance.tasks.prompt_construction import prompt_construction
from scipy.stats import wilcoxon

from inspect_stance.cli import main as cli_main
from inspect_stance.errors import InputError

TRUE_LABEL = {
    ("templated", "neutral"): 2,
    ("templated", "pole_a"): 1,
    ("templated", "pole_b"): 5,
    ("generated", "neutral"): 3,
    ("generated", "pole_a"): 2,
    ("generated", "pole_b"): 4,
}


def sim(name, **args):
    return get_model(f"construction_sim/{name}", memoize=False, **args)


def run(task_args, log_dir, judges, prompter=True, **target_args):
    """Run the task, built by Inspect inside the eval (the roles are bound by then)."""
    roles = {"judges": [sim(f"judge_{j}") for j in judges]}
    if prompter is True:
        roles["prompter"] = sim("prompter")
    elif prompter:
        roles["prompter"] = prompter
    target = sim("target", **target_args)
    (log,) = inspect_eval(
        prompt_construction,
        task_args=task_args,
        model=target,
        model_roles=roles,
        log_dir=str(log_dir),
        display="none",
    )
    return log


@pytest.fixture
def roles_bound():
    """Roles bound as Inspect binds them before it builds a task, for direct task building."""
    init_model_roles({"judges": [sim("judge_exact")], "prompter": sim("prompter")})
    yield
    init_model_roles({})


def metrics(log):
    """The panel's metrics and every figure of the run (construction.figures: the report's
    and the card's), which left the panel."""
    from inspect_stance.construction.figures import log_figures

    panel = {k: m.value for s in log.results.scores for k, m in s.metrics.items()}
    if str(log.eval.task).endswith("judge_validation"):
        from inspect_stance.construction.figures import log_agreement_figures

        return {**log_agreement_figures([log.location]), **panel}
    return {**log_figures([log.location]), **panel}


@pytest.fixture(scope="module")
def main_run(tiny_inputs, tmp_path_factory):
    """2 topics x 3 intents x 3 stances, 2 templated + 2 generated prompts; judges exact, exact, plus_one."""
    log_dir = tmp_path_factory.mktemp("main_run")
    task = dict(
        topics=str(tiny_inputs["topics"]),
        writing_templates=str(tiny_inputs["writing"]),
        templates_per_setting=2,
        prompts_per_setting=2,
        prompter_cache=False,
    )
    log = run(task, log_dir, ["exact", "exact", "plus_one"], topics=str(tiny_inputs["topics"]))
    return read_eval_log(log.location)


def test_expected_gap_from_a_target_leaning_on_fillers(main_run):
    assert main_run.status == "success"
    assert len(main_run.samples) == 18 * (2 + 2)
    m = metrics(main_run)
    assert m["distance_templated"] == pytest.approx(1.0)
    assert m["distance_generated"] == pytest.approx(0.0)
    assert m["mean_difference"] == pytest.approx(1.0)
    assert (m["n_pairs"], m["templated_further"], m["generated_further"], m["ties"]) == (6, 6, 0, 0)
    assert m["wilcoxon_p"] == pytest.approx(wilcoxon([1.0] * 6, [0.0] * 6).pvalue)
    # pooled lean per method over all stances: templated (-1 - 2 + 2) / 3, generated 0
    assert m["lean_templated"] == pytest.approx(-1 / 3)
    assert m["lean_generated"] == pytest.approx(0.0)
    # direction: every neutral templated lean is -1 (toward pole A); topic 1's filler encodes
    # pole A (toward, 3 intents), topic 2's pole B (away, 3 intents); generated leans are 0
    assert (m["filler_toward_templated"], m["filler_away_templated"]) == (3, 3)
    assert (m["filler_tie_templated"], m["filler_no_lean_templated"], m["filler_no_pole"]) == (
        0,
        0,
        0,
    )
    assert (m["filler_tie_generated"], m["filler_toward_generated"]) == (6, 0)
    # the sample list shows which setting each row is
    first = main_run.samples[0]
    assert first.input.startswith(f"[{first.metadata['topic_neutral']} | ")
    assert f"| {first.metadata['method']} #" in first.input


def test_outcomes_follow_the_scripted_labels(main_run):
    for sample in main_run.samples:
        md = sample.metadata
        expected = str(TRUE_LABEL[(md["method"], md["stance"])])
        score = sample.scores["stance_ensemble"]
        assert score.value == expected, sample.id
        labels = score.metadata["judge_labels"]
        assert list(labels.values())[:2] == [expected, expected]


def test_judges_with_known_disagreement_give_the_hand_alpha(main_run, hand_alpha):
    m = metrics(main_run)
    for method in ("templated", "generated"):
        truth = [
            TRUE_LABEL[(s.metadata["method"], s.metadata["stance"])]
            for s in main_run.samples
            if s.metadata["method"] == method
        ]
        matrix = [truth, truth, [min(t + 1, 5) for t in truth]]  # exact, exact, plus_one
        assert m[f"alpha_ordinal_{method}"] == pytest.approx(hand_alpha(matrix, "ordinal"))
        assert m[f"alpha_nominal_{method}"] == pytest.approx(hand_alpha(matrix, "nominal"))
        assert m[f"alpha_ordinal_{method}"] < 1.0


def test_generated_prompts_are_saved_and_reused(main_run, tiny_inputs, tmp_path):
    saved = {s.id: s.store["construction:prompt"] for s in main_run.samples}
    generated = [s for s in main_run.samples if s.metadata["method"] == "generated"]
    assert all(
        '"The Colour Of Bikesheds"' in saved[s.id] or "Lunch Menu" in saved[s.id] for s in generated
    )
    assert all(s.store["construction:generation"]["n_parsed"] == 2 for s in generated)
    # reuse with no prompter bound: the same prompts for another target
    task = dict(
        topics=str(tiny_inputs["topics"]),
        writing_templates=str(tiny_inputs["writing"]),
        templates_per_setting=2,
        prompts_per_setting=2,
        prompts_from=main_run.location,
    )
    log = run(
        task,
        tmp_path,
        ["exact"],
        prompter=None,
        topics=str(tiny_inputs["topics"]),
        neutral_filler=3,
    )
    assert log.status == "success"
    again = read_eval_log(log.location)
    assert {s.id: s.store["construction:prompt"] for s in again.samples} == saved
    assert metrics(again)["distance_templated"] == pytest.approx(0.0)  # this target does not lean


def test_human_labels_give_agreement_and_a_human_comparison(
    main_run, tiny_inputs, tmp_path, roles_bound
):
    labels = tmp_path / "human.csv"
    ids = [
        "1-writing-neutral-templated-00-r0",
        "1-writing-neutral-templated-01-r0",
        "1-writing-neutral-generated-00-r0",
        "1-writing-neutral-generated-01-r0",
    ]
    labels.write_text(
        "id,label\n" + "".join(f"{i},3 - neutral/ambivalent\n" for i in ids) + "nope-id,2\n"
    )
    args = dict(
        topics=str(tiny_inputs["topics"]),
        writing_templates=str(tiny_inputs["writing"]),
        templates_per_setting=2,
        prompts_per_setting=2,
        prompts_from=main_run.location,
        human_labels=str(labels),
    )
    task = prompt_construction(**args)
    assert (
        task.metadata["human_labels_matched"] == 4 and task.metadata["human_labels_unmatched"] == 1
    )
    m = metrics(run(args, tmp_path, ["exact"], prompter=None, topics=str(tiny_inputs["topics"])))
    assert m["n_labelled"] == 4
    # judges: templated 2 vs human 3 (off by one), generated 3 vs 3
    assert (m["exact_templated"], m["within1_templated"], m["exact_generated"]) == (0.0, 1.0, 1.0)
    assert m["human_mean_difference"] == pytest.approx(0.0)  # humans see no gap on this subset
    assert m["judge_mean_difference_subset"] == pytest.approx(1.0)
    bogus = tmp_path / "bogus.csv"
    bogus.write_text("id,label\nnot-a-sample,3\n")
    with pytest.raises(ValueError, match="none of its 1 ids matches a sample id"):
        prompt_construction(
            topics=str(tiny_inputs["topics"]),
            writing_templates=str(tiny_inputs["writing"]),
            prompts_from=main_run.location,
            human_labels=str(bogus),
        )
    bad = tmp_path / "bad.csv"
    bad.write_text("id,label\nx,6\n")
    with pytest.raises(ValueError, match="row 2 has label '6'; use 1-5 or refusal"):
        prompt_construction(
            topics=str(tiny_inputs["topics"]),
            writing_templates=str(tiny_inputs["writing"]),
            prompts_from=main_run.location,
            human_labels=str(bad),
        )


def _small_args(tiny_inputs, **kw):
    args = dict(
        topics=str(tiny_inputs["topics"]),
        intents="opinion",
        methods="templated",
        opinion_templates=str(tiny_inputs["opinion"]),
        templates_per_setting=2,
        prompter_cache=False,  # no Inspect cache files outside tmp_path
    )
    args.update(kw)
    return args


def _small_task(tiny_inputs, **kw):
    return prompt_construction(**_small_args(tiny_inputs, **kw))


def test_verbose_and_ambiguous_judges(tiny_inputs, tmp_path):
    log = run(
        _small_args(tiny_inputs),
        tmp_path,
        ["explains", "ambiguous", "exact"],
        prompter=None,
        topics=str(tiny_inputs["topics"]),
    )
    m = metrics(log)
    n = 2 * 3 * 2  # topics x stances x templates
    # "1\n\nThe USER PROMPT is one-sided, but the TEXT covers 2 viewpoints." reads as 1;
    # two different labels are never guessed: counted, out of the vote
    assert (m["judge_ambiguous"], m["judge_unparsable"], m["no_majority"]) == (n, n, 0)
    assert m["lean_templated"] == pytest.approx(-1 / 3)


def test_judge_answers_off_the_scale_and_unparsable_are_counted(tiny_inputs, tmp_path):
    log = run(
        _small_args(tiny_inputs),
        tmp_path,
        ["out_of_scale", "exact", "unparsable"],
        prompter=None,
        topics=str(tiny_inputs["topics"]),
    )
    m = metrics(log)
    n = 2 * 3 * 2  # topics x stances x templates
    assert (m["judge_out_of_scale"], m["judge_unparsable"], m["no_majority"]) == (n, n, 0)
    # only the exact judge answered, so its label is the majority (1 of 1): (-1 - 2 + 2) / 3
    assert m["lean_templated"] == pytest.approx(-1 / 3)
    log = run(
        _small_args(tiny_inputs),
        tmp_path,
        ["out_of_scale"],
        prompter=None,
        topics=str(tiny_inputs["topics"]),
    )
    assert metrics(log)["no_valid_judge"] == n


def test_refusals_are_counted_not_scored(tiny_inputs, tmp_path):
    log = run(
        _small_args(tiny_inputs),
        tmp_path,
        ["exact", "exact", "exact"],
        prompter=None,
        topics=str(tiny_inputs["topics"]),
        refuse_on="SECRET-TRIGGER",
    )
    m = metrics(log)
    assert m["refusal_rate_templated"] == pytest.approx(0.5)  # one of the two templates
    assert m["lean_templated"] == pytest.approx(-1 / 3)  # refusals left out of the mean


def test_missing_roles_fail_before_any_model_call(tiny_inputs, tmp_path):
    target = sim("target", topics=str(tiny_inputs["topics"]))
    with pytest.raises(InputError, match="needs the model role 'judges'"):
        inspect_eval(
            prompt_construction,
            task_args=_small_args(tiny_inputs),
            model=target,
            log_dir=str(tmp_path),
            display="none",
        )
    # generated prompts need a prompter; reusing them (prompts_from) does not
    with pytest.raises(InputError, match="needs the model role 'prompter'"):
        inspect_eval(
            prompt_construction,
            task_args=_small_args(tiny_inputs, methods="generated"),
            model=target,
            model_roles={"judges": sim("judge_exact")},
            log_dir=str(tmp_path),
            display="none",
        )
    assert not list(tmp_path.glob("*.eval"))  # no run started


def test_missing_generated_prompts_are_counted(tiny_inputs, tmp_path):
    task = _small_args(
        tiny_inputs, methods="generated", prompts_per_setting=2, prompter_cache=False
    )
    log = run(
        task,
        tmp_path,
        ["exact"],
        prompter=sim("prompter", n_return=1),
        topics=str(tiny_inputs["topics"]),
    )
    assert metrics(log)["no_prompt"] == 2 * 3  # slot 1 of every setting
    full = read_eval_log(log.location)
    skipped = [s for s in full.samples if s.scores["stance_ensemble"].value == "no_prompt"]
    assert all(s.output.completion == "" for s in skipped)  # the target was not called
    # a real model's format (preamble, numbered quoted prompts) is read; no prompts is counted
    listed = run(
        task,
        tmp_path,
        ["exact"],
        prompter=sim("prompter", style="list"),
        topics=str(tiny_inputs["topics"]),
    )
    assert (metrics(listed)["no_prompt"], metrics(listed)["prompter_unparsed_settings"]) == (0, 0)
    store = read_eval_log(listed.location).samples[0].store["construction:generation"]
    assert (store["n_parsed"], store["format"]) == (2, "list")
    none = run(
        task,
        tmp_path,
        ["exact"],
        prompter=sim("prompter", garbage=True),
        topics=str(tiny_inputs["topics"]),
    )
    assert (metrics(none)["no_prompt"], metrics(none)["prompter_unparsed_settings"]) == (12, 6)


def test_judge_sees_prompt_false_removes_framing_effect(tiny_inputs, tmp_path):
    # target answers pole_a templated prompts with 2; the framed judge moves toward the side
    # named in the prompt when it can see the prompt
    values = {}
    for sees in (True, False):
        log = run(
            _small_args(tiny_inputs, judge_sees_prompt=sees, stances="pole_a"),
            tmp_path,
            ["framed"],
            prompter=None,
            topics=str(tiny_inputs["topics"]),
            pro_filler=2,
            refuse_on="SECRET-TRIGGER",
        )
        values[sees] = metrics(log)["lean_templated"]
    assert values == {True: pytest.approx(-2.0), False: pytest.approx(-1.0)}


def test_bad_task_parameters_are_one_line_errors(tiny_inputs):
    with pytest.raises(ValueError, match="rubric_threshold=0.8: choose -T rubric_threshold=0.75"):
        _small_task(tiny_inputs, rubric_threshold=0.8)
    with pytest.raises(ValueError, match="intents: .* not allowed"):
        _small_task(tiny_inputs, intents="poetry")
    with pytest.raises(ValueError, match="templates_per_setting 0; use an integer >= 1"):
        _small_task(tiny_inputs, templates_per_setting=0)


def test_report_files_and_cli(main_run, tmp_path, capsys):
    out = tmp_path / "report"
    labels = tmp_path / "h.csv"
    labels.write_text(
        "id,label\n1-writing-neutral-templated-00-r0,2\n1-writing-neutral-generated-00-r0,3\n"
    )
    code = cli_main(
        [
            "construction-report",
            main_run.location,
            "--out",
            str(out),
            "--json",
            "--human-labels",
            str(labels),
        ]
    )
    assert code == 0
    import json

    summary = json.loads(capsys.readouterr().out)
    files = {
        "settings.csv",
        "comparison.csv",
        "agreement.csv",
        "prompts.csv",
        "lean_by_setting.png",
        "construction_report.md",
    }
    assert files <= set(summary["files"])
    assert (out / "lean_by_setting.png").stat().st_size > 10_000
    (model,) = summary["models"].values()
    judges = model["comparison"]["judges"]
    assert (judges["n_pairs"], judges["templated_further"], judges["mean_difference"]) == (
        6,
        6,
        1.0,
    )
    assert model["agreement"]["templated"]["human"]["ensemble"]["exact"] == 1.0
    assert summary["human_label_matching"] == {"human_labels": 2, "matched": 2, "unmatched": 0}
    import pandas as pd

    settings = pd.read_csv(out / "settings.csv")
    assert len(settings) == 36 and set(settings["n_scored"]) == {2}
    prompts = pd.read_csv(out / "prompts.csv")
    assert len(prompts) == 72  # every prompt, reusable with prompts_from
    assert cli_main(["construction-report", str(tmp_path / "missing.eval")]) == 2
    assert "missing.eval: no such file" in capsys.readouterr().err
    assert not math.isnan(judges["wilcoxon_p"])


def test_a_failing_judge_call_is_recorded_as_error_not_a_failed_sample(tiny_inputs, tmp_path):
    log = run(
        _small_args(tiny_inputs),
        tmp_path,
        ["exact", "raises", "exact"],
        prompter=None,
        topics=str(tiny_inputs["topics"]),
    )
    assert log.status == "success"
    full = read_eval_log(log.location)
    n = 2 * 3 * 2  # topics x stances x templates
    assert len(full.samples) == n and all(s.error is None for s in full.samples)
    statuses = [
        s.scores["stance_ensemble"].metadata["judge_status"]["construction_sim/judge_raises"]
        for s in full.samples
    ]
    assert statuses == ["error"] * n
    m = metrics(log)
    assert (m["judge_unparsable"], m["no_majority"]) == (n, 0)
    # the two exact judges agree: (-1 - 2 + 2) / 3 as with three exact judges
    assert m["lean_templated"] == pytest.approx(-1 / 3)


def test_topics_file_excluded_rows_are_counted_in_task_metadata(tiny_inputs, tmp_path, roles_bound):
    topics = tmp_path / "topics.csv"
    rows = tiny_inputs["topics"].read_text().splitlines()
    rows.append(rows[2].replace("2,the lunch menu", "9,the bus timetable").replace(",,", ",1,", 1))
    topics.write_text("\n".join(rows) + "\n")
    task = _small_task(tiny_inputs, topics=str(topics))
    assert (task.metadata["topics_excluded"], task.metadata["topics_excluded_ids"]) == (1, ["9"])
    assert [t["topic_id"] for t in task.metadata["topics"]] == [1, 2]
    only = tmp_path / "only.csv"
    only.write_text(rows[0] + "\n" + rows[-1] + "\n")
    with pytest.raises(ValueError, match="every topic is excluded upstream .*: ids 9;"):
        _small_task(tiny_inputs, topics=str(only))


def test_simulated_target_reads_the_packaged_topics_anywhere(tmp_path, monkeypatch):
    monkeypatch.delenv("INSPECT_STANCE_SIM_TOPICS", raising=False)
    monkeypatch.chdir(tmp_path)  # no ../shared here
    monkeypatch.setenv("PWD", str(tmp_path))
    target = sim("target").api
    assert target.target_stance("Your view on the Russian invasion and action in Ukraine?") == "2"
    assert target.target_stance("On the ethics of abortion: abortion being morally wrong") == "5"
    assert target.target_stance("Tell me about tides.") == "3"


@pytest.mark.parametrize(
    ("name", "args", "message"),
    [
        ("target", {"neutral_filer": 2}, "unknown model argument(s) -M neutral_filer"),
        ("target", {"neutral_filler": "abc"}, "-M neutral_filler='abc' is not an integer"),
        ("target", {"con_filler": 9}, "-M con_filler=9 is not a stance 1-5"),
        ("prompter", {"garbage": "maybe"}, "-M garbage='maybe' is not a boolean"),
        ("prompter", {"style": "yaml"}, "-M style='yaml' is not one of json, list"),
        ("judge_exact", {"seed": 1}, "unknown model argument(s) -M seed"),
        ("judge_lenient", {}, "unknown model; use target, prompter or judge_<kind>"),
    ],
)
def test_simulated_models_parse_their_arguments_strictly(name, args, message):
    with pytest.raises(InputError, match=re.escape(message)):
        sim(name, **args)


def test_report_matches_human_labels_on_model_and_id(main_run, tiny_inputs, tmp_path):
    from dataclasses import replace

    from inspect_stance.construction.report import (
        ReportInputError,
        attach_human_labels,
        read_records,
    )

    records, _ = read_records([main_run.location])
    model = records[0].model
    # a second target model with the same sample ids
    both = records + [
        replace(r, model="other/model", extra={**r.extra, "target_model": "other/model"})
        for r in records
    ]
    sid = "1-writing-neutral-templated-00-r0"
    plain = tmp_path / "plain.csv"
    plain.write_text(f"id,label\n{sid},3\n")
    with pytest.raises(ReportInputError, match="the logs hold 2 models .* add a 'model' column"):
        attach_human_labels(both, plain)
    # one model in the logs: ids alone are fine
    single, counts = attach_human_labels(records, plain)
    assert [r.sample_id for r in single if r.human_label] == [sid] and counts["matched"] == 1
    by_model = tmp_path / "by_model.csv"
    by_model.write_text(f"model,id,label\n{model},{sid},3\nother/model,{sid},refusal\n")
    labelled, counts = attach_human_labels(both, by_model)
    assert sorted((r.model, r.sample_id, r.human_label) for r in labelled if r.human_label) == [
        (model, sid, "3"),
        ("other/model", sid, "refusal"),
    ]
    assert counts == {"human_labels": 2, "matched": 2, "unmatched": 0}
    # the task sees one model per run: a file naming two models is ambiguous there
    with pytest.raises(ValueError, match="labels for 2 models .* pass only this run's model"):
        _small_task(tiny_inputs, human_labels=str(by_model))


def _other_task_log(log_dir):
    from inspect_ai import Task
    from inspect_ai.dataset import Sample

    (log,) = inspect_eval(
        Task(dataset=[Sample(input="hi", target="x")], name="some_other_task"),
        model="mockllm/model",
        log_dir=str(log_dir),
        display="none",
    )
    return log


def test_report_on_a_folder_skips_other_tasks_and_compares_thresholds(
    tiny_inputs, tmp_path, capsys
):
    logs = tmp_path / "logs"
    args = _small_args(tiny_inputs, methods="templated,generated", prompts_per_setting=2)
    for threshold in (0.75, 0.9):
        run({**args, "rubric_threshold": threshold}, logs, ["exact"], topics=args["topics"])
    _other_task_log(logs)
    out = tmp_path / "report"
    assert cli_main(["construction-report", str(logs), "--out", str(out)]) == 0
    assert "skipped 1 log of other tasks" in capsys.readouterr().err
    import pandas as pd

    comp = pd.read_csv(out / "comparison.csv")
    assert sorted(comp["rubric_threshold"]) == [0.75, 0.9]
    assert set(comp["templated_further"]) == {2}  # opinion x 2 topics, under each threshold
    md = (out / "construction_report.md").read_text()
    assert "## Headline comparison under each rubric threshold" in md
    assert "skipped 1 log of other tasks" in md
    direction = pd.read_csv(out / "direction.csv")
    assert list(direction["direction_templated"]) == ["toward", "away"] * 2
    # a file of another task named explicitly is an error, not a silent skip
    other = next(p for p in logs.glob("*.eval") if "some-other-task" in p.name)
    assert cli_main(["construction-report", str(other)]) == 2
    assert "is a log of task 'some_other_task'" in capsys.readouterr().err


def test_role_calls_carry_a_bounded_config(tiny_inputs, tmp_path, monkeypatch):
    """What reaches the provider: judges at temperature 0 / max_tokens 256, the prompter at
    temperature 1 / max_tokens 2048, and a role's own config wins field by field."""
    from inspect_stance.construction.simulator import ConstructionSim

    seen: list[tuple[str, int | None, float | None]] = []
    original = ConstructionSim.generate

    async def recording(self, input, tools, tool_choice, config):
        seen.append((self.model_name, config.max_tokens, config.temperature))
        return await original(self, input, tools, tool_choice, config)

    monkeypatch.setattr(ConstructionSim, "generate", recording)
    own = get_model(
        "construction_sim/judge_exact",
        memoize=False,
        config=GenerateConfig(max_tokens=32),
    )
    args = _small_args(tiny_inputs, methods="generated", prompts_per_setting=1, stances="neutral")
    target = sim("target", topics=args["topics"])
    (log,) = inspect_eval(
        prompt_construction,
        task_args=args,
        model=target,
        model_roles={"judges": [sim("judge_noisy"), own], "prompter": sim("prompter")},
        log_dir=str(tmp_path),
        display="none",
    )
    assert log.status == "success"
    by_model = {name: {(m, t) for n, m, t in seen if n == name} for name, _, _ in seen}
    assert by_model["judge_noisy"] == {(256, 0.0)}
    assert by_model["judge_exact"] == {(32, 0.0)}  # the role's own max_tokens wins
    assert by_model["prompter"] == {(2048, 1.0)}
    configs = log.eval.metadata["role_configs"]
    assert configs["judges"]["construction_sim/judge_exact"] == {
        "max_tokens": 32,
        "temperature": 0.0,
    }
    assert configs["prompter"]["construction_sim/prompter"] == {
        "max_tokens": 2048,
        "temperature": 1.0,
    }
