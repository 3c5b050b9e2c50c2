"""Inspect's shard-set layout: ``<dir>/<name>.shards/<k>/`` beside a merged ``<name>.eval``.

Inspect (0.3.285) lists shard logs under a ``<name>.shards/`` companion of a merged log, one
folder per shard (``<k>``), each holding that shard's attempts (``.eval`` files; the *current*
attempt is the last in Inspect's attempt order, earlier ones are superseded by a retry). A
merged log records its shards in ``EvalSpec.shards`` (``EvalShards``) and holds every shard's
samples, so it is read as one run like any other log. This module reads the layout the same
way Inspect does (its own listing, :func:`inspect_ai.log._shards._walk.list_shard_set`):

- :func:`log_files` lists the logs below a folder as one run each: the logs of a
  ``<name>.shards/`` whose merged ``<name>.eval`` (or ``<name>-recovered.eval``) is present are
  left out (the merged log covers them, as ``inspect view`` hides them), and of each
  ``<k>/`` only the current attempt is kept;
- :func:`layout_shard` gives a shard log that does not record ``-T shard=K/N`` (an Inspect
  worker that ran a selection of the task's samples) the :class:`~inspect_stance.shards.ShardInfo`
  of its place in the layout: shard ``k`` of the ``<k>/`` folders, study = the shards folder,
  the task, its arguments and its dataset, so that :func:`inspect_stance.shards.group_shards`
  pools it with the other shards of its set and refuses what does not belong.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from inspect_stance.fingerprint import digest
from inspect_stance.shards import ShardInfo, group_shards, run_identity, shard_info, superseded

SHARDS_SUFFIX = ".shards"
LOG_SUFFIXES: tuple[str, ...] = (".eval", ".json")
# files Inspect itself writes into a log folder that are not logs: the folder's listing and
# an eval set's record (``inspect eval-set``, ``inspect-stance study``)
NOT_LOGS: frozenset[str] = frozenset({"logs.json", "eval-set.json"})


def shard_set_of(path: str | Path) -> tuple[Path, str] | None:
    """``(<name>.shards folder, k)`` of a log at ``<name>.shards/<k>/<file>``, else ``None``."""
    p = Path(path)
    shards_dir = p.parent.parent
    if shards_dir.name.endswith(SHARDS_SUFFIX) and shards_dir.name != SHARDS_SUFFIX:
        return shards_dir, p.parent.name
    return None


def _merged_logs(shards_dir: Path) -> list[Path]:
    stem = shards_dir.name[: -len(SHARDS_SUFFIX)]
    return [shards_dir.parent / f"{stem}.eval", shards_dir.parent / f"{stem}-recovered.eval"]


def current_attempts(shards_dir: str | Path) -> dict[str, Path]:
    """``{k: current attempt}`` of a ``<name>.shards`` folder, listed by Inspect's own
    shard-set walk (shard folders in numeric order; attempts in Inspect's attempt order)."""
    import anyio
    from inspect_ai._util.asyncfiles import AsyncFilesystem
    from inspect_ai.log._shards._walk import list_shard_set

    async def listing() -> Any:
        async with AsyncFilesystem() as fs:
            return await list_shard_set(fs, str(Path(shards_dir).resolve()))

    out: dict[str, Path] = {}
    for shard in anyio.run(listing).shards:
        if shard.current is not None:
            out[shard.name] = Path(str(shard.current.name).removeprefix("file://"))
    return out


def _merged_current(shards_dir: Path, attempts: list[Path]) -> Path | None:
    """The merged log of a shard set when it covers the set, as Inspect decides whether to hide
    the shards (``inspect_ai.log._shard_listing.filter_merged_shards``): status ``success``
    and written after every current attempt; ``None`` otherwise (no merge, or a shard retried
    after it: the merge is stale and the shards are read)."""
    from inspect_ai.log import read_eval_log

    for merged in _merged_logs(shards_dir):
        if not merged.is_file():
            continue
        try:
            status = read_eval_log(str(merged), header_only=True).status
        except Exception:  # noqa: BLE001 - an unreadable merge covers nothing
            continue
        newest = max((a.stat().st_mtime for a in attempts), default=0.0)
        if status == "success" and merged.stat().st_mtime > newest:
            return merged
    return None


def log_files(folder: str | Path) -> list[Path]:
    """The logs below ``folder``, sorted, one per run (see the module docstring): a shard set
    ``<name>.shards/`` below it gives its merged log when that covers it
    (:func:`_merged_current`), else the current attempt of each shard (and not the stale
    merge). A folder that is itself one shard's ``<k>/`` lists its logs as ordinary logs, and
    a ``<name>.shards/`` given itself lists its shards (as Inspect does)."""
    root = Path(folder).resolve()
    found = sorted(
        x
        for x in Path(folder).rglob("*")
        if x.suffix in LOG_SUFFIXES and x.name not in NOT_LOGS and x.is_file()
    )
    sets = (shard_set_of(f) for f in found)
    dirs = {w[0].resolve() for w in sets if w is not None and _within(w[0].resolve(), root)}
    keep: set[Path] = set()
    drop: set[Path] = set()
    for shards_dir in dirs:
        attempts = [a.resolve() for a in current_attempts(shards_dir).values()]
        merged = None if shards_dir == root else _merged_current(shards_dir, attempts)
        if merged is not None:
            keep.add(merged.resolve())
        else:
            keep.update(attempts)
            drop.update(m.resolve() for m in _merged_logs(shards_dir))
    out: list[Path] = []
    for f in found:
        r = f.resolve()
        where = shard_set_of(f)
        in_set = where is not None and where[0].resolve() in dirs
        if (in_set and r in keep) or (not in_set and r not in drop):
            out.append(f)
    return out


def _within(shards_dir: Path, root: Path) -> bool:
    return shards_dir == root or root in shards_dir.parents


def layout_shard(path: str | Path, spec: Any) -> ShardInfo | None:
    """The :class:`ShardInfo` of a log in a ``<name>.shards/<k>/`` folder that records no
    ``-T shard`` (module docstring); ``None`` outside the layout. ``spec``: its ``EvalSpec``."""
    where = shard_set_of(path)
    if where is None:
        return None
    shards_dir, k = where
    names = sorted(current_attempts(shards_dir))
    if k not in names:
        return None  # a superseded attempt named explicitly: not part of the set
    dataset = getattr(spec, "dataset", None)
    study = digest(
        {
            "shards": str(shards_dir.resolve()),
            "task": str(getattr(spec, "task", "")),
            "args": dict(getattr(spec, "task_args", None) or {}),
            "dataset": [getattr(dataset, "name", None), getattr(dataset, "samples", None)],
        }
    )
    total = int(getattr(dataset, "samples", 0) or 0)
    return ShardInfo(names.index(k) + 1, len(names), study, total, digest(run_identity(spec)))


def log_shard(path: str | Path, spec: Any) -> ShardInfo | None:
    """What a log says of its shard: ``-T shard=K/N`` in its task metadata
    (:func:`inspect_stance.shards.shard_info`), else its place in Inspect's shard layout
    (:func:`layout_shard`), else ``None`` (a whole run)."""
    metadata: Mapping[str, Any] | None = getattr(spec, "metadata", None)
    return shard_info(metadata, run_identity(spec)) or layout_shard(path, spec)


def group_logs(
    paths: Sequence[Path], partial: bool = False
) -> tuple[list[list[Path]], dict[Path, str]]:
    """The logs grouped into runs (the shards of one study together, a whole run alone; order
    of first appearance; a shard's unfinished attempts superseded by a finished one left out,
    :func:`inspect_stance.shards.superseded`) and, for each log of an incomplete set reported
    with ``partial``, the suffix naming it (``" (1 of 2 shards)"``). One-line ``InputError``
    for shards that do not pool (:func:`inspect_stance.shards.group_shards`). Reads each log's
    header only."""
    from inspect_ai.log import read_eval_log

    headers = [read_eval_log(str(p), header_only=True) for p in paths]
    infos = [log_shard(p, h.eval) for p, h in zip(paths, headers, strict=True)]
    drop = superseded(infos, [str(h.status) for h in headers], [str(p) for p in paths])
    paths = [p for i, p in enumerate(paths) if i not in drop]
    infos = [x for i, x in enumerate(infos) if i not in drop]
    groups = group_shards(infos, partial)
    suffix: dict[Path, str] = {}
    for members in groups:
        first = infos[members[0]]
        if first is not None and len(members) < first.n:
            suffix.update({paths[i]: f" ({len(members)} of {first.n} shards)" for i in members})
    return [[paths[i] for i in members] for members in groups], suffix
