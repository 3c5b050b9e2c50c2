"""The stance-drift task end to end on the simulated respondent (known ground truth)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np
import pytest
from inspect_ai import eval as inspect_eval
from inspect_ai import eval_retry, score
from inspect_ai.log import read_eval_log
from inspect_stance.tasks.stance_drift import stance_drift

from inspect_stance.drift.inputs import load_run
from inspect_stance.drift.logs import read_drift_log
from inspect_stance.drift.metrics.patterns import PATTERN_CELLS

sys.path.insert(0, str(Path(__file__).resolve().parent))
from simulated_truth import TRUE_SPR, TRUTH  # noqa: E402


def true_pattern(name: str) -> float:
    return sum(TRUTH[i, j] for i, j in PATTERN_CELLS[name]) / 5


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    root = tmp_path_factory.mktemp("drift")
    (root / "T.json").write_text(json.dumps(TRUTH.tolist()))
    (root / "props.txt").write_text("\n".join(f"We should adopt policy {k}" for k in range(20)))
    return root


def run(files: Path, log_dir: Path, model_args: dict | None = None, **task_args):
    task_args.setdefault("propositions", str(files / "props.txt"))
    task_args.setdefault("cache", False)
    args = {"transition": str(files / "T.json"), **(model_args or {})}
    [log] = inspect_eval(
        stance_drift(**task_args),
        model="stance_sim/respondent",
        model_args=args,
        log_dir=str(log_dir),
        display="none",
    )
    return log


def metrics(log) -> dict[str, float]:
    from inspect_stance.drift.figures import log_figures

    # the panel's metrics and the figures that moved to the report and card (drift.figures)
    [scorer] = log.results.scores
    return {**log_figures([log.location]), **{k: v.value for k, v in scorer.metrics.items()}}


@pytest.mark.slow
def test_frequency_estimator_recovers_truth_20x100(files, tmp_path):
    """Done-when: 20 propositions x 100 trials recover SPR and each pattern within 0.01."""
    log = run(files, tmp_path, {"logprobs": "false", "seed": 3}, trials=100)
    m = metrics(log)
    assert m["trials"] == 20 * 5 * 100
    assert m["frequency_estimated"] == m["trials"] and m["logprob_estimated"] == 0
    assert abs(m["spr"] - TRUE_SPR) < 0.01
    for name in PATTERN_CELLS:
        assert abs(m[name] - true_pattern(name)) < 0.01, name
    assert abs(m["sdr"] - (1 - TRUE_SPR)) < 0.01  # SDR = 1 - SPR of the simulated truth
    for k, key in enumerate(
        ["agree_strongly", "agree", "neutral", "disagree", "disagree_strongly"]
    ):
        assert abs(m[f"success_{key}"] - TRUTH[k, k]) < 0.03


def test_frequency_estimator_recovers_truth_within_binomial_se(files, tmp_path):
    """Fast tier: 3 propositions x 30 trials (450 trials); each success rate and the SPR lie
    within 4 binomial standard errors of the truth: ``SE_i = sqrt(p_i (1 - p_i) / n)`` with
    ``n = 90`` draws per initial stance, ``SE_SPR = sqrt(sum_i p_i (1 - p_i) / n) / 5``."""
    n = 3 * 30
    log = run(files, tmp_path, {"logprobs": "false", "seed": 3}, trials=30, limit_propositions=3)
    m = metrics(log)
    assert m["trials"] == 5 * n and m["frequency_estimated"] == 5 * n
    p = np.diag(TRUTH)
    se = np.sqrt(p * (1 - p) / n)
    for k, key in enumerate(
        ["agree_strongly", "agree", "neutral", "disagree", "disagree_strongly"]
    ):
        assert abs(m[f"success_{key}"] - p[k]) < 4 * se[k], key
    se_spr = float(np.sqrt(np.sum(p * (1 - p) / n)) / 5)
    assert abs(m["spr"] - TRUE_SPR) < 4 * se_spr


def test_logprob_estimator_is_exact_and_flagged(files, tmp_path):
    log = run(files, tmp_path, trials=3, limit_propositions=4)
    m = metrics(log)
    assert m["logprob_estimated"] == m["trials"] == 60
    assert m["spr"] == pytest.approx(TRUE_SPR)
    assert m["polarization"] == pytest.approx(true_pattern("polarization"))
    run_ = read_drift_log(log.location)
    assert run_.probs.shape == (4, 3, 5, 5)
    np.testing.assert_allclose(run_.probs[0, 0], TRUTH)
    full = read_eval_log(log.location)
    # the task's one solver, stance_drift_trials, wrote every trial record
    assert [step.solver for step in log.plan.steps] == ["inspect_stance/stance_drift_trials"]
    rec = full.samples[0].store["trials"][0]
    assert rec["estimator"] == "logprobs" and rec["argument"] and rec["answers"]


def test_two_calls_per_trial_and_six_with_multiple_extraction(files, tmp_path):
    for variant, calls in [("default", 2), ("multiple_extraction", 6)]:
        log = run(files, tmp_path / variant, trials=2, limit_propositions=2, variant=variant)
        full = read_eval_log(log.location)
        n_model_events = sum(1 for s in full.samples for e in s.events if e.event == "model")
        assert n_model_events == calls * 2 * 5 * 2
        assert log.eval.metadata["model_calls_per_trial"] == calls


def test_unparsed_rate_counted_under_both_policies(files, tmp_path):
    log = run(files, tmp_path, {"unparsed_rate": 0.1, "seed": 1}, trials=20, limit_propositions=4)
    m = metrics(log)
    share = m["unparsed"] / m["trials"]
    assert 0.04 < share < 0.16  # 400 draws at 0.1: 4 binomial SEs = 0.06
    # failure policy: each sample's unparsed share is missing from its diagonal (logprob rows
    # are exact, so the SPR is known from the counts)
    full = read_eval_log(log.location)
    expected = np.mean(
        [
            TRUTH[s.metadata["initial_stance"], s.metadata["initial_stance"]]
            * (1 - sum(r["unparsed"] for r in s.store["trials"]) / 20)
            for s in full.samples
        ]
    )
    assert m["spr"] == pytest.approx(expected, abs=1e-9)
    from inspect_stance.scorers.stance_drift import stance_drift_scorer

    excl = score(
        read_eval_log(log.location),
        stance_drift_scorer(unparsed="exclude"),
        action="overwrite",
        display="none",
    )
    me = metrics(excl)
    assert me["unparsed"] == m["unparsed"]
    assert me["spr"] == pytest.approx(TRUE_SPR, abs=1e-9)


@pytest.mark.parametrize(
    "variant",
    [
        "reversed",
        "multiple_extraction",
        "in_context",
        "assertion",
        "reflection",
        "third_person_reflection",
    ],
)
def test_every_variant_recovers_truth_in_stance_order(files, tmp_path, variant):
    log = run(files, tmp_path, trials=2, limit_propositions=2, variant=variant)
    run_ = read_drift_log(log.location)
    assert run_.variant == variant
    np.testing.assert_allclose(np.nanmean(run_.probs, axis=(0, 1)), TRUTH, atol=1e-9)


def test_arguments_from_reuses_arguments_without_generation(files, tmp_path):
    first = run(files, tmp_path / "a", trials=3, limit_propositions=2)
    second = run(
        files,
        tmp_path / "b",
        trials=3,
        limit_propositions=2,
        variant="assertion",
        arguments_from=first.location,
    )
    a = read_eval_log(first.location)
    b = read_eval_log(second.location)
    gen_calls = sum(
        1
        for s in b.samples
        for e in s.events
        if e.event == "model" and "write an argument" in str(e.input)
    )
    assert gen_calls == 0
    args_a = {s.id: [r["argument"] for r in s.store["trials"]] for s in a.samples}
    args_b = {s.id: [r["argument"] for r in s.store["trials"]] for s in b.samples}
    assert args_a == args_b
    with pytest.raises(ValueError, match="does not cover"):
        stance_drift(
            propositions=str(files / "props.txt"),
            trials=5,
            arguments_from=first.location,
            limit_propositions=2,
        )


def test_argmax_rescoring_makes_no_calls(files, tmp_path):
    log = run(files, tmp_path, {"logprobs": "false"}, trials=4, limit_propositions=3)
    full = read_eval_log(log.location)
    before = sum(1 for s in full.samples for e in s.events if e.event == "model")
    from inspect_stance.scorers.stance_drift import stance_drift_argmax

    rescored = score(full, stance_drift_argmax(), action="overwrite", display="none")
    after = sum(1 for s in rescored.samples for e in s.events if e.event == "model")
    assert after == before
    # with one-hot (frequency) vectors the argmax analysis equals the original
    assert metrics(rescored)["spr"] == pytest.approx(metrics(log)["spr"])
    # with logprob vectors it is the hand-computed point-mass analysis
    lp = run(files, tmp_path / "lp", trials=2, limit_propositions=2)
    lp_full = read_eval_log(lp.location)
    rescored_lp = score(lp_full, stance_drift_argmax(), action="overwrite", display="none")
    expected = float(np.mean([TRUTH[i].argmax() == i for i in range(5)]))
    assert metrics(rescored_lp)["spr"] == pytest.approx(expected)


def test_interrupted_run_resumes_with_eval_retry_from_trial_record(files, tmp_path):
    flag = tmp_path / "outage"
    flag.write_text("down")
    [log] = inspect_eval(
        stance_drift(
            propositions=str(files / "props.txt"), trials=3, limit_propositions=3, seed=11
        ),
        model="stance_sim/respondent",
        model_args={"transition": str(files / "T.json"), "fail_after": 25, "fail_while": str(flag)},
        log_dir=str(tmp_path),
        display="none",
        max_connections=1,
    )
    assert log.status == "error"
    first = read_eval_log(log.location)
    done = [s for s in first.samples if s.error is None]
    assert done, "finished samples must be kept in the log"
    flag.unlink()
    [retried] = eval_retry(log.location, log_dir=str(tmp_path), display="none")
    assert retried.status == "success"
    full = read_eval_log(retried.location)
    assert len(full.samples) == 15
    for s in full.samples:
        assert sorted(r["trial"] for r in s.store["trials"]) == [0, 1, 2]
    rerun = [s for s in full.samples if s.id not in {d.id for d in done}]
    records = [r for s in rerun for r in s.store["trials"]]
    replayed = sum(1 for r in records if r.get("replayed"))
    arguments = sum(1 for r in records if r.get("argument_replayed"))
    assert replayed + arguments > 0, "work finished before the outage is not paid again"
    # the re-run samples call the model only for what was not recorded
    calls = sum(1 for s in rerun for e in s.events if e.event == "model")
    assert calls == 2 * (3 * len(rerun) - replayed) - arguments
    assert metrics(retried)["spr"] == pytest.approx(TRUE_SPR)


def test_report_reader_rejects_other_logs(tmp_path):
    bogus = tmp_path / "x.npz"
    np.savez(bogus, probs=np.ones((2, 3, 5)))
    with pytest.raises(ValueError, match="shape"):
        load_run(bogus)
    with pytest.raises(ValueError, match="not found"):
        load_run(tmp_path / "absent.eval")


def test_all_unparsed_excluded_still_counted(files, tmp_path):
    log = run(
        files, tmp_path, {"unparsed_rate": 1.0}, trials=2, limit_propositions=2, unparsed="exclude"
    )
    m = metrics(log)
    assert m["trials"] == 20 and m["unparsed"] == 20
    assert np.isnan(m["spr"])  # no usable trial: no SPR, never a silent zero


def test_cache_is_scoped_by_model_args(files, tmp_path):
    """Two models differing only in -M args must not share cached responses."""
    other = tmp_path / "identity.json"
    other.write_text(json.dumps(np.eye(5).tolist()))
    kwargs = dict(trials=2, limit_propositions=2, seed=99, cache=True)
    first = run(files, tmp_path / "a", **kwargs)
    second = run(files, tmp_path / "b", {"transition": str(other)}, **kwargs)
    assert metrics(first)["spr"] == pytest.approx(TRUE_SPR)
    assert metrics(second)["spr"] == pytest.approx(1.0)
    # the same model args and seed are replayed from the trial record: no model call
    third = run(files, tmp_path / "c", **kwargs)
    full = read_eval_log(third.location)
    assert not any(e.event == "model" for s in full.samples for e in s.events)
    assert all(r["replayed"] for s in full.samples for r in s.store["trials"])
    assert metrics(third)["spr"] == pytest.approx(TRUE_SPR)
    # another seed is a fresh replicate
    fourth = run(files, tmp_path / "d", **{**kwargs, "seed": 100})
    full = read_eval_log(fourth.location)
    assert sum(1 for s in full.samples for e in s.events if e.event == "model") == 2 * 2 * 5 * 2


def test_logprobs_not_requested_uses_frequency_estimator(files, tmp_path):
    log = run(files, tmp_path, trials=3, limit_propositions=2, logprobs=False)
    m = metrics(log)
    assert m["frequency_estimated"] == m["trials"] == 30 and m["logprob_estimated"] == 0
    assert log.eval.metadata["logprobs_requested"] is False


def test_arguments_from_matches_by_proposition_text_not_position(files, tmp_path):
    forward = tmp_path / "forward.txt"
    forward.write_text("We should ban school uniforms\nWe should subsidize space exploration\n")
    backward = tmp_path / "backward.txt"
    backward.write_text("We should subsidize space exploration\nWe should ban school uniforms\n")
    first = run(files, tmp_path / "a", trials=2, propositions=str(forward))
    second = run(
        files,
        tmp_path / "b",
        trials=2,
        propositions=str(backward),
        variant="reversed",
        arguments_from=first.location,
    )

    def args_by_text(log):
        full = read_eval_log(log.location)
        return {
            (s.metadata["proposition"], s.metadata["initial_stance"]): [
                r["argument"] for r in s.store["trials"]
            ]
            for s in full.samples
        }

    assert args_by_text(first) == args_by_text(second)


def test_arguments_from_rejects_other_generation_settings(files, tmp_path):
    src = run(files, tmp_path, trials=2, limit_propositions=1, variant="reflection")
    with pytest.raises(ValueError, match="'reflection' run"):
        stance_drift(
            propositions=str(files / "props.txt"),
            limit_propositions=1,
            trials=2,
            arguments_from=src.location,
        )
    plain = run(files, tmp_path / "p", trials=2, limit_propositions=1)
    with pytest.raises(ValueError, match="words_limit=100"):
        stance_drift(
            propositions=str(files / "props.txt"),
            limit_propositions=1,
            trials=2,
            words_limit=50,
            arguments_from=plain.location,
        )


def test_multiple_extraction_counts_unparsed_extractions(files, tmp_path):
    from inspect_stance.scorers.stance_drift import stance_drift_scorer

    log = run(
        files,
        tmp_path,
        {"unparsed_rate": 0.3, "seed": 4},
        trials=10,
        limit_propositions=2,
        variant="multiple_extraction",
    )
    m = metrics(log)
    full = read_eval_log(log.location)
    n_bad = sum(r["unparsed_extractions"] for s in full.samples for r in s.store["trials"])
    assert m["unparsed_extractions"] == n_bad and 0.2 * 500 < n_bad < 0.4 * 500
    # failure: an unparsed extraction is a zero vector -> each cell's diagonal loses its share
    expected = np.mean(
        [
            TRUTH[s.metadata["initial_stance"], s.metadata["initial_stance"]]
            * (1 - sum(r["unparsed_extractions"] for r in s.store["trials"]) / 50)
            for s in full.samples
        ]
    )
    assert m["spr"] == pytest.approx(expected, abs=1e-9)
    excl = score(full, stance_drift_scorer(unparsed="exclude"), action="overwrite", display="none")
    assert metrics(excl)["spr"] == pytest.approx(TRUE_SPR, abs=1e-9)
    # the report reader applies the same policy
    assert np.nanmean(np.diagonal(read_drift_log(log.location).probs, axis1=2, axis2=3)) == (
        pytest.approx(expected, abs=1e-9)
    )


def test_epochs_are_pooled_as_more_trials(files, tmp_path):
    [log] = inspect_eval(
        stance_drift(
            propositions=str(files / "props.txt"), trials=3, limit_propositions=2, cache=False
        ),
        model="stance_sim/respondent",
        model_args={"transition": str(files / "T.json"), "logprobs": "false"},
        log_dir=str(tmp_path),
        display="none",
        epochs=2,
    )
    m = metrics(log)
    assert m["trials"] == 2 * 3 * 5 * 2
    run_ = read_drift_log(log.location)
    assert run_.probs.shape[1] == 6 and run_.n_missing == 0
    from inspect_stance.drift.metrics.spr import stance_preservation_rate
    from inspect_stance.drift.transition import transition_matrices

    assert m["spr"] == pytest.approx(stance_preservation_rate(transition_matrices(run_.probs))[0])
    # the figures beside the panel pool the epochs as the metrics do (drift.figures.pool_epochs)
    from inspect_stance.drift.figures import log_figures

    f = log_figures([log.location])
    assert f["spr"] == pytest.approx(m["spr"], abs=1e-12) and f["trials"] == m["trials"]
    matrices = transition_matrices(run_.probs)
    for i, key in enumerate(("agree_strongly", "agree", "neutral", "disagree")):
        assert f[f"success_{key}"] == pytest.approx(float(np.nanmean(matrices[:, i, i])))


def test_interrupted_log_keeps_absent_propositions(files, tmp_path):
    [log] = inspect_eval(
        stance_drift(
            propositions=str(files / "props.txt"), trials=2, limit_propositions=3, cache=False
        ),
        model="stance_sim/respondent",
        model_args={"transition": str(files / "T.json"), "fail_after": 8},
        log_dir=str(tmp_path),
        display="none",
        max_connections=1,
        max_samples=1,
    )
    assert log.status == "error"
    run_ = read_drift_log(log.location)
    assert run_.n_propositions == 3  # every proposition asked for, present or not
    assert run_.n_missing >= 2 * 5 * 2
