"""The shared ``compare`` request names no method's option: each method-specific flag of
``compare`` is declared by its method (:attr:`inspect_stance.study.protocol.Comparer.options`)
and reaches it by ``dest`` in ``CompareRequest.options``."""

from __future__ import annotations

from dataclasses import fields

import pytest

from inspect_stance.cli import build_parser
from inspect_stance.study.protocol import CompareRequest, GateRequest
from inspect_stance.study.registry import methods

#: each method-specific compare flag -> the method that declares it
OWN_FLAGS = {
    "--exclude-unparsed": "stance_drift",
    "--persona": "press",
    "--allow-different-arguments": "press",
    "--per-setting": "construction",
}


def test_the_shared_request_has_no_field_of_a_methods_option():
    shared = {f.name for f in fields(CompareRequest)}
    declared = {o.dest for m in methods() if m.comparer for o in m.comparer.options}
    assert not shared & declared
    assert not shared & {flag.lstrip("-").replace("-", "_") for flag in OWN_FLAGS}


def test_each_method_specific_flag_is_declared_by_its_method_only():
    owners: dict[str, list[str]] = {}
    for m in methods():
        for o in m.comparer.options if m.comparer else ():
            owners.setdefault(o.flag, []).append(m.name)
    assert {flag: owners.get(flag) for flag in OWN_FLAGS} == {
        flag: [name] for flag, name in OWN_FLAGS.items()
    }


#: each method-specific gate flag -> the method that declares it
GATE_FLAGS = {"--exclude-unparsed": "stance_drift", "--persona": "press"}


def test_the_shared_gate_request_has_no_field_of_a_methods_option():
    shared = {f.name for f in fields(GateRequest)}
    declared = {o.dest for m in methods() if m.gate for o in m.gate.options}
    assert declared >= {flag.lstrip("-").replace("-", "_") for flag in GATE_FLAGS}
    assert not shared & declared


def test_each_gate_flag_is_declared_by_its_method_only():
    owners: dict[str, list[str]] = {}
    for m in methods():
        for o in m.gate.options if m.gate else ():
            owners.setdefault(o.flag, []).append(m.name)
    assert owners == {flag: [name] for flag, name in GATE_FLAGS.items()}


def test_another_methods_gate_option_is_refused_and_its_own_read():
    from inspect_stance.cli.gate import gate_request
    from inspect_stance.errors import InputError
    from inspect_stance.study.registry import method_named

    parser = build_parser()
    press, drift = method_named("press"), method_named("stance_drift")
    args = parser.parse_args(["gate", "run.eval", "--exclude-unparsed"])
    with pytest.raises(InputError, match="^--exclude-unparsed is an option of stance-drift runs"):
        gate_request(args, press)
    assert gate_request(args, drift).options == {"exclude_unparsed": True}
    args = parser.parse_args(["gate", "run.eval", "--persona", "left"])
    assert gate_request(args, press).options == {"persona": "left"}
    with pytest.raises(InputError, match="^--persona is an option of PReSS runs"):
        gate_request(args, drift)
