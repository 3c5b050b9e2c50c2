"""The simulated respondent's noise mode decides its answers, so it is part of the trial
record's key even when it comes from the default or the environment, not from ``-M``: a run
with the realistic default must not replay trials recorded in the exact mode."""

from __future__ import annotations

import pytest
from inspect_ai.model import get_model

import inspect_stance._registry  # noqa: F401  (registers stance_sim)
from inspect_stance.fingerprint import model_identity


def _identity(monkeypatch: pytest.MonkeyPatch, env: str | None, **args: str) -> dict:
    if env is None:
        monkeypatch.delenv("INSPECT_STANCE_SIM_NOISE", raising=False)
    else:
        monkeypatch.setenv("INSPECT_STANCE_SIM_NOISE", env)
    return model_identity(get_model("stance_sim/respondent", memoize=False, **args))


def test_noise_mode_from_the_environment_is_in_the_key(monkeypatch):
    assert _identity(monkeypatch, "exact") != _identity(monkeypatch, None)


def test_the_same_mode_by_default_and_by_model_arg_is_one_key(monkeypatch):
    assert _identity(monkeypatch, None) == _identity(monkeypatch, None, noise="realistic")
