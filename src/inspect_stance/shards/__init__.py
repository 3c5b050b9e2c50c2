"""Shards of one study: ``-T shard=K/N``, the split of a task's items, and the pooling check.

A study's items (propositions, statements, settings) are fixed first; then shard ``K`` of ``N``
keeps the items whose content key ranks ``r`` with ``r mod N == K - 1`` when the keys are sorted
by their BLAKE2b digest (:func:`select`). The split depends only on the *set* of items, not on the
order of the input file, and the shards are as equal as possible (sizes differ by at most one).

Each shard's task metadata holds :func:`shard_metadata`: ``{"shard": {"k", "n", "study",
"items_total", "items"}}``, where ``study`` (:func:`study_fingerprint`) is a digest of the task,
the full item set and the settings other than the shard, so that shards of one study are
recognised and shards of different studies are not pooled. :func:`group_shards` decides which
runs pool (one line refusals for mixed studies, overlapping shards or differing models, and
"1 of 2 shards" for an incomplete set unless ``partial``); each method pools its own runs
(stance drift: :mod:`inspect_stance.drift.shards`).
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from inspect_stance.errors import InputError
from inspect_stance.fingerprint import (
    OPERATIONAL_CONFIG,
    OPERATIONAL_MODEL_ARGS,
    content_value,
    digest,
)

T = TypeVar("T")
#: the help of every command's ``--partial``
PARTIAL_HELP = (
    "report an incomplete set of shards (-T shard=K/N, or Inspect's <name>.shards/ layout) as "
    "the shards given, named '(k of N shards)'"
)
#: the task-metadata key of a shard's description
SHARD_KEY = "shard"
_SPEC = re.compile(r"^\s*(\d+)\s*/\s*(\d+)\s*$")


@dataclass(frozen=True)
class Shard:
    """Shard ``k`` (1-based) of ``n``."""

    k: int
    n: int

    def __str__(self) -> str:
        return f"{self.k}/{self.n}"


def parse_shard(value: object) -> Shard | None:
    """``-T shard=K/N`` checked: ``None`` when unset (or ``1/1``... kept as given), else a
    :class:`Shard` with ``1 <= K <= N``; a one-line ``InputError`` otherwise."""
    if value is None or (isinstance(value, str) and value.strip().lower() in ("", "none")):
        return None
    match = _SPEC.match(str(value))
    if match is None:
        raise InputError(
            f"shard {value!r} is not K/N; use e.g. -T shard=1/4 (shard 1 of 4, K from 1 to N)"
        )
    k, n = int(match.group(1)), int(match.group(2))
    if n < 1 or not 1 <= k <= n:
        raise InputError(
            f"shard {value!r} needs 1 <= K <= N (N >= 1); use e.g. -T shard=1/{max(n, 2)}"
        )
    return Shard(k, n)


def _rank_key(key: str) -> str:
    return hashlib.blake2b(key.encode("utf-8"), digest_size=16).hexdigest()


def select(items: Sequence[T], key: Callable[[T], str], shard: Shard | None) -> list[T]:
    """The items of ``shard`` in their input order (all of them for ``None``): item ``x`` is kept
    when the rank ``r`` of ``blake2b(key(x))`` among all items' digests has ``r mod N == K - 1``.
    Keys must be unique (``InputError`` otherwise: two items would be indistinguishable), and
    ``N`` at most the number of items (``InputError`` otherwise: a shard would be empty)."""
    if shard is None:
        return list(items)
    keys = [key(x) for x in items]
    if shard.n > len(keys):
        raise InputError(
            f"shard {shard}: {shard.n} shards of {len(keys)} item(s) leave shards empty; use "
            f"at most {max(len(keys), 1)} shards (-T shard=K/N with N <= {max(len(keys), 1)})"
        )
    if len(set(keys)) != len(keys):
        raise InputError("two items share a content key; remove the repeated item before sharding")
    ranked = sorted(keys, key=_rank_key)
    mine = {k for r, k in enumerate(ranked) if r % shard.n == shard.k - 1}
    return [x for x, k in zip(items, keys, strict=True) if k in mine]


def study_fingerprint(task: str, item_keys: Sequence[str], settings: Mapping[str, Any]) -> str:
    """Digest of a study: the task name, the sorted content keys of *every* item (before the
    split) and the settings other than the shard (file arguments by content)."""
    plain = {k: v for k, v in settings.items() if k != SHARD_KEY}
    return digest({"task": task, "items": sorted(item_keys), "settings": content_value(plain)})


def shard_metadata(shard: Shard | None, study: str, items_total: int, items: int) -> dict[str, Any]:
    """The task-metadata entry of a shard (empty for an unsharded run)."""
    if shard is None:
        return {}
    return {
        SHARD_KEY: {
            "k": shard.k,
            "n": shard.n,
            "study": study,
            "items_total": items_total,
            "items": items,
        }
    }


@dataclass(frozen=True)
class ShardInfo:
    """What a log says about its shard (read from the task metadata)."""

    k: int
    n: int
    study: str
    items_total: int
    #: the model and generation settings the shard ran with (``digest`` of them; shards of one
    #: study pool only when these agree)
    identity: str = ""


def shard_info(metadata: Mapping[str, Any] | None, identity: Any = None) -> ShardInfo | None:
    """The :class:`ShardInfo` in a log's task metadata (``identity``: the model and generation
    settings of the run, digested), ``None`` for an unsharded run."""
    entry = (metadata or {}).get(SHARD_KEY)
    if not isinstance(entry, Mapping):
        return None
    return ShardInfo(
        int(entry["k"]),
        int(entry["n"]),
        str(entry["study"]),
        int(entry.get("items_total", 0)),
        digest(identity),
    )


def run_identity(spec: Any) -> dict[str, Any]:
    """What must agree between shards of one study beyond the task's settings: the model,
    its model args and its generation config (an Inspect ``EvalSpec``: ``model``,
    ``model_args``, ``model_generate_config``; fields that change how calls are made, not what
    comes back, left out, as :mod:`inspect_stance.fingerprint` does), and the model roles."""
    config = getattr(spec, "model_generate_config", None)
    settings = config.model_dump(exclude_none=True) if config is not None else {}
    args = dict(getattr(spec, "model_args", None) or {})
    roles = getattr(spec, "model_roles", None) or {}
    return {
        "model": str(getattr(spec, "model", "")),
        "model_args": {k: v for k, v in args.items() if k not in OPERATIONAL_MODEL_ARGS},
        "config": {k: v for k, v in settings.items() if k not in OPERATIONAL_CONFIG},
        "roles": {k: str(getattr(v, "model", v)) for k, v in dict(roles).items()},
    }


def group_shards(shards: Sequence[ShardInfo | None], partial: bool = False) -> list[list[int]]:
    """Indices of the runs to pool, in order of first appearance: an unsharded run is a group
    of its own; sharded runs group by study. One-line ``InputError`` for: shards of one study
    run with another model or generation settings; a shard given twice (overlapping shards);
    differing ``N``; an incomplete set (``"1 of 2 shards ..."``, naming the other studies given
    when there are: their items or settings differ) unless ``partial``. Complete sets of
    different studies stay separate runs, as two unsharded runs would."""
    groups: dict[str, list[int]] = {}
    out: list[list[int]] = []
    for i, info in enumerate(shards):
        if info is None:
            out.append([i])
            continue
        if info.study not in groups:
            groups[info.study] = []
            out.append(groups[info.study])
        groups[info.study].append(i)
    for study, members in groups.items():
        others = [s[:8] for s in groups if s != study]
        _check_group([s for i in members if (s := shards[i]) is not None], others, partial)
    return out


def _check_group(infos: list[ShardInfo], others: list[str], partial: bool) -> None:
    """Refuse a group that does not pool (see :func:`group_shards`)."""
    study = infos[0].study[:8]
    if len({x.identity for x in infos}) > 1:
        raise InputError(
            f"shards of study {study} ran with different models or generation settings; pool "
            "only shards run with the same --model and settings"
        )
    if len({x.n for x in infos}) > 1:
        raise InputError(
            f"shards of study {study} split into different numbers of shards; pool K/N shards of one N"
        )
    ks = [x.k for x in infos]
    repeated = sorted({k for k in ks if ks.count(k) > 1})
    if repeated:
        raise InputError(
            f"shard {repeated[0]}/{infos[0].n} of study {study} given twice (overlapping shards); "
            "pass each shard's log once"
        )
    n = infos[0].n
    if len(ks) < n and not partial:
        absent = ", ".join(f"{k}/{n}" for k in range(1, n + 1) if k not in ks)
        mixed = (
            f" (shards of different studies do not pool: {', '.join(others)} has other items "
            "or settings)"
            if others
            else ""
        )
        raise InputError(
            f"{len(ks)} of {n} shards of study {study}: shard(s) {absent} missing{mixed}; pass "
            "every shard's log, or --partial to report the shards given"
        )


def superseded(
    shards: Sequence[ShardInfo | None], statuses: Sequence[str | None], sources: Sequence[str]
) -> set[int]:
    """Indices of the unfinished attempts of a shard that also has exactly one finished attempt
    among the inputs (a worker killed and run again, an ``eval-retry``: the finished attempt
    holds the shard; Inspect's recovered copy of the killed log is another unfinished one).
    Each is said on stderr; :func:`group_shards` then sees one attempt per shard."""
    import sys

    by_shard: dict[tuple[str, int], list[int]] = {}
    for i, info in enumerate(shards):
        if info is not None:
            by_shard.setdefault((info.study, info.k), []).append(i)
    out: set[int] = set()
    for (study, k), members in by_shard.items():
        done = [i for i in members if statuses[i] == "success"]
        if len(members) > 1 and len(done) == 1:
            for i in members:
                if i != done[0]:
                    out.add(i)
                    print(f"inspect-stance: shard {k} of study {study[:8]}: left out "
                          f"{sources[i]} (status {statuses[i]}), superseded by the finished "
                          f"attempt {sources[done[0]]}", file=sys.stderr)  # fmt: skip
    return out


def pool_shards(runs: Sequence[T], merge: Callable[[list[T]], T], partial: bool = False) -> list[T]:
    """``runs`` (each with ``shard``, ``status`` and ``path``) with the shards of each study
    pooled into one by ``merge`` (at the first shard's place), a shard's unfinished attempts
    superseded by a finished one left out (:func:`superseded`); unsharded runs unchanged.
    One-line ``InputError`` for shards that do not pool (:func:`group_shards`: another study's
    shard, a shard given twice, an incomplete set unless ``partial``)."""
    each: list[Any] = list(runs)
    drop = superseded([x.shard for x in each], [x.status for x in each], [x.path for x in each])
    kept: list[Any] = [x for i, x in enumerate(each) if i not in drop]
    out: list[T] = []
    for members in group_shards([x.shard for x in kept], partial):
        if len(members) == 1 and kept[members[0]].shard is None:
            out.append(kept[members[0]])
        else:
            out.append(merge([kept[i] for i in members]))
    return out


def one_run(pooled: Sequence[T]) -> T:
    """The one run that a set of shards pooled into; a one-line ``InputError`` when they
    pooled into several (shards of different studies, or a whole run among them)."""
    if len(pooled) != 1:
        raise InputError(f"the shards pool into {len(pooled)} runs, not one; give the shards of "
                         "one study only")  # fmt: skip
    return pooled[0]
