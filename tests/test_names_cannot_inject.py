"""A run's name (model, Inspect tag, ``--label``, file name) cannot inject a line into the output:
no stdout line of ``gate`` or ``compare`` starts with a CI workflow command, JSON stays one
document, JUnit stays XML."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import numpy as np
import pytest

from inspect_stance.cli import main

EVIL = "m\n::warning::x\r\n::error::y\x1b[2J"


def _npz(path: Path, seed: int) -> Path:
    rng = np.random.default_rng(seed)
    probs = rng.dirichlet(np.ones(5), size=(4, 6, 5)) + 2.0 * np.eye(5)
    np.savez(path, probs=probs / probs.sum(axis=-1, keepdims=True))
    return path


def _no_command_line(text: str) -> None:
    for line in text.splitlines():
        assert not line.lstrip().startswith(("::warning::", "::error::y")), line
        assert "\x1b" not in line, line


@pytest.fixture
def evil_runs(tmp_path: Path) -> tuple[Path, Path]:
    return _npz(tmp_path / f"{EVIL}.npz", 1), _npz(tmp_path / "b.npz", 2)


@pytest.mark.parametrize("extra", [[], ["--github"], ["--json"], ["--json", "--github"]])
def test_gate_output_has_no_injected_line(evil_runs, tmp_path, capsys, extra) -> None:
    run, base = evil_runs
    junit = tmp_path / "gate.xml"
    rc = main(["gate", str(run), "--min-spr", "0.99", "--junit", str(junit), *extra])
    assert rc in (0, 1)
    out = capsys.readouterr().out
    _no_command_line(out)
    if "--json" in extra:
        json.loads(out)  # one JSON document, annotations or not (those go to stderr)
    ET.parse(junit)  # well-formed XML


def test_compare_table_and_json_have_no_injected_line(evil_runs, capsys) -> None:
    run, base = evil_runs
    label = f"{base.name}=L{EVIL}"
    assert main(["compare", str(run), str(base), "--label", label]) == 0
    out = capsys.readouterr().out
    _no_command_line(out)
    assert main(["compare", str(run), str(base), "--label", label, "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    names = {r["name"] for r in doc["runs"]} if "runs" in doc else set()
    assert all(n.isprintable() for n in names)
