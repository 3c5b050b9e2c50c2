"""What decides a model's responses, as a key; and what a run's inputs were, as a fingerprint.

**Model identity** (:func:`model_identity`): the key of every record the package replays
instead of calling a model (the stance-drift trial record, the prompter's cached answers). It
holds the model's name, its provider's base URL, its model args (``-M``) and the generation
config in force, with

- every file argument replaced by a digest of its *content* (``-M transition=T.json``: a
  rewritten ``T.json`` is another key; a copy of it under another name is the same key). A
  folder argument is keyed by the names, sizes and modification times of its files;
- the arguments that change how calls are made, not what comes back, left out
  (:data:`OPERATIONAL_MODEL_ARGS`: timeouts, retries, simulated latency and outages);
- credentials removed (:func:`inspect_stance.scrub.scrub`): a key is written to disk.

What the key can never see (a provider updating the model behind the same name and URL) is
why a replayed record is always announced: see ``docs/stance_drift.md``.

**Input fingerprint** (:func:`input_fingerprint`): content digests of a task's input files and
of its dataset (each sample's id and input), recorded in the task's metadata so that
``inspect eval-retry`` can tell whether the inputs changed since the run it retries
(:func:`task_fingerprint`).
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from types import FrameType
from typing import Any

from inspect_stance.errors import InputError
from inspect_stance.paths import user_path
from inspect_stance.scrub import scrub, scrub_url

logger = logging.getLogger(__name__)

#: task-metadata key of the input fingerprint
FINGERPRINT_KEY = "input_fingerprint"
#: set to ``continue`` to let ``inspect eval-retry`` run on changed inputs
RETRY_ENV = "INSPECT_STANCE_RETRY_CHANGED_INPUTS"

#: model args (``-M``) that change how calls are made, not what a response is
OPERATIONAL_MODEL_ARGS: frozenset[str] = frozenset(
    {
        "latency",
        "fail_after",
        "fail_while",
        "timeout",
        "max_retries",
        "retries",
        "http_client",
        "max_connections",
        "verbose",
    }
)

#: generation-config fields that change how calls are made, not what a response is
OPERATIONAL_CONFIG: frozenset[str] = frozenset(
    {
        "max_connections",
        "max_retries",
        "timeout",
        "attempt_timeout",
        "stream_idle_timeout",
        "batch",
        "cache",
        "cache_prompt",
        "adaptive_connections",
        "extra_headers",
        "fail_on_refusal",
    }
)

_DIGESTS: dict[tuple[str, int, int], str] = {}
_MAX_FOLDER_FILES = 10_000


def digest(obj: Any, size: int = 16) -> str:
    """BLAKE2b hex digest (``size`` bytes) of ``obj``'s canonical JSON (sorted keys)."""
    text = json.dumps(obj, sort_keys=True, default=str, ensure_ascii=False)
    return hashlib.blake2b(text.encode("utf-8"), digest_size=size).hexdigest()


def file_digest(path: str | Path) -> str:
    """SHA-256 of a file's bytes (computed once per process for a given path, size and mtime)."""
    p = Path(path).resolve()
    st = p.stat()
    memo = (str(p), st.st_size, st.st_mtime_ns)
    if memo not in _DIGESTS:
        h = hashlib.sha256()
        with p.open("rb") as f:
            for block in iter(lambda: f.read(1 << 20), b""):
                h.update(block)
        _DIGESTS[memo] = h.hexdigest()
    return _DIGESTS[memo]


def folder_digest(path: str | Path) -> str:
    """Digest of a folder's listing: each file's relative name, size and mtime (not contents:
    a folder argument is usually a model's weights)."""
    root = Path(path)
    entries: list[tuple[str, int, int]] = []
    for dirpath, _, names in os.walk(root):
        for name in sorted(names):
            p = Path(dirpath) / name
            try:
                st = p.stat()
            except OSError:
                continue
            entries.append((str(p.relative_to(root)), st.st_size, st.st_mtime_ns))
            if len(entries) >= _MAX_FOLDER_FILES:
                break
    return digest(sorted(entries))


def content_value(value: Any) -> Any:
    """``value`` with every string naming an existing file (or folder) replaced by
    ``{"file_sha256": ...}`` (``{"folder": ...}``); nested mappings and lists are walked."""
    if isinstance(value, (str, Path)):
        text = str(value)
        if not text or "\n" in text or len(text) > 4096 or "://" in text:
            return value
        try:
            p = Path(user_path(text))
            if p.is_file():
                return {"file_sha256": file_digest(p)}
            if p.is_dir() and text not in (".", ""):
                return {"folder": folder_digest(p)}
        except OSError:
            return value
        return value
    if isinstance(value, Mapping):
        return {k: content_value(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [content_value(v) for v in value]
    return value


def model_identity(model: Any, config: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """What decides ``model``'s responses, scrubbed of credentials (module docstring).

    ``model`` is an Inspect ``Model``; ``config`` the generation settings in force for its
    calls (default: the model's own config), operational fields dropped.
    """
    args = {
        k: v for k, v in dict(model.model_args or {}).items() if k not in OPERATIONAL_MODEL_ARGS
    }
    # settings a provider takes from elsewhere than -M (a default, an environment variable) that
    # decide its responses: a simulator whose default changed must not replay the old answers
    effective = getattr(model.api, "response_settings", None)
    if callable(effective):
        args = {**effective(), **args}
    if config is None:
        config = model.config.model_dump(exclude_none=True)
    settings = {k: v for k, v in config.items() if k not in OPERATIONAL_CONFIG}
    base_url = getattr(model.api, "base_url", None)
    return {
        "model": str(model),
        "base_url": None if base_url is None else scrub_url(str(base_url)),
        "model_args": scrub(content_value(args)),
        "config": scrub(settings),
    }


#: how long a role's cached answers are kept (Inspect's expiry format), as the trial record
ROLE_CACHE_EXPIRY = "1W"


def role_cache_scopes(model: Any) -> dict[str, str]:
    """Scopes for Inspect's ``CachePolicy`` of a role model's calls: the digest of its
    :func:`model_identity`. Inspect's own cache key holds the model name, base URL, call
    config and messages, not the model args (``-M`` / a role's ``model_args``), so without
    these scopes another role configuration would get the first one's cached answers."""
    return {"inspect_stance_model": digest(model_identity(model))}


def input_fingerprint(
    files: Mapping[str, str | Path | None], samples: Sequence[Any]
) -> dict[str, Any]:
    """A task's inputs: ``{"files": {name: sha256 | None}, "samples": n, "dataset": digest,
    "sample_digests": {id: digest of (id, input)}}``.

    ``files`` maps a parameter name to the file it names (None or a non-file such as ``hub``:
    recorded as given); ``samples`` are Inspect ``Sample``s. Written to the task metadata;
    :func:`fingerprint_changes` compares two of them.
    """
    recorded: dict[str, str | None] = {}
    for name, value in files.items():
        if value is None:
            recorded[name] = None
            continue
        p = Path(user_path(str(value)))
        recorded[name] = f"sha256:{file_digest(p)}" if p.is_file() else str(value)
    per_sample = {str(s.id): digest([str(s.id), _plain(s.input)], size=6) for s in samples}
    return {
        "files": recorded,
        "samples": len(per_sample),
        "dataset": digest(sorted(per_sample.items())),
        "sample_digests": per_sample,
    }


def _plain(value: Any) -> Any:
    """A sample input as plain JSON (a string, or its chat messages' dumps)."""
    if isinstance(value, str):
        return value
    return [m.model_dump(exclude={"id"}) if hasattr(m, "model_dump") else m for m in value]


def fingerprint_changes(previous: Mapping[str, Any], current: Mapping[str, Any]) -> str | None:
    """One line saying how ``current`` inputs differ from ``previous`` ones, or None if equal.

    Names the input files whose content changed and counts the samples added, removed and
    changed (same id, other input), with up to three ids of each.
    """
    if previous.get("dataset") == current.get("dataset") and previous.get("files") == current.get(
        "files"
    ):
        return None
    parts: list[str] = []
    old_files, new_files = previous.get("files") or {}, current.get("files") or {}
    changed_files = sorted(
        k for k in set(old_files) | set(new_files) if old_files.get(k) != new_files.get(k)
    )
    if changed_files:
        parts.append("changed input file(s): " + ", ".join(changed_files))
    old, new = previous.get("sample_digests") or {}, current.get("sample_digests") or {}
    for label, ids in (
        ("added", [k for k in new if k not in old]),
        ("removed", [k for k in old if k not in new]),
        ("changed", [k for k in new if k in old and old[k] != new[k]]),
    ):
        if ids:
            shown = ", ".join(ids[:3]) + (", ..." if len(ids) > 3 else "")
            parts.append(f"{len(ids)} sample(s) {label} ({shown})")
    return "; ".join(parts) if parts else "the inputs differ"


def retried_metadata() -> Mapping[str, Any] | None:
    """The metadata of the log ``inspect eval-retry`` is retrying, when the task is being built
    for a retry (else None).

    Inspect builds the task of a retry inside ``resolve_previous_tasks``, whose
    ``previous_task.log`` is the log being retried; no public API hands it to the task. The
    tests of ``eval-retry`` pin this to the Inspect version in use.
    """
    frame: FrameType | None = sys._getframe(1)
    while frame is not None:
        if frame.f_code.co_name == "resolve_previous_tasks":
            log = getattr(frame.f_locals.get("previous_task"), "log", None)
            spec = getattr(log, "eval", None)
            metadata = getattr(spec, "metadata", None)
            return metadata if isinstance(metadata, Mapping) else {}
        frame = frame.f_back
    return None


def task_fingerprint(
    task: str, files: Mapping[str, str | Path | None], samples: Sequence[Any]
) -> dict[str, Any]:
    """The task's :func:`input_fingerprint`, checked against the retried run's on eval-retry.

    When ``inspect eval-retry`` retries a run whose recorded fingerprint differs, the retry
    would evaluate other inputs than the run it completes: an ``InputError`` naming what
    changed, unless ``INSPECT_STANCE_RETRY_CHANGED_INPUTS=continue`` (then a warning, and the
    line is kept in the fingerprint as ``retry_changed_inputs``). A run without a recorded
    fingerprint is not checked.
    """
    current = input_fingerprint(files, samples)
    previous = retried_metadata()
    old = None if previous is None else previous.get(FINGERPRINT_KEY)
    if not isinstance(old, Mapping):
        return current
    changes = fingerprint_changes(old, current)
    if changes is None:
        return current
    if os.environ.get(RETRY_ENV, "").strip().lower() != "continue":
        raise InputError(
            f"{task}: the inputs changed since the run being retried ({changes}); run "
            f"`inspect eval` for the new inputs, or set {RETRY_ENV}=continue to retry anyway"
        )
    logger.warning(f"{task}: retrying on changed inputs ({changes}), as {RETRY_ENV} asks")
    return {**current, "retry_changed_inputs": changes}
