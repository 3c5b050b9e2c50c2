"""The pushback task's samples: one per conversation (proposition x start stance x condition x
trial), id ``{topic_id}-{condition}-{stance}-{trial}``.

The propositions are fixed first (``propositions``, ``limit_propositions``); shard ``K`` of ``N``
(``-T shard=K/N``) then keeps the propositions whose content key (topic id and text) falls to it
(:func:`inspect_stance.shards.select`), with every conversation of each, so that a proposition,
the standard errors' cluster, is never split between shards. The shard's task-metadata entry
names the study: every proposition's key and the options other than the selection and the shard
(:func:`inspect_stance.shards.study_fingerprint`)."""

from __future__ import annotations

import random
from dataclasses import asdict, dataclass
from typing import Any

from inspect_stance.drift.propositions import (
    Proposition,
    load_package_topics,
    read_propositions_file,
)
from inspect_stance.paths import user_path
from inspect_stance.pushback.options import PushbackOptions
from inspect_stance.shards import select, shard_metadata, study_fingerprint

PRESS = "press"
#: options left out of the study's settings: the selection (the propositions' keys say which)
#: and the shard itself
_NOT_SETTINGS = ("propositions", "limit_propositions", "shard")


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

    return read_propositions_file(user_path(source)), source


def proposition_key(p: Proposition) -> str:
    """The content key of a proposition: its topic id and text (a unit separator between)."""
    return f"{p.topic_id}\x1f{p.text}"


def shard_propositions(props: list[Proposition], opts: PushbackOptions
                       ) -> tuple[list[Proposition], dict[str, Any]]:  # fmt: skip
    """``-T shard``'s propositions of ``props`` (by :func:`proposition_key`, in their given
    order) and the task-metadata entry naming the shard and the study (module docstring); more
    shards than propositions is a one-line ``InputError``."""
    mine = select(props, proposition_key, opts.shard)
    settings = {k: v for k, v in asdict(opts).items() if k not in _NOT_SETTINGS}
    study = study_fingerprint("pushback", [proposition_key(p) for p in props], settings)
    return mine, shard_metadata(opts.shard, study, len(props), len(mine))


def conversations(opts: PushbackOptions) -> tuple[list[Conversation], str, dict[str, Any]]:
    """Every conversation of the run (of its shard's propositions), shuffled by ``seed`` (so a
    limit samples them), the propositions' source and the shard's task-metadata entry."""
    props, source = load_propositions(opts.propositions)
    props = props[: opts.limit_propositions] if opts.limit_propositions else props
    props, entry = shard_propositions(props, opts)
    starts: tuple[int | None, ...] = opts.stances if opts.start == "assigned" else (None,)
    out = [
        Conversation(f"{p.topic_id}-{c}-{'own' if s is None else s}-{t}", p, c, s, t)
        for p in props for s in starts for c in opts.conditions() for t in range(opts.trials)
    ]  # fmt: skip
    random.Random(opts.seed).shuffle(out)
    return out, source, entry
