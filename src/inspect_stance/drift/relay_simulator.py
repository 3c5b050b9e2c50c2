"""``relay_sim/<behaviour>``: simulated relays of known behaviour for multi-hop chains.

A known-answer instrument for the chain variant of ``stance_drift`` (``-T hops=K``), not a
model. It answers the relay prompts of :mod:`inspect_stance.drift.chain.relay_prompts`: it reads the
stance the text encodes (``[[stance:<key>]]``, as written by ``stance_sim/respondent`` and by
this relay) and writes a new text encoding the relayed stance ``j``, plus the chain's original
stance as ``[[origin:<key>]]`` (the first stance a chain's text carried; the extraction reads
only the stance tag):

- ``relay_sim/markov`` — ``j ~ transition[i]`` (a Markov chain with a known one-hop matrix);
- ``relay_sim/memory`` — with probability ``pull`` the original stance, otherwise
  ``j ~ transition[i]``: the next stance depends on where the chain started, not only on the
  current stance (not a Markov chain in the stance read at each hop);
- ``relay_sim/identity`` — ``j = i`` (a perfect relay).

A translation hop's outward call (into a language other than English) copies the tags; the
behaviour applies once per hop, on the call back into English. A prompt whose text carries no
stance tag gets a reply without one (its extraction is then unparsed).

Model args (``-M``), parsed strictly: ``transition`` (as for ``stance_sim``: a JSON file of 5
rows of 5 probabilities, ``identity``, or unset for the shipped matrix), ``pull`` (float in
[0, 1], default 0.5; ``memory`` only), ``seed`` (int >= 0, default 0), ``fail_after`` (raise an
error on every call after the first N, default -1 = never) and ``fail_while`` (a file path:
``fail_after`` applies only while it exists), for testing interruption and ``eval-retry``.
Determinism: the k-th call with a given prompt draws from a generator seeded by
``(seed, prompt, k)``.
"""

from __future__ import annotations

import random
import re
from typing import Any

from inspect_ai.model import ChatMessage, GenerateConfig, ModelOutput
from inspect_ai.tool import ToolChoice, ToolInfo

from inspect_stance.drift.simulator import load_transition
from inspect_stance.errors import InputError
from inspect_stance.providers.args import arg_float, arg_int, reject_unknown
from inspect_stance.providers.base import SeededSimulatedAPI
from inspect_stance.stances import N_STANCES, STANCE_KEYS, STANCES

PROVIDER = "relay_sim"
BEHAVIOURS: tuple[str, ...] = ("markov", "memory", "identity")
MODEL_ARGS: tuple[str, ...] = ("transition", "pull", "seed", "fail_after", "fail_while")
_STANCE_TAG_RE = re.compile(r"\[\[stance:([a-z_]+)\]\]")
_ORIGIN_TAG_RE = re.compile(r"\[\[origin:([a-z_]+)\]\]")
_TRANSLATE_RE = re.compile(r"^Translate the following text into ([^.\n]+)\.")
NO_STANCE_REPLY = "The text could not be relayed."


class RelaySimAPI(SeededSimulatedAPI):
    """A relay with a known per-hop behaviour (see the module docstring)."""

    def configure(self, model_name: str, model_args: dict[str, Any]) -> None:
        """Reads the behaviour (the model name) and the -M arguments."""
        if model_name not in BEHAVIOURS:
            raise InputError(
                f"{PROVIDER}: unknown relay {PROVIDER}/{model_name}; use relay_sim/NAME, NAME one of "
                f"{', '.join(BEHAVIOURS)}"
            )
        reject_unknown(PROVIDER, model_args, MODEL_ARGS)
        try:
            self.transition = load_transition(model_args.get("transition"))
        except InputError as ex:
            raise InputError(str(ex).replace("stance_sim:", f"{PROVIDER}:", 1)) from ex
        self.pull = arg_float(PROVIDER, "pull", model_args.get("pull", 0.5), 0.0, 1.0, 0.5)
        self.seed = arg_int(PROVIDER, "seed", model_args.get("seed", 0), minimum=0, example=1)
        self.read_failures(PROVIDER, model_args)

    def next_stance(self, stance: int, origin: int, rng: random.Random) -> int:
        """The relayed stance: ``markov`` draws from ``transition[stance]``; ``memory`` returns
        ``origin`` with probability ``pull``, else draws; ``identity`` keeps ``stance``."""
        if self.model_name == "identity":
            return stance
        if self.model_name == "memory" and rng.random() < self.pull:
            return origin
        return rng.choices(range(N_STANCES), weights=list(self.transition[stance]))[0]

    async def generate(
        self,
        input: list[ChatMessage],
        tools: list[ToolInfo],
        tool_choice: ToolChoice,
        config: GenerateConfig,
    ) -> ModelOutput:
        """Relay the text of a relay prompt as described in the module docstring."""
        self.count_call(PROVIDER)
        prompt = input[-1].text if input else ""
        rng = self._rng(prompt)
        start = prompt.find("\n\nText:\n")
        text = prompt[start + 8 : prompt.rfind("\n\n")] if start >= 0 else ""
        tag = _STANCE_TAG_RE.search(text)
        if tag is None or tag.group(1) not in STANCE_KEYS:
            return ModelOutput.from_content(model=self.model_name, content=NO_STANCE_REPLY)
        stance = STANCE_KEYS.index(tag.group(1))
        origin_tag = _ORIGIN_TAG_RE.search(text)
        origin = stance
        if origin_tag is not None and origin_tag.group(1) in STANCE_KEYS:
            origin = STANCE_KEYS.index(origin_tag.group(1))
        language = _TRANSLATE_RE.match(prompt)
        outward = language is not None and language.group(1).strip().lower() != "english"
        new = stance if outward else self.next_stance(stance, origin, rng)
        draft = rng.randrange(1_000_000)
        where = f" in {language.group(1).strip()}" if outward and language else ""
        content = (
            f"[[stance:{STANCE_KEYS[new]}]] [[origin:{STANCE_KEYS[origin]}]] A relayed text{where} "
            f"taking the stance '{STANCES[new].lower()}' (draft {draft})."
        )
        return ModelOutput.from_content(model=self.model_name, content=content)


__all__ = ["BEHAVIOURS", "RelaySimAPI"]
