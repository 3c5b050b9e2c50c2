"""``inspect eval-retry`` after the inputs changed: refused in one line unless asked for.

A run fails part-way (the simulated respondent fails every call after its 4th while a flag file
exists); the propositions file is then edited (one proposition replaced by another). Retrying
would evaluate a proposition the original run never had: the retry is refused with one line
naming what was added and removed, and runs when ``INSPECT_STANCE_RETRY_CHANGED_INPUTS=continue``
says so (the change is then recorded in the log). An unchanged retry just runs.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest
from inspect_ai import eval as inspect_eval
from inspect_ai import eval_retry
from inspect_ai.model import get_model
from inspect_stance.tasks.stance_drift import stance_drift

from inspect_stance.errors import InputError
from inspect_stance.fingerprint import FINGERPRINT_KEY, RETRY_ENV

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests"))
from cli_sweep import sweep  # noqa: E402

FIRST = "We should ban school uniforms\nWe should ban plastic bags\n"
EDITED = "We should ban school uniforms\nWe should ban fireworks\n"


@pytest.fixture()
def failed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("INSPECT_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv(RETRY_ENV, raising=False)
    props, flag = tmp_path / "p.txt", tmp_path / "outage"
    props.write_text(FIRST)
    flag.write_text("down")
    model = get_model("stance_sim/respondent", memoize=False, fail_after=4, fail_while=str(flag))
    [log] = inspect_eval(
        stance_drift(propositions=str(props), trials=1),
        model=model,
        log_dir=str(tmp_path / "logs"),
        display="none",
        max_samples=1,
        max_retries=0,
    )
    assert log.status == "error"
    flag.unlink()  # the outage is over
    return log, props, tmp_path


def test_an_unchanged_retry_runs(failed):
    log, _, tmp_path = failed
    [retried] = eval_retry(log, log_dir=str(tmp_path / "logs"), display="none")
    assert retried.status == "success"
    assert retried.eval.metadata[FINGERPRINT_KEY]["samples"] == 10


def test_a_retry_on_changed_inputs_is_refused_unless_asked(failed, monkeypatch):
    log, props, tmp_path = failed
    props.write_text(EDITED)
    with pytest.raises(InputError) as refused:
        eval_retry(log, log_dir=str(tmp_path / "logs"), display="none")
    line = str(refused.value)
    assert "\n" not in line
    assert "changed input file(s): propositions" in line
    assert "5 sample(s) added" in line and "5 sample(s) removed" in line
    assert RETRY_ENV in line

    monkeypatch.setenv(RETRY_ENV, "continue")
    [retried] = eval_retry(log, log_dir=str(tmp_path / "logs"), display="none")
    assert retried.status == "success"
    recorded = retried.eval.metadata[FINGERPRINT_KEY]
    assert "5 sample(s) added" in recorded["retry_changed_inputs"]


def test_the_cli_refusal_is_one_line(failed):
    log, props, tmp_path = failed
    props.write_text(EDITED)
    env = dict(os.environ, INSPECT_DISPLAY="none")
    env.pop(RETRY_ENV, None)
    [r] = sweep([["eval-retry", log.location, "--log-dir", str(tmp_path / "logs")]], str(ROOT), env)
    lines = [ln for ln in (r.stdout + "\n" + r.stderr).splitlines() if ln.strip()]
    assert r.returncode != 0
    assert len(lines) == 1 and "the inputs changed since the run being retried" in lines[0], lines
