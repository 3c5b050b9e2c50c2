"""The most a user may ask of each size a task argument sets, declared once: ``inspect eval
-T``, study files and shard jobs refuse a larger value in one line before any work, and
``inspect-stance params`` and the docs' parameter tables state each bound.

A bound is the items a task has (``limit_propositions``, ``limit``) or a size beyond which a
run's calls would be unbounded in practice (trials, hops, turns, samples per statement, ...).
"""

from __future__ import annotations

from inspect_stance.errors import InputError

#: per task argument: its most value and what it counts
MAX_SIZES: dict[str, tuple[int, str]] = {
    "trials": (10_000, "trials per proposition and stance"),
    "hops": (100, "hops of a chain (each a model call per trial)"),
    "turns": (20, "user turns of disagreement per conversation"),
    "limit_propositions": (112, "propositions the task has"),
    "limit": (1_350, "pairs the task has"),
    "argument_sets": (100, "argument sets per statement"),
    "entropy_samples": (1_000, "samples per statement"),
    "factor_samples": (1_000, "samples per statement"),
    "templates_per_setting": (1_000, "templated prompts per setting"),
    "prompts_per_setting": (1_000, "generated prompts per setting"),
    "responses_per_prompt": (100, "responses per prompt"),
    "seeds_per_setting": (100, "seed prompts per setting"),
    "per_source": (1_000, "prompts per source and setting"),
    "real_limit": (100_000, "real prompts read"),
    "words_limit": (100_000, "words per response"),
}
#: arguments whose bound is the items of the task's own data: with the argument naming another
#: data file the bound is the file's, checked by the task
DATA_FILE_OF: dict[str, str] = {"limit_propositions": "propositions"}


def check_size(name: str, value: object, given: dict[str, object] | None = None) -> None:
    """``value`` of the size ``name`` at most its :data:`MAX_SIZES` bound (a one-line
    ``InputError`` otherwise); other names, non-integers and a size whose data file is given
    (``given[DATA_FILE_OF[name]]``: the bound is that file's, checked by the task) pass."""

    if name not in MAX_SIZES or isinstance(value, bool) or not isinstance(value, int):
        return
    if DATA_FILE_OF.get(name) and (given or {}).get(DATA_FILE_OF[name]):
        return
    most, what = MAX_SIZES[name]
    if value > most:
        raise InputError(f"-T {name}={value:,} is more than {most:,} ({what}); give at most "
                         f"{most:,}")  # fmt: skip
