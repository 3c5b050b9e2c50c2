"""Solver of the prompt-validation study: every annotator ranks and labels one setting's prompts.

One sample is one setting. The solver

1. completes the setting's prompts: generated prompts not taken from ``prompts_from`` are
   written by the model bound to role ``prompter`` in one call per setting (the
   prompt-construction generator instructions, Inspect's model cache for a week, keyed on the
   prompter's model args too, so ``eval-retry`` gets the same prompts); a slot the generator
   left empty is recorded as missing;
2. for each model bound to role ``annotators`` (concurrently): shows the prompts in that
   annotator's recorded shuffled order, asks for the realism ranking (one call), and asks for
   each prompt's intent / stance / side (one call per prompt);
3. records everything in the store (``validation:items``, ``validation:annotations``, lists
   and dicts only), which the scorer copies into the score.

A call that fails after Inspect's retries is recorded with status ``error`` and counted with
the unparsed answers; sample limits still end the sample.
"""

from __future__ import annotations

import logging
from typing import Any

from inspect_ai.model import CachePolicy, GenerateConfig, Model, get_model, model_roles
from inspect_ai.solver import Generate, Solver, TaskState, solver
from inspect_ai.util import LimitExceededError, collect

from inspect_stance.construction.generation import parse_generated_prompts
from inspect_stance.construction.keys import (
    ANNOTATORS_ROLE,
    NO_ANNOTATORS,
    PROMPTER_ROLE,
    STORE_ANNOTATIONS,
    STORE_ITEMS,
    STORE_MISSING,
    STORE_VALIDATION_GENERATION,
)
from inspect_stance.errors import InputError
from inspect_stance.fingerprint import ROLE_CACHE_EXPIRY, role_cache_scopes
from inspect_stance.roles import model_names, require_role_models, role_config
from inspect_stance.validation.annotation import (
    ERROR,
    FIELDS,
    OK,
    UNPARSED,
    label_prompt,
    parse_labels,
    parse_ranking,
    ranking_prompt,
    ranks_from_ranking,
    shuffled_order,
)

logger = logging.getLogger(__name__)

RANKING_CONFIG = GenerateConfig(max_tokens=256, temperature=0.0)
LABEL_CONFIG = GenerateConfig(max_tokens=128, temperature=0.0)
PROMPTER_CONFIG = GenerateConfig(max_tokens=4096)
RAW_CHARS = 400
RAW_GENERATION_CHARS = 20_000
SKIPPED = "skipped"  # ranking of a setting with fewer than two prompts


def annotator_models() -> list[Model]:
    """The models bound to role ``annotators`` (one or several); a one-line error if none."""
    return require_role_models(ANNOTATORS_ROLE, NO_ANNOTATORS)


def annotator_names(models: list[Model]) -> list[str]:
    """Unique display names (:func:`inspect_stance.roles.model_names`)."""
    return model_names(models)


async def _ask(model: Model, prompt: str, defaults: GenerateConfig) -> tuple[str, bool]:
    """The answer text and False, or the error text and True when the call failed."""
    try:
        output = await model.generate(prompt, config=role_config(model, defaults))
    except LimitExceededError:
        raise
    except Exception as ex:  # noqa: BLE001 - a failed call is recorded, not fatal
        logger.warning("annotator %s failed: %s: %s", model, type(ex).__name__, ex)
        return f"{type(ex).__name__}: {ex}", True
    return output.completion or "", False


async def annotate(
    model: Model,
    name: str,
    index: int,
    items: list[dict[str, Any]],
    meta: dict[str, Any],
    seed: int,
) -> dict[str, Any]:
    """One annotator's ranking and labels of one setting's prompts (a JSON-able record)."""
    order = shuffled_order(len(items), seed, meta["setting"], index)
    shown = [items[i] for i in order]
    topic = (meta["topic_neutral"], meta["topic_pro"], meta["topic_con"])
    record: dict[str, Any] = {
        "annotator": name,
        "order": [x["item_id"] for x in shown],
        "ranks": {},
    }
    if len(items) >= 2:
        text, failed = await _ask(
            model, ranking_prompt(*topic, [x["text"] for x in shown]), RANKING_CONFIG
        )
        ranking = None if failed else parse_ranking(text, len(items))
        record["ranking_status"] = ERROR if failed else (OK if ranking else UNPARSED)
        record["ranking_raw"] = text[:RAW_CHARS]
        if ranking:
            ranks = ranks_from_ranking(ranking, order)
            record["ranks"] = {items[i]["item_id"]: r for i, r in ranks.items()}
    else:
        record["ranking_status"] = SKIPPED
        record["ranking_raw"] = ""
    replies = await collect(
        *[_ask(model, label_prompt(*topic, x["text"]), LABEL_CONFIG) for x in shown]
    )
    labels: dict[str, dict[str, Any]] = {}
    for x, (text, failed) in zip(shown, replies, strict=True):
        parsed = {f: None for f in FIELDS} if failed else parse_labels(text)
        labels[x["item_id"]] = {
            **parsed,
            "status": {
                f: ERROR if failed else (OK if parsed[f] is not None else UNPARSED) for f in FIELDS
            },
            "raw": text[:RAW_CHARS],
        }
    record["labels"] = labels
    return record


@solver
def validation_annotation(seed: int = 0, prompter_cache: bool = True) -> Solver:
    """Complete a setting's prompts and collect every annotator's answers (module docstring)."""

    async def generated_prompts(state: TaskState) -> list[str]:
        if PROMPTER_ROLE not in model_roles():
            raise InputError(
                "prompt_validation: generated prompts need --model-role prompter=MODEL, or "
                "-T prompts_from=LOG_OR_FILE"
            )
        prompter = get_model(role=PROMPTER_ROLE, required=True)
        # keyed on the prompter's model args too (Inspect's key lacks them), a week
        scopes = role_cache_scopes(prompter)
        cache = (
            CachePolicy(expiry=ROLE_CACHE_EXPIRY, per_epoch=False, scopes=scopes)
            if prompter_cache
            else False
        )
        output = await prompter.generate(
            state.metadata["generation_instructions"],
            cache=cache,
            config=role_config(prompter, PROMPTER_CONFIG),
        )
        raw = output.completion or ""
        prompts = parse_generated_prompts(raw)
        state.store.set(
            STORE_VALIDATION_GENERATION,
            {
                "prompter": str(prompter),
                "n_parsed": len(prompts),
                "raw": raw[:RAW_GENERATION_CHARS],
            },
        )
        return prompts

    async def solve(state: TaskState, generate: Generate) -> TaskState:  # noqa: ARG001
        models = annotator_models()
        names = annotator_names(models)
        items = [dict(x) for x in state.metadata["items"]]
        if any(x["text"] is None for x in items):
            written = await generated_prompts(state)
            for x in items:
                if x["text"] is None and int(x["slot"]) < len(written):
                    x["text"] = written[int(x["slot"])]
        missing = [x["item_id"] for x in items if x["text"] is None]
        items = [x for x in items if x["text"] is not None]
        state.store.set(STORE_ITEMS, items)
        state.store.set(STORE_MISSING, missing)
        records = await collect(
            *[
                annotate(model, name, i, items, state.metadata, seed)
                for i, (model, name) in enumerate(zip(models, names, strict=True))
            ]
        )
        state.store.set(STORE_ANNOTATIONS, list(records))
        state.completed = True
        return state

    return solve
