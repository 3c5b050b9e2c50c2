"""Inspect's run header shows a task argument named ``cache`` as its response cache's setting:
``-T cache=false`` must read ``cache: False`` there (it read ``cache: None``), and a run without
it shows no cache at all. Through the real ``inspect eval`` CLI, on the simulated respondent."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest


def _header(tmp_path: Path, *extra: str) -> str:
    inspect = Path(sys.executable).parent / "inspect"
    r = subprocess.run([str(inspect), "eval", "inspect_stance/stance_drift",
                        "--model", "stance_sim/respondent", "-T", "limit_propositions=1",
                        "-T", "trials=2", *extra, "--display", "plain",
                        "--log-dir", str(tmp_path)], cwd=tmp_path, capture_output=True,
                       text=True, timeout=300, env={**os.environ, "COLUMNS": "200"})  # fmt: skip
    assert r.returncode == 0, r.stderr[-2000:]
    return r.stdout.split("dataset:")[0]


@pytest.mark.parametrize(("extra", "shown"), [(("-T", "cache=false"), "cache: False"), ((), None)])
def test_the_header_echoes_the_trial_record_setting(tmp_path, extra, shown):
    header = _header(tmp_path, *extra)
    found = re.search(r"cache: \w+", header)
    assert (found.group() if found else None) == shown, header
