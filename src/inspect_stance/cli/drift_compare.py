"""``inspect-stance compare`` on stance-drift runs: the shared steps (find the runs, count a
repeat once, at least two runs, name them, check their settings) and the comparison of
:func:`inspect_stance.drift.compare.compare_drift`. Registered as the stance-drift method's
``compare`` (:mod:`inspect_stance.study.builtin`)."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from inspect_stance.errors import InputError


def drift_compare(args: argparse.Namespace) -> Any:
    """The comparison of the stance-drift runs named by ``compare``'s arguments."""
    from inspect_stance.drift.compare import compare_drift, load_drift, select_metrics
    from inspect_stance.drift.expand import expand_inputs
    from inspect_stance.printable import printable
    from inspect_stance.runs import check_settings, dedupe, parse_labels, run_names

    policy = "exclude" if args.exclude_unparsed else "failure"
    paths, skipped = expand_inputs(args.paths)
    if skipped:
        print(printable(f"inspect-stance compare: {skipped}"), file=sys.stderr)
    try:
        metrics = select_metrics(args.metric)
    except ValueError as ex:
        raise InputError(str(ex)) from ex
    loaded = [load_drift(p, policy) for p in paths]
    keep, dropped = dedupe([x.info for x in loaded])
    loaded = [loaded[k] for k in keep]
    if len(loaded) < 2:
        raise InputError(f"compare needs at least two different runs (got {len(loaded)})"
                         + (f"; {dropped}" if dropped else ""))  # fmt: skip
    names, name_notes = run_names([x.info for x in loaded], parse_labels(args.label))
    notes = check_settings([x.info for x in loaded], names, args.allow_different_settings)
    try:
        result = compare_drift(loaded, names, metrics, args.confidence, args.interval,
                               args.adjust, args.alpha, policy)  # fmt: skip
    except ValueError as ex:
        raise InputError(str(ex)) from ex
    result.notes += name_notes + notes + ([dropped] if dropped else [])
    result.notes += [f"{n}: {x.run.replay_note}" for x, n in zip(loaded, names, strict=True)
                     if x.run.replay_note]  # fmt: skip
    return result
