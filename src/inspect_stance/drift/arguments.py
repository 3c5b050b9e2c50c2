"""Reuse the arguments of an earlier stance-drift run (``-T arguments_from=LOG``)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from inspect_stance.drift.prompts import EXTRACTION_ONLY_VARIANTS
from inspect_stance.errors import InputError


def arguments_from_log(
    path: Path,
    samples: Sequence[tuple[str, str, int]],
    trials: int,
    words_limit: int,
) -> dict[str, list[str]]:
    """Arguments of an earlier ``stance_drift`` log for ``samples`` = (sample id, proposition
    text, initial stance), ``trials`` per sample, keyed by sample id.

    Trials are matched by proposition text, initial stance and trial index. The source log must
    come from a variant with the default generation prompt and the same ``words_limit``, and
    cover every requested trial; otherwise a one-line ``InputError`` (a ``ValueError``).
    """
    from inspect_stance.drift.logs import read_arguments

    source = read_arguments(path)
    if source.variant not in EXTRACTION_ONLY_VARIANTS:
        raise InputError(
            f"arguments_from log {path} is a {source.variant!r} run, whose arguments come from "
            f"another generation prompt; use a log of {', '.join(EXTRACTION_ONLY_VARIANTS)}"
        )
    if source.words_limit != words_limit:
        raise InputError(
            f"arguments_from log {path} used words_limit={source.words_limit}, this run "
            f"{words_limit}; pass -T words_limit={source.words_limit}"
        )
    out: dict[str, list[str]] = {}
    missing: list[str] = []
    for sid, proposition, stance in samples:
        by_trial = source.arguments.get((proposition, stance), {})
        args = [by_trial.get(t) for t in range(trials)]
        if any(a is None for a in args):
            missing.append(f"{proposition!r} / stance {stance}")
            continue
        out[sid] = [str(a) for a in args]
    if missing:
        raise InputError(
            f"arguments_from log {path} does not cover {len(missing)} of {len(samples)} "
            f"(proposition, stance) samples with {trials} trials (first: {missing[0]}); use a "
            "log of the same propositions with at least as many trials"
        )
    return out
