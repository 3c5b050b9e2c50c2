"""The core install (no ``nli`` extra): PReSS with its default NLI classifier fails with one line
naming the extra, before any model call, instead of Inspect's ExceptionGroup from deep inside
the model loader. The missing torch / transformers are simulated in a fresh interpreter by an
import hook that raises ``ModuleNotFoundError`` for them."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

#: an import hook that makes torch and transformers uninstallable, as on the core install
BLOCK = """
import sys


class Missing:
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in ("torch", "transformers"):
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return None


sys.meta_path.insert(0, Missing())
"""
RUN = (
    BLOCK
    + """
from inspect_ai._cli.main import main
sys.argv = ["inspect", *sys.argv[1:]]
main()
"""
)


def _inspect_without_torch(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", RUN, "eval", "tasks/press.py", "--log-dir", str(tmp_path), *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_press_without_torch_is_one_line_naming_the_extra(tmp_path):
    r = _inspect_without_torch(tmp_path, "--model", "press_sim/target", "--display", "none")
    lines = [x for x in r.stderr.splitlines() if x.strip()]
    assert r.returncode != 0
    assert "Traceback" not in r.stderr and "ExceptionGroup" not in r.stderr, r.stderr[-2000:]
    assert len(lines) == 1, lines
    assert 'pip install "inspect-stance[nli]"' in lines[0] and "classifier=llm" in lines[0]
    assert "torch" in lines[0]
    assert not list(tmp_path.glob("*.eval")), "no run starts, so no log is written"


def test_missing_modules_sees_a_blocked_import():
    code = BLOCK + (
        "from inspect_stance.extras import missing_modules\n"
        "print(missing_modules(('torch', 'json', 'no_such_module_xyz')))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "['torch', 'no_such_module_xyz']"
