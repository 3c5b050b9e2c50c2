"""Solvers of the prompt-construction study.

``construction_prompt`` puts the sample's prompt in place before the target answers:

- templated prompts and reused prompts (``prompts_from``) are already in the sample;
- generated prompts are written during the run by the model bound to role ``prompter``
  (checked when the task is built): one generator call per setting, with
  :data:`PROMPTER_DEFAULTS` (temperature 1, ``max_tokens`` 2048) for every field the role's own
  config leaves unset, (all slots of a setting share it; concurrent samples of a setting
  wait for the first), made with Inspect's model cache (kept a week, independent of epoch, and
  keyed on the prompter's model args as well as Inspect's own key:
  :func:`inspect_stance.fingerprint.role_cache_scopes`) so that ``inspect eval-retry`` of an
  interrupted run gets the very same prompts back. A slot beyond the
  number of prompts the generator returned is marked ``no_prompt`` (counted by the metrics) and
  the target is not called.

The prompt text goes into the store (``construction:prompt``); the generator's raw answer, how
many prompts it asked for and how many its answer gave (and in which format, see
:func:`inspect_stance.construction.generation.read_generated_prompts`) into
``construction:generation``, so a log can be reused with ``-T prompts_from=LOG`` and an
unreadable answer is counted (metric ``prompter_unparsed_settings``, outcome ``no_prompt``).
"""

from __future__ import annotations

import anyio
from inspect_ai.model import (
    CachePolicy,
    ChatMessageUser,
    GenerateConfig,
    Model,
    get_model,
    model_roles,
)
from inspect_ai.solver import Generate, Solver, TaskState, solver

from inspect_stance.construction.generation import GeneratedPrompts, read_generated_prompts
from inspect_stance.construction.keys import (
    JUDGES_ROLE,
    NO_JUDGES,
    PROMPTER_ROLE,
    STORE_GENERATION,
    STORE_PROMPT,
    STORE_STATUS,
    STORE_SWAP_PROMPT,
)
from inspect_stance.construction.labels import NO_PROMPT
from inspect_stance.errors import InputError
from inspect_stance.fingerprint import ROLE_CACHE_EXPIRY, role_cache_scopes
from inspect_stance.roles import require_role_models, role_config

# one call writes all prompts of a setting (10 by default, up to a few sentences each):
# sampling at temperature 1 for varied prompts, bounded output
PROMPTER_DEFAULTS = GenerateConfig(temperature=1.0, max_tokens=2048)
RAW_GENERATION_CHARS = 20_000


async def generate_prompts(
    prompter: Model, instructions: str, prompter_cache: bool
) -> tuple[GeneratedPrompts, str, str]:
    """One ``prompter`` call for a setting: its parsed prompts, the raw answer and the
    prompter's name; cached (a week, keyed on the prompter's model args too) unless
    ``prompter_cache`` is false."""
    # keyed on the prompter's model args too (Inspect's key lacks them), a week
    cache = (
        CachePolicy(expiry=ROLE_CACHE_EXPIRY, per_epoch=False, scopes=role_cache_scopes(prompter))
        if prompter_cache
        else False
    )
    output = await prompter.generate(
        instructions, cache=cache, config=role_config(prompter, PROMPTER_DEFAULTS)
    )
    text = output.completion or ""
    return read_generated_prompts(text), text, str(prompter)


def generation_record(
    parsed: GeneratedPrompts, raw: str, prompter: str, n_requested: int
) -> dict[str, object]:
    """What ``construction:generation`` keeps of a setting's prompter call: who wrote it, how
    many prompts were asked for, parsed and dropped, the format, the raw answer (truncated)."""
    return {
        "prompter": prompter,
        "n_requested": n_requested,
        "n_parsed": len(parsed.prompts),
        "n_dropped": parsed.n_dropped,
        "format": parsed.format,
        "raw": raw[:RAW_GENERATION_CHARS],
    }


@solver
def construction_prompt(prompter_cache: bool = True) -> Solver:
    """Set the sample's user prompt, generating a setting's prompts on first use."""
    generated: dict[str, tuple[GeneratedPrompts, str, str]] = {}
    locks: dict[str, anyio.Lock] = {}

    async def prompts_for(key: str, instructions: str) -> tuple[GeneratedPrompts, str, str]:
        async with locks.setdefault(key, anyio.Lock()):
            if key not in generated:
                if PROMPTER_ROLE not in model_roles():
                    raise InputError(
                        "no prompter: bind a generator model with --model-role prompter=MODEL, "
                        "or reuse saved prompts with -T prompts_from=LOG_OR_FILE"
                    )
                prompter = get_model(role=PROMPTER_ROLE, required=True)
                generated[key] = await generate_prompts(prompter, instructions, prompter_cache)
            return generated[key]

    async def solve(state: TaskState, generate: Generate) -> TaskState:  # noqa: ARG001
        require_role_models(JUDGES_ROLE, NO_JUDGES)  # fail before any call when none is bound
        meta = state.metadata
        slot = int(meta["slot"])
        text = meta.get("prompt_text")
        if text is None:
            parsed, raw, prompter = await prompts_for(
                meta["setting"], meta["generation_instructions"]
            )
            n_requested = int(meta.get("prompts_per_setting", 0))
            state.store.set(STORE_GENERATION, generation_record(parsed, raw, prompter, n_requested))
            if slot >= len(parsed.prompts):
                state.store.set(STORE_STATUS, NO_PROMPT)
                state.completed = True
                return state
            text = parsed.prompts[slot]
        state.store.set(STORE_PROMPT, text)
        if meta.get("swap_generation_instructions") and meta.get("swap_setting"):
            # the swap control's prompt: this slot of the opposite setting (same cached call)
            swapped, _, _ = await prompts_for(
                meta["swap_setting"], meta["swap_generation_instructions"]
            )
            swap = swapped.prompts[slot] if slot < len(swapped.prompts) else None
            state.store.set(STORE_SWAP_PROMPT, swap)
        state.metadata["prompt_text"] = text
        state.messages = [ChatMessageUser(content=text)]
        return state

    return solve
