"""Report commands check their output paths and options before any work: ``--out`` naming an
existing file or a path under a file, and an unbounded ``--hops``, are one-line errors naming
the path or the bound (exit 2), not tracebacks or a hang."""

from __future__ import annotations

import numpy as np
import pytest

from inspect_stance.cli import main

COMMANDS = ("report", "press-report", "construction-report", "validation-report")


@pytest.fixture
def npz(tmp_path):
    rng = np.random.default_rng(0)
    path = tmp_path / "run.npz"
    np.savez(path, probs=rng.dirichlet(np.ones(5), size=(2, 3, 5)))
    return path


def _one_line_error(capsys) -> str:
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "Traceback" not in err, err
    return err


@pytest.mark.parametrize("command", COMMANDS)
def test_out_existing_file(command, tmp_path, npz, capsys):
    target = tmp_path / "taken.txt"
    target.write_text("keep me")
    assert main([command, str(npz), "--out", str(target)]) == 2
    err = _one_line_error(capsys)
    assert f"--out {target}: is an existing file" in err
    assert target.read_text() == "keep me"


@pytest.mark.parametrize("command", COMMANDS)
def test_out_under_a_file(command, tmp_path, npz, capsys):
    target = tmp_path / "taken.txt"
    target.write_text("")
    assert main([command, str(npz), "--out", str(target / "sub")]) == 2
    err = _one_line_error(capsys)
    assert f"--out {target / 'sub'}: {target} is a file, not a folder" in err


def test_out_new_nested_folder_is_created(tmp_path, npz, capsys):
    out = tmp_path / "a" / "b"
    assert main(["report", str(npz), "--out", str(out)]) == 0
    assert (out / "summary.csv").is_file()


@pytest.mark.parametrize("hops", ["100000000", "1001", "0", "-3"])
def test_hops_is_bounded(hops, npz, capsys):
    assert main(["report", str(npz), "--hops", hops]) == 2
    err = _one_line_error(capsys)
    assert f"--hops {hops} must be between 1 and 1000" in err


def test_hops_at_the_bound_runs(npz, capsys):
    assert main(["report", str(npz), "--hops", "1000", "--json"]) == 0
    assert '"k": 1000' in capsys.readouterr().out


def test_check_out_file(tmp_path):
    from inspect_stance.errors import InputError
    from inspect_stance.paths import check_out_file

    with pytest.raises(InputError, match=r"--csv .*missing/t.csv: folder .*missing does not exist"):
        check_out_file(tmp_path / "missing" / "t.csv", "--csv")
    with pytest.raises(InputError, match=r"is a folder"):
        check_out_file(tmp_path, "--csv")
    assert check_out_file(tmp_path / "t.csv", "--csv") == tmp_path / "t.csv"
