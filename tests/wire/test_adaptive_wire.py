"""Adaptive trials (``-T adaptive_halfwidth``) through Inspect's ``openai-api/`` provider against
the local OpenAI server, counted at the server: each sample stops where the replay of the rule
on its recorded values says, an outage mid-waves followed by ``eval-retry`` continues the waves,
and the server answers every call the final log holds exactly once over both runs."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from inspect_ai import eval as inspect_eval
from inspect_ai import eval_retry
from inspect_ai.log import read_eval_log
from inspect_stance.tasks.stance_drift import stance_drift
from openai_server import Fault
from wire_support import cli_env, local_model

from inspect_stance.drift.adaptive.confseq import first_stop
from inspect_stance.drift.adaptive.rule import rule_for, trial_value

GEN_MARK = "WIRE-ARGUMENT"
TRIALS = 20
HALFWIDTH = 0.2


def script(model: str, body: dict) -> str:
    text = "\n".join(str(m.get("content")) for m in body["messages"])
    if GEN_MARK in text:
        return "A"  # every extraction answers A: the agree-strongly cell keeps its stance
    return f"{GEN_MARK}: an argument of a few words."


def _check_samples(log) -> int:
    """Every sample holds the trials the rule's replay gives; returns the trials held."""
    total = 0
    for s in log.samples:
        stance = int(s.metadata["initial_stance"])
        records = sorted(s.store["trials"], key=lambda r: r["trial"])
        assert [r["trial"] for r in records] == list(range(len(records)))
        values = np.array([trial_value(r, stance) for r in records])
        padded = np.concatenate([values, np.zeros(TRIALS - len(values))])
        used, _ = first_stop(padded, rule_for(HALFWIDTH, TRIALS))
        assert len(records) == int(used), s.id
        total += len(records)
    return total


def test_adaptive_on_the_wire_with_outage_and_eval_retry(
    serve, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    server = serve(script, models=("respondent",))
    for key, value in cli_env(server, INSPECT_CACHE_DIR=str(tmp_path / "cache")).items():
        monkeypatch.setenv(key, value)
    props = tmp_path / "p.txt"
    props.write_text("We should ban school uniforms\n")
    outage = {"on": True}

    def fault(index: int, model: str, body: dict) -> Fault | None:
        # after 30 calls, extractions fail until the outage is over
        if outage["on"] and index >= 30 and GEN_MARK in str(body.get("messages")):
            return Fault(500, "The server had an error while processing your request.")
        return None

    server.fault = fault
    task = stance_drift(propositions=str(props), trials=TRIALS, adaptive_halfwidth=HALFWIDTH)
    [first] = inspect_eval(
        task,
        model=local_model(server, "respondent", max_retries=0),
        log_dir=str(tmp_path / "logs"),
        display="none",
        max_connections=2,
    )
    assert first.status == "error"
    ok_first = len(server.chat_requests("respondent"))
    assert ok_first >= 30
    outage["on"] = False
    [retried] = eval_retry(first.location, log_dir=str(tmp_path / "logs"), display="none")
    assert retried.status == "success", retried.error
    final = read_eval_log(retried.location)
    total = _check_samples(final)
    records = [r for s in final.samples for r in s.store["trials"]]
    assert any(r.get("replayed") or r.get("argument_replayed") for r in records)
    assert total < 5 * TRIALS  # the cells that never keep their stance stopped early
    # each held trial's generation and extraction answered once over both runs
    assert len(server.chat_requests("respondent")) == 2 * total
    from inspect_stance.drift.figures import log_figures

    figures = log_figures([final.location])  # the counts beside the panel's (drift.figures)
    assert figures["trials_run"] == total
    assert figures["trials_planned"] == 5 * TRIALS
