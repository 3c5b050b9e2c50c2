"""Names on cards: escaped for text, HTML and JSON, and made safe and distinct as file names."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable

from inspect_stance.printable import printable

#: longest file stem of a card (the rest of the name is replaced by a digest)
MAX_STEM = 80
#: stems the cards' own pages use (``index.html``, ``leaderboard.json``)
RESERVED = frozenset({"index", "leaderboard"})


def escape_name(name: str) -> str:
    """``name`` with control, format (bidirectional, zero-width) and line-separator characters
    written as their escapes (``\\x1b``, ``\\u202e``): :func:`inspect_stance.printable.printable`."""
    return printable(str(name))


def _digest(name: str) -> str:
    return hashlib.blake2b(name.encode("utf-8", "surrogatepass"), digest_size=4).hexdigest()


def file_stem(name: str) -> str:
    """A file name for ``name``: escaped, ``/`` and other unsafe characters as ``_``; a name
    longer than :data:`MAX_STEM` cut and ended by a digest of the whole name."""
    stem = re.sub(r"[^A-Za-z0-9._-]+", "_", escape_name(name)).strip("._") or "model"
    if len(stem) > MAX_STEM:
        stem = f"{stem[: MAX_STEM - 9]}-{_digest(name)}"
    return stem


def card_stems(names: Iterable[str]) -> dict[str, str]:
    """Name -> file stem, distinct for distinct names: :func:`file_stem`, and where two names
    share one (``team a``, ``team_a``) or one is a page of its own (``index``), each such name's
    stem ends in a digest of the name."""
    names = list(dict.fromkeys(names))
    base = {n: file_stem(n) for n in names}
    counts: dict[str, int] = {}
    for stem in base.values():
        counts[stem.lower()] = counts.get(stem.lower(), 0) + 1
    out = {}
    for n, stem in base.items():
        if counts[stem.lower()] > 1 or stem.lower() in RESERVED:
            stem = f"{stem[: MAX_STEM - 9]}-{_digest(n)}"
        out[n] = stem
    return out
