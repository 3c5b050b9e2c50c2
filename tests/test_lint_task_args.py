"""``inspect_adapter.parse_task_args`` parses ``-T`` strings exactly as ``inspect eval`` does.

It re-implements Inspect's private ``parse_cli_args`` (so the package imports one private name
fewer); the test compares the two on the values a job definition passes, so a change in
Inspect's rule shows up here.
"""

from __future__ import annotations

import pytest

from inspect_stance.inspect_adapter import parse_task_args

CASES = [
    ["trials=100"],
    ["limit_propositions=5", "cache=false"],
    ["temperature=0.7", "seed=-3"],
    ["topics=1003"],
    ["topics=1001,1002"],  # comma list
    ["intents=opinion,information"],
    ["variant=multiple_extraction"],
    ["name=a=b"],  # '=' inside the value
    ["shard=2/4"],
    ["hops=3", "words-limit=50"],  # '-' in the name
    ["propositions=hub", "entropy_samples=true"],
    ["x=[1, 2, 3]"],  # YAML flow list
    ["x={a: 1, b: two}"],  # YAML mapping
    ["x='quoted, with comma'"],  # quoted string with a comma
    ["x="],  # empty value: YAML null
    ["x=null", "y=~"],
    ["x=1e3", "y=0x10", "z=.5"],
    ["x=yes", "y=No", "z=on"],
    ["x= spaced "],
    ["x=2026-12-04"],  # a YAML date
    ["novalue", "trials=3"],  # no '=': skipped
    ["x=1", "x=2"],  # repeated name: the last wins
    ["annotations=../shared/data/issuebench/stance_annotations.csv"],
    ["x=a,,b"],
]


@pytest.mark.parametrize("args", CASES, ids=[" ".join(c) for c in CASES])
def test_same_as_inspect(args):
    from inspect_ai._util.config import parse_cli_args

    assert parse_task_args(args) == parse_cli_args(args)


@pytest.mark.parametrize("bad", ["y=,", "y=[1,", "y=: x"])
def test_same_refusal_as_inspect(bad):
    """A value that is not YAML fails in both with YAML's error."""
    import yaml
    from inspect_ai._util.config import parse_cli_args

    with pytest.raises(yaml.YAMLError):
        parse_cli_args([bad])
    with pytest.raises(yaml.YAMLError):
        parse_task_args([bad])


def test_inspect_eval_cli_uses_this_parser():
    """``inspect eval -T`` goes through ``parse_cli_config`` -> ``parse_cli_args`` (no options),
    the function compared above."""
    from inspect_ai._cli.util import parse_cli_config

    args = ["topics=1001,1002", "trials=3", "x='a, b'"]
    assert parse_cli_config(args, None) == parse_task_args(args)
