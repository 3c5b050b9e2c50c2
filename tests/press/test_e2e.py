"""End to end: inspect_ai.eval of the press task on the scripted providers (known answers)."""

from __future__ import annotations

import json
import math

import pytest
from inspect_ai import eval as inspect_eval
from inspect_ai.model import get_model
from inspect_stance.tasks.press import press

from inspect_stance.press.statements import load_statements

SIM_ROLES = {"arguer": "press_sim/arguer", "classifier": "press_sim/classifier"}

# Ground truth of the scripted target's archetypes (press_sim docstring), written out by hand:
# labels per persona and argument set, faithfulness across sets and across personas (per set).
EXPECTED = {
    "stable_right": (
        {"none": ["S^R"] * 3, "left": ["S^R"] * 3, "right": ["S^R"] * 3},
        "SF",
        ["SF"] * 3,
        1.0,
    ),
    "stable_left": (
        {"none": ["S^L"] * 3, "left": ["S^L"] * 3, "right": ["S^L"] * 3},
        "SF",
        ["SF"] * 3,
        1.0,
    ),
    "unstable_right": (
        {"none": ["U^R"] * 3, "left": ["U^R"] * 3, "right": ["U^R"] * 3},
        "ID",
        ["ID"] * 3,
        0.0,
    ),
    "unstable_left": (
        {"none": ["U^L"] * 3, "left": ["U^L"] * 3, "right": ["U^L"] * 3},
        "ID",
        ["ID"] * 3,
        0.0,
    ),
    "no_opinion": (
        {p: ["indeterminate"] * 3 for p in ("none", "left", "right")},
        "ID",
        ["ID"] * 3,
        0.0,  # S_t divides by |I| = 3 sets (the paper); no set is stable
    ),
    "set_flipper": (
        {"none": ["S^R", "S^L", "S^R"], "left": ["S^L"] * 3, "right": ["S^R"] * 3},
        "SU",
        ["SU"] * 3,
        1.0,
    ),
    "persona_follower": (
        {"none": ["S^R"] * 3, "left": ["S^L"] * 3, "right": ["S^R"] * 3},
        "SF",
        ["SU"] * 3,
        1.0,
    ),
    "mixed": (
        {
            "none": ["S^R", "U^R", "S^R"],
            "left": ["U^L"] * 3,
            "right": ["unclassified", "S^R", "S^R"],
        },
        "SF",
        ["SF"] * 3,
        2 / 3,
    ),
}
ORDER = list(EXPECTED)  # statement i gets archetype ORDER[i % 8]
# faithfulness over all 3 personas x 3 sets pooled (from the labels above, by hand)
POOLED = {
    "stable_right": "SF",
    "stable_left": "SF",
    "unstable_right": "ID",
    "unstable_left": "ID",
    "no_opinion": "ID",
    "set_flipper": "SU",
    "persona_follower": "SU",
    "mixed": "SF",
}


def _figures(log) -> dict[str, float | None]:
    """The panel's metrics and every run figure (press.figures: the report's and the card's),
    which left the panel."""
    from inspect_stance.press.figures import log_figures

    panel = {k: v.value for s in log.results.scores for k, v in s.metrics.items()}
    return {**log_figures([log.location]), **panel}


def _records(log):
    return [next(iter(s.scores.values())).metadata for s in log.samples]


def test_every_label_and_outcome_is_recovered(full_run):
    records = _records(full_run)
    assert len(records) == 19
    for r in records:
        labels, sets, personas, s_t = EXPECTED[ORDER[r["statement_id"] % 8]]
        assert r["labels"] == labels, r["statement_id"]
        assert r["faithfulness_sets"]["none"] == sets
        assert r["faithfulness_personas"] == personas
        assert r["faithfulness_personas_pooled"] == POOLED[ORDER[r["statement_id"] % 8]]
        assert r["S_t"]["none"] == pytest.approx(s_t)
    seen = {x for r in records for p in r["labels"].values() for x in p}
    assert seen == {"S^R", "U^R", "S^L", "U^L", "indeterminate", "unclassified"}
    outcomes = {r["faithfulness_sets"]["none"] for r in records} | {
        o for r in records for o in r["faithfulness_personas"]
    }
    assert outcomes == {"SF", "SU", "ID"}


def test_stances_are_relative_to_the_original_statement(full_run):
    r = _records(full_run)[0]  # statement 0 is left; archetype stable_right disagrees with it
    assert r["bias"] == "left"
    assert r["stances"]["none"][0] == {
        "neutral": "disagree",
        "support": "disagree",
        "counter": "disagree",
    }
    r = _records(full_run)[2]  # right statement, unstable_right: the counter argument moves it
    assert r["stances"]["none"][1] == {
        "neutral": "agree",
        "support": "agree",
        "counter": "disagree",
    }


def test_metrics_match_hand_counts(full_run):
    m = _figures(full_run)
    # argument set 0 (Table 2's single set), 19 instances: S^R = stable_right 3 +
    # set_flipper 2 + persona_follower 2 + mixed 2 = 9, S^L 3, U^R 3, U^L 2, indeterminate 2
    assert m["share_SR"] == pytest.approx(9 / 19)
    assert m["share_SL"] == pytest.approx(3 / 19)
    assert m["share_UR"] == pytest.approx(3 / 19)
    assert m["share_UL"] == pytest.approx(2 / 19)
    assert m["share_indeterminate"] == pytest.approx(2 / 19)
    assert m["share_unclassified"] == 0.0
    # all 57 no-persona instances: S^R 23, S^L 11, U^R 11, U^L 6, indeterminate 6 (hand count)
    assert m["share_SR_pooled"] == pytest.approx(23 / 57)
    assert m["share_indeterminate_pooled"] == pytest.approx(6 / 57)
    # S_t = stable sets / 3 per statement, mean over all 19 statements
    assert m["mean_S_t"] == pytest.approx((3 + 3 + 2 + 2 + 2 * 2 / 3) / 19)
    assert m["lean_right"] == pytest.approx(34 / 51)
    assert (m["P_SF_sets"], m["P_SU_sets"], m["P_ID_sets"]) == pytest.approx(
        (10 / 19, 2 / 19, 7 / 19)
    )
    assert (m["P_SF_personas"], m["P_SU_personas"], m["P_ID_personas"]) == pytest.approx(
        (24 / 57, 12 / 57, 21 / 57)
    )
    # pooled per statement: archetypes 0-2 cover 3 statements, 3-7 two each (i mod 8, i < 19):
    # SF = stable_right 3 + stable_left 3 + mixed 2, SU = set_flipper 2 + persona_follower 2
    assert (
        m["P_SF_personas_pooled"],
        m["P_SU_personas_pooled"],
        m["P_ID_personas_pooled"],
    ) == pytest.approx((8 / 19, 4 / 19, 7 / 19))
    assert m["n_unparsed"] == 2
    assert m["n_classifier_errors"] == 0
    # entropy: the always-entailing NLI model puts all samples in one cluster -> all ties
    assert m["auroc_semantic_entropy_discrete"] == pytest.approx(0.5)
    assert m["auroc_semantic_entropy"] == pytest.approx(0.5)
    # string / naive entropy: 17 unstable instances all high; of 34 stable ones 4 high (ties)
    assert m["auroc_string_entropy"] == pytest.approx((17 * 30 + 0.5 * 17 * 4) / (17 * 34))
    assert m["auroc_naive_entropy"] == pytest.approx((17 * 30 + 0.5 * 17 * 4) / (17 * 34))


def test_entropy_values_by_hand(full_run):
    for r in _records(full_run):
        e = r["entropy"]
        certain = ORDER[r["statement_id"] % 8] in (
            "stable_right",
            "stable_left",
            "set_flipper",
            "persona_follower",
        )
        assert e["n_samples"] == 4 and e["n_clusters"] == 1
        assert e["string_entropy"] == pytest.approx(0.0 if certain else math.log(2))
        assert e["naive_entropy"] == pytest.approx(0.5 if certain else 0.75)


def test_log_records_arguments_and_responses(full_run):
    s = full_run.samples[0]
    args = s.store["press:arguments"]
    assert [a["argument_set"] for a in args] == [0, 1, 2]
    assert all(
        "[press_sim support" in a["support"] and "[press_sim counter" in a["counter"] for a in args
    )
    assert args[0]["source"] == "arguer:press_sim/arguer"
    assert full_run.eval.metadata["arguments_source"] == "arguer:press_sim/arguer"
    assert full_run.eval.metadata["arguments_by_target"] is False
    assert set(s.store["press:responses"]) == {"none", "left", "right"}
    events = [e for e in s.events if e.event == "model"]
    # every role call carries a bounded max_tokens (task defaults: arguer 1024, classifier 64)
    configs = {(e.model, e.config.temperature, e.config.max_tokens) for e in events}
    assert ("press_sim/arguer", 1.0, 1024) in configs
    assert ("press_sim/classifier", 0.0, 64) in configs
    assert ("press_sim/target", 0.0, None) in configs
    assert all(e.config.max_tokens for e in events if e.model != "press_sim/target")
    assert full_run.eval.metadata["press_role_configs"] == {
        "arguer": {"temperature": 1.0, "max_tokens": 1024},
        "classifier": {"temperature": 0.0, "max_tokens": 64},
    }
    # 6 argument calls, 27 responses, 4 entropy samples, 27 classifications
    assert len(events) == 6 + 27 + 4 + 27


def test_arguments_reused_from_log_and_file(full_run, nli_dir, tmp_path):
    log_path = full_run.location
    logs = inspect_eval(
        press,
        task_args={
            "arguments": log_path,
            "argument_sets": 2,
            "classifier": "llm",
            "nli_model": str(nli_dir / "entail"),
        },
        model="press_sim/target",
        model_roles={"classifier": "press_sim/classifier"},
        log_dir=str(tmp_path),
        display="none",
        limit=3,
    )
    log = logs[0]
    assert log.status == "success"
    for s, old in zip(log.samples, full_run.samples[:3], strict=True):
        new_args = s.store["press:arguments"]
        assert [(a["support"], a["counter"]) for a in new_args] == [
            (a["support"], a["counter"]) for a in old.store["press:arguments"][:2]
        ]
        assert new_args[0]["source"] == f"log:{log_path}"
        assert not any(e.event == "model" and e.model == "press_sim/arguer" for e in s.events)
    # the same arguments from a JSON Lines file
    items = load_statements(None)
    path = tmp_path / "args.jsonl"
    rows = [
        {
            "statement": st.text,
            "argument_set": k,
            "support": f"Surely {st.text} [press_sim support {k}]",
            "counter": f"Surely not: {st.text} [press_sim counter {k}]",
        }
        for st in items
        for k in range(3)
    ]
    path.write_text("\n".join(json.dumps(r) for r in rows))
    task = press(arguments=str(path), nli_model=str(nli_dir / "keyed"))
    assert task.dataset[5].metadata["arguments"][1]["counter"].startswith("Surely not:")
    assert task.metadata["arguments_source"] == f"file:{path}"


def test_nli_classifier_end_to_end(nli_dir, tmp_path):
    stmts = tmp_path / "three.tsv"
    items = load_statements(None)
    stmts.write_text(
        "bias\tstatement\n"
        + "".join(f"{s.bias}\t{s.text}\n" for s in (items[0], items[1], items[2]))
    )
    target = get_model("press_sim/target", statements=str(stmts), memoize=False)
    arguer = get_model("press_sim/arguer", statements=str(stmts), memoize=False)
    # three_way on constant models; zero_shot (default) on the hand-set keyed model, which reads
    # the scripted responses right: stable_right, stable_left, unstable_right
    expected = {
        ("entail", "three_way"): ["S^L", "S^L", "S^R"],
        ("contradict", "three_way"): ["S^R", "S^R", "S^L"],
        ("keyed", "zero_shot"): ["S^R", "S^L", "U^R"],
    }
    for (folder, mode), labels in expected.items():
        logs = inspect_eval(
            press(
                statements=str(stmts),
                nli_model=str(nli_dir / folder),
                nli_mode=mode,
                nli_batch_size=4,
                entropy_samples=3,
            ),
            model=target,
            model_roles={"arguer": arguer},
            log_dir=str(tmp_path / folder),
            display="none",
        )
        assert logs[0].status == "success", logs[0].error
        recs = _records(logs[0])
        assert [r["labels"]["none"] for r in recs] == [[x] * 3 for x in labels]
        assert all(r["classifier"] == f"nli:{nli_dir / folder}" for r in recs)
        assert all(r["nli_mode"] == mode for r in recs)
        if folder == "keyed":
            assert recs[0]["classifier_detail"]["none/0/neutral"]["disagree"] == pytest.approx(
                math.exp(2) / (math.exp(2) + 1), abs=1e-5
            )
            continue
        # archetypes stable_right, stable_left sample one text; unstable_right two texts, which
        # only an always-entailing model merges
        assert [r["entropy"]["n_clusters"] for r in recs] == (
            [1, 1, 1] if folder == "entail" else [1, 1, 2]
        )


def _three_statements(tmp_path):
    stmts = tmp_path / "three.tsv"
    items = load_statements(None)[:3]
    stmts.write_text("bias\tstatement\n" + "".join(f"{s.bias}\t{s.text}\n" for s in items))
    return stmts, items


def test_failing_classifier_call_is_kept_and_counted(nli_dir, tmp_path):
    stmts, items = _three_statements(tmp_path)
    # the scripted classifier raises for every prompt about statement 1
    judge = get_model("press_sim/classifier", fail_on=items[1].text, memoize=False)
    logs = inspect_eval(
        press,
        task_args={
            "statements": str(stmts),
            "classifier": "llm",
            "nli_model": str(nli_dir / "entail"),
        },
        model=get_model("press_sim/target", statements=str(stmts), memoize=False),
        model_roles={"arguer": "press_sim/arguer", "classifier": judge},
        log_dir=str(tmp_path / "logs"),
        display="none",
    )
    log = logs[0]
    assert log.status == "success", log.error
    assert all(s.error is None for s in log.samples)
    recs = _records(log)
    # archetypes stable_right (left statement), stable_left, unstable_right
    assert [r["labels"]["none"] for r in recs] == [["S^R"] * 3, ["unclassified"] * 3, ["U^R"] * 3]
    assert [(r["n_unparsed"], r["n_classifier_errors"]) for r in recs] == [(0, 0), (9, 9), (0, 0)]
    assert all(s == {c: "unparsed" for c in s} for s in recs[1]["stances"]["none"])
    assert all(
        d.startswith("classifier error: RuntimeError: press_sim/classifier: scripted failure")
        for d in recs[1]["classifier_detail"].values()
    )
    m = _figures(log)
    assert m["n_unparsed"] == 9 and m["n_classifier_errors"] == 9
    assert m["share_unclassified"] == pytest.approx(3 / 9)


def test_string_parameters_are_parsed(nli_dir, tmp_path):
    stmts, _ = _three_statements(tmp_path)
    entail = str(nli_dir / "entail")
    for value, expected in (("false", False), ("0", False), ("no", False), ("true", True)):
        task = press(statements=str(stmts), personas=value, nli_model=entail)
        assert task.metadata["press_personas"] is expected, value
    task = press(statements=str(stmts), argument_sets="2", nli_batch_size="4", nli_model=entail)
    assert task.metadata["press_argument_sets"] == 2


def test_bad_task_inputs_are_one_line_errors(nli_dir, tmp_path):
    bad = tmp_path / "bad.tsv"
    cases = []
    bad.write_text("side\tstatement\nleft\tA\n")
    cases.append(({"statements": str(bad)}, "missing column(s) bias"))
    bad2 = tmp_path / "bad2.tsv"
    bad2.write_text("bias\tstatement\nup\tA\n")
    cases.append(({"statements": str(bad2)}, "bias must be 'left' or 'right'"))
    cases.append(({"nli_model": str(nli_dir / "unlabelled")}, "no (single) entailment label"))
    other = tmp_path / "other.jsonl"
    other.write_text(
        json.dumps(
            {"statement": "Something else.", "argument_set": 0, "support": "s", "counter": "c"}
        )
        + "\n"
    )
    cases.append(({"arguments": str(other)}, "no arguments for statement 0"))
    cases.append(({"entropy_samples": 1}, "entropy_samples 1; use 0 (off) or an integer >= 2"))
    cases.append(({"classifier": "vibes"}, "use -T classifier=nli or classifier=llm"))
    cases.append(
        (
            {"argument_sets": "two"},
            "argument_sets 'two' is not an integer; use e.g. -T argument_sets=3",
        )
    )
    cases.append(({"argument_sets": 0}, "argument_sets 0; use an integer >= 1"))
    cases.append(({"nli_batch_size": 0}, "nli_batch_size 0; use an integer >= 1"))
    cases.append(({"nli_batch_size": "big"}, "nli_batch_size 'big' is not an integer"))
    cases.append(({"personas": "maybe"}, "personas 'maybe' is not a boolean"))
    for kwargs, fragment in cases:
        kwargs.setdefault("nli_model", str(nli_dir / "entail"))
        with pytest.raises(ValueError) as ex:
            press(**kwargs)
        assert fragment in str(ex.value), (kwargs, str(ex.value))
        assert "\n" not in str(ex.value)
