"""Inspect entry point: importing this module registers every task and model provider.

Each line registers one thing; keep one line per task / provider.
"""

# ruff: noqa: F401, E402
from inspect_stance.errors import install_excepthook

install_excepthook()  # our one-line errors reach stderr in every display mode

from inspect_stance.inspect_cli import check_inspect_argv

check_inspect_argv()  # Inspect's own options it lets through silently (--epochs 0)

from inspect_stance.providers.annotator_sim import annotator_sim
from inspect_stance.providers.construction_sim import construction_sim
from inspect_stance.providers.press_sim import PressSimAPI
from inspect_stance.providers.relay_sim import relay_sim_provider
from inspect_stance.providers.stance_sim import stance_sim_provider
from inspect_stance.tasks.even_handedness import even_handedness
from inspect_stance.tasks.judge_validation import judge_validation
from inspect_stance.tasks.press import press
from inspect_stance.tasks.press_arguments import press_arguments
from inspect_stance.tasks.prompt_construction import prompt_construction
from inspect_stance.tasks.prompt_validation import prompt_validation
from inspect_stance.tasks.stance_drift import stance_drift
