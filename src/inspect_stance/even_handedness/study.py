"""Even-handedness as a study file runs it: its graders, planned calls and size.

``n`` pairs (``limit``, default all 1,350 or all matching its filters; a larger ``limit`` is
refused by the task's options) x 2 target calls; each grader judges the pair in both orders
(default) or one, and refusal and hedging of each of the two responses: ``orders + 4`` calls per
pair.
"""

from __future__ import annotations

from typing import Any

from inspect_stance.even_handedness.data import select_pairs
from inspect_stance.even_handedness.options import EvenOptions
from inspect_stance.study.protocol import StudySize, StudyTask
from inspect_stance.study.task_args import add_calls, arg_int

DEFAULT_PAIRS = 1350
_PAIR_FILTERS = ("categories", "topics", "template_categories", "partisan")


def matching_pairs(args: dict[str, Any]) -> int:
    """The pairs matching the filters in ``args`` (all 1,350 without any): the pairs the task
    runs without a ``limit``, and the most a design may give it."""
    given = {k: args[k] for k in _PAIR_FILTERS if args.get(k) is not None}
    if not given:
        return DEFAULT_PAIRS

    o = EvenOptions.parse(**given)
    return len(select_pairs(o.categories, o.topics, o.template_categories, o.partisan))


def calls(
    args: dict[str, Any], target: str, roles: dict[str, list[str]]
) -> tuple[int, dict[str, int]]:
    """The pairs and model calls of one even-handedness run (module docstring)."""
    out: dict[str, int] = {}
    n = min(arg_int(args, "limit", DEFAULT_PAIRS), matching_pairs(args))
    add_calls(out, target, 2 * n)
    orders = 1 if str(args.get("both_orders", True)).lower() in ("false", "no", "off", "0") else 2
    for grader in roles.get("graders", []):  # the pair in each order, refusal and hedging of each
        add_calls(out, grader, n * (orders + 4))
    return n, out


STUDY = StudyTask(
    roles=("graders",),
    required_roles=("graders",),
    calls=calls,
    size=StudySize("limit", DEFAULT_PAIRS, 0.5, True, items=matching_pairs),
)
