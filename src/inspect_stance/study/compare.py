"""The shared steps of ``compare`` for every method (:class:`~.protocol.Comparer`).

Given a method and a :class:`~.protocol.CompareRequest`: pick the metrics named among the
method's (all when none), read the runs with the method's loader, count a repeated run once
(:func:`inspect_stance.runs.dedupe`), need two different runs, name them
(:func:`inspect_stance.runs.run_names`), check that their settings match
(:func:`inspect_stance.runs.check_settings`, unless ``allow_different_settings``), then ask the
method for the comparison and its own sections (:attr:`~.protocol.Comparer.sections`); a
``ValueError`` from either is unusable input (one line).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from inspect_stance.errors import InputError
from inspect_stance.runs import check_settings, dedupe, parse_labels, run_names
from inspect_stance.stats.family import select_specs
from inspect_stance.study.protocol import CompareRequest, CompareSection, Method

if TYPE_CHECKING:
    from inspect_stance.stats.family import CompareResult


def compare_runs(
    method: Method, request: CompareRequest
) -> tuple[CompareResult, list[CompareSection], list[str]]:
    """The comparison of ``request``'s runs by ``method`` (module docstring), the method's own
    sections of it, and the lines about its inputs (runs passed over or counted once; also among
    the result's notes)."""

    if method.comparer is None:
        raise InputError(f"compare does not read {method.label} runs yet")
    hooks = method.comparer
    try:
        metrics = select_specs(hooks.metrics(), request.metric, method.label)
    except ValueError as ex:
        raise InputError(str(ex)) from ex
    labels = parse_labels(request.label)
    try:
        loaded = hooks.load(request.paths, request)
    except ValueError as ex:
        raise InputError(str(ex)) from ex
    keep, dropped = dedupe(loaded.infos)
    lines = [x for x in (*loaded.skipped, dropped) if x]
    runs, infos = [loaded.runs[k] for k in keep], [loaded.infos[k] for k in keep]
    if len(runs) < 2:
        raise InputError(f"compare needs at least two different runs (got {len(runs)})"
                         + "".join(f"; {x}" for x in lines))  # fmt: skip
    names, name_notes = run_names(infos, labels)
    notes = check_settings(infos, names, request.allow_different_settings)
    try:
        result = hooks.compare(runs, names, metrics, request)
        sections = hooks.sections(runs, names, request) if hooks.sections else []
    except ValueError as ex:
        raise InputError(str(ex)) from ex
    result.notes += name_notes + notes + lines
    return result, sections, lines
