"""A real chain offline: SmolLM2-135M-Instruct as respondent and as relay (paraphrase), through
Inspect's own `hf` provider. Real text at every hop; every hop's reading parsed or counted."""

from __future__ import annotations

import pytest
from inspect_ai import eval as inspect_eval
from inspect_ai.log import read_eval_log
from inspect_ai.model import get_model
from inspect_stance.tasks.stance_drift import stance_drift

from inspect_stance.drift.chain.logs import read_chain_log
from inspect_stance.drift.chain.markov import analyse_chain

pytestmark = pytest.mark.slow


def test_smollm_chain_reads_every_hop(smollm_dir, tmp_path):
    props = tmp_path / "p.txt"
    props.write_text("We should ban school uniforms\n")
    args = {"model_path": str(smollm_dir), "do_sample": False}
    relay = get_model("hf/local", memoize=False, config=None, **args)
    [log] = inspect_eval(
        stance_drift,
        task_args={"propositions": str(props), "trials": 1, "words_limit": 20, "hops": 2},
        model="hf/local",
        model_args=args,
        model_roles={"relay": relay},
        max_tokens=24,
        log_dir=str(tmp_path / "logs"),
        display="none",
        cache=False,
    )
    assert log.status == "success", log.error
    full = read_eval_log(log.location)
    records = [r for s in full.samples for r in s.store["trials"]]
    assert len(records) == 5
    for r in records:
        assert [h["hop"] for h in r["hops"]] == [1, 2]
        assert all(h["text"].strip() for h in r["hops"])  # real text at both hops
        for h in r["hops"]:
            assert h["unparsed"] or abs(sum(h["probs"]) - 1) < 1e-9
    # 1 generation + 2 extractions + 1 relay call per chain
    assert sum(1 for s in full.samples for e in s.events if e.event == "model") == 20
    chain = read_chain_log(log.location)
    an = analyse_chain(chain.hop_probs, chain.relays, chain.missing, n_boot=200)
    assert an.n_chains == 5 and len(an.hops) == 2
