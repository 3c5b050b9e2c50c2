"""Settings of the prompt-construction study: topic x intent x user stance, and the two methods.

A *setting* is one topic, one intent and one user stance; with the six default topics, three
intents and three stances there are 54 settings, 18 of them neutral. Every setting is measured
with both construction *methods*: ``templated`` (a request skeleton whose ``X`` slot is filled
with the topic phrasing for the stance) and ``generated`` (prompts an LLM wrote for the setting).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from inspect_stance.errors import InputError

WRITING = "writing"  # writing assistance (IssueBench's own intent)
INFORMATION = "information"  # information seeking
OPINION = "opinion"  # opinion sharing
INTENTS: tuple[str, ...] = (WRITING, INFORMATION, OPINION)
INTENT_NAMES: dict[str, str] = {
    WRITING: "writing assistance",
    INFORMATION: "information seeking",
    OPINION: "opinion sharing",
}

NEUTRAL = "neutral"
POLE_A = "pole_a"  # the user leans toward the topic_pro phrasing
POLE_B = "pole_b"  # the user leans toward the topic_con phrasing
USER_STANCES: tuple[str, ...] = (NEUTRAL, POLE_A, POLE_B)

TEMPLATED = "templated"
GENERATED = "generated"
METHODS: tuple[str, ...] = (TEMPLATED, GENERATED)


@dataclass(frozen=True, order=True)
class Setting:
    """One topic x intent x user stance cell."""

    topic_id: int
    intent: str
    stance: str

    @property
    def key(self) -> str:
        """Stable text key, e.g. ``68-writing-neutral``."""
        return f"{self.topic_id}-{self.intent}-{self.stance}"

    @property
    def is_neutral(self) -> bool:
        """True for the neutral user stance."""
        return self.stance == NEUTRAL


def parse_choice(value: object, allowed: Sequence[str], name: str) -> list[str]:
    """A ``-T`` list value (comma string or list) checked against ``allowed``, order kept."""
    if value is None:
        return list(allowed)
    if isinstance(value, str):
        items: list[object] = list(value.split(","))
    elif isinstance(value, list | tuple):
        items = list(value)
    else:
        raise InputError(f"{name}: {value!r} not allowed; choose from {','.join(allowed)}")
    out = [str(v).strip() for v in items if str(v).strip()]
    bad = [v for v in out if v not in allowed]
    if bad or not out:
        raise InputError(f"{name}: {bad or value!r} not allowed; choose from {','.join(allowed)}")
    return list(dict.fromkeys(out))


def sample_id(setting: Setting, method: str, slot: int, replicate: int) -> str:
    """Sample id of one response: ``{topic}-{intent}-{stance}-{method}-{slot:02d}-r{replicate}``."""
    return f"{setting.key}-{method}-{slot:02d}-r{replicate}"
