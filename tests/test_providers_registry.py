"""The simulated model providers come from the methods' records: every provider a method
declares (``Method.providers``) is registered with Inspect by the entry point alone, under the
name users type (``--model NAME/...``), and its class is a ``ModelAPI`` that loads on first use."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from inspect_ai.model import ModelAPI

from inspect_stance.providers import register
from inspect_stance.study.protocol import Method
from inspect_stance.study.registry import methods

#: the provider names the README and docs tell users to type
DOCUMENTED = {
    "annotator_sim",
    "construction_sim",
    "even_sim",
    "press_sim",
    "pushback_sim",
    "relay_sim",
    "stance_sim",
}


def test_the_methods_declare_the_documented_providers():
    declared = {name for m in methods() for name in m.providers}
    assert declared == DOCUMENTED


def test_every_declared_provider_is_registered_by_the_entry_point_alone():
    code = (
        "import json, inspect_stance._registry; "
        "from inspect_ai._util.registry import registry_find, registry_info, "
        "registry_unqualified_name; found = registry_find(lambda i: i.type == 'modelapi'); "
        "print(json.dumps(sorted(registry_unqualified_name(registry_info(o)) for o in found)))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert DOCUMENTED <= set(json.loads(out.stdout))


@pytest.mark.parametrize("target", sorted({t for m in methods() for t in m.providers.values()}))
def test_each_declared_class_is_a_model_api(target):
    assert issubclass(register._factory(target)(), ModelAPI)


def test_a_provider_two_methods_declare_is_refused(monkeypatch):
    one = Method(name="one", tasks=("t1",), report_command="r", providers={"x_sim": "m:A"})
    two = Method(name="two", tasks=("t2",), report_command="r", providers={"x_sim": "m:B"})
    monkeypatch.setattr(register, "methods", lambda: [one, two])
    with pytest.raises(ValueError, match="model provider x_sim is already one's"):
        register.register_providers()


def test_a_declared_target_that_is_no_model_api_is_refused():
    with pytest.raises(TypeError, match="is not a ModelAPI class"):
        register._factory("inspect_stance.errors:InputError")()
