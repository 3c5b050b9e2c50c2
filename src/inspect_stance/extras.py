"""Optional dependencies: a one-line error naming the extra to install, before any model call."""

from __future__ import annotations

import importlib.util
import sys

from inspect_stance.errors import InputError

#: modules of the ``nli`` extra (``pip install "inspect-stance[nli]"``)
NLI_MODULES: tuple[str, ...] = ("torch", "transformers")


def missing_modules(names: tuple[str, ...]) -> list[str]:
    """The modules of ``names`` that cannot be imported (not installed, or blocked with
    ``sys.modules[name] = None``); found without importing them."""
    out = []
    for name in names:
        if name in sys.modules:
            if sys.modules[name] is None:
                out.append(name)
            continue
        try:
            found = importlib.util.find_spec(name) is not None
        except (ImportError, ValueError):
            found = False
        if not found:
            out.append(name)
    return out


def require_nli_extra(task: str, why: str) -> None:
    """Raise an :class:`InputError` when the ``nli`` extra is not installed.

    ``why`` says what needs it (e.g. "the NLI stance classifier (-T classifier=nli, the
    default)"); the message names the install command and the alternative.
    """
    missing = missing_modules(NLI_MODULES)
    if missing:
        raise InputError(
            f"{task}: {why} needs {' and '.join(missing)}, which are not installed: "
            'pip install "inspect-stance[nli]", or classify with a chat model: '
            "-T classifier=llm --model-role classifier=MODEL (and -T entropy_samples=0)"
        )
