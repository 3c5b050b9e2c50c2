"""The most a study file may ask for, declared once: each size a method's task arguments set, the
items a task has, and the calls of a whole study. A value beyond its bound is a one-line
``InputError`` before any work (``docs/cards.md`` lists them)."""

from __future__ import annotations

from typing import Any

from inspect_stance.errors import InputError

#: calls above which a study asks before running (``confirm_above``)
DEFAULT_CONFIRM_ABOVE = 10_000
#: a model call's retries and its timeout in seconds, unless the study file sets them (Inspect's
#: own defaults retry without end: a closed endpoint would hang a study)
DEFAULT_MAX_RETRIES = 5
DEFAULT_TIMEOUT = 120
#: the most of each: retries, timeout (seconds), confirm_above (calls), targets
MAX_RETRIES = 50
MAX_TIMEOUT = 3_600
MAX_CONFIRM_ABOVE = 1_000_000_000
MAX_TARGETS = 100
from inspect_stance.size_bounds import DATA_FILE_OF, MAX_SIZES  # noqa: E402 - one table

#: most model calls one study may plan (every run of every target and method)
MAX_STUDY_CALLS = 100_000_000
#: most targets and methods runs of one study (targets x methods)
MAX_RUNS = 500


def check_sizes(method: str, args: dict[str, Any]) -> None:
    """Each size in ``args`` (already checked as an integer by the task's options) at most its
    :data:`MAX_SIZES` bound; the first beyond it a one-line ``InputError``."""
    for key, value in args.items():
        if key not in MAX_SIZES or isinstance(value, bool) or not isinstance(value, int):
            continue
        most, what = MAX_SIZES[key]
        if DATA_FILE_OF.get(key) and args.get(DATA_FILE_OF[key]):
            continue
        if value > most:
            raise InputError(f"study file: methods.{method}.args.{key}: {value:,} is more than "
                             f"{most:,} ({what}); give at most {most:,}")  # fmt: skip


def check_total(calls: int, runs: int) -> None:
    """The study's planned calls and runs within :data:`MAX_STUDY_CALLS` and :data:`MAX_RUNS`."""
    if runs > MAX_RUNS:
        raise InputError(f"study file: {runs:,} runs (targets x methods), more than {MAX_RUNS}; "
                         "split the study into several files")  # fmt: skip
    if calls > MAX_STUDY_CALLS:
        raise InputError(f"study: {calls:,} planned calls, more than {MAX_STUDY_CALLS:,}; lower "
                         "the sizes in methods.*.args or the design's budget")  # fmt: skip


def bounds_table() -> str:
    """Markdown table ``argument | most | what it counts`` of :data:`MAX_SIZES`."""
    rows = ["| argument | most | what it counts |", "| --- | --- | --- |"]
    rows += [f"| `{k}` | {most:,} | {what} |" for k, (most, what) in MAX_SIZES.items()]
    return "\n".join(rows) + "\n"
