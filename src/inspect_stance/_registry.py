"""Inspect entry point: importing this module registers every task and model provider.

Each task line registers one task; the model providers are the ones the methods declare
(:func:`inspect_stance.providers.register.register_providers`). Nothing else happens here:
the package's excepthook and its check of Inspect's options (``--epochs 0``) are set up when
one of the package's tasks is created (:func:`inspect_stance.inspect_cli.enter_task`), so other
packages' tasks in the same ``inspect`` process are untouched, and no heavy library (scipy.stats,
pandas, matplotlib, statsmodels) loads here (``tests/test_entry_point.py``).
"""

# ruff: noqa: F401
from inspect_stance.providers.register import register_providers
from inspect_stance.tasks.even_handedness import even_handedness
from inspect_stance.tasks.judge_validation import judge_validation
from inspect_stance.tasks.press import press
from inspect_stance.tasks.press_arguments import press_arguments
from inspect_stance.tasks.prompt_construction import prompt_construction
from inspect_stance.tasks.prompt_validation import prompt_validation
from inspect_stance.tasks.pushback import pushback
from inspect_stance.tasks.stance_drift import stance_drift

register_providers()
