"""Stance drift as a study file runs it: its relay role, planned calls and size.

``n`` propositions (default 112) x 5 initial stances x ``trials`` (default 100) trials, each
``1 + e`` target calls (one generation, ``e`` = 1 extraction, 5 for ``multiple_extraction``; no
generation with ``arguments_from``); a chain (``hops > 1``) makes ``1 + hops`` target calls and
``(hops - 1) x r`` relay calls per trial (``r`` = 2 for ``translate``, else 1).
"""

from __future__ import annotations

from typing import Any

from inspect_stance.drift.chain.relay_prompts import relay_calls_per_hop
from inspect_stance.study.protocol import StudySize, StudyTask
from inspect_stance.study.task_args import add_calls, arg_int

DEFAULT_PROPOSITIONS = 112
STANCES = 5


def calls(
    args: dict[str, Any], target: str, roles: dict[str, list[str]]
) -> tuple[int, dict[str, int]]:
    """The propositions and model calls of one stance-drift run (module docstring)."""
    out: dict[str, int] = {}
    n = arg_int(args, "limit_propositions", DEFAULT_PROPOSITIONS)
    trials = n * STANCES * arg_int(args, "trials", 100)
    hops = arg_int(args, "hops", 1)
    if hops > 1:
        add_calls(out, target, trials * (1 + hops))
        relays = roles.get("relay", []) or [target]
        per = (hops - 1) * relay_calls_per_hop(str(args.get("relay_operation", "paraphrase")))
        total = per * trials  # relay=A,B alternates models hop by hop: call k to relays[k % R]
        for j, model in enumerate(relays):
            add_calls(out, model, total // len(relays) + (1 if j < total % len(relays) else 0))
        return n, out
    extractions = 5 if args.get("variant") == "multiple_extraction" else 1
    add_calls(out, target, trials * ((0 if args.get("arguments_from") else 1) + extractions))
    return n, out


STUDY = StudyTask(
    roles=("relay",),
    calls=calls,
    size=StudySize("limit_propositions", DEFAULT_PROPOSITIONS, 0.5, True),
)
