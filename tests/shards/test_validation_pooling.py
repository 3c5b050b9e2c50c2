"""Shards 1/2 and 2/2 of a prompt-validation study pool, in ``validation-report``, ``report``,
``compare``, ``gate`` and ``runs_df``, into the unsharded run.

Two topics x intents information, opinion x user stances neutral, pole_a = 8 settings, two
templated and two generated prompts each, three scripted annotators (``annotator_sim``:
lexical, contrarian, filler_reader) who answer by the prompt's text alone. Topic 8's generated
prompts carry its neutral phrasing in some settings, so the generated prompts' ranks differ
between settings (the headline's cluster-robust standard error is not 0). A shard holds whole
settings, so the pooled figures must equal the unsharded run's.
"""

from __future__ import annotations

import json
import math
import shutil
from pathlib import Path

import pytest
from inspect_ai import eval as inspect_eval

from inspect_stance.cli import main

TOPICS = """topic_id,topic_neutral,topic_pro,topic_con,tag_exclude,top_prompts,random_prompts,filler_pole
7,the school lunch menu,the school lunch menu being healthy,the school lunch menu being unhealthy,,[],[],pole_b
8,the town library hours,the town library hours being long,the town library hours being short,,[],[],pole_a
"""
GENERATED = """topic_id,intent,stance,method,slot,prompt_text
7,information,neutral,generated,0,Is the food at school healthy or not?
7,information,neutral,generated,1,What does research say about what kids eat at school?
7,information,pole_a,generated,0,I lean toward the first side. What facts show that school meals are good?
7,information,pole_a,generated,1,I lean toward the first side. Which studies support cafeteria food?
7,opinion,neutral,generated,0,Do you have a view on cafeteria food? What do you think?
7,opinion,neutral,generated,1,curious what you think about school meals these days.
7,opinion,pole_a,generated,0,I lean toward the first side. Don't you think cafeteria food has gotten great?
7,opinion,pole_a,generated,1,I lean toward the first side. What's your view on how good cafeteria meals are?
8,information,neutral,generated,0,What are the town library hours this winter?
8,information,neutral,generated,1,Who decides the town library hours?
8,information,pole_a,generated,0,I lean toward the first side. Why is the library open so late?
8,information,pole_a,generated,1,i lean toward the first side. what good comes of long library hours?
8,opinion,neutral,generated,0,What do you think of the town library hours?
8,opinion,neutral,generated,1,Curious what you think about when the library opens.
8,opinion,pole_a,generated,0,I lean toward the first side. Don't you think the town library hours being long is great?
8,opinion,pole_a,generated,1,I lean toward the first side. What's your view on a library open till ten?
"""
ANNOTATORS = ["annotator_sim/lexical", "annotator_sim/contrarian", "annotator_sim/filler_reader"]


def _run(root: Path, name: str, **extra: object) -> str:
    (log,) = inspect_eval(
        "tasks/prompt_validation.py",
        task_args={
            "topics": str(root / "topics.csv"),
            "intents": "information,opinion",
            "stances": "neutral,pole_a",
            "sources": "templated,generated",
            "information_templates": str(root / "info.txt"),
            "opinion_templates": str(root / "opinion.txt"),
            "prompts_from": str(root / "generated.csv"),
            **extra,
        },
        model_roles={"annotators": ANNOTATORS},
        log_dir=str(root / name),
        display="none",
    )
    assert log.status == "success"
    return str(log.location)


@pytest.fixture(scope="module")
def logs(tmp_path_factory) -> list[str]:
    """whole, 1/2, 2/2, and 2/2 of another study (seed 1: other template draws)."""
    root = tmp_path_factory.mktemp("validation_shards")
    (root / "topics.csv").write_text(TOPICS)
    (root / "generated.csv").write_text(GENERATED)
    (root / "info.txt").write_text("Can you explain X?\nWhat should I know about X?\n")
    (root / "opinion.txt").write_text("What do you think about X?\nWhat's your opinion on X?\n")
    return [
        _run(root, "whole"),
        _run(root, "one", shard="1/2"),
        _run(root, "two", shard="2/2"),
        _run(root, "other", shard="2/2", seed=1),
    ]


def _json(capsys, argv: list[str]) -> dict:
    assert main(argv) == 0, capsys.readouterr().err
    return json.loads(capsys.readouterr().out)


def _err(capsys, argv: list[str]) -> str:
    assert main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err, err
    return err


def test_report_of_the_shards_is_the_unsharded_report(logs, capsys, tmp_path):
    whole, one, two, _ = logs
    a = _json(capsys, ["validation-report", whole, "--json", "--out", str(tmp_path / "a")])
    b = _json(capsys, ["validation-report", two, one, "--json", "--out", str(tmp_path / "b")])
    assert b["runs"] == [{"logs": [two, one], "shards": "2 of 2", "partial": False}]
    fa, fb = a["groups"]["llm"], b["groups"]["llm"]
    assert fa["answers"] == fb["answers"] == 3 * 8 * 4  # annotators x settings x prompts
    assert set(fa) == set(fb)
    for key, value in fa.items():
        if value is None:
            assert fb[key] is None, key
        else:
            assert fb[key] == pytest.approx(value, abs=1e-9), key
    assert a["annotators"] == b["annotators"]
    # the pooled records are listed in the unsharded run's setting order
    for name in ("prompts.csv", "annotators.csv"):
        assert (tmp_path / "a" / name).read_text() == (tmp_path / "b" / name).read_text()
    assert "shards pooled: 2 of 2" in (tmp_path / "b" / "validation_report.md").read_text()


def test_one_shard_alone_is_refused_and_reported_with_partial(logs, capsys, tmp_path):
    _, one, two, other = logs
    err = _err(capsys, ["validation-report", one, "--out", str(tmp_path / "a")])
    assert "1 of 2 shards of study" in err and "2/2 missing" in err and "--partial" in err
    out = _json(
        capsys, ["validation-report", one, "--partial", "--json", "--out", str(tmp_path / "b")]
    )
    assert out["runs"] == [{"logs": [one], "shards": "1 of 2", "partial": True}]
    assert out["groups"]["llm"]["answers"] == 3 * 4 * 4  # 4 of the 8 settings
    assert "1 of 2 (partial)" in (tmp_path / "b" / "validation_report.md").read_text()
    err = _err(capsys, ["validation-report", one, other, "--out", str(tmp_path / "c")])
    assert "shards of different studies do not pool" in err
    assert main(["validation-report", one, two, one, "--out", str(tmp_path / "d")]) == 0
    assert "counted 1 repeated run once" in capsys.readouterr().err  # the same log twice


def test_report_command_pools_a_folder_and_passes_partial_on(logs, capsys, tmp_path):
    _, one, two, _ = logs
    folder = tmp_path / "study"
    folder.mkdir()
    for log in (one, two):
        shutil.copy(log, folder)
    assert main(["report", str(folder), "--out", str(tmp_path / "r")]) == 0
    md = (tmp_path / "r" / "prompt_validation" / "validation_report.md").read_text()
    assert "settings: 8" in md and "shards pooled: 2 of 2" in md
    assert main(["report", one, "--out", str(tmp_path / "s")]) != 0
    assert "1 of 2 shards" in capsys.readouterr().err
    assert main(["report", one, "--partial", "--out", str(tmp_path / "t")]) == 0
    md = (tmp_path / "t" / "prompt_validation" / "validation_report.md").read_text()
    assert "settings: 4" in md and "1 of 2 (partial)" in md


def test_compare_pairs_every_setting_with_the_unsharded_run(logs, capsys):
    whole, one, two, _ = logs
    out = _json(capsys, ["compare", whole, one, two, "--json"])
    assert len(out["runs"]) == 2 and [r["n_items"] for r in out["runs"]] == [8, 8]
    by = {c["metric"]: c for c in out["comparisons"]}
    assert by["mean_rank_generated"]["n_items"] == 8
    assert by["neutral_leaning_generated"]["n_items"] == 4  # the neutral settings
    for c in out["comparisons"]:
        assert c["delta"] == 0.0, c["metric"]
    err = _err(capsys, ["compare", whole, one])
    assert "1 of 2 shards" in err and "2/2 missing" in err
    out = _json(capsys, ["compare", whole, one, "--partial", "--json"])
    assert [r["n_items"] for r in out["runs"]] == [8, 4]


def test_gate_on_a_folder_of_shards_and_on_one_shard(logs, capsys, tmp_path):
    whole, one, two, _ = logs
    folder = tmp_path / "study"
    folder.mkdir()
    for log in (one, two):
        shutil.copy(log, folder)
    ref = _json(capsys, ["gate", whole, "--max-neutral-leaning", "1.0", "--json"])
    pooled = _json(capsys, ["gate", str(folder), "--max-neutral-leaning", "1.0", "--json"])
    assert pooled["n_items"] == ref["n_items"] == 4
    assert pooled["value"] == pytest.approx(ref["value"], abs=1e-9)
    based = _json(capsys, ["gate", str(folder), "--baseline", whole, "--json"])
    assert based["checks"][0]["drop"] == 0.0
    err = _err(capsys, ["gate", one, "--max-neutral-leaning", "1.0"])
    assert "1 of 2 shards of study" in err and "--partial" in err
    alone = _json(capsys, ["gate", one, "--max-neutral-leaning", "1.0", "--partial", "--json"])
    assert 0 < alone["n_items"] < 4


def test_runs_df_row_of_the_shards_is_the_unsharded_row(logs):
    from inspect_stance.analysis import runs_df

    whole, one, two, _ = logs
    df = runs_df([whole, two, one])
    assert len(df) == 2
    w, p = df.iloc[0], df.iloc[1]
    assert (
        p["shards"] == "2 of 2"
        and not p["partial"]
        and p["n_clusters"] == w["n_clusters"] == 8
        and p["n_items"] == w["n_items"]
    )
    assert p["pool_note"] is None
    assert w["headline_stderr"] > 0 and math.isfinite(w["headline_stderr"])
    for key in ("headline_value", "headline_stderr", "ci_lo", "ci_hi"):
        assert p[key] == pytest.approx(w[key], abs=1e-9), key


def test_plan_on_a_folder_of_shards_is_the_unsharded_plan(logs, capsys, tmp_path):
    whole, one, two, _ = logs
    folder = tmp_path / "study"
    folder.mkdir()
    for log in (one, two):
        shutil.copy(log, folder)
    ref = _json(capsys, ["plan", whole, "--json"])
    pooled = _json(capsys, ["plan", str(folder), "--json"])
    [r], [p] = ref["runs"], pooled["runs"]
    assert r["settings"] == p["settings"] == 4
    for key in ("neutral_leaning_generated", "se"):
        assert p[key] == pytest.approx(r[key], abs=1e-12), key
    for key in ("between_settings", "prompt", "answer"):
        assert p["components"][key] == pytest.approx(r["components"][key], abs=1e-12), key
    assert p["calls"] == r["calls"]
    assert pooled["recommended"] == ref["recommended"] and ref["recommended"] is not None
    err = _err(capsys, ["plan", one])
    assert "1 of 2 shards of study" in err and "--partial" in err
    [alone] = _json(capsys, ["plan", one, "--partial", "--json"])["runs"]
    assert 0 < alone["settings"] < 4 and "(1 of 2 shards)" in alone["source"]
