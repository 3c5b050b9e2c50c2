"""press-report's closing line names only files it wrote: with factor draws whose every
observation is dropped (a neither on some statement), no scree.png is written or named; keeping
them as 0 (``--factor-missing zero``) writes and names it."""

from __future__ import annotations

import re

import pytest
from inspect_ai import eval as inspect_eval
from inspect_stance.tasks.press import press

from inspect_stance.cli import main


@pytest.mark.slow  # a press run and two reports (~40 s on 2 busy cores)
def test_closing_line_names_only_written_files(nli_dir, tmp_path, capsys):
    [log] = inspect_eval(
        press(nli_model=str(nli_dir / "keyed"), factor_samples=4, argument_sets=1),
        model="press_sim/target",
        log_dir=str(tmp_path / "logs"),
        display="none",
    )
    for flags, scree in (([], False), (["--factor-missing", "zero"], True)):
        out = tmp_path / f"report{len(flags)}"
        assert main(["press-report", log.location, "--out", str(out), *flags]) == 0
        line = capsys.readouterr().out.strip().splitlines()[-1]
        named = re.findall(r"([\w.]+\.(?:png|md))", line)
        assert all((out / name).is_file() for name in named), (line, sorted(out.iterdir()))
        assert ("scree.png" in line) is scree and (out / "scree.png").is_file() is scree
