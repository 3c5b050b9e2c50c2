"""Judge-ensemble stance scorer and the metrics of the prompt-construction study.

Every model bound to the role ``judges`` (``--model-role judges=A,B,C``; Inspect passes a role
bound to several models as a list in ``model_roles()["judges"]``) rates each response on the
IssueBench-based rubric (:mod:`inspect_stance.construction.rubric`) at temperature 0. The
ensemble outcome is the strict majority (:mod:`inspect_stance.construction.majority`).

``Score.value`` (and ``Score.metadata["outcome"]``, which is what the metrics read) is the
outcome: ``"1"``..``"5"``, ``"refusal"``, ``"no_majority"``,
``"no_valid_judge"``, ``"no_response"`` or ``"no_prompt"``. ``Score.metadata`` holds the setting,
the method, every judge's label, parse status and raw answer, and the human label if any, so
metrics and ``inspect-stance construction-report`` work from the score alone (also after
``inspect score``).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

from inspect_ai.model import GenerateConfig, Model
from inspect_ai.scorer import Score, Scorer, Target, scorer
from inspect_ai.solver import TaskState
from inspect_ai.util import LimitExceededError, collect
from inspect_stance.scorers.construction_metrics import construction_headline, construction_metrics
from inspect_stance.scorers.construction_metrics import (
    validation_agreement as validation_agreement,  # re-exported for the judge-validation task
)
from inspect_stance.scorers.construction_metrics import (
    validation_headline as validation_headline,  # re-exported for the judge-validation task
)

from inspect_stance.construction.keys import (
    JUDGES_ROLE,
    NO_JUDGES,
    STORE_GENERATION,
    STORE_PROMPT,
    STORE_STATUS,
    STORE_SWAP_PROMPT,
)
from inspect_stance.construction.labels import NO_PROMPT, NO_RESPONSE
from inspect_stance.construction.majority import strict_majority
from inspect_stance.construction.rubric import (
    DEFAULT_THRESHOLD,
    ERROR,
    JudgeAnswer,
    check_rubric_threshold,
    judge_prompt,
    parse_judge_answer,
)
from inspect_stance.explain import construction_explanation
from inspect_stance.roles import (
    config_dump,
    model_names,
    require_role_models,
    role_config,
    role_models,
)

logger = logging.getLogger(__name__)

# every judge call: deterministic labels, and room for a verbose judge to explain itself after
# (or before) the label; a role's own config (--model-role 'judges={model: m, max_tokens: 32}')
# wins field by field
JUDGE_DEFAULTS = GenerateConfig(temperature=0.0, max_tokens=256)
RAW_ANSWER_CHARS = 300
# sample metadata copied into the score
META_KEYS: tuple[str, ...] = (
    "topic_id",
    "topic_neutral",
    "topic_pro",
    "topic_con",
    "filler_pole",
    "intent",
    "stance",
    "method",
    "setting",
    "slot",
    "replicate",
    "template_id",
    "prompt_source",
    "annotator_labels",
)


def judge_models() -> list[Model]:
    """The models bound to role ``judges`` (one or more); a one-line ``InputError`` if none."""
    return require_role_models(JUDGES_ROLE, NO_JUDGES)


def judge_configs() -> dict[str, dict[str, Any]]:
    """The generation config each bound judge's calls carry (``role_config`` over
    :data:`JUDGE_DEFAULTS`), by judge name, for the log; empty when no judge is bound."""
    judges = role_models(JUDGES_ROLE)
    return {
        name: config_dump(m, JUDGE_DEFAULTS)  # scrubbed of credentials
        for name, m in zip(judge_names(judges), judges, strict=True)
    }


def judge_names(judges: Sequence[Model]) -> list[str]:
    """Unique display names (:func:`inspect_stance.roles.model_names`)."""
    return model_names(judges)


async def _ask(judge: Model, rubric: str) -> tuple[str, bool]:
    """A judge's answer text and False, or the error text and True when the call failed.

    A judge call that still fails after Inspect's retries is recorded as that judge's answer
    with status ``error`` (counted with the unparsable answers, left out of the vote) instead
    of failing the whole sample. Sample limits (time, tokens) still end the sample.
    """
    try:
        output = await judge.generate(rubric, config=role_config(judge, JUDGE_DEFAULTS))
    except LimitExceededError:
        raise
    except Exception as ex:
        logger.warning("judge %s failed: %s: %s", judge, type(ex).__name__, ex)
        return f"{type(ex).__name__}: {ex}", True
    return output.completion or "", False


def base_metadata(state: TaskState) -> dict[str, Any]:
    """What every score of a sample carries: the sample metadata of :data:`META_KEYS`, the
    human label, and the prompter's generation counts when the prompt was generated."""
    meta = state.metadata
    base: dict[str, Any] = {k: meta.get(k) for k in META_KEYS if k in meta}
    base["human_label"] = meta.get("human_label")
    generation = state.store.get(STORE_GENERATION)
    if generation:
        base["generation"] = {
            k: generation.get(k)
            for k in ("n_requested", "n_parsed", "n_dropped", "format", "prompter")
        }
    return base


def judge_metadata(
    names: Sequence[str], answers: Sequence[JudgeAnswer], replies: Sequence[tuple[str, bool]]
) -> dict[str, Any]:
    """Every judge's label, parse status and raw answer (first :data:`RAW_ANSWER_CHARS`)."""
    return {
        "judges": list(names),
        "judge_labels": {n: a.label for n, a in zip(names, answers, strict=True)},
        "judge_status": {n: a.status for n, a in zip(names, answers, strict=True)},
        "judge_raw": {
            n: text[:RAW_ANSWER_CHARS] for n, (text, _) in zip(names, replies, strict=True)
        },
    }


def rubric_for(
    meta: dict[str, Any], response: str, prompt_text: str | None, threshold: float
) -> str:
    """The judges' rubric for ``response`` on the sample's topic (the user prompt shown when
    ``prompt_text`` is given)."""
    return judge_prompt(
        response_text=response,
        topic_neutral=meta["topic_neutral"],
        topic_pro=meta["topic_pro"],
        topic_con=meta["topic_con"],
        prompt_text=prompt_text,
        threshold=threshold,
    )


async def rate(
    judges: Sequence[Model], rubric: str
) -> tuple[list[tuple[str, bool]], list[JudgeAnswer]]:
    """Every judge's reply to ``rubric`` (concurrently) and its parsed answer; a failed call
    is an answer with status ``error``."""
    replies = await collect(*[_ask(j, rubric) for j in judges])
    answers = [
        JudgeAnswer(None, ERROR) if failed else parse_judge_answer(text) for text, failed in replies
    ]
    return replies, answers


@scorer(metrics=[construction_headline(), construction_metrics()])
def stance_ensemble(
    rubric_threshold: float = DEFAULT_THRESHOLD,
    judge_sees_prompt: bool = True,
    judge_prompts: Sequence[str] = (),
    reversed_rubric: bool = False,
) -> Scorer:
    """Rate the response with every judge and take the strict majority (see module docstring).

    Each judge is called once per response with :data:`JUDGE_DEFAULTS` (temperature 0,
    ``max_tokens`` 256) for every field its role config leaves unset, and once more per judge
    control (``judge_prompts`` after the first, ``reversed_rubric``; see
    :mod:`inspect_stance.construction.controls`), stored in ``metadata["controls"]``.
    """
    threshold = check_rubric_threshold(rubric_threshold)
    controls = list(judge_prompts) or ["original" if judge_sees_prompt else "none"]
    with_controls = len(judge_prompts) > 1 or reversed_rubric

    async def score(state: TaskState, target: Target) -> Score:  # noqa: ARG001
        meta, base = state.metadata, base_metadata(state)
        if state.store.get(STORE_STATUS) == NO_PROMPT:
            why = "the generator wrote no prompt for this slot"
            return Score(value=NO_PROMPT, explanation=why, metadata={**base, "outcome": NO_PROMPT})
        prompt_text = state.store.get(STORE_PROMPT) or meta.get("prompt_text")
        base["prompt_text"] = prompt_text
        response = state.output.completion if state.output else ""
        if not response or not response.strip():
            why = "the target returned no text"
            return Score(
                value=NO_RESPONSE, explanation=why, metadata={**base, "outcome": NO_RESPONSE}
            )
        judges = judge_models()
        names = judge_names(judges)
        shown = prompt_text if judge_sees_prompt else None
        replies, answers = await rate(judges, rubric_for(meta, response, shown, threshold))
        outcome = strict_majority(a.label for a in answers)
        metadata = {
            **base,
            "outcome": outcome,
            **judge_metadata(names, answers, replies),
            "judge_sees_prompt": bool(judge_sees_prompt),
            "rubric_threshold": threshold,
        }
        if with_controls:
            from inspect_stance.scorers.construction_controls import rate_controls

            swap = state.store.get(STORE_SWAP_PROMPT) or meta.get("swap_prompt_text")
            prompts = {"original": prompt_text, "swapped": swap}
            metadata["controls"] = await rate_controls(
                _ask, judges, names, meta, response, prompts, controls, reversed_rubric, threshold
            )
        labels, statuses = [a.label for a in answers], [a.status for a in answers]
        explanation = construction_explanation(
            names, labels, statuses, outcome, meta.get("setting")
        )
        return Score(
            value=outcome, answer=response[:500], explanation=explanation, metadata=metadata
        )

    return score
