"""Inspect entry point: importing this module registers every task and model provider.

Each line registers one thing; keep one line per task / provider. Nothing else happens here:
the package's excepthook and its check of Inspect's options (``--epochs 0``) are set up when
one of the package's tasks is created (:func:`inspect_stance.inspect_cli.enter_task`), so other
packages' tasks in the same ``inspect`` process are untouched, and no heavy library (scipy.stats,
pandas, matplotlib, statsmodels) loads here (``tests/test_entry_point.py``).
"""

# ruff: noqa: F401
from inspect_stance.providers.register import (
    annotator_sim,
    construction_sim,
    even_sim,
    press_sim,
    pushback_sim,
    relay_sim_provider,
    stance_sim_provider,
)
from inspect_stance.tasks.even_handedness import even_handedness
from inspect_stance.tasks.judge_validation import judge_validation
from inspect_stance.tasks.press import press
from inspect_stance.tasks.press_arguments import press_arguments
from inspect_stance.tasks.prompt_construction import prompt_construction
from inspect_stance.tasks.prompt_validation import prompt_validation
from inspect_stance.tasks.pushback import pushback
from inspect_stance.tasks.stance_drift import stance_drift
