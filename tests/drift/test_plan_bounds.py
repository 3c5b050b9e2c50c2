"""Bounded work and refused nonsense: plan's sizes and targets, the same run twice, runs of
different settings, complex-valued .npz, a chain of a billion hops. Each is one error line."""

from __future__ import annotations

import shutil
import time
from pathlib import Path

import numpy as np
import pytest

from inspect_stance.cli import main
from inspect_stance.drift.options import check_chain
from inspect_stance.errors import InputError


def _npz(tmp_path: Path, seed: int = 0, name: str = "run", **extra: object) -> Path:
    rng = np.random.default_rng(seed)
    lean = rng.beta(0.6, 0.6, (12, 1, 5, 1))
    probs = lean * np.eye(5)[None, None] + (1 - lean) * rng.dirichlet(np.ones(5), (12, 20, 5))
    path = tmp_path / f"{name}{seed}.npz"
    np.savez(path, probs=probs, **extra)  # type: ignore[arg-type]
    return path


def _code(argv: list[str]) -> int:
    try:
        return main(argv)
    except SystemExit as ex:  # argparse's own errors
        return int(ex.code or 0)


def _refused(argv: list[str], capsys: pytest.CaptureFixture[str], word: str) -> None:
    assert _code(argv) == 2
    last = capsys.readouterr().err.strip().splitlines()[-1]
    assert "error" in last and word in last


def test_plan_refuses_a_difference_above_1(tmp_path: Path, capsys) -> None:
    _refused(["plan", str(_npz(tmp_path)), "--detect", "1.5"], capsys, "between 0 and 1")


@pytest.mark.parametrize(
    ("flag", "value"),
    [("--replay-orders", "1000000000"), ("--max-trials", "100000"),
     ("--max-propositions", "1000000000")],
)  # fmt: skip
def test_plan_bounds_its_sizes(tmp_path: Path, capsys, flag: str, value: str) -> None:
    _refused(["plan", str(_npz(tmp_path)), flag, value], capsys, "at most")


@pytest.mark.parametrize("target", [["--target-se", "1e-9"], ["--detect", "1e-6"]])
def test_tiny_targets_over_the_largest_space_end_quickly(
    tmp_path: Path, capsys, target: list[str]
) -> None:
    # a bound on the search, not a speed target: CPU time of this process (a wall clock fails
    # on a loaded machine; an exhaustive walk of the 10^9 designs would take hours of CPU)
    start = time.process_time()
    argv = ["plan", str(_npz(tmp_path)), *target]
    assert _code(argv + ["--max-propositions", "1000000", "--max-trials", "1000"]) == 0
    assert time.process_time() - start < 30
    assert "none within 1000000 propositions" in capsys.readouterr().out


def test_plan_refuses_the_same_run_twice_and_a_copy(tmp_path: Path, capsys) -> None:
    a = _npz(tmp_path)
    _refused(["plan", str(a), str(a), "--detect", "0.05"], capsys, "two different runs")
    copy = tmp_path / "renamed.npz"
    shutil.copy(a, copy)
    _refused(["plan", str(a), str(copy), "--detect", "0.05"], capsys, "two different runs")


def test_plan_refuses_runs_of_different_settings(tmp_path: Path, capsys) -> None:
    a = _npz(tmp_path, 0, letter_order=np.array([list("ABCDE")]))
    b = _npz(tmp_path, 1, letter_order=np.array([list("EDCBA")]))
    _refused(["plan", str(a), str(b), "--detect", "0.05"], capsys, "differ")
    argv = ["plan", str(a), str(b), "--detect", "0.05", "--allow-different-settings"]
    assert _code(argv) == 0


def test_complex_npz_is_refused(tmp_path: Path, capsys) -> None:
    path = _npz(tmp_path)
    probs = np.load(path)["probs"].astype(complex)
    bad = tmp_path / "complex.npz"
    np.savez(bad, probs=probs)
    _refused(["plan", str(bad)], capsys, "complex")


def test_a_billion_hops_is_refused() -> None:
    with pytest.raises(InputError, match="more than"):
        check_chain(1_000_000_000, "default", "paraphrase", None, None)
