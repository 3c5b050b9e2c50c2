"""The ``stance_drift`` task's dataset: its propositions, Inspect samples and reused arguments.

One sample per (proposition, initial stance); :func:`load_dataset` reads the propositions
(``-T propositions``, ``limit_propositions``) and the arguments of ``-T arguments_from`` named
by :class:`~inspect_stance.drift.options.DriftOptions`.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from inspect_ai.dataset import Sample

from inspect_stance.drift.arguments import arguments_from_log
from inspect_stance.drift.options import DriftOptions
from inspect_stance.drift.prompts import EXEMPLAR_PROPOSITIONS
from inspect_stance.drift.propositions import (
    HUB,
    Proposition,
    load_debate_topics,
    load_package_topics,
    read_propositions_file,
)
from inspect_stance.errors import InputError
from inspect_stance.paths import user_path
from inspect_stance.shards import select, shard_metadata, study_fingerprint
from inspect_stance.stances import N_STANCES, STANCE_KEYS, STANCES


def sample_id(prop: Proposition, stance: int) -> str:
    """Sample id of a (proposition, initial stance) pair: ``<content key>-<stance key>``, e.g.
    ``3f2a1c9d-agree_strongly``; the key is a hash of the proposition's text
    (:func:`~inspect_stance.drift.propositions.proposition_key`), not its position."""
    return f"{prop.key}-{STANCE_KEYS[stance]}"


def sample_input(prop: Proposition, stance: int) -> str:
    """The short line ``inspect view`` lists for a sample: ``<proposition> — <stance label>``
    (the verbatim prompts are built by the solver and shown in the transcript)."""
    return f"{prop.text} — {STANCES[stance]}"


def build_samples(propositions: list[Proposition], variant: str) -> list[Sample]:
    """One sample per proposition x initial stance."""
    samples = []
    for k, prop in enumerate(propositions):
        for stance in range(N_STANCES):
            samples.append(
                Sample(
                    id=sample_id(prop, stance),
                    input=sample_input(prop, stance),
                    target=STANCE_KEYS[stance],
                    metadata={
                        "proposition": prop.text,
                        "topic_id": prop.topic_id,
                        "proposition_key": prop.key,
                        "proposition_index": k,
                        "initial_stance": stance,
                        "initial_stance_label": STANCES[stance],
                        "variant": variant,
                    },
                )
            )
    return samples


def load_propositions(propositions: str | None) -> tuple[list[Proposition], str]:
    """The propositions and a description of their source."""
    if propositions is None or str(propositions).strip() == "":
        evaluated, _ = load_package_topics()
        return evaluated, "package data debate_topics.tsv (112 evaluation topics)"
    if str(propositions).strip().lower() == HUB:
        evaluated, _ = load_debate_topics()
        return evaluated, "hub ibm-research/debate_speeches"
    # relative to the shell's directory, not tasks/ (see inspect_stance.paths)
    path = user_path(str(propositions))
    return read_propositions_file(path), f"file {path}"


@dataclass(frozen=True)
class DriftDataset:
    """The run's samples, how many propositions they cover, where these came from, and the
    reused arguments by sample id (``None`` without ``arguments_from``)."""

    samples: list[Sample]
    n_propositions: int
    source: str
    arguments: dict[str, list[str]] | None
    #: the task-metadata entry of ``-T shard`` (empty unsharded; :mod:`inspect_stance.shards`)
    shard: dict[str, Any] = field(default_factory=dict)


def load_dataset(opts: DriftOptions) -> DriftDataset:
    """Read the propositions (the in_context exemplar topics left out, the first
    ``limit_propositions`` kept), keep ``-T shard``'s share of them
    (:func:`inspect_stance.shards.select`), build the samples, and read ``arguments_from``'s
    arguments."""
    props, source = load_propositions(opts.propositions)
    if opts.variant == "in_context":
        props = [p for p in props if p.text not in EXEMPLAR_PROPOSITIONS]
    if opts.limit_propositions is not None:
        props = props[: opts.limit_propositions]
    if not props:
        raise InputError(
            "no propositions left to evaluate; check -T propositions and -T limit_propositions"
        )
    # shard after the item set is fixed; samples keep their index in the whole study
    mine = {p.key for p in select(props, lambda p: p.key, opts.shard)}
    samples = [
        s
        for s in build_samples(props, opts.variant)
        if (s.metadata or {})["proposition_key"] in mine
    ]
    settings = {
        k: v for k, v in asdict(opts).items() if k not in ("propositions", "limit_propositions")
    }
    study = study_fingerprint("stance_drift", [p.key for p in props], settings)
    shard = shard_metadata(opts.shard, study, len(props), len(mine))
    arguments = None
    if opts.arguments_from:
        arguments = arguments_from_log(
            Path(user_path(str(opts.arguments_from))),
            [
                (str(s.id), str(s.metadata["proposition"]), int(s.metadata["initial_stance"]))
                for s in samples
                if s.metadata is not None
            ],
            opts.trials,
            opts.words_limit,
        )
    return DriftDataset(samples, len(mine), source, arguments, shard)
