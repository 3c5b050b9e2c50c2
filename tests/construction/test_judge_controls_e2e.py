"""Judge controls, audits, Dawid-Skene and PPI end to end on the scripted providers.

Known answers (``construction_sim``, see its docstring): the target's stance is fixed by the
prompt (templated: pro filler 1, neutral 2, con 5; generated: 3, or 2 / 4 with a side cue);
``judge_framed`` moves one step toward the side whose phrasing the prompt it sees contains;
``judge_biased`` adds its offset and noise (``biased_rating``); with ``reads_order=false`` it
ignores the reversed rubric's orientation.
"""

from __future__ import annotations

import math

import pytest
from inspect_ai import eval as inspect_eval
from inspect_ai.model import get_model
from inspect_stance.tasks.prompt_construction import prompt_construction

from inspect_stance.construction.controls import parse_judge_prompt
from inspect_stance.construction.ensemble import judge_bias, with_ensemble
from inspect_stance.construction.judge_audit import (
    family_audit,
    family_label,
    reversal_audit,
    same_family,
)
from inspect_stance.construction.ppi_lean import ppi_summary
from inspect_stance.construction.report import build_report, read_records
from inspect_stance.errors import InputError

TRUE = {
    ("templated", "neutral"): 2,
    ("templated", "pole_a"): 1,
    ("templated", "pole_b"): 5,
    ("generated", "neutral"): 3,
    ("generated", "pole_a"): 2,
    ("generated", "pole_b"): 4,
}
BASE = dict(
    topics="1001", intents="opinion,information", templates_per_setting=2, prompts_per_setting=2
)


def sim(name, **args):
    return get_model(f"construction_sim/{name}", memoize=False, **args)


def run(log_dir, judges, **task_args):
    (log,) = inspect_eval(
        prompt_construction,
        task_args={**BASE, **task_args},
        model=sim("target"),
        model_roles={"judges": judges, "prompter": sim("prompter")},
        log_dir=str(log_dir),
        display="none",
    )
    assert log.status == "success", log.error
    return log


def true_of(record):
    return TRUE[(record.method, record.setting.stance)]


@pytest.fixture(scope="module")
def five_judges(tmp_path_factory):
    """Five judges (exact, +1 biased, framed, order-blind, noisy), every control, human labels
    (the true stance) on slots 0 and 1 of every setting and method (3 prompts each)."""
    root = tmp_path_factory.mktemp("judge_controls")
    ids = [
        f"1001-{i}-{s}-{m}-{k:02d}-r0"
        for i in ("opinion",)
        for s in ("neutral", "pole_a", "pole_b")
        for m in ("templated", "generated")
        for k in range(3)
    ]
    labels = root / "human.csv"
    lines = ["id,label"] + [
        f"{sid},{TRUE[(sid.split('-')[3], sid.split('-')[2])]}" for sid in ids if "-02-" not in sid
    ]
    labels.write_text("\n".join(lines) + "\n")
    judges = [
        sim("judge_exact"),
        sim("judge_biased", offset=1, noise=0.3, seed=1),
        sim("judge_framed"),
        sim("judge_biased", reads_order=False, seed=2),
        sim("judge_noisy"),
    ]
    log = run(
        root / "logs",
        judges,
        judge_prompt="original,none,swapped",
        reversed_rubric=True,
        ensemble="dawid_skene",
        human_labels=str(labels),
        templates_per_setting=3,
        prompts_per_setting=3,
        intents="opinion",
    )
    records, _ = read_records([root / "logs"])
    return log, records, root


def test_order_audit_flags_the_order_blind_judge(five_judges):
    _, records, _ = five_judges
    rows = {r["judge"]: r for r in reversal_audit(records)}
    blind = "construction_sim/judge_biased#2"
    assert [n for n, r in rows.items() if r["flagged"]] == [blind]
    # it answers its standard rating under the reversed rubric: read back, every rating != 3 flips
    expected = sum(r.judge_labels[3] != "3" for r in records) / len(records)
    assert rows[blind]["flip_rate"] == pytest.approx(expected)


def test_bias_audit_and_dawid_skene_find_the_offset(five_judges):
    _, records, _ = five_judges
    rows = {r["judge"]: r for r in judge_bias(records)}
    assert [n for n, r in rows.items() if r["biased"]] == ["construction_sim/judge_biased"]
    realised = [
        int(r.judge_labels[1]) - true_of(r) for r in records if r.judge_labels[1] != "refusal"
    ]
    truth = sum(realised) / len(realised)
    assert truth > 0.5
    assert rows["construction_sim/judge_biased"]["offset_dawid_skene"] == pytest.approx(
        truth, abs=0.1
    )
    assert rows["construction_sim/judge_biased"]["offset_vs_human"] == pytest.approx(
        sum(d for r, d in zip(records, realised, strict=True) if r.human_label)
        / sum(1 for r in records if r.human_label)
    )


def test_dawid_skene_ensemble_metrics_are_the_true_leans(five_judges):
    log, records, _ = five_judges
    from inspect_stance.construction.figures import log_figures

    # the leans and PPI figures left the panel for construction.figures (the run's ensemble)
    metrics = log_figures([log.location])
    for method in ("templated", "generated"):
        truth = sum(true_of(r) - 3 for r in records if r.method == method) / sum(
            r.method == method for r in records
        )
        assert metrics[f"lean_{method}"] == pytest.approx(truth, abs=1e-9)
        assert metrics[f"ppi_lean_{method}_low"] <= truth <= metrics[f"ppi_lean_{method}_high"]
    ds = with_ensemble(records, "dawid_skene")
    assert all(r.outcome == str(true_of(r)) for r in ds)


def test_swapped_prompt_moves_the_framed_judge(five_judges):
    _, records, _ = five_judges
    seen = 0
    for r in records:
        swapped = r.controls["swapped"]
        if r.setting.stance == "neutral":
            assert swapped == {"outcome": "not_applicable"}
            continue
        framed = swapped["judge_labels"]["construction_sim/judge_framed"]
        exact = swapped["judge_labels"]["construction_sim/judge_exact"]
        assert exact == str(true_of(r))
        if r.method == "templated":  # the swapped prompt carries the other pole's filler
            step = 1 if r.setting.stance == "pole_a" else -1
            assert framed == str(true_of(r) + step)
            seen += 1
        assert r.controls["none"]["judge_labels"]["construction_sim/judge_framed"] == str(
            true_of(r)
        )
    assert seen == 6


def test_ppi_covers_the_true_lean(five_judges):
    _, records, _ = five_judges
    summary = ppi_summary(records)
    for method in ("templated", "generated"):
        truth = sum(true_of(r) - 3 for r in records if r.method == method) / 9
        s = summary[method]
        assert s["n_labelled"] == 6 and s["n_unlabelled"] == 3
        assert s["ppi_ci_low"] <= truth <= s["ppi_ci_high"]
    d = summary["distance_difference"]
    assert d["n_settings"] == 1 and d["ppi"] == pytest.approx(1.0, abs=0.3)


def test_report_has_the_judge_section(five_judges):
    _, _, root = five_judges
    build_report([root / "logs"], root / "report", human_labels=root / "human.csv")
    md = (root / "report" / "construction_report.md").read_text()
    for heading in (
        "Judge controls",
        "Per-judge bias",
        "Dawid-Skene",
        "reversed rubric",
        "model family",
        "PPI",
    ):
        assert heading in md
    for name in ("judge_controls.csv", "judge_bias.csv", "ppi_summary.csv", "judge_reversal.csv"):
        assert (root / "report" / name).is_file()


def test_swap_lean_moves_with_one_framed_judge(tmp_path):
    """One framed judge, templated opinion prompts of both poles: the swapped prompt moves the
    pole A lean by +1 and the pole B lean by -1; hiding the prompt moves nothing."""
    log_dir = tmp_path / "logs"
    run(
        log_dir,
        [sim("judge_framed")],
        intents="opinion",
        stances="pole_a,pole_b",
        methods="templated",
        judge_prompt="original,none,swapped",
    )
    from inspect_stance.construction.controls import lean_moves

    records, _ = read_records([log_dir])
    moves = lean_moves(records)
    got = {(r.control, r.stance): r.move for r in moves.itertuples()}
    assert got == {
        ("none", "pole_a"): 0.0,
        ("none", "pole_b"): 0.0,
        ("swapped", "pole_a"): 1.0,
        ("swapped", "pole_b"): -1.0,
    }


def test_family_rule_and_leave_one_out():
    assert family_label("openai/gpt-4o-mini") == "openai gpt"
    assert family_label("vllm/meta-llama/Llama-3.1-8B-Instruct") == "llama"
    assert same_family("openai/gpt-4.1-mini#2", "openai/gpt-4o-mini")
    assert same_family("openai-api/local/gpt-oss-20b", "openai/o3-mini")
    assert not same_family("anthropic/claude-3-5-haiku", "openai/gpt-4o")
    from inspect_stance.construction.records import Record
    from inspect_stance.construction.settings import Setting

    judges = ("openai/gpt-4o", "anthropic/claude-3-5-haiku", "google/gemini-1.5-pro")
    recs = [
        Record(
            f"s{i}", Setting(1, "opinion", "pole_a"), "templated", out, labels, ("ok",) * 3, judges
        )
        for i, (out, labels) in enumerate(
            [("1", ("1", "1", "2")), ("2", ("1", "2", "2")), ("3", ("5", "3", "3"))]
        )
    ]
    rows = {r["judge"]: r for r in family_audit(recs, "openai/gpt-4o-mini", None)}
    assert rows["openai/gpt-4o"]["same_family_as_target"] is True
    assert rows["anthropic/claude-3-5-haiku"]["same_family_as_target"] is False
    assert rows["openai/gpt-4o"]["lean_templated_with"] == pytest.approx(
        -1.0
    )  # (1 + 2 + 3) / 3 - 3
    # without gpt-4o: (1,2)->no majority, (2,2)->2, (3,3)->3: lean (2 + 3) / 2 - 3
    assert rows["openai/gpt-4o"]["lean_templated_without"] == pytest.approx(-0.5)
    assert math.isnan(rows["openai/gpt-4o"]["lean_generated_with"])


def test_judge_prompt_parsing():
    assert parse_judge_prompt(None, True) == ["original"]
    assert parse_judge_prompt(None, False) == ["none"]
    assert parse_judge_prompt("original,swapped", True) == ["original", "swapped"]
    with pytest.raises(InputError, match="swapped is a control"):
        parse_judge_prompt("swapped", True)
    with pytest.raises(InputError, match="choose from"):
        parse_judge_prompt("original,flipped", True)
    with pytest.raises(InputError, match="judge_sees_prompt=false"):
        parse_judge_prompt("original,none", False)


def test_judge_section_splits_judge_lists():
    """Logs of one run group with different judge lists get one judge table each."""
    from inspect_stance.construction.judge_report import judge_blocks, judge_section
    from inspect_stance.construction.records import Record
    from inspect_stance.construction.settings import Setting
    from inspect_stance.report_doc import Report

    def rec(i, judges, labels):
        return Record(
            f"s{i}", Setting(1, "opinion", "neutral"), "templated", "2", labels, ("ok",) * 2, judges
        )

    a, b = ("j/a", "j/b"), ("j/c", "j/d")
    recs = [
        rec(0, a, ("2", "2")),
        rec(1, a, ("2", "3")),
        rec(2, b, ("2", "2")),
        rec(3, b, ("1", "2")),
    ]
    section = judge_section({"m": recs})
    bias = section.tables["bias"]
    assert sorted(set(bias["model"])) == ["m [judges: j/a, j/b]", "m [judges: j/c, j/d]"]
    assert list(bias["judge"]) == ["j/a", "j/b", "j/c", "j/d"]
    assert "## Per-judge bias" in Report(None, judge_blocks(section)).markdown()


def test_swap_metadata_templated_reused_and_generated():
    """Templated: the same template with the opposite filler; reused prompts: the opposite
    setting's prompt of the same slot (none when it lacks the slot); generated in the run: the
    opposite setting's instructions; neutral: nothing."""
    from inspect_stance.construction.controls import swap_metadata
    from inspect_stance.construction.prompts import build_specs
    from inspect_stance.construction.settings import Setting
    from inspect_stance.construction.templates import (
        OPINION_TEMPLATES,
        builtin_templates,
        fill,
    )
    from inspect_stance.construction.topics import select_topics

    (topic,) = select_topics("1001")
    templates = {"opinion": builtin_templates(OPINION_TEMPLATES, "opinion")[:2]}
    common = dict(
        topics=[topic],
        intents=["opinion"],
        stances=["neutral", "pole_a", "pole_b"],
        templates=templates,
        prompts_per_setting=2,
        responses_per_prompt=1,
    )
    reused = {
        (Setting(1001, "opinion", s), "generated"): p
        for s, p in (("neutral", {0: "N0"}), ("pole_a", {0: "A0", 1: "A1"}), ("pole_b", {0: "B0"}))
    }
    specs = build_specs(methods=["templated", "generated"], reused=reused, **common)
    swaps = swap_metadata(specs)
    t = templates["opinion"][1].text
    assert swaps["1001-opinion-pole_a-templated-01-r0"]["swap_prompt_text"] == fill(t, topic.con)
    assert swaps["1001-opinion-pole_b-templated-01-r0"]["swap_prompt_text"] == fill(t, topic.pro)
    assert swaps["1001-opinion-pole_a-generated-00-r0"]["swap_prompt_text"] == "B0"
    assert swaps["1001-opinion-pole_b-generated-00-r0"]["swap_prompt_text"] == "A0"
    assert swaps["1001-opinion-pole_a-generated-01-r0"]["swap_setting"] is None  # no B slot 1
    assert swaps["1001-opinion-neutral-templated-00-r0"]["swap_setting"] is None
    generated = build_specs(methods=["generated"], **common)
    meta = swap_metadata(generated)["1001-opinion-pole_a-generated-01-r0"]
    assert meta["swap_setting"] == "1001-opinion-pole_b" and meta["swap_prompt_text"] is None
    pole_b = next(s for s in generated if s.setting.stance == "pole_b")
    assert meta["swap_generation_instructions"] == pole_b.generation_instructions
