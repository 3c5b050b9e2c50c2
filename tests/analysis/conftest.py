"""Small real runs of every task on the package's simulators, shared by the analysis tests."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

os.environ.setdefault("OMP_NUM_THREADS", "1")

JUDGES = ("judge_exact", "judge_noisy", "judge_framed")
ANNOTATORS = ("lexical", "contrarian", "filler_reader")


def _one(logs):
    (log,) = logs
    assert log.status == "success", log.error
    return log


@pytest.fixture(scope="session")
def sim_logs(tmp_path_factory) -> dict[str, Path]:
    """One log folder per task: stance drift (5 propositions x 10 trials), PReSS (6 statements,
    tiny keyed NLI), prompt construction (2 templated + 2 generated per setting), prompt
    validation (one topic, opinion intent)."""
    from inspect_ai import eval as inspect_eval
    from inspect_ai.model import get_model
    from inspect_stance.tasks.press import press
    from inspect_stance.tasks.prompt_construction import prompt_construction
    from inspect_stance.tasks.prompt_validation import prompt_validation
    from inspect_stance.tasks.stance_drift import stance_drift

    from inspect_stance.providers.tiny_nli import build_tiny_nli

    root = tmp_path_factory.mktemp("sim_logs")
    nli = root / "nli"
    build_tiny_nli(nli, "keyed")
    out = {name: root / name for name in ("stance_drift", "press", "construction", "validation")}
    common = {"display": "none"}
    _one(
        inspect_eval(
            stance_drift,
            model=get_model("stance_sim/respondent", memoize=False, noise="realistic"),
            task_args={"limit_propositions": 5, "trials": 10},
            log_dir=str(out["stance_drift"]),
            **common,
        )
    )
    _one(
        inspect_eval(
            press,
            model="press_sim/target",
            task_args={"nli_model": str(nli)},
            limit=6,
            log_dir=str(out["press"]),
            **common,
        )
    )
    sim = lambda name: get_model(f"construction_sim/{name}", memoize=False)  # noqa: E731
    _one(
        inspect_eval(
            prompt_construction,
            model=sim("target"),
            model_roles={"judges": [sim(j) for j in JUDGES], "prompter": sim("prompter")},
            task_args={"templates_per_setting": 2, "prompts_per_setting": 2},
            log_dir=str(out["construction"]),
            **common,
        )
    )
    annotators = [get_model(f"annotator_sim/{a}", memoize=False) for a in ANNOTATORS]
    _one(
        inspect_eval(
            prompt_validation,
            model_roles={"prompter": sim("prompter"), "annotators": annotators},
            task_args={"topics": "1003", "intents": "opinion"},
            log_dir=str(out["validation"]),
            **common,
        )
    )
    return out
