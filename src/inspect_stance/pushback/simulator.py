"""``pushback_sim``: a simulated target for the pushback task, with a known per-turn hazard.

``pushback_sim/target`` answers the opening turn with its held stance (the assigned one; with
``start=own`` a stance drawn from the proposition's hash), then each pushback turn: a target
still holding its stance yields with probability ``h``
(:func:`inspect_stance.pushback.truth.hazard`: ``-M hazard`` (default 0.15) times the style's
factor, ``-M strong_factor`` (default 0.5) for a strong held stance, ``-M third_person_factor``
(default 0.5) under the third-person framing) and moves to
:func:`inspect_stance.pushback.truth.yield_stance`; a yielded one returns to its stance with
probability ``-M return_rate`` (default 0.2). Every reply says its stance: ``My stance is
"Agree". ...``.

Its extraction answers (the stance-drift prompt, ending ``Answer letter:``) name the reply's
stance letter; the answer token's top logprobs put ``1 - noise * U`` on it (``U`` uniform on
[0, 1), ``-M noise`` default 0.4) and the rest on the neighbouring stances, so the logprob
vector is noisy while the answered stance is right; ``-M unparsed`` (default 0) is the chance of
an answer without a letter. The truth is then in closed form (:mod:`inspect_stance.pushback.truth`).
Draws are seeded per conversation (``-M seed``).
"""

from __future__ import annotations

import hashlib
import math
import re
from typing import Any

from inspect_ai.model import (
    ChatMessage,
    ChatMessageSystem,
    ChatMessageUser,
    GenerateConfig,
    Logprob,
    Logprobs,
    ModelOutput,
    TopLogprob,
)
from inspect_ai.tool import ToolChoice, ToolInfo

from inspect_stance.providers.args import arg_float, arg_int, reject_unknown
from inspect_stance.providers.base import SeededSimulatedAPI
from inspect_stance.pushback.conversation import user_side
from inspect_stance.pushback.defaults import CONTROL, STYLES
from inspect_stance.pushback.prompts import THIRD_PERSON_SYSTEM, pushback_prompt
from inspect_stance.pushback.truth import hazard, yield_stance
from inspect_stance.stances import N_STANCES, STANCES

PROVIDER = "pushback_sim"
UNPARSED_ANSWER = "I cannot tell which option fits."
_STANCE_RE = re.compile(r'stance is "([^"]+)"')
_ASSIGNED_RE = re.compile(r'Your stance on it is "([^"]+)"')
_PROPOSITION_RE = re.compile(r"Proposition: (.*)")
_OPTION_RE = re.compile(r"^([A-E])\) (.+)$", re.M)


def _stance(label: str | None) -> int | None:
    return STANCES.index(label) if label in STANCES else None


class PushbackSim(SeededSimulatedAPI):
    """See the module docstring."""

    def configure(self, model_name: str, model_args: dict[str, Any]) -> None:
        known = ("seed", "hazard", "strong_factor", "third_person_factor", "return_rate",
                 "noise", "unparsed", "fail_after", "fail_while")  # fmt: skip
        reject_unknown(PROVIDER, model_args, known)
        self.read_failures(PROVIDER, model_args)
        self.seed = arg_int(PROVIDER, "seed", model_args.get("seed", 0))
        defaults = {"hazard": 0.15, "strong_factor": 0.5, "third_person_factor": 0.5,
                    "return_rate": 0.2, "noise": 0.4, "unparsed": 0.0}  # fmt: skip
        # noise below one half: the answered stance keeps the most mass (the reading is exact)
        self.p = {k: arg_float(PROVIDER, k, model_args.get(k, d), 0.0,
                               0.49 if k == "noise" else 1.0, d)
                  for k, d in defaults.items()}  # fmt: skip

    async def generate(self, input: list[ChatMessage], tools: list[ToolInfo],
                       tool_choice: ToolChoice, config: GenerateConfig) -> ModelOutput:  # fmt: skip
        """An extraction answer, or the target's next turn (module docstring)."""
        self.count_call(PROVIDER)
        last = input[-1].text if input else ""
        if last.rstrip().endswith("Answer letter:"):
            return self._extract(last)
        return ModelOutput.from_content(self.model_name, self._reply(input))

    def _held(self, opening: str) -> int:
        assigned = _stance(m.group(1)) if (m := _ASSIGNED_RE.search(opening)) else None
        if assigned is not None:
            return assigned
        prop = m.group(1) if (m := _PROPOSITION_RE.search(opening)) else opening
        key = hashlib.blake2b(f"{self.seed}\x00own\x00{prop}".encode(), digest_size=8)
        return int.from_bytes(key.digest(), "little") % N_STANCES

    def _reply(self, messages: list[ChatMessage]) -> str:
        third = any(isinstance(m, ChatMessageSystem) and m.text == THIRD_PERSON_SYSTEM
                    for m in messages)  # fmt: skip
        users = [m.text for m in messages if isinstance(m, ChatMessageUser)]
        replies = [m.text for m in messages if m.role == "assistant"]
        who = "The analyst's" if third else "My"
        held = self._held(users[0]) if users else 2
        if not replies:
            return f'{who} stance is "{STANCES[held]}". A simulated opening statement.'
        found = _STANCE_RE.search(replies[-1])
        now = _stance(found.group(1)) if found else held
        now = held if now is None else now
        style = self._style(users[-1], held)
        user = user_side(held, style)
        rng = self._rng("\x00".join(m.text for m in messages))
        if now == held:
            h = hazard(self.p["hazard"], style, held, user, "third_person" if third else "direct",
                       self.p["strong_factor"], self.p["third_person_factor"])  # fmt: skip
            if rng.random() < h:
                now = yield_stance(held, user)
        elif rng.random() < self.p["return_rate"]:
            now = held
        return f'{who} stance is "{STANCES[now]}". A simulated reply (turn {len(replies)}).'

    @staticmethod
    def _style(text: str, held: int) -> str:
        for style in (*STYLES, CONTROL):
            if text == pushback_prompt(style, user_side(held, style)):
                return style
        return "plain"

    def _extract(self, prompt: str) -> ModelOutput:
        rng = self._rng(prompt)
        tail = prompt[prompt.rfind("Argument:") :]
        found = _STANCE_RE.search(tail)
        stance = _stance(found.group(1)) if found else None
        options = {label: letter for letter, label in _OPTION_RE.findall(tail)}
        if stance is None or len(options) != N_STANCES or rng.random() < self.p["unparsed"]:
            return ModelOutput.from_content(self.model_name, UNPARSED_ANSWER)
        letter = options[STANCES[stance]]
        near = [s for s in (stance - 1, stance + 1) if 0 <= s < N_STANCES]
        rest = self.p["noise"] * rng.random()
        probs = {stance: 1.0 - rest} | {s: rest / len(near) for s in near}
        top = [TopLogprob(token=options[STANCES[s]], logprob=math.log(max(p, 1e-12)))
               for s, p in sorted(probs.items(), key=lambda x: -x[1])]  # fmt: skip
        out = ModelOutput.from_content(self.model_name, letter)
        out.choices[0].logprobs = Logprobs(
            content=[Logprob(token=letter, logprob=math.log(probs[stance]), top_logprobs=top)]
        )
        return out
