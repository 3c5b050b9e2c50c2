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
from inspect_stance.shards import ShardInfo, group_shards, run_identity, shard_info

SHARDS_SUFFIX = ".shards"
LOG_SUFFIXES: tuple[str, ...] = (".eval", ".json")


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


def log_files(folder: str | Path) -> list[Path]:
    """The logs below ``folder``, sorted, one per run (see the module docstring). A folder that
    is itself one shard's ``<k>/`` lists its logs as ordinary logs (as Inspect does)."""
    root = Path(folder).resolve()
    found = sorted(x for x in Path(folder).rglob("*") if x.suffix in LOG_SUFFIXES and x.is_file())
    sets: dict[Path, set[Path] | None] = {}
    out: list[Path] = []
    for f in found:
        where = shard_set_of(f)
        shards_dir = where[0].resolve() if where is not None else None
        if shards_dir is None or not (shards_dir == root or root in shards_dir.parents):
            out.append(f)
            continue
        if shards_dir not in sets:
            merged = shards_dir != root and any(m.is_file() for m in _merged_logs(shards_dir))
            current = None if merged else current_attempts(shards_dir).values()
            sets[shards_dir] = None if current is None else {c.resolve() for c in current}
        keep = sets[shards_dir]
        if keep is not None and f.resolve() in keep:
            out.append(f)
    return out


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
    of first appearance) and, for each log of an incomplete set reported with ``partial``, the
    suffix naming it (``" (1 of 2 shards)"``). One-line ``InputError`` for shards that do not
    pool (:func:`inspect_stance.shards.group_shards`). Reads each log's header only."""
    from inspect_ai.log import read_eval_log

    infos = [log_shard(p, read_eval_log(str(p), header_only=True).eval) for p in paths]
    groups = group_shards(infos, partial)
    suffix: dict[Path, str] = {}
    for members in groups:
        first = infos[members[0]]
        if first is not None and len(members) < first.n:
            suffix.update({paths[i]: f" ({len(members)} of {first.n} shards)" for i in members})
    return [[paths[i] for i in members] for members in groups], suffix
