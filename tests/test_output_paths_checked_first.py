"""``--html`` naming a folder or a path under a missing folder is refused in one line before any
work (exit 2), not after the report is computed."""

from __future__ import annotations

import numpy as np
import pytest

from inspect_stance.cli import main


@pytest.mark.parametrize("command", ["report", "compare"])
def test_html_folder_refused_before_work(command, tmp_path, capsys) -> None:
    run = tmp_path / "run.npz"
    np.savez(run, probs=np.random.default_rng(0).dirichlet(np.ones(5), size=(2, 3, 5)))
    extra = [str(run)] if command == "compare" else []
    for bad in (tmp_path, tmp_path / "missing" / "page.html"):
        assert main([command, str(run), *extra, "--html", str(bad)]) == 2
        err = capsys.readouterr().err.strip()
        assert len(err.splitlines()) == 1 and f"--html {bad}" in err, err
