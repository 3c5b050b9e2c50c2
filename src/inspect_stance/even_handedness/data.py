"""The packaged paired-prompts set (1,350 pairs, CC BY 4.0, see political_neutrality_NOTICE.txt),
its three grader prompts read verbatim, and the subset selection."""

from __future__ import annotations

import ast
import csv
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

from inspect_stance.errors import InputError

EVAL_SET = "political_neutrality_eval_set.csv"
PROMPTS = "political_neutrality_prompts.txt"
PROMPT_NAMES = ("EVEN_HANDEDNESS_PROMPT", "REFUSAL_PROMPT", "HEDGING_PROMPT")


@dataclass(frozen=True)
class Pair:
    """One row of the set: the same task asked for two opposite sides."""

    index: int
    main_category: str
    topic_name: str
    partisan: bool
    template_category: str
    template: str
    prompt_a: str
    prompt_b: str
    prompt_a_group: str
    prompt_b_group: str

    @property
    def sample_id(self) -> str:
        return f"{self.topic_name}-{self.index:04d}"


def _text(name: str) -> str:
    return resources.files("inspect_stance.data").joinpath(name).read_text(encoding="utf-8")


@lru_cache(maxsize=1)
def grader_prompts() -> dict[str, str]:
    """The three published grader prompts, read from the shipped copy of ``prompts.py``
    (parsed, never executed)."""
    tree = ast.parse(_text(PROMPTS))
    out: dict[str, str] = {}
    for node in tree.body:
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant):
            for t in node.targets:
                if isinstance(t, ast.Name) and t.id in PROMPT_NAMES:
                    out[t.id] = str(node.value.value)
    return out


@lru_cache(maxsize=1)
def load_pairs() -> tuple[Pair, ...]:
    """All pairs of the packaged set, in file order."""
    rows = list(csv.DictReader(_text(EVAL_SET).splitlines()))
    return tuple(
        Pair(
            index=i,
            main_category=r["main_category"],
            topic_name=r["topic_name"],
            partisan=r["partisan"].strip().lower() == "true",
            template_category=r["template_category"],
            template=r["template"],
            prompt_a=r["prompt_a"],
            prompt_b=r["prompt_b"],
            prompt_a_group=r["prompt_a_group"],
            prompt_b_group=r["prompt_b_group"],
        )
        for i, r in enumerate(rows)
    )


def _check(name: str, wanted: Sequence[str] | None, known: set[str]) -> None:
    if wanted is None:
        return
    bad = sorted(set(wanted) - known)
    if bad:
        shown = ", ".join(sorted(known)[:12])
        raise InputError(
            f"even_handedness: unknown {name} {', '.join(bad)}; choose from {shown}"
            f"{' ...' if len(known) > 12 else ''}"
        )


def select_pairs(
    categories: Sequence[str] | None = None,
    topics: Sequence[str] | None = None,
    template_categories: Sequence[str] | None = None,
    partisan: bool | None = None,
    limit: int | None = None,
) -> list[Pair]:
    """The pairs matching every given filter (None: no filter), the first ``limit`` of them; an
    unknown name, no matching pair or a ``limit`` above the matching pairs is a one-line
    ``InputError`` (a limit is never silently capped)."""
    pairs = load_pairs()
    _check("categories", categories, {p.main_category for p in pairs})
    _check("topics", topics, {p.topic_name for p in pairs})
    _check("template_categories", template_categories, {p.template_category for p in pairs})
    if limit is not None and limit < 1:
        raise InputError(f"even_handedness: limit must be >= 1, got {limit}; omit it for all")
    out = [
        p
        for p in pairs
        if (categories is None or p.main_category in categories)
        and (topics is None or p.topic_name in topics)
        and (template_categories is None or p.template_category in template_categories)
        and (partisan is None or p.partisan == partisan)
    ]
    if not out:
        raise InputError("even_handedness: no pair matches the filters; widen them")
    if limit is not None and limit > len(out):
        which = "the filters" if len(out) < len(pairs) else "the set"
        raise InputError(f"even_handedness: limit {limit:,} is more than the {len(out):,} pairs "
                         f"matching {which}; give at most {len(out):,} or omit it")  # fmt: skip
    return out[:limit] if limit is not None else out
