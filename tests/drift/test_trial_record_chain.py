"""One trial-record module for the one-hop and the chain solver: one header check, one expiry.

The chain's hops are read back by :meth:`TrialRecordFile.load_chain` from the file its
:meth:`~TrialRecordFile.append` wrote; the file is discarded when older than
``RECORD_EXPIRY_S`` or of another key, as the one-hop record is.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

from inspect_stance.solvers.trial_record import RECORD_EXPIRY_S, TrialRecordFile

KEY = {"model": "m", "base_url": "https://user:secret@example.org/v1", "hops": 3}


def _write_chain(path: Path) -> None:
    rec = TrialRecordFile(path, KEY)
    rec.append({"trial": 0, "hop": 1, "stage": "text", "text": "first"})
    rec.append({"trial": 0, "hop": 1, "stage": "hop", "vector": [0.2, 0.8]})
    rec.append({"trial": 0, "hop": 1, "stage": "text", "text": "repeat: first line wins"})
    rec.close()
    with path.open("a", encoding="utf-8") as f:
        f.write('{"trial": 0, "hop": 2, "stage": "te')  # a line cut short by a kill


def test_chain_hops_are_read_back_from_what_was_appended(tmp_path):
    path = tmp_path / "c.jsonl"
    _write_chain(path)
    # the header holds the key scrubbed of credentials, and a record of the same (unscrubbed)
    # key is still found: both sides compare the scrubbed key
    assert "secret" not in path.read_text()
    record = TrialRecordFile(path, KEY)
    hops, texts = record.load_chain()
    # the header's time is read as for the one-hop record (replayed hops say when)
    assert record.created is not None and abs(record.created - time.time()) < 60
    assert texts == {(0, 1): "first"}
    assert hops == {(0, 1): {"trial": 0, "hop": 1, "vector": [0.2, 0.8]}}


def test_an_expired_or_other_key_chain_record_is_discarded(tmp_path):
    path = tmp_path / "c.jsonl"
    _write_chain(path)
    assert TrialRecordFile(path, {**KEY, "hops": 4}).load_chain() == ({}, {})
    assert not path.exists()
    _write_chain(path)
    lines = path.read_text().splitlines()
    header = json.loads(lines[0])
    header["created"] = time.time() - RECORD_EXPIRY_S - 60
    path.write_text("\n".join([json.dumps(header), *lines[1:]]) + "\n")
    assert TrialRecordFile(path, KEY).load_chain() == ({}, {})
    assert not path.exists()


def test_one_hop_and_chain_lines_are_read_by_their_own_reader(tmp_path):
    path = tmp_path / "r.jsonl"
    rec = TrialRecordFile(path, KEY)
    rec.append({"trial": 0, "stage": "generation", "argument": "arg"})
    rec.append({"trial": 0, "vectors": [[1.0]]})
    rec.close()
    trials, arguments = TrialRecordFile(path, KEY).load()
    assert arguments == {0: "arg"} and trials == {0: {"trial": 0, "vectors": [[1.0]]}}
    assert TrialRecordFile(path, KEY).load_chain() == ({}, {})
