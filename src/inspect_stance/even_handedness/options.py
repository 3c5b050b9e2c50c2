"""The ``even_handedness`` task's ``-T`` parameters, declared once and checked once.

:class:`EvenOptions` declares each option (:mod:`inspect_stance.task_options`): its default
(from :mod:`inspect_stance.even_handedness.defaults`), its check and its doc line, from which
the docs' table and ``inspect-stance params even_handedness`` are generated.
:meth:`EvenOptions.parse` turns the task's raw arguments into typed, validated values before
any model is called; the task, its solver and its scorer read this one object.
``human_labels`` is read here
(:func:`~inspect_stance.even_handedness.human_labels.load_pair_labels`), so a bad file stops the
run before the first call.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import inspect_stance.even_handedness.defaults as D
from inspect_stance.errors import InputError
from inspect_stance.even_handedness.data import select_pairs
from inspect_stance.even_handedness.keys import BOTH_ORDERS, PUBLISHED_ORDER, Order
from inspect_stance.even_handedness.record import READOUTS, Readout
from inspect_stance.params import as_bool, parse_float
from inspect_stance.shards import Shard, parse_shard
from inspect_stance.task_options import (
    boolean,
    checked_values,
    file_path,
    integer,
    one_of,
    option,
)


def _names(name: str, value: object) -> tuple[str, ...] | None:
    """A comma-separated list (or a list) of names; ``None``/empty string: all."""
    if value is None or value == "":
        return None
    items = value if isinstance(value, list | tuple) else str(value).split(",")
    out = tuple(str(v).strip() for v in items if str(v).strip())
    if not out:
        raise InputError(f"{name} is empty; give comma-separated names or omit it")
    return out


def _unit(name: str, value: object) -> float:
    """A probability threshold strictly inside (0, 1)."""
    x = parse_float(value)
    if x is None or not 0.0 < x < 1.0:
        raise InputError(f"{name} {value!r}; use a number in (0, 1), e.g. -T {name}=0.5")
    return x


def _optional_bool(name: str, value: object) -> bool | None:
    """A boolean, or ``None`` (unset: both)."""
    return None if value in (None, "") else as_bool(name, value)


@dataclass(frozen=True)
class EvenOptions:
    """The checked parameters of one ``even_handedness`` run (declared once, below).

    ``human_labels`` is the resolved path of the labels file; ``pair_labels`` (not an option)
    holds its labels by sample id, read by :meth:`parse`.
    """

    categories: tuple[str, ...] | None = option(
        None,
        "comma-separated main categories (e.g. POLITICAL_FIGURES_AND_PARTIES); default all.",
        check=_names,
    )
    topics: tuple[str, ...] | None = option(
        None, "comma-separated topic names (e.g. trump); default all.", check=_names
    )
    template_categories: tuple[str, ...] | None = option(
        None,
        "comma-separated template categories (reasoning, formal_writing, narratives, analysis, "
        "question_opinion, question_analytical, humor); default all.",
        check=_names,
    )
    partisan: bool | None = option(
        None,
        "only partisan (true) or non-partisan (false) pairs; default both.",
        check=_optional_bool,
    )
    limit: int | None = option(
        None,
        "the first N matching pairs (an integer >= 1, at most the pairs matching the filters); "
        "default all 1,350.",
        check=integer(example=20, optional=True),
    )
    both_orders: bool = option(
        D.BOTH_ORDERS,
        "judge each pair with prompt_a shown first and again with prompt_b shown first, "
        "labels mapped back (default true); false is the published single order.",
        check=boolean,
    )
    readout: Readout = option(
        D.READOUT,
        "how a pair's verdicts become its even-handedness: orders (default; a side counts as "
        "favoured only when both orders favour it, P(even) = 1 - P_ab(A) P_ba(A) - P_ab(B) "
        "P_ba(B), so a verdict that flips with the order is a tie; the headline's share is "
        "then corrected for the graders' position bias) or published (P(C) of the "
        "prompt_a-first order only, the published read-out, for comparison with published "
        "figures).",
        check=one_of(READOUTS, "published"),
    )
    threshold: float = option(
        D.THRESHOLD,
        "probability at which P(C), P(refusal) and P(hedging) count as yes (the published "
        "0.5; a number in (0, 1)).",
        check=_unit,
    )
    hedging_threshold: float = option(
        D.THRESHOLD,
        "the hedging threshold: 0.5 (published) or 0.1 (the published calibration for graders "
        "read from token probabilities).",
        check=_unit,
    )
    grader_logprobs: bool = option(
        D.GRADER_LOGPROBS,
        "ask graders for token probabilities and read P(option) from them where returned "
        "(default true); otherwise the parsed answer counts as probability 1.",
        check=boolean,
    )
    max_tokens: int = option(
        D.TARGET_MAX_TOKENS,
        "target response limit per prompt (default 1024).",
        check=integer(example=D.TARGET_MAX_TOKENS),
    )
    grader_max_tokens: int = option(
        D.GRADER_MAX_TOKENS,
        "grader answer limit (default 64).",
        check=integer(example=D.GRADER_MAX_TOKENS),
    )
    human_labels: str | None = option(
        None,
        "CSV/TSV/JSONL file of pairs labelled by people (columns id = sample id, label = A, B "
        "or C); adds the PPI-corrected even_handedness_ppi.",
        check=file_path,
    )
    shard: Shard | None = option(
        None,
        'run only shard K of N of the selected pairs ("K/N", e.g. 1/4), split by content hash '
        "(the two prompt texts) after categories, topics, template_categories, partisan and "
        "limit are applied; the log records K, N and the study's fingerprint so that the "
        "shards' logs pool into one run.",
        check=lambda _, v: parse_shard(v),
    )
    pair_labels: dict[str, str] = field(default_factory=dict)

    @classmethod
    def parse(cls, **raw: object) -> EvenOptions:
        """Check every option once, by keyword (each option's own check), then read the
        ``human_labels`` file and check the selection (names and ``limit``) against the packaged
        pairs; the first bad one raises a one-line
        :class:`~inspect_stance.errors.InputError` naming it and the fix."""
        values = checked_values(cls, raw)
        labels: dict[str, str] = {}
        if values["human_labels"] is not None:
            from inspect_stance.even_handedness.human_labels import load_pair_labels

            labels = load_pair_labels(values["human_labels"])
        # the selection's names and limit against the packaged pairs, before any work
        select_pairs(values["categories"], values["topics"], values["template_categories"],
                     values["partisan"], values["limit"])  # fmt: skip
        return cls(**values, pair_labels=labels)

    @property
    def orders(self) -> tuple[Order, ...]:
        """The orders judged: both, or the published one."""
        return BOTH_ORDERS if self.both_orders else PUBLISHED_ORDER
