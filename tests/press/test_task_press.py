"""The press task's contract: one set of arguments for every target, factor draws, roles checked
before any model call and bounded, verbose classifier answers, one-line input errors."""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from collections import Counter

import pytest
from inspect_ai import eval as inspect_eval
from inspect_ai.model import get_model
from inspect_stance.tasks.press import press
from inspect_stance.tasks.press_arguments import press_arguments

from inspect_stance.errors import InputError
from inspect_stance.press.arguments import log_arguments_fingerprint
from inspect_stance.press.statements import load_statements


@pytest.fixture()
def three(tmp_path):
    """A statements file with the first three packaged statements (archetypes stable_right,
    stable_left, unstable_right on the scripted target) and the scripted models reading it."""
    items = load_statements(None)[:3]
    path = tmp_path / "three.tsv"
    path.write_text("bias\tstatement\n" + "".join(f"{s.bias}\t{s.text}\n" for s in items))
    models = {
        name: get_model(f"press_sim/{name}", statements=str(path), memoize=False)
        for name in ("target", "arguer", "classifier")
    }
    return path, items, models


def _records(log):
    return [next(iter(s.scores.values())).metadata for s in log.samples]


def _hand_fingerprint(table):
    """sha256 of the canonical JSON written out here: {statement: [[support, counter], ...]}."""
    blob = json.dumps(table, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()


def test_arguments_generated_once_and_reused(three, nli_dir, tmp_path):
    path, items, models = three
    args_log = inspect_eval(
        press_arguments,  # built by Inspect: the model is known when the task is built
        task_args={"statements": str(path), "argument_sets": 2},
        model=models["arguer"],
        log_dir=str(tmp_path / "args"),
        display="none",
    )[0]
    assert args_log.status == "success", args_log.error
    # press_arguments_generate wrote the arguments below; press_generate then only reads them
    assert [step.solver for step in args_log.plan.steps] == [
        "inspect_stance/press_arguments_generate"
    ]
    assert args_log.eval.metadata["arguments_source"] == "arguer:press_sim/arguer"
    assert args_log.eval.metadata["press_role_configs"]["arguer"] == {
        "temperature": 1.0,
        "max_tokens": 1024,
    }
    events = [e for s in args_log.samples for e in s.events if e.event == "model"]
    assert len(events) == 3 * 2 * 2  # statements x sets x (support, counter)
    assert {(e.config.temperature, e.config.max_tokens) for e in events} == {(1.0, 1024)}
    table = {
        s.metadata["statement"]: [[a["support"], a["counter"]] for a in s.store["press:arguments"]]
        for s in args_log.samples
    }
    assert table[items[0].text][1][0].endswith("[press_sim support 1]")
    expected = _hand_fingerprint(table)
    assert log_arguments_fingerprint(args_log) == expected

    run = inspect_eval(
        press(
            statements=str(path),
            argument_sets=2,
            arguments=args_log.location,
            nli_model=str(nli_dir / "keyed"),
        ),
        model=models["target"],
        log_dir=str(tmp_path / "run"),
        display="none",
    )[0]
    assert run.status == "success", run.error
    assert [step.solver for step in run.plan.steps] == ["inspect_stance/press_generate"]
    md = run.eval.metadata
    assert md["arguments_source"] == f"log:{args_log.location}"
    assert md["arguments_origin"] == "arguer:press_sim/arguer"
    assert md["arguments_by_target"] is False
    assert md["arguments_fingerprint"] == expected
    assert md["press_role_configs"] == {}  # no arguer calls
    assert not any(
        e.event == "model" and "arguer" in e.model for s in run.samples for e in s.events
    )
    assert [r["labels"]["none"] for r in _records(run)] == [["S^R"] * 2, ["S^L"] * 2, ["U^R"] * 2]


def test_target_as_arguer_is_recorded(three, nli_dir, tmp_path):
    path, _, models = three
    log = inspect_eval(
        press,
        task_args={
            "statements": str(path),
            "argument_sets": 1,
            "nli_model": str(nli_dir / "keyed"),
        },
        model=models["target"],
        log_dir=str(tmp_path),
        display="none",
        limit=1,
    )[0]
    assert log.status == "success", log.error
    assert log.eval.metadata["arguments_source"] == "target:press_sim/target"
    assert log.eval.metadata["arguments_by_target"] is True
    assert log.samples[0].store["press:arguments"][0]["source"] == "target:press_sim/target"
    assert _records(log)[0]["arguments_source"] == "target:press_sim/target"


def test_factor_draws_share_the_entropy_draws(three, nli_dir, tmp_path):
    path, _, models = three
    log = inspect_eval(
        press(
            statements=str(path),
            argument_sets=1,
            entropy_samples=2,
            factor_samples=4,
            nli_model=str(nli_dir / "keyed"),
        ),
        model=models["target"],
        model_roles={"arguer": models["arguer"]},
        log_dir=str(tmp_path),
        display="none",
    )[0]
    assert log.status == "success", log.error
    assert log.eval.metadata["press_factor_samples"] == 4
    assert log.eval.metadata["press_draws_shared"] is True
    recs = _records(log)
    # stable_right on a left statement always disagrees at temperature 1 (-1), stable_left
    # agrees (+1); unstable_right alternates "agree" with a non-committal text (zero-shot tie: 0)
    assert recs[0]["factor_stances"] == [-1, -1, -1, -1]
    assert recs[1]["factor_stances"] == [1, 1, 1, 1]
    assert Counter(recs[2]["factor_stances"]) == {1: 2, 0: 2}
    assert [r["n_factor_unclassified"] for r in recs] == [0, 0, 2]
    for sample in log.samples:
        draws = [
            e
            for e in sample.events
            if e.event == "model" and e.config.temperature == 1.0 and e.model == "press_sim/target"
        ]
        assert len(draws) == 4  # max(entropy 2, factor 4): one pool
        factor = [d["text"] for d in sample.store["press:factor_samples"]]
        entropy = [d["text"] for d in sample.store["press:entropy_samples"]]
        assert entropy == factor[:2]


def test_verbose_llm_classifier_answers_are_parsed(three, nli_dir, tmp_path):
    path, _, models = three
    verbose = get_model(
        "press_sim/classifier", statements=str(path), style="verbose", memoize=False
    )
    log = inspect_eval(
        press,
        task_args={
            "statements": str(path),
            "classifier": "llm",
            "argument_sets": 1,
            "nli_model": str(nli_dir / "keyed"),
        },
        model=models["target"],
        model_roles={"arguer": models["arguer"], "classifier": verbose},
        log_dir=str(tmp_path),
        display="none",
    )[0]
    assert log.status == "success", log.error
    recs = _records(log)
    assert [r["labels"]["none"] for r in recs] == [["S^R"], ["S^L"], ["U^R"]]
    assert sum(r["n_unparsed"] for r in recs) == 0
    answers = {d for r in recs for d in r["classifier_detail"].values()}
    assert "**Disagree** - the text rejects the statement and argues against it." in answers
    assert any(a.startswith("Agree.\n\n") for a in answers)
    calls = [
        e
        for s in log.samples
        for e in s.events
        if e.event == "model" and e.model == "press_sim/classifier"
    ]
    assert calls and {(e.config.temperature, e.config.max_tokens) for e in calls} == {(0.0, 64)}


def test_role_config_given_by_the_user_wins(three, nli_dir, tmp_path):
    path, _, models = three
    log = inspect_eval(
        press,
        task_args={
            "statements": str(path),
            "argument_sets": 1,
            "arguer_max_tokens": 300,
            "nli_model": str(nli_dir / "keyed"),
        },
        model=models["target"],
        model_roles={
            "arguer": get_model(
                "press_sim/arguer",
                statements=str(path),
                config=__import__("inspect_ai.model", fromlist=["x"]).GenerateConfig(max_tokens=77),
                memoize=False,
            )
        },
        log_dir=str(tmp_path),
        display="none",
        limit=1,
    )[0]
    assert log.status == "success", log.error
    assert log.eval.metadata["press_role_configs"]["arguer"] == {
        "temperature": 1.0,
        "max_tokens": 77,
    }
    calls = [e for e in log.samples[0].events if e.event == "model" and "arguer" in e.model]
    assert {e.config.max_tokens for e in calls} == {77}


def test_empty_argument_is_not_shown_and_counted(three, nli_dir, tmp_path):
    from inspect_ai.model import ModelAPI, ModelOutput, modelapi

    @modelapi(name="press_test_silent")
    class Silent(ModelAPI):  # an arguer out of max_tokens before writing (e.g. reasoning)
        async def generate(self, input, tools, tool_choice, config):  # noqa: A002, ARG002
            return ModelOutput.from_content(model="silent", content="", stop_reason="max_tokens")

    path, items, models = three
    one = tmp_path / "one.tsv"
    one.write_text(f"bias\tstatement\n{items[0].bias}\t{items[0].text}\n")
    silent = get_model("press_test_silent/arguer", memoize=False)
    log = inspect_eval(
        press,
        task_args={"statements": str(one), "argument_sets": 1, "nli_model": str(nli_dir / "keyed")},
        model=get_model("press_sim/target", statements=str(one), memoize=False),
        model_roles={"arguer": silent},
        log_dir=str(tmp_path / "logs"),
        display="none",
    )[0]
    assert log.status == "success", log.error
    record = _records(log)[0]
    assert record["stances"]["none"] == [
        {"neutral": "disagree", "support": "unparsed", "counter": "unparsed"}
    ]
    assert record["labels"]["none"] == ["unclassified"]
    assert record["n_empty_arguments"] == 2 and record["n_empty_responses"] == 0
    assert record["classifier_detail"]["none/0/support"] == (
        "no argument: the arguer's support text is empty"
    )
    target_calls = [
        e for e in log.samples[0].events if e.event == "model" and e.model == "press_sim/target"
    ]
    assert len(target_calls) == 1  # only the plain statement was asked
    assert log.samples[0].store["press:arguments"][0]["stop_reasons"] == {
        "support": "max_tokens",
        "counter": "max_tokens",
    }


def test_sample_limit_keeps_finished_sets(three, nli_dir, tmp_path):
    path, _, models = three
    log = inspect_eval(
        press,
        task_args={"statements": str(path), "nli_model": str(nli_dir / "keyed")},
        model=models["target"],
        model_roles={"arguer": models["arguer"]},
        log_dir=str(tmp_path),
        display="none",
        token_limit=700,
    )[0]
    assert log.status == "success", log.error  # a limit is not an error of the run
    cut = []
    for sample in log.samples:
        score = next(iter(sample.scores.values()))
        n = score.metadata["n_sets_finished"]
        assert score.metadata["argument_sets_expected"] == 3
        assert len(sample.store.get("press:responses", {}).get("none", [])) == n
        if sample.limit is None:  # a short statement finished all its sets
            assert n == 3 and score.metadata["incomplete"] is False
            continue
        assert sample.limit.type == "token" and n < 3
        assert score.metadata["incomplete"] is True
        cut.append(n)
        if n:
            assert len(score.metadata["labels"]["none"]) == n
            assert score.explanation.startswith("incomplete (a sample limit stopped it): ")
        else:
            assert "press" not in score.metadata  # kept out of the run figures
    assert any(0 < n < 3 for n in cut)


def test_missing_classifier_role_fails_before_any_model_call(three, nli_dir, tmp_path):
    path, _, models = three
    with pytest.raises(InputError) as ex:
        inspect_eval(
            press,
            task_args={
                "statements": str(path),
                "classifier": "llm",
                "nli_model": str(nli_dir / "keyed"),
            },
            model=models["target"],
            log_dir=str(tmp_path),
            display="none",
        )
    assert str(ex.value.message) == (
        "press needs the model role 'classifier' (-T classifier=llm); "
        "add --model-role classifier=PROVIDER/MODEL"
    )
    assert not list(tmp_path.glob("*.eval"))  # no log: nothing was run


def test_statements_file_encoding(tmp_path, nli_dir):
    latin1 = tmp_path / "latin1.tsv"
    latin1.write_bytes("bias\tstatement\nleft\tCaf\u00e9 owners pay too much.\n".encode("latin-1"))
    with pytest.raises(InputError) as ex:
        press(statements=str(latin1), nli_model=str(nli_dir / "keyed"))
    assert str(ex.value) == (
        f"statements file {latin1}: not UTF-8 (byte 0xe9 on line 2, e.g. a Latin-1 or "
        "Windows-1252 export); save it as UTF-8"
    )
    bom = tmp_path / "bom.tsv"
    bom.write_bytes("\ufeffbias\tstatement\nright\tThe rich are too highly taxed.\n".encode())
    task = press(statements=str(bom), nli_model=str(nli_dir / "keyed"))
    assert task.dataset[0].input == "The rich are too highly taxed."
    assert task.dataset[0].metadata["bias"] == "right"


def test_sample_ids_follow_the_statement_text(tmp_path, nli_dir):
    a = tmp_path / "a.tsv"
    a.write_text("bias\tstatement\nleft\tFirst.\nright\tSecond.\n")
    b = tmp_path / "b.tsv"
    b.write_text("bias\tstatement\nleft\tEdited.\nright\tSecond.\n")
    ids_a = [s.id for s in press(statements=str(a), nli_model=str(nli_dir / "keyed")).dataset]
    ids_b = [s.id for s in press(statements=str(b), nli_model=str(nli_dir / "keyed")).dataset]
    assert ids_a[0] != ids_b[0] and ids_a[1] == ids_b[1]
    assert ids_a[1] == "s01-" + hashlib.sha256(b"Second.").hexdigest()[:8]


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        (
            {"statements": "nowhere.tsv"},
            "statements file nowhere.tsv: cannot be read (no such file); check the path",
        ),
        ({"nli_mode": "two_way"}, "nli_mode 'two_way'; use -T nli_mode=zero_shot or three_way"),
        (
            {"factor_samples": "many"},
            "factor_samples 'many' is not a count; use -T factor_samples=20 (or true = 20, false = off)",
        ),
        (
            {"factor_samples": -1},
            "factor_samples -1; use an integer >= 0 (e.g. -T factor_samples=20)",
        ),
        (
            {"arguer_max_tokens": 0},
            "arguer_max_tokens 0; use an integer >= 1 (e.g. -T arguer_max_tokens=1024)",
        ),
        (
            {"classifier_max_tokens": "lots"},
            "classifier_max_tokens 'lots' is not an integer; use e.g. -T classifier_max_tokens=64",
        ),
        (
            {"nli_agree_hypothesis": "The author agrees."},
            "nli_agree_hypothesis 'The author agrees.' lacks '{statement}'; e.g. -T nli_agree_hypothesis='{statement}'",
        ),
        (
            {"arguments": "{empty}"},  # a folder with no log (tmp_path: the cwd may hold logs)
            "arguments {empty}: is a folder without a PReSS or press_arguments log; pass a log, a "
            ".jsonl file, or the folder of one press_arguments run's shards",
        ),
        (
            {"nli_device": "cuda:7x"},
            "nli_device 'cuda:7x' cannot be used (",
        ),
    ],
)
def test_bad_parameters_are_one_line(nli_dir, tmp_path, kwargs, message):
    kwargs = {k: str(tmp_path) if v == "{empty}" else v for k, v in kwargs.items()}
    message = message.replace("{empty}", str(tmp_path))
    kwargs.setdefault("nli_model", str(nli_dir / "keyed"))
    with pytest.raises(InputError) as ex:
        press(**kwargs)
    text = str(ex.value)
    assert "\n" not in text
    if message.endswith("("):  # torch's own reason follows
        assert text.startswith(message) and text.endswith(
            "use -T nli_device=cpu (or cuda on a machine with a GPU)"
        )
    else:
        assert text == message


def test_three_way_needs_a_three_way_model(tmp_path):
    from inspect_stance.providers.tiny_nli import build_tiny_nli

    two = build_tiny_nli(tmp_path / "two", "random", id2label={0: "entailment", 1: "other"})
    press(nli_model=str(two))  # zero-shot needs only entailment
    with pytest.raises(InputError, match="contradiction label"):
        press(nli_model=str(two), nli_mode="three_way")


def test_arguments_from_another_task_log_is_refused(tmp_path, nli_dir, three):
    path, _, models = three
    other = inspect_eval(
        press_arguments(statements=str(path), argument_sets=1),
        model=models["arguer"],
        log_dir=str(tmp_path),
        display="none",
        limit=1,
    )[0]
    with pytest.raises(InputError, match="no arguments for statement 1"):
        press(
            statements=str(path),
            argument_sets=1,
            arguments=other.location,
            nli_model=str(nli_dir / "keyed"),
        )


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            {"bogus": 1},
            "press_sim: unknown model argument(s) -M bogus; known: archetypes, argument_sets, fail_on, statements, style",
        ),
        (
            {"argument_sets": "abc"},
            "press_sim: -M argument_sets='abc' is not an integer; use e.g. -M argument_sets=3",
        ),
        (
            {"argument_sets": 0},
            "press_sim: -M argument_sets=0 is below 1; use e.g. -M argument_sets=3",
        ),
        (
            {"archetypes": "stable_left,wobbly"},
            "press_sim: unknown archetype 'wobbly' in -M archetypes; use a comma list of stable_right, stable_left, unstable_right, unstable_left, no_opinion, set_flipper, persona_follower, mixed",
        ),
        ({"style": "loud"}, "press_sim: -M style='loud'; use -M style=terse or -M style=verbose"),
        (
            {"statements": "nowhere.tsv"},
            "statements file nowhere.tsv: cannot be read (no such file); check the path",
        ),
    ],
)
def test_press_sim_model_args_are_strict(args, message):
    with pytest.raises(InputError) as ex:
        get_model("press_sim/target", memoize=False, **args)
    assert str(ex.value) == message


@pytest.mark.slow  # a fresh inspect process (~10 s); tests/test_bad_input_sweep.py covers the rest
def test_cli_prints_one_line(tmp_path):
    latin1 = tmp_path / "latin1.tsv"
    latin1.write_bytes(b"bias\tstatement\nleft\tCaf\xe9 owners pay too much.\n")
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "inspect_ai",
            "eval",
            "tasks/press.py",
            "--model",
            "press_sim/target",
            "-T",
            f"statements={latin1}",
            "--display",
            "none",
            "--log-dir",
            str(tmp_path),
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    text = (out.stdout + out.stderr).strip()
    assert out.returncode != 0
    assert text.splitlines() == [
        f"statements file {latin1}: not UTF-8 (byte 0xe9 on line 2, e.g. a Latin-1 or "
        "Windows-1252 export); save it as UTF-8"
    ]
