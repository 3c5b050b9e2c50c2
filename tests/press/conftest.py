"""PReSS test fixtures: tiny NLI models built and saved here, and shared scripted runs."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

os.environ.setdefault("OMP_NUM_THREADS", "1")

SIM_ROLES = {"arguer": "press_sim/arguer", "classifier": "press_sim/classifier"}


@pytest.fixture(scope="session")
def nli_dir(tmp_path_factory) -> Path:
    """Folder holding tiny NLI models: random, entail, contradict, keyed (weights set by hand so
    the class follows marker words, see build_tiny_nli), and one without labels."""
    from inspect_stance.providers.tiny_nli import build_tiny_nli

    root = tmp_path_factory.mktemp("nli")
    build_tiny_nli(root / "random", "random", seed=1)
    build_tiny_nli(root / "entail", "entail")
    build_tiny_nli(root / "contradict", "contradict")
    build_tiny_nli(root / "keyed", "keyed")
    build_tiny_nli(
        root / "bart_order", "entail", id2label={0: "CONTRADICTION", 1: "NEUTRAL", 2: "ENTAILMENT"}
    )
    build_tiny_nli(
        root / "unlabelled", "random", id2label={0: "LABEL_0", 1: "LABEL_1", 2: "LABEL_2"}
    )
    return root


@pytest.fixture(scope="session")
def full_run(nli_dir, tmp_path_factory):
    """The packaged 19 statements on the scripted target: personas, 4 entropy samples, LLM classifier."""
    from inspect_ai import eval as inspect_eval
    from inspect_stance.tasks.press import press

    log_dir = tmp_path_factory.mktemp("full_logs")
    logs = inspect_eval(
        press,  # built by Inspect, after the roles are bound (the classifier role is checked)
        task_args={
            "personas": True,
            "entropy_samples": 4,
            "classifier": "llm",
            "nli_model": str(nli_dir / "entail"),
        },
        model="press_sim/target",
        model_roles=SIM_ROLES,
        log_dir=str(log_dir),
        display="none",
    )
    assert logs[0].status == "success", logs[0].error
    return logs[0]


@pytest.fixture()
def three(tmp_path: Path) -> tuple[Any, ...]:
    """A statements file with the first three packaged statements and the scripted models
    reading it."""
    from inspect_ai.model import get_model

    from inspect_stance.press.statements import load_statements

    items = load_statements(None)[:3]
    path = tmp_path / "three.tsv"
    path.write_text("bias\tstatement\n" + "".join(f"{s.bias}\t{s.text}\n" for s in items))
    models = {name: get_model(f"press_sim/{name}", statements=str(path), memoize=False)
              for name in ("target", "arguer")}  # fmt: skip
    return path, items, models
