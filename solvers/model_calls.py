"""What the stance-drift solvers (one hop: :mod:`inspect_stance.solvers.stance_drift`; chain:
:mod:`inspect_stance.solvers.stance_chain`) read of a model and its answers: the top logprobs
of an answer, the generation config in force (for the trial record's key), and how many trials
run at once."""

from __future__ import annotations

from typing import Any

from inspect_ai.model import Model, ModelOutput

from inspect_stance.inspect_adapter import active_generate_config

#: the fewest top logprobs an extraction call asks for (the five letters)
MIN_TOP_LOGPROBS = 5


def logprob_tokens(
    output: ModelOutput,
) -> tuple[list[str] | None, list[list[tuple[str, float]]] | None]:
    """Generated tokens and their top logprobs, or ``(None, None)`` without logprobs."""
    choice = output.choices[0] if output.choices else None
    if choice is None or choice.logprobs is None or not choice.logprobs.content:
        return None, None
    tokens = [lp.token for lp in choice.logprobs.content]
    # no top alternatives = no distribution to read: the estimator falls back to frequency
    tops = [
        [(t.token, t.logprob) for t in (lp.top_logprobs or [])] for lp in choice.logprobs.content
    ]
    return tokens, tops


def generation_settings(model: Model) -> dict[str, Any]:
    """The generation config in force for ``model``'s calls (its own config merged with the
    eval's ``--temperature`` etc.); :func:`~inspect_stance.fingerprint.model_identity` drops
    the operational settings such as connection limits."""

    merged = model.config.merge(active_generate_config())
    return dict(merged.model_dump(exclude_none=True))


def trials_in_flight(model: Model) -> int:
    """How many of a sample's trials run at once: the model's connection limit
    (``--max-connections``, else the provider's default)."""

    limit = (
        model.config.max_connections
        or active_generate_config().max_connections
        or model.api.max_connections()
    )
    return max(1, int(limit))
