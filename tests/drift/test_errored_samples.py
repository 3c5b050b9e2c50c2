"""A run that finishes "success" under ``--fail-on-error 0.9`` with errored samples: the header
counts them as incomplete (they have no score, so the estimate rests on the others).

The simulated respondent fails every call after its first ``fail_after`` (an outage): the
samples run one at a time, so the first 6 finish and the other 9 error (the issue's "SPR from
6 of 15 samples"); the run still finishes "success" because fewer than 90 % of them errored.
"""

from __future__ import annotations

from pathlib import Path

from inspect_ai import eval as inspect_eval
from inspect_ai.log import read_eval_log
from inspect_ai.model import get_model
from inspect_stance.tasks.stance_drift import stance_drift

TRIALS = 2


def test_errored_samples_count_as_incomplete(tmp_path: Path):
    (tmp_path / "p.txt").write_text(
        "We should ban school uniforms\nWe should ban plastic bags\nWe should ban fireworks\n"
    )
    # 15 samples x 2 trials x 2 calls; every call after the 24th fails
    model = get_model("stance_sim/respondent", memoize=False, fail_after=24)
    [log] = inspect_eval(
        stance_drift(propositions=str(tmp_path / "p.txt"), trials=TRIALS, cache=False),
        model=model,
        log_dir=str(tmp_path / "logs"),
        display="none",
        fail_on_error=0.9,
        max_retries=0,
        max_samples=1,  # one sample at a time: the first 6 finish, the other 9 error
    )
    assert log.status == "success"
    full = read_eval_log(log.location)
    errored = [s for s in full.samples if s.error is not None]
    assert len(errored) == 9
    from inspect_stance.drift.figures import log_figures

    # the panel counts incomplete samples; the other counts moved to drift.figures
    [scorer] = log.results.scores
    m = {**log_figures([log.location]), **{k: v.value for k, v in scorer.metrics.items()}}
    assert m["incomplete_samples"] == len(errored)
    assert m["missing_trials"] == TRIALS * len(errored)
    assert m["errored_samples"] == len(errored)
    assert m["trials"] == TRIALS * (15 - len(errored))
