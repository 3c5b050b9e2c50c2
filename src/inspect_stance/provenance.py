"""Who answered each call: the provider's own account, kept per sample and summed per run.

Inspect keeps every model call's event in the transcript (``ModelEvent``: the model asked for,
its role, the ``ModelOutput`` with the model name the provider returned, and the raw response
in ``call.response``). At the end of each sample, :func:`record_provenance` (the tasks'
``cleanup``) counts the sample's calls by

- ``role`` (``None`` for the model under test) and ``model`` (the model asked for),
- ``returned_model``: the model name in the provider's response (``ModelOutput.model``),
- ``system_fingerprint``: the backend configuration the provider reports (OpenAI's
  ``system_fingerprint``, in the raw response; ``None`` where the provider gives none),
- ``route``: the upstream provider where a router says (OpenRouter's ``provider``),
- ``cached``: whether Inspect answered from its own cache (``ModelEvent.cache == "read"``),

and stores the counts in the sample's store (:data:`STORE_KEY`), which reports read with the
samples (no transcript needed). :func:`provenance_notes` says when a run's (or a pooled study's)
calls of one model came from more than one fingerprint or returned model: a model updated
behind the same name mid-study is a confound.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from typing import Any

from inspect_stance.printable import printable

#: the sample-store key of a sample's call provenance
STORE_KEY = "inspect_stance:provenance"
_FIELDS: tuple[str, ...] = (
    "role",
    "model",
    "returned_model",
    "system_fingerprint",
    "route",
    "cached",
)
ROUTE_KEYS: tuple[str, ...] = ("provider",)


def call_provenance(event: Any) -> dict[str, Any]:
    """The provenance fields of one ``ModelEvent`` (module docstring)."""
    output = getattr(event, "output", None)
    call = getattr(event, "call", None)
    response = getattr(call, "response", None) if call is not None else None
    response = response if isinstance(response, Mapping) else {}
    route = next((str(response[k]) for k in ROUTE_KEYS if response.get(k)), None)
    fingerprint = response.get("system_fingerprint")
    return {
        "role": getattr(event, "role", None),
        "model": str(getattr(event, "model", "")),
        "returned_model": (getattr(output, "model", None) or None) if output is not None else None,
        "system_fingerprint": None if fingerprint is None else str(fingerprint),
        "route": route,
        "cached": getattr(event, "cache", None) == "read",
    }


def count_calls(events: Iterable[Any]) -> list[dict[str, Any]]:
    """The provenance of the finished ``ModelEvent`` s among ``events``, counted (``calls``)."""
    from inspect_ai.event import ModelEvent

    counts: Counter[tuple[Any, ...]] = Counter()
    for event in events:
        if isinstance(event, ModelEvent) and not event.pending:
            entry = call_provenance(event)
            counts[tuple(entry[f] for f in _FIELDS)] += 1
    return [{**dict(zip(_FIELDS, key, strict=True)), "calls": n} for key, n in counts.items()]


async def record_provenance(state: Any) -> None:
    """Task ``cleanup``: the sample's call provenance (:func:`count_calls` over its transcript)
    into its store under :data:`STORE_KEY` (written to the log with the sample)."""
    from inspect_ai.log import transcript

    state.store.set(STORE_KEY, count_calls(transcript().events))


def merge(entries: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Provenance entries (of samples, runs or shards) summed by their fields."""
    counts: Counter[tuple[Any, ...]] = Counter()
    for e in entries:
        counts[tuple(e.get(f) for f in _FIELDS)] += int(e.get("calls", 0))
    return [{**dict(zip(_FIELDS, key, strict=True)), "calls": n} for key, n in counts.items()]


def samples_provenance(samples: Iterable[Any]) -> list[dict[str, Any]]:
    """The summed provenance of a log's samples (their stores; none for older logs)."""
    return merge(
        e for s in samples for e in ((getattr(s, "store", None) or {}).get(STORE_KEY) or [])
    )


def provenance_notes(entries: Iterable[Mapping[str, Any]], run: str = "run") -> list[str]:
    """One line per model (and role) whose calls came from more than one system fingerprint or
    returned model name, e.g. ``run: calls to openai/gpt-4o came from 2 system fingerprints
    (fp_a 120 calls, fp_b 80 calls): the model may have changed mid-study``. Cached answers
    are left out (they say who answered when the cache was written), and so are calls naming no
    fingerprint or returned model (a failed call). Names and fingerprints are escaped
    (:func:`~inspect_stance.printable.printable`: no line break reaches the output). Empty when
    none did."""
    by_model: dict[tuple[Any, str], dict[str, Counter[str]]] = {}
    for e in entries:
        if e.get("cached"):
            continue
        seen = by_model.setdefault(
            (e.get("role"), str(e.get("model"))), {"fp": Counter(), "m": Counter()}
        )
        seen["fp"][str(e.get("system_fingerprint"))] += int(e.get("calls", 0))
        seen["m"][str(e.get("returned_model"))] += int(e.get("calls", 0))
    notes = []
    for (role, model), seen in by_model.items():
        who = f"{model} (role {role})" if role else model
        for key, what in (("fp", "system fingerprints"), ("m", "returned model names")):
            # a call that names none (a failed call, a provider that gives none) says nothing
            # about which model answered: only named values count
            named = Counter({k: n for k, n in seen[key].items() if k != "None"})
            if len(named) > 1:
                shown = ", ".join(f"{k} {n} calls" for k, n in named.most_common())
                notes.append(printable(
                    f"{run}: calls to {who} came from {len(named)} {what} ({shown}): the "
                    "model may have changed mid-study"
                ))  # fmt: skip
    return notes


def _run_name(run: Any) -> str:
    return str(getattr(run, "name", None) or getattr(run, "model", "run"))


def run_provenance(run: Any) -> dict[str, Any]:
    """A report's JSON entries of a run (a stance-drift or PReSS run with ``provenance``):
    ``provenance`` (the summed counts) and ``provenance_notes`` (:func:`provenance_notes`)."""
    entries = list(getattr(run, "provenance", None) or [])
    return {"provenance": entries, "provenance_notes": provenance_notes(entries, _run_name(run))}


def warn_provenance(runs: Iterable[Any], prog: str) -> None:
    """Print ``<prog>: warning: <note>`` on stderr for each note of each run."""
    import sys

    for run in runs:
        for line in provenance_notes(getattr(run, "provenance", None) or [], _run_name(run)):
            print(printable(f"{prog}: warning: {line}"), file=sys.stderr)
