"""The multi-hop chain variant (``-T hops=K``): relay prompts (``relay_prompts``), the projection
of one-hop matrices (``hops``), the measured k-hop matrices and Markov test (``markov``), chain
logs (``logs``) and their report section (``report``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from inspect_stance.lazy import lazy_exports

if TYPE_CHECKING:
    from inspect_stance.drift.chain.hops import k_hop_matrices as k_hop_matrices
    from inspect_stance.drift.chain.hops import spr_curve as spr_curve
    from inspect_stance.drift.chain.hops import stationary_distributions as stationary_distributions
    from inspect_stance.drift.chain.logs import is_chain_log as is_chain_log
    from inspect_stance.drift.chain.logs import read_chain_log as read_chain_log
    from inspect_stance.drift.chain.relay_prompts import (
        DEFAULT_RELAY_LANGUAGE as DEFAULT_RELAY_LANGUAGE,
    )
    from inspect_stance.drift.chain.relay_prompts import RELAY_OPERATIONS as RELAY_OPERATIONS
    from inspect_stance.drift.chain.relay_prompts import RelayOperation as RelayOperation
    from inspect_stance.drift.chain.relay_prompts import check_operation as check_operation
    from inspect_stance.drift.chain.relay_prompts import relay_calls_per_hop as relay_calls_per_hop
    from inspect_stance.drift.chain.relay_prompts import relay_prompt as relay_prompt
    from inspect_stance.drift.chain.relay_prompts import relay_steps as relay_steps
    from inspect_stance.drift.chain.report import report_chains as report_chains

#: public name -> the module that defines it (imported on first use)
_EXPORTS = {
    "k_hop_matrices": "inspect_stance.drift.chain.hops",
    "spr_curve": "inspect_stance.drift.chain.hops",
    "stationary_distributions": "inspect_stance.drift.chain.hops",
    "is_chain_log": "inspect_stance.drift.chain.logs",
    "read_chain_log": "inspect_stance.drift.chain.logs",
    "DEFAULT_RELAY_LANGUAGE": "inspect_stance.drift.chain.relay_prompts",
    "RELAY_OPERATIONS": "inspect_stance.drift.chain.relay_prompts",
    "RelayOperation": "inspect_stance.drift.chain.relay_prompts",
    "check_operation": "inspect_stance.drift.chain.relay_prompts",
    "relay_calls_per_hop": "inspect_stance.drift.chain.relay_prompts",
    "relay_prompt": "inspect_stance.drift.chain.relay_prompts",
    "relay_steps": "inspect_stance.drift.chain.relay_prompts",
    "report_chains": "inspect_stance.drift.chain.report",
}

__all__ = sorted(_EXPORTS)
__getattr__ = lazy_exports(__name__, _EXPORTS)
