"""The chain variant (-T hops=K) end to end on the simulated respondent and relays.

Known answers: the respondent reads every text exactly (``-M transition=identity``) and writes
the requested stance, so the stance read after hop ``k`` is the relay chain's state:

- ``relay_sim/markov`` with matrix ``R``: ``M_k = R^(k-1)``, a Markov chain: the Markov test
  must not reject and the projection must match the measurement within its interval;
- ``relay_sim/memory`` (back to the original stance with probability 1/2, else ``R``):
  ``M_2 = I/2 + R/2`` and ``M_3 = I/2 + R/4 + R^2/4`` (written down from the relay's rule); the
  test must reject, and the drift accumulates slower than the Markov chain predicts.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from inspect_ai import eval as inspect_eval
from inspect_ai import eval_retry
from inspect_ai.event import ModelEvent
from inspect_ai.log import EvalLog, read_eval_log
from inspect_ai.model import get_model
from inspect_stance.tasks.stance_drift import stance_drift

from inspect_stance.cli import main
from inspect_stance.drift.chain.logs import read_chain_log
from inspect_stance.drift.chain.markov import analyse_chain
from inspect_stance.drift.chain.report import report_chains
from inspect_stance.drift.inputs import load_run
from inspect_stance.errors import InputError

R = np.array(
    [
        [0.70, 0.20, 0.10, 0.00, 0.00],
        [0.30, 0.50, 0.10, 0.10, 0.00],
        [0.00, 0.20, 0.60, 0.20, 0.00],
        [0.00, 0.10, 0.10, 0.50, 0.30],
        [0.00, 0.00, 0.10, 0.20, 0.70],
    ]
)
N_PROPS, N_TRIALS = 6, 4


@pytest.fixture(scope="module")
def files(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("chain")
    (root / "R.json").write_text(json.dumps(R.tolist()))
    (root / "props.txt").write_text(
        "\n".join(f"We should adopt policy {k}" for k in range(N_PROPS))
    )
    return root


def run_chain(files: Path, log_dir: Path, relay: str, relay_args=None, respondent_args=None,
              **task_args) -> EvalLog:  # fmt: skip
    task_args = {"propositions": str(files / "props.txt"), "cache": False, **task_args}
    relays = [
        get_model(f"relay_sim/{name}", memoize=False, **(relay_args or {}))
        for name in relay.split(",")
    ]
    [log] = inspect_eval(
        stance_drift,
        task_args=task_args,
        model="stance_sim/respondent",
        model_args={"transition": "identity", **(respondent_args or {})},
        model_roles={"relay": relays if len(relays) > 1 else relays[0]},
        log_dir=str(log_dir),
        display="none",
    )
    assert log.status == "success", log.error
    return read_eval_log(log.location)


def model_calls(log: EvalLog, samples=None) -> dict[str, int]:
    """Successful model calls by model, from the transcript's model events."""
    out: dict[str, int] = {}
    for s in log.samples or []:
        if samples is not None and s.id not in samples:
            continue
        for e in s.events:
            if isinstance(e, ModelEvent) and e.error is None:
                out[e.model] = out.get(e.model, 0) + 1
    return out


@pytest.fixture(scope="module")
def markov(files, tmp_path_factory):
    log_dir = tmp_path_factory.mktemp("markov_logs")
    args = {"transition": str(files / "R.json"), "seed": 3}
    return run_chain(files, log_dir, "markov", args, trials=N_TRIALS, hops=3)


def test_markov_relay_projection_matches_measurement(markov):
    chain = read_chain_log(markov.location)
    assert chain.hop_probs.shape == (3, N_PROPS, N_TRIALS, 5, 5)
    an = analyse_chain(chain.hop_probs, chain.relays, chain.missing)
    assert chain.relays == [None, "relay_sim/markov", "relay_sim/markov"]
    np.testing.assert_allclose(an.hops[0].measured, np.eye(5))
    # 24 chains per row: within 0.3 of R and R^2 (> 3 binomial SE for every cell)
    assert np.abs(an.hops[1].measured - R).max() < 0.3
    assert np.abs(an.hops[2].measured - R @ R).max() < 0.3
    for row in an.hops[1:]:
        assert row.test is not None
        lo, hi = row.test.spr_difference_ci
        assert lo <= 0.0 <= hi and row.test.verdict == "consistent", row.test
        assert row.test.p_value > 0.05


def test_calls_per_trial_as_counted_in_the_transcript(markov):
    # the chain's calls below are stance_chain_trials' (the task's one solver)
    assert [step.solver for step in markov.plan.steps] == ["inspect_stance/stance_chain_trials"]
    assert markov.eval.metadata["model_calls_per_trial"] == 1 + 3 + 2
    assert markov.eval.metadata["model_calls_per_trial_by_role"] == {"model": 4, "relay": 2}
    for sample in markov.samples:
        calls = model_calls(markov, {sample.id})
        assert calls == {"stance_sim/respondent": 4 * N_TRIALS, "relay_sim/markov": 2 * N_TRIALS}


def test_final_hop_is_the_run_other_commands_read(markov):
    chain = read_chain_log(markov.location)
    final = load_run(markov.location)
    np.testing.assert_array_equal(final.probs, chain.hop_probs[-1])
    hop2 = chain.hop_run(2)
    np.testing.assert_array_equal(hop2.probs, chain.hop_probs[1])
    rec = markov.samples[0].store["trials"][0]
    assert [h["hop"] for h in rec["hops"]] == [1, 2, 3]
    assert rec["probs"] == rec["hops"][-1]["probs"] and rec["argument"] == rec["hops"][0]["text"]


def test_report_shows_matrices_projection_and_test(markov, capsys, tmp_path):
    assert main(["report", markov.location, "--out", str(tmp_path / "out")]) == 0
    written = json.loads((tmp_path / "out" / "chain_1.json").read_text())
    assert [h["hop"] for h in written["hops"]] == [1, 2, 3]
    assert (tmp_path / "out" / "chain_1.md").read_text().startswith("## Multi-hop chain")
    assert (
        "measured M_3 beside the Markov projection" in (tmp_path / "out" / "report.md").read_text()
    )
    text = capsys.readouterr().out
    assert "Multi-hop chain" in text and "measured M_3 beside the Markov projection" in text
    assert "consistent" in text and "Stationary distributions" in text
    assert main(["report", "--json", markov.location]) == 0
    obj = json.loads(capsys.readouterr().out)
    [chain] = obj["chains"]
    assert [h["hop"] for h in chain["hops"]] == [1, 2, 3]
    assert chain["hops"][2]["markov_test"]["verdict"] == "consistent"
    assert chain["hops"][2]["markov_test"]["caveat"] is None


@pytest.mark.slow  # ~15-20 s on 2 busy cores; the fast tier rejects memory in test_chain_core
def test_memory_relay_is_rejected(files, tmp_path):
    args = {"transition": str(files / "R.json"), "pull": 0.5, "seed": 5}
    # 6 propositions x 12 trials: at 4 trials whether pull 0.5 is rejected depends on the draw
    # (p 0.14 with this seed); the test's power against sizes is in benchmarks/chain_markov_test.py
    log = run_chain(files, tmp_path, "memory", args, trials=12, hops=3)
    chain = read_chain_log(log.location)
    an = analyse_chain(chain.hop_probs, chain.relays, chain.missing)
    eye = np.eye(5)
    assert np.abs(an.hops[1].measured - (eye / 2 + R / 2)).max() < 0.3
    assert np.abs(an.hops[2].measured - (eye / 2 + R / 4 + R @ R / 4)).max() < 0.3
    test = an.hops[2].test
    assert test is not None and test.p_value < 0.05 and test.verdict == "slower", test


@pytest.mark.slow  # as test_memory_relay_is_rejected, read through sampled letters
def test_a_rejection_on_sampled_letters_carries_the_caveat(files, tmp_path, capsys):
    """One-letter readings (no logprobs: the frequency estimator): the reading-noise
    correction is not exact for them, so the verdict says a rejection may be reading noise."""
    args = {"transition": str(files / "R.json"), "pull": 0.5, "seed": 5}
    log = run_chain(files, tmp_path, "memory", args, {"logprobs": False}, trials=12, hops=3)
    assert main(["report", "--json", log.location]) == 0
    [chain] = json.loads(capsys.readouterr().out)["chains"]
    test = chain["hops"][2]["markov_test"]
    assert test["verdict"] == "slower" and "reading noise" in test["caveat"], test
    assert main(["report", log.location]) == 0
    assert "slower (caveat: readings are sampled letters" in capsys.readouterr().out


def test_eval_retry_resumes_mid_chain_without_paying_a_hop_twice(files, tmp_path, monkeypatch):
    monkeypatch.setenv("INSPECT_CACHE_DIR", str(tmp_path / "cache"))
    flag = tmp_path / "failing"
    flag.write_text("relay down")
    relay = get_model("relay_sim/markov", memoize=False, fail_after=25, fail_while=str(flag))
    common = {"log_dir": str(tmp_path / "logs"), "display": "none", "max_connections": 1}
    args = {"propositions": str(files / "props.txt"), "limit_propositions": 2, "trials": 3}
    [first] = inspect_eval(
        stance_drift,
        task_args={**args, "hops": 3},
        model="stance_sim/respondent",
        model_args={"transition": "identity"},
        model_roles={"relay": relay},
        max_samples=1,
        fail_on_error=False,
        **common,
    )
    first = read_eval_log(first.location)
    errored = [s for s in first.samples if s.error is not None]
    assert errored, first.status
    # an errored chain sample has no score: the counts metric still counts it as incomplete
    counts = {k: v.value for sc in first.results.scores for k, v in sc.metrics.items()}
    assert counts["incomplete_samples"] == len(errored)
    kept = {s.id for s in first.samples if s.error is None}
    text, _, _ = report_chains([Path(first.location)])
    finished = sum(len(s.store.get("trials") or []) for s in first.samples)
    n_missing = 2 * 5 * 3 - finished
    assert n_missing > 0 and f"{n_missing} chains missing" in text
    flag.unlink()
    [retry] = eval_retry(first.location, max_samples=1, **common)
    assert retry.status == "success", retry.error
    retry = read_eval_log(retry.location)
    paid_first = model_calls(first)
    paid_retry = model_calls(retry, {s.id for s in retry.samples if s.id not in kept})
    # 10 samples x 3 chains: 1 generation + 3 extractions, 2 relay calls each; every call paid once
    for model, full in (("stance_sim/respondent", 120), ("relay_sim/markov", 60)):
        assert paid_first.get(model, 0) + paid_retry.get(model, 0) == full, model
    replayed = [r["hops_replayed"] for s in retry.samples for r in s.store["trials"]]
    assert any(0 < n < 3 for n in replayed)  # a chain resumed mid-way


def test_translate_relays_there_and_back(files, tmp_path):
    log = run_chain(
        files,
        tmp_path,
        "markov,identity",
        trials=1,
        hops=3,
        limit_propositions=1,
        relay_operation="translate",
        relay_language="German",
    )
    assert log.eval.metadata["model_calls_per_trial"] == 1 + 3 + 2 * 2
    calls = model_calls(log)
    assert calls == {"stance_sim/respondent": 20, "relay_sim/markov": 10, "relay_sim/identity": 10}
    rec = log.samples[0].store["trials"][0]
    assert [h["relay"] for h in rec["hops"]] == [None, "relay_sim/markov", "relay_sim/identity"]
    assert (
        len(rec["hops"][1]["relay_steps"]) == 2 and "in German" in rec["hops"][1]["relay_steps"][0]
    )
    log = read_eval_log(log.location, resolve_attachments=True)
    prompts = [
        m.text for s in log.samples for e in s.events if isinstance(e, ModelEvent) for m in e.input
    ]
    assert sum("Translate the following text into German." in p for p in prompts) == 10, prompts[:3]
    assert sum("Translate the following text into English." in p for p in prompts) == 10


@pytest.mark.parametrize(
    ("args", "words"),
    [
        ({"hops": 0}, "hops 0; use an integer >= 1"),
        ({"hops": 2, "variant": "multiple_extraction"}, "does not run as a chain"),
        ({"relay_language": "German"}, "applies only to -T relay_operation=translate"),
        ({"relay_operation": "translate", "relay_language": "English"}, "name another"),
        ({"relay_operation": "shout"}, "unknown relay_operation"),
        ({"hops": 2}, "needs the model role 'relay'"),
    ],
)
def test_bad_chain_parameters_are_one_line_errors(files, args, words):
    with pytest.raises(InputError, match=words):
        stance_drift(propositions=str(files / "props.txt"), **args)


@pytest.mark.slow  # three evals (~25 s on 2 busy cores)
def test_a_longer_chain_pays_only_its_new_hops(files, tmp_path, monkeypatch):
    monkeypatch.setenv("INSPECT_CACHE_DIR", str(tmp_path / "cache"))
    args = {"limit_propositions": 1, "trials": 2, "cache": True}
    run_chain(files, tmp_path / "a", "markov", hops=2, **args)
    longer = run_chain(files, tmp_path / "b", "markov", hops=3, **args)
    # 5 samples x 2 chains: only hop 3 is new (one relay call and one extraction per chain)
    assert model_calls(longer) == {"stance_sim/respondent": 10, "relay_sim/markov": 10}
    records = [r for s in longer.samples for r in s.store["trials"]]
    assert [r["hops_replayed"] for r in records] == [2] * 10
    again = run_chain(files, tmp_path / "c", "markov", hops=3, **args)
    assert model_calls(again) == {}  # an identical re-run replays every hop
    assert all(r.get("replayed") for s in again.samples for r in s.store["trials"])


def test_plan_reads_the_chain_as_its_final_hop_with_its_calls_per_trial(markov, capsys):
    assert main(["plan", markov.location]) == 0
    text = capsys.readouterr().out
    assert "calls per trial 6" in text
    spr = float(np.mean(np.diagonal(load_run(markov.location).probs, axis1=-2, axis2=-1)))
    assert f"SPR {spr:.3f}" in text


def test_report_of_a_chain_run_says_its_hops_and_plots_the_measured_ones(markov, tmp_path):
    """A 3-hop log: the header names 3 measured hops (the tables are after hop 3), the hop
    table and spr_by_hops.csv give the measured SPR after each hop (the chain analysis'), and
    the steps after hop 3 are labelled projections (from M_1)."""
    import pandas as pd

    chain = read_chain_log(markov.location)
    an = analyse_chain(chain.hop_probs, chain.relays, chain.missing)
    out = tmp_path / "out"
    assert main(["report", markov.location, "--out", str(out)]) == 0
    md = (out / "report.md").read_text()
    assert "- hops: 1\n" not in md and "hops measured in the run: 3" in md
    assert "SPR 1 hop |" not in md and "SPR hop 3 (measured)" in md
    csv = pd.read_csv(out / "spr_by_hops.csv")
    measured = csv[csv["source"] == "measured"]
    assert list(measured["k"]) == [1, 2, 3]
    np.testing.assert_allclose(measured["spr"], [h.spr[0] for h in an.hops])
    assert set(csv[csv["k"] > 3]["source"]) == {"projected"}
