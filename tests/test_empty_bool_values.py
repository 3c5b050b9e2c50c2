"""An empty boolean (``-T cache=``) is an input error, not false.

Inspect parses ``-T cache=`` as YAML, so the task receives None; ``-T cache=""`` gives ``""``.
Neither may silently switch the trial record off.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from inspect_stance.errors import InputError
from inspect_stance.params import as_bool, parse_bool
from inspect_stance.providers.args import arg_bool

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(Path(__file__).parent))
from cli_sweep import sweep  # noqa: E402


@pytest.mark.parametrize("value", [None, "", "  "])
def test_an_empty_value_is_not_a_boolean(value):
    with pytest.raises(InputError, match="cache is empty; use -T cache=true or -T cache=false"):
        as_bool("cache", value)
    assert parse_bool(value) is None
    with pytest.raises(InputError, match="is not a boolean"):
        arg_bool("stance_sim", "logprobs", value)


def test_the_words_still_parse():
    assert as_bool("cache", "false") is False and as_bool("cache", "none") is False
    assert as_bool("cache", "true") is True and as_bool("cache", 1) is True


def test_empty_cache_through_the_cli_is_one_line(tmp_path):
    env = dict(os.environ, INSPECT_LOG_DIR=str(tmp_path / "logs"), INSPECT_DISPLAY="none")
    base = ["eval", "tasks/stance_drift.py", "--model", "stance_sim/respondent", "-T", "trials=1"]
    results = sweep([[*base, "-T", "cache="], [*base, "-T", 'cache=""']], str(ROOT), env)
    for r in results:
        lines = [ln for ln in (r.stdout + "\n" + r.stderr).splitlines() if ln.strip()]
        assert r.returncode != 0, r
        assert len(lines) == 1 and "cache is empty" in lines[0], lines
    assert not (tmp_path / "logs").exists() or not list((tmp_path / "logs").iterdir())
