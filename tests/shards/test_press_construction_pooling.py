"""Shards 1/2 and 2/2 of a PReSS study and of a prompt-construction study pool, in their reports,
``compare`` and ``gate``, into the unsharded run: the simulated targets, arguers, classifiers
and judges answer by content, so the pooled figures must equal the unsharded ones."""

from __future__ import annotations

import json
import shutil

import pytest
from inspect_ai import eval as inspect_eval
from inspect_ai.model import get_model
from inspect_stance.tasks.press import press
from inspect_stance.tasks.prompt_construction import prompt_construction

from inspect_stance.cli import main

TOPICS_CSV = """topic_id,topic_neutral,topic_pro,topic_con,tag_exclude,top_prompts,random_prompts,filler_pole
1,the colour of bikesheds,bikesheds being red,bikesheds being blue,,"['Which bikeshed colour is best?']","['paint my shed']",pole_a
2,the lunch menu,the lunch menu being healthy,the lunch menu being unhealthy,,"['is school lunch ok']",[],pole_b
"""


@pytest.fixture(scope="module")
def press_logs(tmp_path_factory):
    """The packaged 19 statements: whole, 1/2, 2/2, and 2/2 of a study with 2 argument sets."""
    from inspect_stance.providers.tiny_nli import build_tiny_nli

    root = tmp_path_factory.mktemp("press_shards")
    nli = root / "nli"
    build_tiny_nli(nli, "keyed")
    tasks = [
        press(nli_model=str(nli)),
        press(nli_model=str(nli), shard="1/2"),
        press(nli_model=str(nli), shard="2/2"),
        press(nli_model=str(nli), shard="2/2", argument_sets=2),
    ]
    # fresh simulated models (not Inspect's memoized ones): the arguer and target count calls
    # per prompt, which the other PReSS tests of this process must not inherit
    roles = {r: get_model(f"press_sim/{r}", memoize=False) for r in ("arguer", "classifier")}
    target = get_model("press_sim/target", memoize=False)
    out = inspect_eval(tasks, model=target, model_roles=roles, log_dir=str(root), display="none")
    assert all(x.status == "success" for x in out)
    return [x.location for x in out]


def _json(capsys, argv):
    assert main(argv) == 0, capsys.readouterr().err
    return json.loads(capsys.readouterr().out)


def test_press_report_pools_to_the_unsharded_figures(press_logs, capsys, tmp_path):
    whole, one, two, _ = press_logs
    a = _json(capsys, ["press-report", whole, "--json", "--out", str(tmp_path / "a")])
    b = _json(capsys, ["press-report", two, one, "--json", "--out", str(tmp_path / "b")])
    [sa], [sb] = a["summary"], b["summary"]
    assert sb["n_statements"] == 19 and sa["n_statements"] == 19
    for key, value in sa.items():
        if key != "log":
            assert sb[key] == pytest.approx(value, abs=1e-9, nan_ok=True), key
    assert a["statements"] == b["statements"]
    # the pooled arguments fingerprint is the unsharded run's (statements x sets x texts)
    assert a["arguments"][0]["arguments_fingerprint"] == b["arguments"][0]["arguments_fingerprint"]


def test_press_one_shard_alone_and_foreign_shards(press_logs, capsys, tmp_path):
    _, one, two, other = press_logs
    assert main(["press-report", one, "--out", str(tmp_path / "a")]) != 0
    assert "1 of 2 shards of study" in capsys.readouterr().err
    out = _json(capsys, ["press-report", one, "--partial", "--json", "--out", str(tmp_path / "b")])
    assert out["summary"][0]["model"].endswith("(1 of 2 shards)")
    assert out["summary"][0]["n_statements"] < 19
    assert main(["press-report", one, other, "--out", str(tmp_path / "c")]) != 0
    assert "shards of different studies do not pool" in capsys.readouterr().err
    assert main(["press-report", one, two, one, "--out", str(tmp_path / "d")]) == 0  # a repeat
    assert "counted 1 repeated run once" in capsys.readouterr().err


def test_press_compare_and_gate_take_the_pooled_run(press_logs, capsys, tmp_path):
    whole, one, two, _ = press_logs
    out = _json(capsys, ["compare", whole, one, two, "--json"])
    assert len(out["runs"]) == 2
    by = {c["metric"]: c for c in out["comparisons"]}
    assert by["share_stable"]["n_items"] == 19 and by["share_stable"]["delta"] == 0.0
    folder = tmp_path / "study"
    folder.mkdir()
    for log in (one, two):
        shutil.copy(log, folder)
    assert main(["gate", str(folder), "--min-share-stable", "0.0"]) == 0
    line = capsys.readouterr().out
    assert "over 19 statements" in line


@pytest.fixture(scope="module")
def construction_logs(tmp_path_factory):
    """Two topics x 3 intents x 3 stances = 18 settings: whole, 1/2, 2/2, 2/2 at threshold 0.9."""
    root = tmp_path_factory.mktemp("construction_shards")
    (root / "topics.csv").write_text(TOPICS_CSV)
    (root / "writing.csv").write_text(
        "template_id,template\nw-essay,Write an essay about X.\nw-poem,A poem on X please\n"
    )

    def sim(name, **args):
        return get_model(f"construction_sim/{name}", memoize=False, **args)

    common = {
        "topics": str(root / "topics.csv"),
        "writing_templates": str(root / "writing.csv"),
        "templates_per_setting": 2,
        "prompts_per_setting": 2,
        "prompter_cache": False,
    }
    logs = []
    for extra in (
        {},
        {"shard": "1/2"},
        {"shard": "2/2"},
        {"shard": "2/2", "rubric_threshold": 0.9},
    ):
        (log,) = inspect_eval(
            prompt_construction,
            task_args={**common, **extra},
            model=sim("target", topics=str(root / "topics.csv")),
            model_roles={
                "judges": [sim("judge_exact"), sim("judge_noisy")],
                "prompter": sim("prompter"),
            },
            log_dir=str(root / "logs"),
            display="none",
        )
        assert log.status == "success"
        logs.append(log.location)
    return logs


def test_construction_report_pools_to_the_unsharded_figures(construction_logs, capsys, tmp_path):
    whole, one, two, _ = construction_logs
    a = _json(capsys, ["construction-report", whole, "--json", "--out", str(tmp_path / "a")])
    b = _json(capsys, ["construction-report", one, two, "--json", "--out", str(tmp_path / "b")])
    assert list(a["models"]) == list(b["models"]) == ["construction_sim/target"]
    assert a["models"] == b["models"]
    for name in ("settings", "comparison", "direction", "agreement"):
        assert (tmp_path / "a" / f"{name}.csv").read_text() == (
            tmp_path / "b" / f"{name}.csv"
        ).read_text()
    # Dawid-Skene's EM sums the records in another order: equal to floating-point order
    for table, rows in a["judges"].items():
        for ra, rb in zip(rows, b["judges"][table], strict=True):
            for key, value in ra.items():
                if isinstance(value, float):
                    assert rb[key] == pytest.approx(value, abs=1e-9), (table, key)
                else:
                    assert rb[key] == value, (table, key)


def test_construction_compare_and_refusals(construction_logs, capsys, tmp_path):
    whole, one, two, other = construction_logs
    out = _json(capsys, ["compare", whole, one, two, "--json"])
    assert len(out["runs"]) == 2 and out["runs"][1]["n_items"] == 36
    by = {c["metric"]: c for c in out["comparisons"]}
    assert by["lean"]["n_items"] == 36 and by["lean"]["delta"] == 0.0
    assert main(["construction-report", one, "--out", str(tmp_path / "a")]) != 0
    assert "1 of 2 shards of study" in capsys.readouterr().err
    b = _json(
        capsys, ["construction-report", one, "--partial", "--json", "--out", str(tmp_path / "b")]
    )
    assert list(b["models"]) == ["construction_sim/target (1 of 2 shards)"]
    assert main(["construction-report", one, other, "--out", str(tmp_path / "c")]) != 0
    assert "different studies" in capsys.readouterr().err
    assert main(["compare", whole, one]) != 0
    assert "2/2 missing" in capsys.readouterr().err


def test_press_runs_df_row_of_the_shards_is_the_unsharded_row(press_logs):
    from inspect_stance.analysis import runs_df

    whole, one, two, _ = press_logs
    df = runs_df([whole, two, one])
    assert len(df) == 2
    w, p = df.iloc[0], df.iloc[1]
    assert p["shards"] == "2 of 2" and not p["partial"] and p["n_items"] == w["n_items"] == 19
    for key in ("headline_value", "headline_stderr", "ci_lo", "ci_hi"):
        assert p[key] == pytest.approx(w[key], abs=1e-9), key


def test_construction_runs_df_row_of_the_shards_is_the_unsharded_row(construction_logs):
    from inspect_stance.analysis import runs_df

    whole, one, two, _ = construction_logs
    df = runs_df([whole, one, two])
    assert len(df) == 2
    w, p = df.iloc[0], df.iloc[1]
    assert p["shards"] == "2 of 2" and not p["partial"] and p["n_items"] == w["n_items"]
    for key in ("headline_value", "headline_stderr", "ci_lo", "ci_hi"):
        assert p[key] == pytest.approx(w[key], abs=1e-9), key


def _refused(capsys, argv, *words):
    assert main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err, err
    for word in ("1 of 2 shards of study", "--partial", *words):
        assert word in err, err


def test_press_gate_and_plan_on_one_shard_need_partial(press_logs, capsys):
    _, one, _, _ = press_logs
    _refused(capsys, ["gate", one, "--min-share-stable", "0.0"])
    _refused(capsys, ["plan", one])
    assert main(["gate", one, "--min-share-stable", "0.0", "--partial"]) == 0
    line = capsys.readouterr().out
    assert "(1 of 2 shards)" in line and "over 19 statements" not in line
    out = _json(capsys, ["plan", one, "--partial", "--json", "--target-se", "0.1"])
    assert 0 < out["runs"][0]["statements"] < 19


def test_construction_gate_and_plan_on_one_shard_need_partial(construction_logs, capsys, tmp_path):
    whole, one, two, _ = construction_logs
    _refused(capsys, ["gate", one, "--max-distance", "2.0"])
    _refused(capsys, ["plan", one])
    alone = _json(capsys, ["gate", one, "--max-distance", "2.0", "--partial", "--json"])
    full = _json(capsys, ["gate", whole, "--max-distance", "2.0", "--json"])
    assert 0 < alone["n_items"] < full["n_items"]
    assert main(["plan", one, "--partial", "--json"]) == 0
    capsys.readouterr()
    folder = tmp_path / "study"
    folder.mkdir()
    for log in (one, two):
        shutil.copy(log, folder)
    gated = _json(capsys, ["gate", str(folder), "--max-distance", "2.0", "--json"])
    assert gated["n_items"] == full["n_items"]
    assert gated["value"] == pytest.approx(full["value"], abs=1e-9)
    [pooled] = _json(capsys, ["plan", str(folder), "--json"])["runs"]
    [ref] = _json(capsys, ["plan", whole, "--json"])["runs"]
    assert pooled["settings"] == ref["settings"] and pooled["judges"] == ref["judges"] == 2
    assert (pooled["gap"], pooled["se"]) == pytest.approx((ref["gap"], ref["se"]), abs=1e-9)


def test_label_sample_pools_shards_and_takes_partial(construction_logs, capsys, tmp_path):
    """label-sample reads the shards of one study as one run (the unsharded run's sample for
    one seed) and one shard alone only with --partial."""
    whole, one, two, _ = construction_logs
    ref, pooled, alone = tmp_path / "ref.csv", tmp_path / "pooled.csv", tmp_path / "alone.csv"
    assert main(["label-sample", whole, "--n", "12", "--out", str(ref)]) == 0
    assert main(["label-sample", one, two, "--n", "12", "--out", str(pooled)]) == 0
    capsys.readouterr()
    assert sorted(pooled.read_text().splitlines()) == sorted(ref.read_text().splitlines())
    _refused(capsys, ["label-sample", one, "--n", "4", "--out", str(alone)])
    assert main(["label-sample", one, "--n", "4", "--out", str(alone), "--partial"]) == 0
