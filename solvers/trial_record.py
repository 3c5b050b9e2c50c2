"""The stance-drift trial record: one append-only JSON-lines file per sample, for the one-hop
solver (:mod:`inspect_stance.solvers.stance_drift`) and the chain solver
(:mod:`inspect_stance.solvers.stance_chain`) alike.

Under ``<INSPECT_CACHE_DIR or ~/.cache/inspect_ai>/inspect_stance/stance_drift/`` (chains under
its ``chains/``), in folders of mode 0700, files of mode 0600; the first line holds the creation
time and the record key (scrubbed of credentials); a file older than ``RECORD_EXPIRY_S`` or of
another key is discarded. The lines after it:

- one hop: ``{"trial": t, "stage": "generation", "argument": ...}`` once a generation is done,
  and the full trial record (no ``stage``) once the trial is; read by :meth:`TrialRecordFile.load`;
- a chain: ``{"trial": t, "hop": h, "stage": "text", "text": ...}`` when hop ``h``'s text is
  written (generated or relayed) and ``{"trial": t, "hop": h, "stage": "hop", ...}`` with the
  hop's full record once its stance is extracted; read by :meth:`TrialRecordFile.load_chain`.
"""

from __future__ import annotations

import json
import logging
import os
import stat
import time
from collections.abc import Mapping
from datetime import UTC
from pathlib import Path
from typing import Any

from inspect_stance.scrub import scrub

logger = logging.getLogger(__name__)

#: records older than this are discarded (a week)
RECORD_EXPIRY_S = 7 * 24 * 3600


def record_dir() -> Path:
    """Folder of the per-sample trial records: ``<Inspect cache>/inspect_stance/stance_drift``
    (``INSPECT_CACHE_DIR`` is honoured, as for Inspect's own cache)."""
    from inspect_ai.model import cache_path

    return cache_path().parent / "inspect_stance" / "stance_drift"


_warned: set[str] = set()


def _warn_once(kind: str, message: str) -> None:
    if kind not in _warned:
        _warned.add(kind)
        logger.warning(message)


def _private_dir(path: Path) -> None:
    """Create ``path`` (mode 0700) and make it 0700 if it exists."""
    path.mkdir(mode=0o700, parents=True, exist_ok=True)
    if not path.is_dir():
        raise NotADirectoryError(f"{path} is not a folder")
    if stat.S_IMODE(path.stat().st_mode) != 0o700:
        path.chmod(0o700)


def usable_record_dir() -> Path | None:
    """:func:`record_dir`, created private (0700 for it and its ``inspect_stance`` parent), or
    None, with one warning per process, when it cannot be a folder (e.g. a file stands where
    ``inspect_stance`` should be): the record is a convenience, so the run goes on without it."""
    folder = record_dir()
    try:
        _private_dir(folder.parent)
        _private_dir(folder)
    except OSError as ex:
        _warn_once(
            "folder",
            f"stance_drift: trial record disabled, {folder} cannot be a folder ({ex}); every "
            "trial calls the model (move the file away or set INSPECT_CACHE_DIR)",
        )
        return None
    return folder


class TrialRecordFile:
    """The append-only record of one sample's finished stages (one JSON line each).

    Two kinds of line: a finished generation ``{"trial": t, "stage": "generation",
    "argument": ...}`` and a finished trial (the full trial record, no ``stage``). ``load()``
    returns ``(trials, arguments)`` by trial index (the first line of an index wins; a line cut
    short by a kill is ignored); ``append()`` adds one line. A file older than
    ``RECORD_EXPIRY_S`` (by its header line's timestamp) or of another key is discarded.
    """

    def __init__(self, path: Path, key: Mapping[str, Any]) -> None:
        self.path = path
        # the key as written in the header line: scrubbed of credentials (whoever built it)
        self.key = json.loads(json.dumps(scrub(dict(key)), default=str))

    def _entries(self) -> list[dict[str, Any]]:
        """The lines after the header, as objects (empty without a file, or when the file is
        expired or of another key: then it is removed). A line cut short by a kill, or not an
        object, is skipped (its trial or hop runs again)."""
        try:
            lines = self.path.read_text(encoding="utf-8").splitlines()
        except (OSError, UnicodeDecodeError):
            return []  # no record (or an unreadable one): the trials run
        out: list[dict[str, Any]] = []
        for k, line in enumerate(lines):
            try:
                obj = json.loads(line)
            except json.JSONDecodeError:
                continue
            if k == 0:
                created = float(obj.get("created", 0)) if isinstance(obj, dict) else 0.0
                key = obj.get("key") if isinstance(obj, dict) else None
                self.created = created  # when the record was started: replayed trials say so
                if time.time() - created > RECORD_EXPIRY_S or key != self.key:
                    self.path.unlink(missing_ok=True)
                    return []
                continue
            if isinstance(obj, dict):
                out.append(obj)
        return out

    def load(self) -> tuple[dict[int, dict[str, Any]], dict[int, str]]:
        """Recorded trials and generated arguments by trial index (empty without a file; the
        first line of an index wins)."""
        out: dict[int, dict[str, Any]] = {}
        arguments: dict[int, str] = {}
        for obj in self._entries():
            if not isinstance(obj.get("trial"), int):
                continue
            if obj.get("stage") == "generation":
                arguments.setdefault(obj["trial"], str(obj.get("argument", "")))
            else:
                out.setdefault(obj["trial"], obj)
        return out, arguments

    def load_chain(
        self,
    ) -> tuple[dict[tuple[int, int], dict[str, Any]], dict[tuple[int, int], str]]:
        """A chain's recorded hops ``{(trial, hop): record}`` and texts ``{(trial, hop): text}``
        (empty without a file; the first line of a (trial, hop) wins)."""
        hops: dict[tuple[int, int], dict[str, Any]] = {}
        texts: dict[tuple[int, int], str] = {}
        for obj in self._entries():
            t, h = obj.get("trial"), obj.get("hop")
            if not isinstance(t, int) or not isinstance(h, int):
                continue
            if obj.get("stage") == "text":
                texts.setdefault((t, h), str(obj.get("text", "")))
            elif obj.get("stage") == "hop":
                hops.setdefault((t, h), {k: v for k, v in obj.items() if k != "stage"})
        return hops, texts

    _fd: int | None = None
    _broken: bool = False
    #: the record's creation time (POSIX seconds, from its header line) once loaded
    created: float | None = None

    def append(self, record: Mapping[str, Any]) -> None:
        """Append one line (opening the file on first use, with its header line when new).

        Each line is one ``os.write`` on an ``O_APPEND`` descriptor, so it reaches the file
        whole even if the process is killed right after; :meth:`close` releases the descriptor.
        """
        if self._broken:
            return
        line = json.dumps(record, ensure_ascii=False, separators=(",", ":")) + "\n"
        try:
            if self._fd is None:
                _private_dir(self.path.parent)
                self._fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
                os.fchmod(self._fd, 0o600)  # a file written by an older version was 0644
                if os.fstat(self._fd).st_size == 0:
                    header = {"created": time.time(), "key": self.key}
                    line = json.dumps(header, default=str, separators=(",", ":")) + "\n" + line
            os.write(self._fd, line.encode("utf-8"))
        except OSError as ex:
            self._broken = True  # the record is a convenience: the trials go on without it
            _warn_once("write", f"stance_drift: trial record not written ({ex})")

    def close(self) -> None:
        """Close the file (a no-op when nothing was appended)."""
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None


def recorded_at(record: TrialRecordFile | None) -> str | None:
    """When ``record`` was started, as an ISO 8601 UTC time (seconds), or None (no record)."""
    if record is None or not record.created:
        return None
    from datetime import datetime

    return datetime.fromtimestamp(record.created, UTC).isoformat(timespec="seconds")
