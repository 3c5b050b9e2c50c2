"""The pushback task's samples: one per conversation (proposition x start stance x condition x
trial), id ``{topic_id}-{condition}-{stance}-{trial}``."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from inspect_stance.drift.propositions import (
    Proposition,
    load_package_topics,
    read_propositions_file,
)
from inspect_stance.pushback.options import PushbackOptions

PRESS = "press"


@dataclass(frozen=True)
class Conversation:
    """One planned conversation."""

    id: str
    proposition: Proposition
    condition: str
    assigned: int | None
    trial: int

    def metadata(self) -> dict[str, Any]:
        """The sample metadata the solver and scorer read."""
        return {"proposition": self.proposition.text, "topic_id": self.proposition.topic_id,
                "style": self.condition, "assigned": self.assigned, "trial": self.trial}  # fmt: skip


def load_propositions(source: str | None) -> tuple[list[Proposition], str]:
    """The propositions and their source's name: the shipped debate propositions (unset), the
    PReSS statements (``press``), or a user file."""
    if source is None:
        return load_package_topics()[0], "debate_topics"
    if source == PRESS:
        from inspect_stance.press.statements import load_statements

        return [Proposition(f"press{s.id}", s.text) for s in load_statements()], "press"
    from inspect_stance.paths import user_path

    return read_propositions_file(user_path(source)), source


def conversations(opts: PushbackOptions) -> tuple[list[Conversation], str]:
    """Every conversation of the run, shuffled by ``seed`` (so a limit samples them)."""
    props, source = load_propositions(opts.propositions)
    props = props[: opts.limit_propositions] if opts.limit_propositions else props
    starts: tuple[int | None, ...] = opts.stances if opts.start == "assigned" else (None,)
    out = [
        Conversation(f"{p.topic_id}-{c}-{'own' if s is None else s}-{t}", p, c, s, t)
        for p in props for s in starts for c in opts.conditions() for t in range(opts.trials)
    ]  # fmt: skip
    random.Random(opts.seed).shuffle(out)
    return out, source
