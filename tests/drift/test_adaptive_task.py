"""-T adaptive_halfwidth end to end on the simulated respondent: waves stop per sample as the
replay of the same rule says, calls are counted, eval-retry continues the waves and pays no
finished trial twice."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np
import pytest
from inspect_ai import eval as inspect_eval
from inspect_ai import eval_retry
from inspect_ai.log import read_eval_log
from inspect_stance.tasks.stance_drift import stance_drift

from inspect_stance.cli import main as cli_main
from inspect_stance.drift.adaptive.confseq import first_stop
from inspect_stance.drift.adaptive.rule import check_halfwidth, rule_for
from inspect_stance.drift.logs import read_drift_log
from inspect_stance.errors import InputError

sys.path.insert(0, str(Path(__file__).resolve().parent))
from simulated_truth import TRUTH  # noqa: E402

TRIALS = 30
HALFWIDTH = 0.2


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("adaptive")
    (root / "T.json").write_text(json.dumps(TRUTH.tolist()))
    (root / "props.txt").write_text("We should adopt policy 1\n")
    (root / "props2.txt").write_text("We should adopt policy 1\nWe should adopt policy 2\n")
    return root


def _expected_trials(stance: int) -> int:
    """The replay of the rule on the cell's values (the respondent's vectors are constant)."""
    values = np.full(TRIALS, TRUTH[stance, stance])
    used, _ = first_stop(values, rule_for(HALFWIDTH, TRIALS))
    return int(used)


def _metrics(log) -> dict[str, float]:
    from inspect_stance.drift.figures import log_figures

    # the panel's metrics and the figures that moved to the report and card (drift.figures)
    [scorer] = log.results.scores
    return {**log_figures([log.location]), **{k: v.value for k, v in scorer.metrics.items()}}


@pytest.fixture(scope="module")
def adaptive_log(files: Path, tmp_path_factory: pytest.TempPathFactory):
    [log] = inspect_eval(
        stance_drift(
            propositions=str(files / "props2.txt"),
            trials=TRIALS,
            cache=False,
            adaptive_halfwidth=HALFWIDTH,
        ),
        model="stance_sim/respondent",
        model_args={"transition": str(files / "T.json")},
        log_dir=str(tmp_path_factory.mktemp("adaptive_logs")),
        display="none",
    )
    assert log.status == "success"
    return log, read_eval_log(log.location)


def test_adaptive_waves_stop_per_sample(adaptive_log) -> None:
    log, full = adaptive_log
    total = 0
    for s in full.samples:
        stance = int(s.metadata["initial_stance"])
        n = len(s.store["trials"])
        assert n == _expected_trials(stance)
        assert s.store["adaptive"]["stop_reason"] in ("below_one", "halfwidth", "max_trials")
        assert s.store["trials_planned"] == n  # settled: not incomplete
        # every trial paid its two calls, and no more
        assert sum(1 for e in s.events if e.event == "model") == 2 * n
        total += n
    m = _metrics(log)
    assert m["trials_run"] == total and m["trials_planned"] == 10 * TRIALS
    assert total < 10 * TRIALS
    assert m["incomplete_samples"] == 0
    assert m["spr"] == pytest.approx(float(np.mean(np.diag(TRUTH))))
    # the default policy would count the trials not run as failures: refused, with the fix
    with pytest.raises(InputError, match="exclude-unparsed"):
        read_drift_log(log.location)
    run = read_drift_log(log.location, "exclude")
    assert int((~run.missing_mask).sum()) == total


def test_plan_reads_an_adaptive_log(adaptive_log, capsys: pytest.CaptureFixture[str]) -> None:
    """Calls per trial from the task, tokens from the usage, calls saved."""
    log, full = adaptive_log
    total = sum(len(s.store["trials"]) for s in full.samples)
    assert cli_main(["plan", log.location, "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    [summary] = out["runs"]
    assert summary["calls_per_trial"] == 2
    assert summary["adaptive"]["trials_run"] == total
    assert summary["adaptive"]["calls_saved"] == 2 * (10 * TRIALS - total)
    [usage] = full.stats.model_usage.values()
    assert summary["tokens_in_per_call"] == pytest.approx(usage.input_tokens / (2 * total))


def test_report_reads_an_adaptive_log(adaptive_log, capsys: pytest.CaptureFixture[str]) -> None:
    """With --exclude-unparsed: the trials run, none counted as failures."""
    log, full = adaptive_log
    assert cli_main(["report", log.location, "--exclude-unparsed", "--json"]) == 0
    [reported] = json.loads(capsys.readouterr().out)["runs"]
    assert reported["spr"] == pytest.approx(_metrics(log)["spr"])
    assert cli_main(["report", log.location, "--exclude-unparsed"]) == 0
    text = capsys.readouterr().out
    held = sum(len(s.store["trials"]) for s in full.samples)
    assert f"adaptive trials (-T adaptive_halfwidth=0.2): {held} of {10 * TRIALS} trials" in text
    assert "complete the run with `inspect eval-retry`" not in text


def test_gate_reads_an_adaptive_log(adaptive_log, capsys: pytest.CaptureFixture[str]) -> None:
    """An adaptive run is gated (pass or fail), not called incomplete with an eval-retry hint."""
    log, _ = adaptive_log
    code = cli_main(["gate", log.location, "--min-spr", "0.01", "--exclude-unparsed"])
    captured = capsys.readouterr()
    assert code == 0, captured.err
    assert "eval-retry" not in captured.out + captured.err


def test_adaptive_survives_eval_retry(files: Path, tmp_path: Path) -> None:
    """An outage mid-run, then eval-retry: every sample ends where an uninterrupted run ends,
    and the retry calls the model only for trials not recorded before the outage."""
    flag = tmp_path / "outage"
    flag.write_text("down")
    task = stance_drift(
        propositions=str(files / "props.txt"), trials=TRIALS, adaptive_halfwidth=HALFWIDTH, seed=5
    )
    [log] = inspect_eval(
        task,
        model="stance_sim/respondent",
        model_args={"transition": str(files / "T.json"), "fail_after": 45, "fail_while": str(flag)},
        log_dir=str(tmp_path),
        display="none",
        max_connections=1,
    )
    assert log.status == "error"
    first = read_eval_log(log.location)
    done_ids = {s.id for s in first.samples if s.error is None}
    flag.unlink()
    [retried] = eval_retry(log.location, log_dir=str(tmp_path), display="none")
    assert retried.status == "success"
    full = read_eval_log(retried.location)
    assert len(full.samples) == 5
    rerun = [s for s in full.samples if s.id not in done_ids]
    assert rerun
    replayed = arguments = calls = 0
    for s in full.samples:
        stance = int(s.metadata["initial_stance"])
        assert sorted(r["trial"] for r in s.store["trials"]) == list(
            range(_expected_trials(stance))
        )
    for s in rerun:
        replayed += sum(1 for r in s.store["trials"] if r.get("replayed"))
        arguments += sum(1 for r in s.store["trials"] if r.get("argument_replayed"))
        calls += sum(1 for e in s.events if e.event == "model")
    assert replayed + arguments > 0, "work finished before the outage is not paid again"
    n_rerun = sum(len(s.store["trials"]) for s in rerun)
    assert calls == 2 * (n_rerun - replayed) - arguments


@pytest.mark.parametrize("bad", [0, 0.5, -0.1, "x", "nan"])
def test_bad_halfwidth_is_an_input_error(bad: object) -> None:
    with pytest.raises(InputError, match="adaptive_halfwidth"):
        check_halfwidth(bad)


def test_halfwidth_values() -> None:
    assert check_halfwidth(None) is None and check_halfwidth("none") is None
    assert check_halfwidth("0.05") == 0.05


@pytest.fixture(scope="module")
def letter_log(files: Path, tmp_path_factory: pytest.TempPathFactory):
    """An adaptive run with one-letter answers (0/1 trial values): the scorer's rows are the
    Rao–Blackwell estimates, which differ from the mean of the trials run."""
    props = files / "props4.txt"
    props.write_text("".join(f"We should adopt policy {k}\n" for k in range(4)))
    [log] = inspect_eval(
        stance_drift(
            propositions=str(props), trials=TRIALS, cache=False, adaptive_halfwidth=HALFWIDTH
        ),
        model="stance_sim/respondent",
        model_args={"transition": str(files / "T.json"), "noise": "exact", "logprobs": False},
        log_dir=str(tmp_path_factory.mktemp("letter_logs")),
        display="none",
    )
    assert log.status == "success"
    return log, read_eval_log(log.location)


def test_report_and_compare_use_the_unbiased_estimate(letter_log, capsys) -> None:
    """report, compare's items and gate read an adaptive log's rows as the scorer does (the
    unbiased estimate), not as the mean of the trials run (biased by the stopping)."""
    from inspect_stance.drift.compare import drift_items

    log, full = letter_log
    rows = {(s.metadata["topic_id"], s.metadata["initial_stance"]): s.scores for s in full.samples}
    scorer_rows = {k: next(iter(v.values())).metadata["row"] for k, v in rows.items()}
    run = read_drift_log(log.location, "exclude")
    plain = np.nanmean(np.where(run.missing_mask[..., None], np.nan, run.probs), axis=1)
    matrices = run.matrices("exclude")
    differ = 0
    for s, topic in enumerate(run.topic_ids):
        for i in range(5):
            np.testing.assert_allclose(matrices[s, i], scorer_rows[(topic, i)], atol=1e-12)
            differ += not np.allclose(plain[s, i], matrices[s, i])
    assert differ > 0, "the test needs a cell where the estimate is not the plain mean"
    spr = float(np.mean(np.diagonal(matrices, axis1=-2, axis2=-1)))
    assert spr == pytest.approx(_metrics(log)["spr"], abs=1e-9)
    assert cli_main(["report", log.location, "--exclude-unparsed", "--json"]) == 0
    [reported] = json.loads(capsys.readouterr().out)["runs"]
    assert reported["spr"] == pytest.approx(spr, abs=1e-9)
    items = drift_items(run, "run", "exclude").items["spr"]
    per_prop = np.diagonal(matrices, axis1=-2, axis2=-1).mean(axis=-1)
    assert list(items.values()) == pytest.approx(list(per_prop), abs=1e-12)
