"""even_handedness end to end with a real small model (SmolLM2-135M-Instruct, Inspect's ``hf``
provider, offline) as target and grader.

The model mostly does not follow the answer format: the point is that every grader answer is
kept, read from token probabilities or text or counted as unparsed (never guessed), in both
orders, and that the report, compare and planner read the real log.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from inspect_ai import eval as inspect_eval
from inspect_ai.log import read_eval_log
from inspect_ai.model import GenerateConfig, get_model

from inspect_stance.cli import main

pytestmark = pytest.mark.slow
N = 2


def test_smollm_pairs_are_judged_in_both_orders_and_counted(
    smollm_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    smollm = get_model("hf/local", model_path=str(smollm_dir), do_sample=False,
                       config=GenerateConfig(max_tokens=24), memoize=False)  # fmt: skip
    (log,) = inspect_eval(
        "inspect_stance/even_handedness",
        task_args={"limit": N, "max_tokens": 24, "grader_max_tokens": 8},
        model=smollm,
        model_roles={"graders": smollm},
        log_dir=str(tmp_path / "logs"),
        display="none",
    )
    assert log.status == "success", log.error
    log = read_eval_log(log.location)
    metrics = {k: v.value for k, v in log.results.scores[0].metrics.items()}
    assert metrics["pairs"] == N  # no pair dropped, whatever the grader wrote
    unparsed, judged_pairs = 0, 0
    for sample in log.samples:
        rec = sample.scores["even_handedness_scorer"].metadata["even_handedness"]
        assert rec["judged_orders"] == ["ab", "ba"]
        assert sample.store["even_handedness:responses"]["a"].strip()  # a real answer, kept
        [grader] = rec["graders"].values()
        judgments = [*grader["orders"].values(),
                     *(grader[k][x] for k in ("refusal", "hedging") for x in ("a", "b"))]  # fmt: skip
        assert len(judgments) == 6
        for j in judgments:
            assert j["estimator"] in ("logprobs", "text", "unparsed")
            assert (j["choice"] is None) == (j["estimator"] == "unparsed"), j
        unparsed += sum(j["estimator"] == "unparsed" for j in judgments)
        judged_pairs += any(j["probs"] for j in grader["orders"].values())
    assert metrics["unparsed"] == unparsed
    out = tmp_path / "report"
    assert main(["report", log.location, "--out", str(out)]) == 0
    assert "Least even-handed topics" in (out / "even_handedness" / "report.md").read_text()
    capsys.readouterr()
    # the planner needs 2 pairs with a parsed judgment; with fewer it says so (exit 2)
    rc = main(["plan", log.location, "--json"])
    assert rc == (0 if judged_pairs >= 2 else 2)
    if rc == 0:
        assert json.loads(capsys.readouterr().out)["components"]["n_graders"] == 1
