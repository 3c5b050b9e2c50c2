"""The prompter's cached answers are keyed on the prompter's model args too.

Inspect's response cache keys a call on the model's name, base URL, call config and messages,
not on its model args. A prompter bound with ``model_args: {garbage: true}`` (it then answers
no prompts) followed by the plain prompter must not get the garbage answers back; the same
prompter twice does (that is what the cache is for: ``eval-retry`` gets the same prompts).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from inspect_ai import eval as inspect_eval
from inspect_ai.log import read_eval_log
from inspect_ai.model import GenerateConfig, get_model
from inspect_stance.tasks.prompt_construction import prompt_construction


def sim(name: str, **args):
    return get_model(f"construction_sim/{name}", memoize=False, **args)


def run(tiny_inputs: dict[str, Path], log_dir: Path, prompter):
    (log,) = inspect_eval(
        prompt_construction,
        task_args=dict(
            topics=str(tiny_inputs["topics"]),
            writing_templates=str(tiny_inputs["writing"]),
            templates_per_setting=1,
            prompts_per_setting=1,
        ),
        model=sim("target", topics=str(tiny_inputs["topics"])),
        model_roles={"judges": [sim("judge_exact")], "prompter": prompter},
        log_dir=str(log_dir),
        display="none",
    )
    assert log.status == "success", log.error
    from inspect_stance.construction.figures import log_figures

    # the panel's metrics and the figures that left it (construction.figures)
    panel = {k: m.value for s in log.results.scores for k, m in s.metrics.items()}
    return {**log_figures([log.location]), **panel}


@pytest.fixture()
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("INSPECT_CACHE_DIR", str(tmp_path / "cache"))
    return tmp_path / "cache"


def test_other_prompter_args_are_not_served_the_cached_answers(tiny_inputs, tmp_path, cache):
    garbage = run(tiny_inputs, tmp_path / "a", sim("prompter", garbage=True))
    assert garbage["prompter_unparsed_settings"] == 18  # 2 topics x 3 intents x 3 stances
    plain = run(tiny_inputs, tmp_path / "b", sim("prompter"))
    assert plain["prompter_unparsed_settings"] == 0


def test_the_same_prompter_is_served_from_the_cache(tiny_inputs, tmp_path, cache):
    run(tiny_inputs, tmp_path / "a", sim("prompter", garbage=True))
    entries = sum(1 for p in cache.rglob("*") if p.is_file())
    again = run(tiny_inputs, tmp_path / "b", sim("prompter", garbage=True))
    assert again["prompter_unparsed_settings"] == 18
    assert sum(1 for p in cache.rglob("*") if p.is_file()) == entries, "no new prompter entry"


def test_role_configs_in_the_log_carry_no_header_values(tiny_inputs, tmp_path, cache):
    """The role configs the task writes into its metadata (for the log) are scrubbed: a key
    put in a role's ``extra_headers`` is not written by the package (Inspect itself writes the
    role configs in ``eval.model_roles`` and each model event's config)."""
    canary = "CANARYrolehdr4411"
    secret = GenerateConfig(extra_headers={"Authorization": f"Bearer {canary}"})
    (log,) = inspect_eval(
        prompt_construction,
        task_args=dict(
            topics=str(tiny_inputs["topics"]),
            writing_templates=str(tiny_inputs["writing"]),
            templates_per_setting=1,
            prompts_per_setting=1,
        ),
        model=sim("target", topics=str(tiny_inputs["topics"])),
        model_roles={
            "judges": [get_model("construction_sim/judge_exact", memoize=False, config=secret)],
            "prompter": get_model("construction_sim/prompter", memoize=False, config=secret),
        },
        log_dir=str(tmp_path / "logs"),
        display="none",
    )
    assert log.status == "success", log.error
    assert canary not in json.dumps(log.eval.metadata)
    full = read_eval_log(log.location)
    for s in full.samples:
        written = [s.metadata, s.store, {k: v.metadata for k, v in (s.scores or {}).items()}]
        assert canary not in json.dumps(written, default=str)
    judges = log.eval.metadata["role_configs"]["judges"]
    assert list(judges.values())[0]["extra_headers"] == {"Authorization": "REDACTED"}
