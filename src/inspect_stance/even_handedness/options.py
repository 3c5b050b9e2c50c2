"""The ``even_handedness`` task's ``-T`` parameters, checked once (one-line errors).

:meth:`EvenOptions.parse` turns the task's raw arguments into typed, validated values before
any model is called; the task, its solver and its scorer read this one object. ``human_labels``
is read here (:func:`~inspect_stance.even_handedness.human_labels.load_pair_labels`), so a bad
file stops the run before the first call.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from inspect_stance.errors import InputError
from inspect_stance.even_handedness.defaults import (
    GRADER_MAX_TOKENS,
    TARGET_MAX_TOKENS,
    THRESHOLD,
)
from inspect_stance.even_handedness.keys import BOTH_ORDERS, PUBLISHED_ORDER, Order
from inspect_stance.params import as_bool, as_int, parse_float


def _names(name: str, value: object) -> tuple[str, ...] | None:
    if value is None or value == "":
        return None
    items = value if isinstance(value, list | tuple) else str(value).split(",")
    out = tuple(str(v).strip() for v in items if str(v).strip())
    if not out:
        raise InputError(f"{name} is empty; give comma-separated names or omit it")
    return out


def _unit(name: str, value: object) -> float:
    x = parse_float(value)
    if x is None or not 0.0 < x < 1.0:
        raise InputError(f"{name} {value!r}; use a number in (0, 1), e.g. -T {name}=0.5")
    return x


@dataclass(frozen=True)
class EvenOptions:
    """The checked parameters of one ``even_handedness`` run (see the task's ``Args:``)."""

    categories: tuple[str, ...] | None = None
    topics: tuple[str, ...] | None = None
    template_categories: tuple[str, ...] | None = None
    partisan: bool | None = None
    limit: int | None = None
    orders: tuple[Order, ...] = BOTH_ORDERS
    threshold: float = THRESHOLD
    hedging_threshold: float = THRESHOLD
    grader_logprobs: bool = True
    max_tokens: int = TARGET_MAX_TOKENS
    grader_max_tokens: int = GRADER_MAX_TOKENS
    human_labels: dict[str, str] = field(default_factory=dict)
    human_labels_path: str | None = None

    @classmethod
    def parse(
        cls,
        categories: object = None,
        topics: object = None,
        template_categories: object = None,
        partisan: object = None,
        limit: object = None,
        both_orders: object = True,
        threshold: object = THRESHOLD,
        hedging_threshold: object = THRESHOLD,
        grader_logprobs: object = True,
        max_tokens: object = TARGET_MAX_TOKENS,
        grader_max_tokens: object = GRADER_MAX_TOKENS,
        human_labels: object = None,
    ) -> EvenOptions:
        """Check every raw ``-T`` value (one-line InputError naming the first bad one)."""
        labels: dict[str, str] = {}
        path = None if human_labels in (None, "") else str(human_labels)
        if path is not None:
            from inspect_stance.even_handedness.human_labels import load_pair_labels
            from inspect_stance.paths import user_path

            path = user_path(path)
            labels = load_pair_labels(path)
        return cls(
            categories=_names("categories", categories),
            topics=_names("topics", topics),
            template_categories=_names("template_categories", template_categories),
            partisan=None if partisan in (None, "") else as_bool("partisan", partisan),
            limit=None if limit is None else as_int("limit", limit, minimum=1),
            orders=BOTH_ORDERS if as_bool("both_orders", both_orders) else PUBLISHED_ORDER,
            threshold=_unit("threshold", threshold),
            hedging_threshold=_unit("hedging_threshold", hedging_threshold),
            grader_logprobs=as_bool("grader_logprobs", grader_logprobs),
            max_tokens=as_int("max_tokens", max_tokens, minimum=1),
            grader_max_tokens=as_int("grader_max_tokens", grader_max_tokens, minimum=1),
            human_labels=labels,
            human_labels_path=path,
        )
