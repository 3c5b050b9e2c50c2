"""``inspect-stance plan RUN [RUN_B]``: variance components, predicted SEs and the cheapest design.

From a pilot or a finished run (a ``stance_drift`` log or an ``.npz``) this prints the variance
components, the predicted standard errors and calls of a few designs and the cheapest design
reaching ``--target-se`` (SPR) and/or ``--detect D`` (paired dSPR; two runs give the pair's own
variance, one run assumes a second model alike with ``--correlation``); tokens and cost from
the log's usage and ``--price-in`` / ``--price-out``; the precision the frequency estimator
loses; and with ``--adaptive-halfwidth H`` the replay of the run under the adaptive rule. The
analysis is :func:`inspect_stance.drift.planning.study.build_plan`; this module renders it
and parses the arguments.
"""

from __future__ import annotations

import argparse
import json
import math
from typing import TYPE_CHECKING, Any

from inspect_stance.cli.method_reports import add_method_options, own_options
from inspect_stance.errors import InputError
from inspect_stance.shards import PARTIAL_HELP
from inspect_stance.study.registry import method_of_path, methods

if TYPE_CHECKING:
    from inspect_stance.study.protocol import Method, PlanRequest


def plan_request(args: argparse.Namespace, method: Method) -> PlanRequest:
    """The typed request of a parsed ``plan`` command line for ``method`` (with the values of
    its own plan options)."""
    from inspect_stance.study.protocol import PlanRequest

    declared = [(m.label, m.plan_options) for m in methods() if m.plan is not None]

    return PlanRequest(
        runs=tuple(args.runs), target_se=args.target_se, detect=args.detect, alpha=args.alpha,
        power=args.power, assurance=args.assurance, correlation=args.correlation,
        max_items=args.max_propositions, max_repeats=args.max_trials,
        calls_per_trial=args.calls_per_trial, price_in=args.price_in, price_out=args.price_out,
        batch_discount=args.batch_discount, adaptive_halfwidth=args.adaptive_halfwidth,
        replay_orders=args.replay_orders, estimator=args.estimator,
        allow_different_settings=args.allow_different_settings,
        partial=args.partial,
        options=own_options(args, method.label, method.plan_options, declared),
    )  # fmt: skip


def cmd_plan(args: argparse.Namespace) -> int:
    """Entry point of ``inspect-stance plan``: the method of the first run plans
    (:attr:`inspect_stance.study.Method.plan`)."""

    method = method_of_path(args.runs[0])
    if method is None or method.plan is None:
        planned = ", ".join(t for m in methods() if m.plan is not None for t in m.tasks)
        what = f"a {method.name} run" if method is not None else "not a run of a known task"
        raise InputError(f"{args.runs[0]}: {what}, which plan does not read; pass a log of "
                         f"{planned} (or an .npz run)")  # fmt: skip
    result = method.plan(plan_request(args, method))
    print(json.dumps(result.json, indent=2) if args.json else result.text)
    return 0


def _positive(text: str) -> float:
    try:
        x = float(text)
    except ValueError:
        x = math.nan
    if not math.isfinite(x) or x <= 0:
        raise argparse.ArgumentTypeError(f"{text!r} is not a positive number")
    return x


def _fraction(text: str) -> float:
    x = _positive(text)
    if x >= 1:
        raise argparse.ArgumentTypeError(f"{text!r} is not strictly between 0 and 1")
    return x


def _share(text: str) -> float:
    try:
        x = float(text)
    except ValueError:
        x = math.nan
    if not 0.0 <= x < 1.0:
        raise argparse.ArgumentTypeError(f"{text!r} is not a share in [0, 1)")
    return x


#: the largest design space and replay the planner searches (bounded work and memory)
MAX_PROPOSITIONS = 1_000_000
MAX_TRIALS = 1_000
MAX_REPLAY_ORDERS = 10_000


def _count(text: str, most: int | None = None) -> int:
    try:
        n = int(text)
    except ValueError:
        n = 0
    if n < 2:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number of at least 2")
    if most is not None and n > most:
        raise argparse.ArgumentTypeError(f"{text!r} is more than {most:,}; give at most that")
    return n


def _propositions(text: str) -> int:
    return _count(text, MAX_PROPOSITIONS)


def _trials(text: str) -> int:
    return _count(text, MAX_TRIALS)


def _orders(text: str) -> int:
    return _count(text, MAX_REPLAY_ORDERS)


def register(subparsers: Any) -> None:
    """Add ``plan`` to ``subparsers``."""
    p = subparsers.add_parser(
        "plan",
        help="plan a cheaper study from a pilot or a finished run (the run's method plans)",
        description="Variance components of a stance-drift run (log or .npz), predicted "
        "standard errors, calls, tokens and cost of designs (propositions x trials), the "
        "cheapest design for a target, and an adaptive-stopping replay.",
    )
    p.add_argument(
        "runs",
        nargs="+",
        metavar="RUN",
        help="a run (log or .npz); a second run "
        "of the same propositions plans a paired comparison of the two",
    )
    _add_target_args(p)
    _add_cost_args(p)
    p.add_argument(
        "--adaptive-halfwidth",
        type=_fraction,
        metavar="H",
        help="replay the run under adaptive stopping at half-width H",
    )
    p.add_argument(
        "--replay-orders",
        type=_orders,
        default=200,
        metavar="N",
        help="random trial orders per cell in the replay (default 200)",
    )
    p.add_argument(
        "--estimator",
        choices=("as-run", "frequency"),
        default="as-run",
        help="frequency: plan for a model without logprobs (one letter per trial) from a "
        "logprob run, with the trial variance of its re-scoring (default: the run's own)",
    )
    p.add_argument(
        "--allow-different-settings",
        action="store_true",
        help="plan a pair of runs whose settings differ (as compare's flag)",
    )

    add_method_options(p, [(m.label, m.plan_options) for m in methods() if m.plan is not None])
    p.add_argument("--partial", action="store_true", help=PARTIAL_HELP)
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(func=cmd_plan)


def _add_target_args(p: argparse.ArgumentParser) -> None:
    """The target and the design space: ``--target-se``, ``--detect`` and its settings."""
    p.add_argument("--target-se", type=_positive, metavar="X", help="SE of SPR to reach")
    p.add_argument(
        "--detect",
        type=_fraction,
        metavar="D",
        help="paired SPR difference to detect (two models, same propositions)",
    )
    p.add_argument(
        "--assurance",
        type=_fraction,
        default=0.8,
        metavar="P",
        help="with --target-se: the cheapest design whose realised SE(SPR) is below the "
        "target with probability P, given the pilot's own sampling error (default 0.8)",
    )
    p.add_argument("--power", type=_fraction, default=0.8, help="power for --detect (0.8)")
    p.add_argument(
        "--alpha", type=_fraction, default=0.05, help="two-sided level for --detect (0.05)"
    )
    p.add_argument(
        "--correlation",
        type=float,
        default=0.0,
        metavar="RHO",
        help="one run with --detect: correlation of the two models' proposition "
        "means (default 0, the cautious choice for positive correlations)",
    )
    p.add_argument(
        "--max-propositions",
        "--max-statements",
        "--max-settings",
        dest="max_propositions",
        type=_propositions,
        metavar="P",
        help="most propositions (PReSS: statements; prompt construction and prompt "
        "validation: neutral settings) available (default: the run's)",
    )
    p.add_argument(
        "--max-trials",
        "--max-argument-sets",
        "--max-prompts",
        dest="max_trials",
        type=_trials,
        metavar="T",
        help="most trials per cell (PReSS: argument sets per statement; prompt construction: "
        "prompts per method per setting; prompt validation: prompts per source; default: the "
        "run's, at least 10 for those three)",
    )


def _add_cost_args(p: argparse.ArgumentParser) -> None:
    """Calls per trial and prices."""
    p.add_argument(
        "--calls-per-trial",
        type=_positive,
        metavar="C",
        help="model calls per trial (default: the log's task metadata; 2 for .npz)",
    )
    p.add_argument(
        "--price-in", type=_positive, metavar="USD", help="price per million input tokens"
    )
    p.add_argument(
        "--price-out", type=_positive, metavar="USD", help="price per million output tokens"
    )
    p.add_argument(
        "--batch-discount",
        type=_share,
        default=0.0,
        metavar="SHARE",
        help="share off the price, e.g. 0.5 for a Batch API (default 0)",
    )
