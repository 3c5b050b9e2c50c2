"""What a new user finds from the command line: the task list (no benchmark tasks), each task's
parameter table (``inspect-stance params``, pointed to by ``inspect-stance --help``)."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from inspect_stance.cli import main

ROOT = Path(__file__).resolve().parents[2]
TASKS = (
    "stance_drift",
    "press",
    "press_arguments",
    "prompt_construction",
    "judge_validation",
    "prompt_validation",
    "even_handedness",
    "pushback",
)


def test_inspect_list_tasks_in_the_checkout_lists_only_the_packages_tasks():
    out = subprocess.run(
        [sys.executable, "-m", "inspect_ai._cli.main", "list", "tasks"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    ).stdout.split()
    assert sorted(out) == sorted(f"tasks/{t}.py@{t}" for t in TASKS)


def test_help_points_to_every_tasks_parameters(capsys):
    with pytest.raises(SystemExit):
        main(["--help"])
    text = capsys.readouterr().out
    for t in TASKS:
        assert f"inspect-stance params {t}" in text


def test_params_prints_the_table(capsys):
    assert main(["params", "stance_drift"]) == 0
    text = capsys.readouterr().out
    assert "| parameter | default | meaning |" in text
    assert "| `trials` | `100` |" in text  # the paper's 100 trials per (proposition, stance)


@pytest.mark.slow
def test_wheel_carries_the_licence_notices_and_templates(tmp_path):
    import shutil

    # built from a copy: setuptools writes build/ beside the sources
    src = tmp_path / "src-copy"
    for name in ("src", "tasks", "solvers", "scorers"):
        shutil.copytree(ROOT / name, src / name, ignore=shutil.ignore_patterns("__pycache__"))
    for name in ("pyproject.toml", "README.md", "LICENSE"):
        shutil.copy(ROOT / name, src / name)
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", str(src), "--no-deps", "--no-build-isolation"]
        + ["-q", "-w", str(tmp_path)],
        check=True,
        capture_output=True,
        timeout=600,
    )
    [wheel] = tmp_path.glob("*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    assert any(n.endswith(".dist-info/licenses/LICENSE") for n in names)
    for notice in ("debate_topics_NOTICE.txt", "issuebench_NOTICE.txt"):
        assert any(n.endswith(f"licenses/src/inspect_stance/data/{notice}") for n in names)
    assert "inspect_stance/html/templates/report.html.j2" in names
    assert "inspect_stance/html/templates/report.css" in names
