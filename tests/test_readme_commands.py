"""Every shell block marked ``offline`` in the README and docs runs verbatim, offline.

A block is marked by its fence's info string: ```` ```bash offline ```` (default tier) or
```` ```bash offline slow ```` (slow tier). Each block runs in ``bash -euo pipefail`` in a fresh
copy of the project's user-facing files (``tasks/``, the docs, an empty ``logs/``), as a user in
a fresh clone would, with ``HOME`` in a temporary folder and no API key, and must exit 0. The
installed package (this checkout) provides the code.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCUMENTS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
_FENCE = re.compile(r"^```bash offline( slow)?\n(.*?)^```", re.M | re.S)


def _blocks() -> list:
    params = []
    for doc in DOCUMENTS:
        text = doc.read_text(encoding="utf-8")
        for k, m in enumerate(_FENCE.finditer(text)):
            marks = [pytest.mark.slow] if m.group(1) else []
            params.append(pytest.param(m.group(2), id=f"{doc.relative_to(ROOT)}#{k}", marks=marks))
    return params


def test_the_readme_has_offline_commands():
    assert _FENCE.search((ROOT / "README.md").read_text(encoding="utf-8"))


@pytest.mark.parametrize("block", _blocks())
def test_offline_block_runs_verbatim(block: str, tmp_path: Path):
    clone = tmp_path / "clone"
    shutil.copytree(ROOT / "tasks", clone / "tasks", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(ROOT / "docs", clone / "docs")
    shutil.copy(ROOT / "README.md", clone / "README.md")
    (clone / "logs").mkdir()
    (tmp_path / "home").mkdir()
    env = {k: v for k, v in os.environ.items() if not k.endswith("_API_KEY")}
    env.pop("INSPECT_LOG_DIR", None)
    env["HOME"] = str(tmp_path / "home")
    proc = subprocess.run(
        ["bash", "-euo", "pipefail", "-c", block],
        cwd=clone,
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert proc.returncode == 0, (
        f"{block}\n--- stdout\n{proc.stdout[-3000:]}\n--- stderr\n{proc.stderr[-3000:]}"
    )
    assert list(clone.rglob("*.eval")), "the block wrote no log"
