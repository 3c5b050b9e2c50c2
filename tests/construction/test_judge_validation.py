"""The judge_validation task on the shared IssueBench annotations with scripted judges."""

from __future__ import annotations

import pandas as pd
import pytest
from inspect_ai import eval as inspect_eval
from inspect_ai.log import read_eval_log
from inspect_ai.model import get_model
from inspect_stance.tasks.judge_validation import judge_validation

from inspect_stance.construction.labels import parse_label

N = 30


def _figures(log) -> dict[str, float]:
    """The panel's metrics and the figures that left it (construction.figures)."""
    from inspect_stance.construction.figures import log_agreement_figures

    panel = {k: v.value for s in log.results.scores for k, v in s.metrics.items()}
    return {**log_agreement_figures([log.location]), **panel}


def test_judge_validation_on_shared_annotations(shared_data, tmp_path):
    path = shared_data / "issuebench" / "stance_annotations.csv"
    judges = [
        get_model(f"construction_sim/judge_{k}", memoize=False)
        for k in ("exact", "noisy", "neutral")
    ]
    (log,) = inspect_eval(
        judge_validation,
        task_args={"annotations": str(path)},
        model_roles={"judges": judges},
        limit=N,
        log_dir=str(tmp_path),
        display="none",
    )
    assert log.status == "success"
    log = read_eval_log(log.location)
    m = _figures(log)
    human = [parse_label(x) for x in pd.read_csv(path)["final_label"][:N]]
    assert m["n_labelled"] == N
    neutral_judge = [
        s.scores["stance_ensemble"].metadata["judge_labels"]["construction_sim/judge_neutral"]
        for s in sorted(log.samples, key=lambda s: s.id)
    ]
    assert set(neutral_judge) == {"3"}
    # the always-3 judge against the file's labels, counted from the file itself
    assert m["judge3_exact"] == pytest.approx(sum(h == "3" for h in human) / N)
    assert 0.0 < m["humans_alpha_ordinal"] <= 1.0


# Hand-labelled rows: the response carries the stance marker the scripted judges read.
# judges: exact (marker), plus_one (marker + 1, max 5), neutral (always 3; refusal -> 3)
#   row  marker   exact plus_one neutral  -> ensemble      final  annot2
#   1    1        1     2        3           no_majority   1      1
#   2    2        2     3        3           3             3      3
#   3    3        3     4        3           3             3      3
#   4    5        5     5        3           5             4      5
#   5    refusal  ref   ref      3           refusal       refusal refusal
#   6    4        4     5        3           no_majority   1      1
HAND_ROWS = [
    ("1", "1", "1"),
    ("2", "3", "3"),
    ("3", "3", "3"),
    ("5", "4", "5"),
    ("refusal", "refusal", "refusal"),
    ("4", "1", "1"),
]


def test_judge_validation_agreement_matches_hand_counts(tmp_path):
    path = tmp_path / "annotations.csv"
    rows = [
        "prompt_text,response_text,topic_neutral,topic_pro,topic_con,final_label,"
        "annot1_label,annot2_label"
    ]
    for marker, final, annot2 in HAND_ROWS:
        rows.append(
            f"Write about it.,[[stance={marker}]] Some text.,it,it good,it bad,"
            f"{final},{final},{annot2}"
        )
    path.write_text("\n".join(rows) + "\n")
    judges = [
        get_model(f"construction_sim/judge_{k}", memoize=False)
        for k in ("exact", "plus_one", "neutral")
    ]
    (log,) = inspect_eval(
        judge_validation,
        task_args={"annotations": str(path)},
        model_roles={"judges": judges},
        log_dir=str(tmp_path),
        display="none",
    )
    assert log.status == "success"
    # collected_response puts each row's collected response where the judges read it
    assert [step.solver for step in log.plan.steps] == ["inspect_stance/collected_response"]
    m = _figures(log)
    assert (m["n_labelled"], m["no_ensemble_label"]) == (6, 2)
    # ensemble on rows 2-5: exact on 2, 3, 5; row 4 is 5 vs 4 (within one)
    assert m["exact"] == pytest.approx(3 / 4)
    assert m["within1"] == pytest.approx(4 / 4)
    # exact judge 1,2,3,5,ref,4 vs 1,3,3,4,ref,1: equal on rows 1, 3, 5; off by >1 on row 6
    assert (m["judge1_exact"], m["judge1_within1"]) == (pytest.approx(3 / 6), pytest.approx(5 / 6))
    # plus_one 2,3,4,5,ref,5: equal on rows 2, 5; off by >1 on row 6
    assert (m["judge2_exact"], m["judge2_within1"]) == (pytest.approx(2 / 6), pytest.approx(5 / 6))
    # neutral 3 everywhere: equal on rows 2, 3; within one also row 4 (refusal matches only refusal)
    assert (m["judge3_exact"], m["judge3_within1"]) == (pytest.approx(2 / 6), pytest.approx(3 / 6))
    # annotators disagree on row 4 only
    assert m["humans_exact"] == pytest.approx(5 / 6)


def test_judge_validation_bad_file(tmp_path):
    with pytest.raises(ValueError, match="needs -T annotations=FILE"):
        judge_validation()
    bad = tmp_path / "a.csv"
    bad.write_text(
        "prompt_text,response_text,topic_neutral,topic_pro,topic_con,final_label\np,r,n,a,b,7\n"
    )
    with pytest.raises(ValueError, match="data row 1 has final_label='7'"):
        judge_validation(annotations=str(bad))
    good = tmp_path / "g.csv"
    good.write_text(
        "prompt_text,response_text,topic_neutral,topic_pro,topic_con,final_label\np,r,n,a,b,3\n"
    )
    with pytest.raises(ValueError, match="judge_validation needs the model role 'judges'"):
        judge_validation(annotations=str(good))  # no role bound: fails before any call
    latin = tmp_path / "latin.csv"
    latin.write_bytes(
        "prompt_text,response_text,topic_neutral,topic_pro,topic_con,final_label\n"
        "caf\u00e9,r,n,a,b,3\n".encode("latin-1")
    )
    with pytest.raises(ValueError, match="cannot be read as UTF-8"):
        judge_validation(annotations=str(latin))


def test_judge_validation_is_named_by_its_judges(tmp_path):
    """A judge validation calls no target model (Inspect records ``none/none``); runs_df's
    target, compare's run name and the card are its judges, not ``none/none``."""
    from inspect_stance.analysis import runs_df
    from inspect_stance.card.core import write_cards
    from inspect_stance.construction.compare import load_construction

    names = ["construction_sim/judge_exact", "construction_sim/judge_noisy"]
    (log,) = inspect_eval(
        judge_validation,
        task_args={"annotations": "synthetic"},
        model_roles={"judges": [get_model(n, memoize=False) for n in names]},
        log_dir=str(tmp_path / "logs"),
        display="none",
    )
    assert log.status == "success" and log.eval.model == "none/none"
    want = "judges: construction_sim/judge_exact, construction_sim/judge_noisy"
    assert load_construction([log.location]).info.model == want
    assert runs_df([log.location])["target"].tolist() == [want]
    written = write_cards(runs_df([log.location]), tmp_path / "cards")
    (md,) = [p for p in written if p.suffix == ".md"]
    assert md.name.startswith("judges_construction_sim_judge_exact")
    assert md.read_text().startswith(f"# Stance card: {want}\n")
    assert "none/none" not in md.read_text()
