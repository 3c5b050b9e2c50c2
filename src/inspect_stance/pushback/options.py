"""The ``pushback`` task's ``-T`` parameters, declared once and checked once
(:mod:`inspect_stance.task_options`); the docs' table and ``inspect-stance params pushback``
follow from :class:`PushbackOptions`."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import inspect_stance.pushback.defaults as D
from inspect_stance.drift.extraction import check_min_letter_mass
from inspect_stance.errors import InputError
from inspect_stance.shards import Shard, parse_shard
from inspect_stance.task_options import boolean, checked_values, integer, one_of, option


def _styles(name: str, value: object) -> tuple[str, ...]:
    """A comma-separated list (or a list) of styles; ``all``: every style."""
    if value in (None, "", "all"):
        return D.STYLES
    items = value if isinstance(value, list | tuple) else str(value).split(",")
    out = tuple(dict.fromkeys(str(v).strip() for v in items if str(v).strip()))
    bad = [s for s in out if s not in D.STYLES]
    if bad or not out:
        raise InputError(f"unknown {name} {bad[0] if bad else value!r}; use -T {name}=A,B with "
                         f"styles among {', '.join(D.STYLES)} (or all)")  # fmt: skip
    return out


def _stances(name: str, value: object) -> tuple[int, ...]:
    """Comma-separated stance indices 0..4 (0 Agree strongly .. 4 Disagree strongly)."""
    items = value if isinstance(value, list | tuple) else str(value).split(",")
    try:
        out = tuple(dict.fromkeys(int(str(v).strip()) for v in items if str(v).strip()))
    except ValueError:
        out = ()
    if not out or any(not 0 <= s <= 4 for s in out):
        raise InputError(f"{name} {value!r}; use stance indices 0..4 (0 Agree strongly, 4 "
                         f"Disagree strongly), e.g. -T {name}=1,3")  # fmt: skip
    return out


def _unit(name: str, value: object) -> float:  # noqa: ARG001 - the drift check names it
    return check_min_letter_mass(value)


@dataclass(frozen=True)
class PushbackOptions:
    """The checked parameters of one ``pushback`` run (declared once, below)."""

    propositions: str | None = option(
        None,
        "the propositions: unset, the shipped debate propositions; press, the PReSS "
        "statements; or a .txt/.csv/.tsv/.jsonl file (one proposition a line or row).",
    )
    limit_propositions: int | None = option(
        None, "use the first N propositions only.", check=integer(example=10, optional=True)
    )
    start: D.Start = option(
        D.START,
        "assigned: the target defends a stance it is given (-T stances); own: the "
        "target states its own stance.",
        check=one_of(("assigned", "own")),
    )
    stances: tuple[int, ...] = option(
        D.STANCES,
        "the stances assigned with start=assigned, as indices 0..4 (0 Agree "
        "strongly .. 4 Disagree strongly).",
        check=_stances,
    )
    styles: tuple[str, ...] = option(
        D.STYLES,
        f"comma-separated pushback styles among {', '.join(D.STYLES)} (or all).",
        check=_styles,
    )
    control: bool = option(
        D.CONTROL_ON,
        "add the no-pushback control: the same conversation with a neutral follow-up turn.",
        check=boolean,
    )
    framing: D.Framing = option(
        D.FRAMING,
        "direct, or third_person: the target speaks for an impartial analyst (the "
        "third-person mitigation).",
        check=one_of(D.FRAMINGS),
    )
    turns: int = option(
        D.TURNS, "K, the user turns after the opening statement.", check=integer(example=D.TURNS)
    )
    trials: int = option(
        D.TRIALS, "conversations per proposition, stance and style.", check=integer(example=3)
    )
    words_limit: int = option(
        D.WORDS_LIMIT, "the opening statement's word limit.", check=integer(example=D.WORDS_LIMIT)
    )
    reader: D.Reader = option(
        D.READER,
        "who reads each reply's stance in a fresh context: target (itself) or judge "
        "(--model-role judge=MODEL).",
        check=one_of(("target", "judge")),
    )
    logprobs: bool = option(
        D.LOGPROBS,
        "ask the reader for token logprobs (the text answer is used without them).",
        check=boolean,
    )
    min_letter_mass: float = option(
        D.MIN_LETTER_MASS,
        "the least letter mass for the logprob estimate (as stance_drift).",
        check=_unit,
    )
    extraction_temperature: float = option(
        D.EXTRACTION_TEMPERATURE, "the reader's temperature.", check=None
    )
    seed: int = option(D.SEED, "the seed of the sample order.", check=integer(minimum=0, example=1))
    shard: Shard | None = option(
        None,
        'run only shard K of N of the propositions ("K/N", e.g. 1/4), split by content hash '
        "after limit_propositions, every conversation of a proposition in its shard; the log "
        "records K, N and the study's fingerprint so that the shards' logs pool into one run.",
        check=lambda _, v: parse_shard(v),
    )

    @classmethod
    def parse(cls, **raw: object) -> PushbackOptions:
        """Check every option once; the first bad one raises a one-line error."""
        values = checked_values(cls, raw)
        try:
            values["extraction_temperature"] = float(values["extraction_temperature"])
        except (TypeError, ValueError):
            raise InputError(f"extraction_temperature {raw.get('extraction_temperature')!r} "
                             "is not a number; e.g. -T extraction_temperature=0") from None  # fmt: skip
        return cls(**values)

    def conditions(self) -> tuple[str, ...]:
        """The styles run, then the control when asked."""
        return (*self.styles, D.CONTROL) if self.control else self.styles

    def metadata(self, **more: Any) -> dict[str, Any]:
        """The task metadata the reports and compare read."""
        return {"turns": self.turns, "trials": self.trials, "start": self.start, "framing": self.framing,
                "styles": list(self.styles), "control": self.control, "reader": self.reader,
                "stances": list(self.stances), **more}  # fmt: skip
