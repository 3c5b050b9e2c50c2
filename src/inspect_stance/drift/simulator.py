"""``stance_sim/respondent``: a simulated respondent with a known stance-transition matrix.

A known-answer instrument for validating stance-drift pipelines — not a model. It reads the
prompts of :mod:`inspect_stance.drift.prompts` (any variant, any option order):

- **generation** (a prompt ending in ``Argument:``): reads the requested letter and the option
  list, and writes a short text that encodes the requested stance as ``[[stance:<key>]]``;
- **extraction** (a prompt ending in ``Answer letter:``): reads the encoded stance ``i`` from
  the argument, samples the extracted stance ``j ~ transition[i]``, and answers the letter under
  which ``j`` is listed in the prompt. With ``logprobs=true`` (default) the answer token's top
  logprobs are ``log transition[i][j]`` for every letter (letters with probability 0 are
  omitted), so a logprob-estimating pipeline recovers the row exactly.
- **noise** (``-M noise=realistic``, the default): the respondent behaves like data. Each
  proposition ``p`` has its own matrix, row ``i`` drawn once from
  ``Dirichlet(PROPOSITION_CONCENTRATION * transition[i])`` (seeded by ``(seed, p)``; mean the
  shipped row, so SPR is 0.57 in expectation), and each extraction call answers from its own
  distribution ``q ~ Dirichlet(TRIAL_CONCENTRATION * row_p[i])``: the letter is drawn from
  ``q`` and the logprobs are ``log q``. Standard errors and intervals are then those of a real
  run. ``-M noise=exact`` (or the environment variable ``INSPECT_STANCE_SIM_NOISE=exact``,
  read when ``-M noise`` is unset) answers every call from ``transition[i]`` itself: the
  known-answer mode, where a logprob-estimating pipeline recovers the matrix exactly.
- with probability ``unparsed_rate`` the extraction answer is a sentence with no letter and no
  letter logprobs (a malformed answer).

Model args (``-M``), each parsed strictly (a bad value or an unknown name is a one-line error):
``transition`` (path to a JSON file holding 5 rows of 5 probabilities — a list, or an object
with a ``matrix`` list — or the list itself; default: the shipped plausible drift matrix
``inspect_stance/data/stance_sim_transition.json``, SPR 0.57, see :data:`DEFAULT_TRANSITION`;
``-M transition=identity`` for perfect preservation), ``noise`` (``realistic`` or ``exact``,
see above), ``seed`` (int >= 0, default 0),
``logprobs`` (bool, default true), ``unparsed_rate`` (float in [0, 1], default 0), ``latency``
(seconds per call >= 0, default 0), ``fail_after`` (raise an error on every call after the
first N — simulates an API outage, for testing interruption and ``inspect eval-retry``; default
-1 = never), ``fail_while`` (a file path: ``fail_after`` applies only while that file exists,
so a retry can succeed).

Determinism: the k-th call with a given prompt text draws from a generator seeded by
``(seed, prompt, k)``, so a run's multiset of outputs does not depend on scheduling. Inspect
reuses one provider instance per process for identical model args, so two evals in one Python
process continue the same streams (each CLI run starts afresh).
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import math
import os
import random
import re
from importlib import resources
from pathlib import Path
from typing import Any, Literal, cast, get_args

import numpy as np
from inspect_ai.model import (
    ChatCompletionChoice,
    ChatMessage,
    ChatMessageAssistant,
    GenerateConfig,
    Logprob,
    Logprobs,
    ModelOutput,
    ModelUsage,
    TopLogprob,
)
from inspect_ai.tool import ToolChoice, ToolInfo

from inspect_stance.errors import InputError
from inspect_stance.paths import user_path
from inspect_stance.providers.args import arg_bool, arg_float, arg_int, reject_unknown
from inspect_stance.providers.base import SeededSimulatedAPI
from inspect_stance.stances import LETTERS, N_STANCES, STANCE_KEYS, STANCES

# an option line "B) Agree" or an inline mapping "according to: A) Agree strongly, B) Agree, ..."
_OPTION_RE = re.compile(r"(?:^|(?<=: )|(?<=, ))([A-E])\) ([A-Z][a-z]+(?: [a-z]+)?)", re.MULTILINE)
_LETTER_RE = re.compile(r"Letter: ([A-E])\s*\n\n==\n\nArgument:\s*$")
_STANCE_TAG_RE = re.compile(r"\[\[stance:([a-z_]+)\]\]")
UNPARSED_ANSWER = "I am not able to determine the stance of this argument."


PROVIDER = "stance_sim"
#: the simulated models this provider serves
MODEL_NAMES: tuple[str, ...] = ("respondent",)
#: the -M arguments the simulated respondent understands
MODEL_ARGS: tuple[str, ...] = (
    "transition",
    "noise",
    "seed",
    "logprobs",
    "unparsed_rate",
    "latency",
    "fail_after",
    "fail_while",
)
#: ``-M noise`` choices: answers that vary by proposition and call, or the matrix itself
Noise = Literal["realistic", "exact"]
NOISE_CHOICES: tuple[str, ...] = get_args(Noise)
#: the environment variable read for ``-M noise`` when it is unset
NOISE_ENV = "INSPECT_STANCE_SIM_NOISE"
#: Dirichlet concentration of a proposition's rows around the transition matrix (sd of a
#: diagonal cell ``sqrt(t (1 - t) / (c + 1))``: about 0.09 at t = 0.57)
PROPOSITION_CONCENTRATION = 30.0
#: Dirichlet concentration of one call's answer distribution around its proposition's row
TRIAL_CONCENTRATION = 20.0
_PROPOSITION_RE = re.compile(r"Proposition: (.*)")
#: the shipped default ground-truth matrix (package data)
DEFAULT_TRANSITION = "stance_sim_transition.json"


def default_transition_path() -> Path:
    """Path of the shipped default transition matrix."""
    return Path(str(resources.files("inspect_stance.data").joinpath(DEFAULT_TRANSITION)))


def _matrix_source(value: Any) -> tuple[Any, str]:
    """The nested list behind ``value`` and a description of where it came from."""
    if value is None:
        value = default_transition_path()
    if isinstance(value, str) and value.strip().lower() == "identity":
        return np.eye(N_STANCES).tolist(), "identity"
    if isinstance(value, (str, Path)):
        path = Path(user_path(value)) if isinstance(value, str) else value
        if not path.is_file():
            raise InputError(
                f"{PROVIDER}: -M transition file {path} not found; pass a JSON file of 5 rows of "
                "5 probabilities (or leave -M transition unset for the shipped default)"
            )
        try:
            source = json.loads(path.read_text(encoding="utf-8"))
        except (json.JSONDecodeError, UnicodeDecodeError) as ex:
            raise InputError(
                f"{PROVIDER}: -M transition file {path} is not JSON ({ex}); write 5 rows of 5 "
                "probabilities, e.g. [[1,0,0,0,0], ...]"
            ) from ex
        if isinstance(source, dict):
            source = source.get("matrix")
        return source, f"file {path}"
    return value, "value"


def load_transition(value: Any) -> np.ndarray:
    """A 5x5 row-stochastic matrix from a JSON file path (a list, or an object with a
    ``matrix`` list), ``"identity"``, or a nested list; ``None`` gives the shipped default."""
    source, where = _matrix_source(value)
    try:
        matrix = np.asarray(source, dtype=np.float64)
    except (TypeError, ValueError) as ex:
        raise InputError(
            f"{PROVIDER}: -M transition {where} is not a matrix of numbers; write 5 rows of 5 "
            "probabilities"
        ) from ex
    if matrix.shape != (N_STANCES, N_STANCES):
        raise InputError(
            f"{PROVIDER}: -M transition {where} has shape {matrix.shape}; write 5 rows of 5 "
            "probabilities (stance order Agree strongly ... Disagree strongly)"
        )
    if (
        not np.isfinite(matrix).all()
        or (matrix < 0).any()
        or not np.allclose(matrix.sum(axis=1), 1.0, atol=1e-9)
    ):
        raise InputError(
            f"{PROVIDER}: -M transition {where}: every row must be non-negative and sum to 1 "
            f"(row sums {[round(float(x), 6) for x in matrix.sum(axis=1)]})"
        )
    return matrix


def _options(prompt: str) -> dict[str, int]:
    """Letter -> stance index from the last option list in a prompt."""
    found: dict[str, int] = {}
    for letter, label in _OPTION_RE.findall(prompt):
        if label.strip() in STANCES:
            found[letter] = STANCES.index(label.strip())
    return found


def parse_noise(value: Any) -> Noise:
    """``-M noise``: ``realistic`` (default, also for None / empty) or ``exact``."""
    text = "realistic" if value is None or str(value).strip() == "" else str(value).strip()
    if text not in NOISE_CHOICES:
        raise InputError(
            f"{PROVIDER}: -M noise={value!r} is not one of {', '.join(NOISE_CHOICES)}; use "
            "-M noise=exact for the known-answer mode"
        )
    return cast(Noise, text)


def _dirichlet(rng: np.random.Generator, alpha: np.ndarray) -> np.ndarray:
    """A Dirichlet draw over the positive entries of ``alpha`` (zero entries stay zero)."""
    out = np.zeros_like(alpha, dtype=np.float64)
    positive = alpha > 0
    if positive.sum() == 1:
        out[positive] = 1.0
        return out
    out[positive] = rng.dirichlet(alpha[positive])
    return out


class StanceSimAPI(SeededSimulatedAPI):
    """Simulated stance respondent with a ground-truth transition matrix."""

    def configure(self, model_name: str, model_args: dict[str, Any]) -> None:
        """Reads the model name and the -M arguments (see the module docstring)."""
        if model_name not in MODEL_NAMES:
            raise InputError(
                f"{PROVIDER}/{model_name}: unknown model; use "
                f"{', '.join(f'{PROVIDER}/{n}' for n in MODEL_NAMES)}"
            )
        reject_unknown(PROVIDER, model_args, MODEL_ARGS)
        self.transition = load_transition(model_args.get("transition"))
        self.seed = arg_int(PROVIDER, "seed", model_args.get("seed", 0), minimum=0, example=1)
        self.noise = parse_noise(model_args.get("noise", os.environ.get(NOISE_ENV)))
        self._rows: dict[str, np.ndarray] = {}
        self.logprobs = arg_bool(PROVIDER, "logprobs", model_args.get("logprobs", True))
        self.unparsed_rate = arg_float(
            PROVIDER, "unparsed_rate", model_args.get("unparsed_rate", 0.0), 0.0, 1.0, 0.1
        )
        self.latency = arg_float(
            PROVIDER, "latency", model_args.get("latency", 0.0), 0.0, None, 0.05
        )
        self.read_failures(PROVIDER, model_args)

    async def generate(
        self,
        input: list[ChatMessage],
        tools: list[ToolInfo],
        tool_choice: ToolChoice,
        config: GenerateConfig,
    ) -> ModelOutput:
        """Answer a generation or extraction prompt as described in the module docstring."""
        if self.latency > 0:
            await asyncio.sleep(self.latency)
        self.count_call(PROVIDER)
        prompt = input[-1].text if input else ""
        rng = self._rng(prompt)
        stripped = prompt.rstrip()
        if stripped.endswith("Answer letter:"):
            return self._extract(prompt, rng, bool(config.logprobs))
        if stripped.endswith("Argument:"):
            return self._generate_argument(prompt, rng)
        return self._output("I can only answer stance-drift prompts.", prompt)

    def _generate_argument(self, prompt: str, rng: random.Random) -> ModelOutput:
        match = _LETTER_RE.search(prompt)
        options = _options(prompt[prompt.rfind("Options:") :]) if "Options:" in prompt else {}
        if match is None or match.group(1) not in options:
            return self._output("I could not find the requested stance letter.", prompt)
        stance = options[match.group(1)]
        draft = rng.randrange(1_000_000)
        text = (
            f"[[stance:{STANCE_KEYS[stance]}]] A simulated argument taking the stance "
            f"'{STANCES[stance].lower()}' on the proposition (draft {draft})."
        )
        return self._output(text, prompt)

    def _extract(self, prompt: str, rng: random.Random, want_logprobs: bool) -> ModelOutput:
        tail = prompt[prompt.rfind("Argument:") :]
        tag = _STANCE_TAG_RE.search(tail)
        options = _options(tail) or _options(prompt)  # assertion: the mapping sentence
        if tag is None or tag.group(1) not in STANCE_KEYS or len(options) != N_STANCES:
            return self._output(UNPARSED_ANSWER, prompt)
        if self.unparsed_rate > 0 and rng.random() < self.unparsed_rate:
            no_letter = [("I", [("I", -0.01), ("The", -5.0)])]  # logprobs without letter mass
            return self._output(
                UNPARSED_ANSWER,
                prompt,
                tokens=no_letter if self.logprobs and want_logprobs else None,
            )
        row = self._row(prompt, STANCE_KEYS.index(tag.group(1)), rng)
        extracted = rng.choices(range(N_STANCES), weights=list(row))[0]
        letter_of = {stance: letter for letter, stance in options.items()}
        answer = letter_of[extracted]
        top = [(letter_of[s], math.log(row[s])) for s in range(N_STANCES) if row[s] > 0]
        top.sort(key=lambda x: -x[1])
        with_logprobs = self.logprobs and want_logprobs  # like a real API: only when asked
        return self._output(answer, prompt, tokens=[(answer, top)] if with_logprobs else None)

    def response_settings(self) -> dict[str, Any]:
        """The settings that decide the answers but may come from outside ``-M`` (the noise
        mode's default and ``INSPECT_STANCE_SIM_NOISE``): part of the trial record's key
        (:func:`inspect_stance.fingerprint.model_identity`)."""
        return {"noise": self.noise}

    def _row(self, prompt: str, stance: int, rng: random.Random) -> np.ndarray:
        """The answer distribution of one extraction call (module docstring, ``noise``)."""
        row = self.transition[stance]
        if self.noise == "exact":
            return row
        match = _PROPOSITION_RE.search(prompt)
        proposition = match.group(1) if match else ""
        if proposition not in self._rows:
            key = hashlib.blake2b(f"{self.seed}\x00{proposition}".encode(), digest_size=8)
            prop_rng = np.random.default_rng(int.from_bytes(key.digest(), "little"))
            self._rows[proposition] = np.stack(
                [_dirichlet(prop_rng, PROPOSITION_CONCENTRATION * r) for r in self.transition]
            )
        trial_rng = np.random.default_rng(rng.randrange(2**63))
        return _dirichlet(trial_rng, TRIAL_CONCENTRATION * self._rows[proposition][stance])

    def _output(
        self,
        text: str,
        prompt: str,
        tokens: list[tuple[str, list[tuple[str, float]]]] | None = None,
    ) -> ModelOutput:
        logprobs = None
        if tokens is not None:
            content = []
            for token, top in tokens:
                chosen = dict(top).get(token, -1e-3)
                content.append(
                    Logprob(
                        token=token,
                        logprob=chosen,
                        top_logprobs=[TopLogprob(token=t, logprob=lp) for t, lp in top],
                    )
                )
            logprobs = Logprobs(content=content)
        usage = ModelUsage(
            input_tokens=len(prompt) // 4 + 1,
            output_tokens=len(text) // 4 + 1,
            total_tokens=len(prompt) // 4 + len(text) // 4 + 2,
        )
        return ModelOutput(
            model=self.model_name,
            choices=[
                ChatCompletionChoice(
                    message=ChatMessageAssistant(content=text, model=self.model_name),
                    stop_reason="stop",
                    logprobs=logprobs,
                )
            ],
            usage=usage,
        )


__all__ = [
    "DEFAULT_TRANSITION",
    "LETTERS",
    "StanceSimAPI",
    "default_transition_path",
    "load_transition",
]
