"""The chain variant's record file: hops finished earlier, read back (Inspect-free).

One JSON line per event, after a header line ``{"created": <unix time>, "key": {...}}``:
``{"trial": t, "hop": h, "stage": "text", "text": ...}`` when hop ``h``'s text is written
(generated or relayed) and ``{"trial": t, "hop": h, "stage": "hop", ...}`` with the hop's full
record once its stance is extracted. Lines are appended by
:class:`inspect_stance.solvers.stance_drift.TrialRecordFile` (one ``os.write`` each).
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

#: records older than this are discarded (the one-hop trial record's expiry)
RECORD_EXPIRY_S = 7 * 24 * 3600


def load_chain_record(path: Path, key: dict[str, Any]) -> tuple[dict[Any, Any], dict[Any, str]]:
    """Recorded hops ``{(trial, hop): record}`` and texts ``{(trial, hop): text}`` of a chain
    record file (the header line checked as in :class:`TrialRecordFile`: a file of another key
    or older than ``RECORD_EXPIRY_S`` is discarded; a line cut short by a kill is ignored)."""
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (FileNotFoundError, UnicodeDecodeError):
        return {}, {}
    hops: dict[Any, Any] = {}
    texts: dict[Any, str] = {}
    for k, line in enumerate(lines):
        try:
            obj = json.loads(line)
        except json.JSONDecodeError:
            continue
        if not isinstance(obj, dict):
            continue
        if k == 0:
            created = float(obj.get("created", 0))
            if time.time() - created > RECORD_EXPIRY_S or obj.get("key") != key:
                path.unlink(missing_ok=True)
                return {}, {}
            continue
        t, h = obj.get("trial"), obj.get("hop")
        if not isinstance(t, int) or not isinstance(h, int):
            continue
        if obj.get("stage") == "text":
            texts.setdefault((t, h), str(obj.get("text", "")))
        elif obj.get("stage") == "hop":
            hops.setdefault((t, h), {k2: v for k2, v in obj.items() if k2 != "stage"})
    return hops, texts
