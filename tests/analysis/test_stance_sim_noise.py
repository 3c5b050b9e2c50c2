"""The simulated respondent's default answers vary like data; ``-M noise=exact`` stays exact."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from inspect_ai import eval as inspect_eval
from inspect_ai.model import get_model
from inspect_stance.tasks.stance_drift import stance_drift

from inspect_stance.drift.simulator import NOISE_ENV, parse_noise
from inspect_stance.errors import InputError


def _run(tmp_path, noise: str):
    model = get_model("stance_sim/respondent", memoize=False, noise=noise)
    (log,) = inspect_eval(
        stance_drift,
        task_args={"limit_propositions": 6, "trials": 8, "cache": False},
        model=model,
        log_dir=str(tmp_path / noise),
        display="none",
    )
    assert log.status == "success", log.error
    return {k: v.value for k, v in log.results.scores[0].metrics.items()}


def test_realistic_noise_gives_a_positive_stderr_and_exact_gives_the_matrix(tmp_path):
    exact = _run(tmp_path, "exact")
    realistic = _run(tmp_path, "realistic")
    assert exact["spr"] == pytest.approx(0.57, abs=1e-9)
    assert exact["stderr"] == pytest.approx(0.0, abs=1e-9)
    # per-proposition matrices: SPR varies over propositions (sd of a proposition's mean of five
    # diagonal cells about 0.04 at concentration 30, so SE over 6 propositions > 0.005)
    assert realistic["stderr"] > 0.005
    # centred on the shipped matrix: within 4 SE of 0.57
    assert abs(realistic["spr"] - 0.57) < 4 * realistic["stderr"] + 0.02


def test_the_default_is_realistic_without_the_environment_variable():
    env = {k: v for k, v in os.environ.items() if k != NOISE_ENV}
    code = (
        "from inspect_ai.model import get_model;"
        "m = get_model('stance_sim/respondent', memoize=False);"
        "print(m.api.noise)"
    )
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    assert out.stdout.strip() == "realistic", out.stderr[-500:]


def test_a_bad_noise_value_is_a_one_line_error():
    with pytest.raises(InputError, match="noise"):
        parse_noise("loud")
