"""The shared ``compare`` request names no method's option: each method-specific flag of
``compare`` is declared by its method (:attr:`inspect_stance.study.protocol.Comparer.options`)
and reaches it by ``dest`` in ``CompareRequest.options``."""

from __future__ import annotations

from dataclasses import fields

from inspect_stance.study.protocol import CompareRequest
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
