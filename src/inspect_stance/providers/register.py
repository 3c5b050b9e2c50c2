"""Registers the simulated model providers with Inspect, without importing them.

Inspect imports the package's entry point in every ``inspect`` command, so each factory below
imports its provider class only when Inspect creates a model of that provider (as Inspect's own
providers do): ``numpy`` and the simulators' tables load on first use, not at start-up
(``tests/test_entry_point.py``).
"""

from __future__ import annotations

from inspect_ai.model import ModelAPI, modelapi


@modelapi(name="annotator_sim")
def annotator_sim() -> type[ModelAPI]:
    """Register the ``annotator_sim`` provider."""
    from inspect_stance.providers.annotator_sim import AnnotatorSim

    return AnnotatorSim


@modelapi(name="construction_sim")
def construction_sim() -> type[ModelAPI]:
    """Register the ``construction_sim`` provider."""
    from inspect_stance.providers.construction_sim import ConstructionSim

    return ConstructionSim


@modelapi(name="even_sim")
def even_sim() -> type[ModelAPI]:
    """Register the ``even_sim`` provider (scripted even-handedness target and graders)."""
    from inspect_stance.providers.even_sim import EvenSim

    return EvenSim


@modelapi(name="press_sim")
def press_sim() -> type[ModelAPI]:
    """Register the ``press_sim`` provider (scripted PReSS arguer / target / classifier)."""
    from inspect_stance.providers.press_sim import PressSimAPI

    return PressSimAPI


@modelapi(name="pushback_sim")
def pushback_sim() -> type[ModelAPI]:
    """Register the ``pushback_sim`` provider (simulated pushback target, known hazard)."""
    from inspect_stance.providers.pushback_sim import PushbackSim

    return PushbackSim


@modelapi(name="relay_sim")
def relay_sim_provider() -> type[ModelAPI]:
    """Register the simulated relay provider."""
    from inspect_stance.providers.relay_sim import RelaySimAPI

    return RelaySimAPI


@modelapi(name="stance_sim")
def stance_sim_provider() -> type[ModelAPI]:
    """Register the simulated respondent provider."""
    from inspect_stance.providers.stance_sim import StanceSimAPI

    return StanceSimAPI


__all__ = [
    "annotator_sim",
    "construction_sim",
    "even_sim",
    "press_sim",
    "pushback_sim",
    "relay_sim_provider",
    "stance_sim_provider",
]
