"""Inspect entry point: importing this module registers every task and model provider.

Each line registers one thing; keep one line per task / provider.
"""

# ruff: noqa: F401
from inspect_stance.providers.stance_sim import stance_sim_provider
from inspect_stance.tasks.stance_drift import stance_drift
