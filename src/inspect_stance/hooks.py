"""Inspect hooks of the package: what a finished run must say on the console.

:class:`ReplayNotice` warns, at the end of every task, how many trials were replayed from the
stance-drift trial record instead of calling the model (the header's ``trials_replayed``
metric): a record cannot see a model updated behind the same name and URL, so a run that
replayed one says so.

:class:`CompactSummary` prints, at the end of the run (after Inspect's results panel), the
compact line of every task of the package it ran
(:func:`inspect_stance.console_summary.summary_line`: headline, interval, direction, counts).
"""

from __future__ import annotations

import logging
import sys
from collections.abc import Mapping
from typing import Any

from inspect_ai.hooks import Hooks, RunEnd, SampleEnd, TaskEnd, hooks

from inspect_stance.console_summary import log_metrics, summary_line

logger = logging.getLogger(__name__)

REPLAYED_METRIC = "trials_replayed"


def replay_notice(log: object, since: str | None = None) -> str | None:
    """The console line for a finished log whose header counts replayed trials, or None.

    ``<task>: N of M trials were replayed from the trial record (recorded from <since>; no
    model call; the record cannot see a model changed behind the same name): -T cache=false
    calls the model afresh``; ``since``: the oldest replayed trial's record time.
    """
    results = getattr(log, "results", None)
    if results is None:
        return None
    for score in results.scores:
        replayed = score.metrics.get(REPLAYED_METRIC)
        if replayed is None or not replayed.value:
            continue
        trials = score.metrics.get("trials")
        total = f" of {int(trials.value)}" if trials is not None else ""
        task = getattr(getattr(log, "eval", None), "task", "task")
        return (
            f"{task}: {int(replayed.value)}{total} trials were replayed from the trial record "
            f"({f'recorded from {since}; ' if since else ''}no model call; the record cannot "
            "see a model changed behind the same name): "
            "-T cache=false calls the model afresh"
        )
    return None


_registered = False


def ensure_replay_notice() -> None:
    """Register :class:`ReplayNotice` with Inspect (once per process).

    Called by the solver when a sample replays its first trial, i.e. after Inspect started the
    eval: a hook registered at import would make Inspect print a "hooks enabled" banner on
    every run, and Inspect reads its hooks again at each event, so the task-end event reaches
    a hook registered mid-run.
    """
    global _registered
    if _registered:
        return
    _registered = True
    hooks(name="inspect_stance_replay_notice", description="Warn when trials were replayed.")(
        ReplayNotice
    )


def replayed_since(store: Mapping[str, Any]) -> str | None:
    """The oldest ``recorded_at`` of a sample store's replayed trials (ISO times sort as
    text), or None."""
    times = [str(r["recorded_at"]) for r in store.get("trials") or [] if r.get("recorded_at")]
    return min(times, default=None)


class ReplayNotice(Hooks):
    """Warns once per task whose log counts trials replayed from the trial record, with the
    oldest record time of its replayed trials (gathered as samples end)."""

    def __init__(self) -> None:
        self.since: dict[str, str] = {}

    async def on_sample_end(self, data: SampleEnd) -> None:
        """Keep the oldest record time of the sample's replayed trials, per task run."""
        since = replayed_since(data.sample.store or {})
        if since and (data.eval_id not in self.since or since < self.since[data.eval_id]):
            self.since[data.eval_id] = since

    async def on_task_end(self, data: TaskEnd) -> None:
        """Log the :func:`replay_notice` line as a warning (nothing when none was replayed);
        under ``--display none`` Inspect's console is silent, so the line goes to stderr."""
        line = replay_notice(data.log, self.since.pop(data.eval_id, None))
        if not line:
            return
        from inspect_ai.util import display_type

        if display_type() == "none":  # Inspect prints nothing then, not even warnings
            print(f"WARNING {line}", file=sys.stderr, flush=True)
        else:
            logger.warning(line)


class CompactSummary(Hooks):
    """Prints the compact end-of-run line of each finished task of the package once the run
    ends (``on_run_end``), i.e. after Inspect's results panel, so it is the last thing the
    run prints."""

    async def on_run_end(self, data: RunEnd) -> None:
        """Print :func:`~inspect_stance.console_summary.summary_line` of each of the run's logs
        to stderr (nothing for other packages' tasks, for a run that raised, and nothing
        under ``--display none``, which asks for silence: the headline is in the log for
        ``gate`` and ``evals_df``). The ``rich``, ``plain``, ``conversation`` and ``log``
        displays have printed their panel by now. The full-screen display (``full``, the
        default on a terminal) keeps what is printed while it runs and shows it above its
        panel, which it prints as the run returns: under the ``inspect eval`` command the
        lines wait for the process to exit (:func:`print_at_exit`), after the panel."""
        from inspect_ai.util import display_type

        shown = display_type()
        if shown == "none" or data.exception is not None:
            return
        lines = [line for log in data.logs if (line := summary_line(*log_metrics(log)))]
        if shown == "full" and _inspect_eval_command(sys.argv):
            print_at_exit(lines)
            return
        _print_lines(lines)


def _print_lines(lines: list[str]) -> None:
    """Print ``lines`` to stderr on lines of their own: Inspect's panel ends in a line of
    spaces with no newline, which a terminal wraps but a file or CI log would continue."""
    if lines and not sys.stdout.isatty():
        print(file=sys.stdout, flush=True)
    for line in lines:
        print(line, file=sys.stderr, flush=True)


def _inspect_eval_command(argv: list[str]) -> bool:
    """Whether this process is Inspect's ``eval``/``eval-set`` command (the commands
    :data:`inspect_stance.inspect_cli.EVAL_COMMANDS` names; not imported: ``inspect_cli``
    imports this module)."""
    return any(arg in ("eval", "eval-set") for arg in argv[1:3])


_at_exit: list[str] = []


def print_at_exit(lines: list[str]) -> None:
    """Print ``lines`` to stderr when the process exits (after everything Inspect prints)."""
    if not _at_exit and lines:
        import atexit

        atexit.register(lambda: _print_lines(_at_exit))
    _at_exit.extend(lines)


_summary_registered = False


def ensure_compact_summary() -> None:
    """Register :class:`CompactSummary` with Inspect (once per process; called when one of
    the package's tasks is created)."""
    global _summary_registered
    if _summary_registered:
        return
    _summary_registered = True
    hooks(name="inspect_stance_compact_summary", description="One line per task: headline, "
          "interval, direction, counts.")(CompactSummary)  # fmt: skip
