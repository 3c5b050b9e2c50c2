"""Scripted, deterministic models for the prompt-construction study (offline tests and demos).

Use as ``construction_sim/<behaviour>``:

- ``construction_sim/target`` - the model under test. Its response stance is a fixed function
  of the prompt (the longest topic phrasing found verbatim as whole words, case-sensitive,
  decides):
  ``topic_con`` -> ``con_filler`` (default 5), ``topic_pro`` -> ``pro_filler`` (default 1),
  ``topic_neutral`` -> ``neutral_filler`` (default 2: the neutral filler "leaks" toward pole A);
  a prompt with no filler (what ``construction_sim/prompter`` writes) -> ``pole_a_cue`` (2) when
  it says "I lean toward the first side", ``pole_b_cue`` (4) for "the second side", else 3.
  A prompt containing ``refuse_on`` (model arg, case-insensitive) gets a refusal. The topic
  phrasings come from ``-M topics=FILE`` (IssueBench ``issues`` columns), else the environment
  variable ``INSPECT_STANCE_SIM_TOPICS``, else the task's packaged default topics
  (``inspect_stance/data/construction_topics.csv``), so the default run needs no files.
  The response carries a marker ``[[stance=N]]`` that the scripted judges read.
- ``construction_sim/prompter`` - reads the generator instructions and returns the requested
  number of prompts, each naming the issue in title case inside quotes (so no filler appears
  verbatim) with a side cue for non-neutral users: as a JSON array (``-M style=json``,
  default), or as a real model often answers, a preamble ("Here are N prompts:") and a
  numbered list of quoted prompts (``-M style=list``). ``-M n_return=K`` returns K prompts
  instead (to exercise missing generated prompts); ``-M garbage=true`` returns text with no
  prompts.
- ``construction_sim/judge_<kind>`` - judges. The *true* label is the target's marker; without
  a marker (real responses, e.g. IssueBench annotations) a lexical heuristic: refusal openers
  ("I'm sorry", "I cannot", ...) -> refusal, else the balance of positive vs negative words.
  Kinds: ``exact`` (true label), ``plus_one`` / ``minus_one`` (one step toward pole B / A,
  clipped to 1..5), ``neutral`` (always 3), ``noisy`` (true label moved one step for a quarter
  of responses, chosen by a hash of the text), ``framed`` (when it sees the user prompt, one
  step toward the side whose phrasing the prompt contains), ``verbose`` (true label after some
  reasoning and "ANSWER:"), ``explains`` (the label first, then an explanation that mentions
  another number: "1\n\nThe USER PROMPT is one-sided, but the TEXT covers 2 viewpoints."),
  ``ambiguous`` (two different labels in answer positions), ``out_of_scale`` (answers 7),
  ``unparsable`` (answers prose), ``raises`` (the call fails with ``RuntimeError``). Refusals
  stay refusals except for ``neutral``.
- ``construction_sim/judge_biased`` - a judge of known bias: the true label plus ``-M offset=X``
  (default 0) plus Gaussian noise of standard deviation ``-M noise=S`` (default 0), drawn from
  a hash of ``-M seed=K`` and the response text (so the same response gets the same draw under
  every rubric), rounded half up and clipped to 1..5 (:func:`biased_rating`); refusals stay
  refusals. ``-M reads_order=false`` makes it ignore which pole the rubric lists first (it
  answers on the standard orientation also when the rubric's labels are reversed: a judge whose
  rating flips with the rubric's order).

Every judge reads the rubric's orientation: when label "1" names a ``topic_con`` phrasing (the
judges' reversed-order rubric), it answers ``6 - label`` (except ``judge_biased`` with
``reads_order=false``). The phrasings come from the judge's ``-M topics=FILE`` like the target's.

Model arguments (``-M``) are parsed strictly: a value of the wrong type or an argument the
model does not take is a one-line error (:mod:`inspect_stance.providers.args`). Every output
sets ``usage`` (no tokenizer download).
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any

from inspect_ai.model import (
    ChatMessage,
    GenerateConfig,
    ModelOutput,
    ModelUsage,
)
from inspect_ai.tool import ToolChoice, ToolInfo

from inspect_stance.construction.issuebench import PACKAGE_TOPICS, read_package_csv
from inspect_stance.construction.simulator_labels import (
    _digest,
    biased_rating,
    heuristic_label,
)
from inspect_stance.errors import InputError
from inspect_stance.paths import user_path
from inspect_stance.providers.args import arg_bool, arg_float, arg_int, reject_unknown
from inspect_stance.providers.base import SimulatedAPI
from inspect_stance.tables import read_table

__all__ = ["ConstructionSim", "biased_rating", "heuristic_label"]

MARKER = re.compile(r"\[\[stance=(\d|refusal)\]\]")
_RUBRIC_PRO = re.compile(
    r'Answer "1" if the TEXT \*exclusively\* \(100%\) highlights (.*?), without'
)
_RUBRIC_CON = re.compile(
    r'Answer "5" if the TEXT \*exclusively\* \(100%\) highlights (.*?), without'
)
_USER_PROMPT = re.compile(r'### USER PROMPT:\n"(.*?)"\n\n### TEXT:', re.DOTALL)
_TEXT = re.compile(r'### TEXT:\n"(.*)"\n\n### TASK:', re.DOTALL)
PROVIDER = "construction_sim"
JUDGE_KINDS = (
    "exact",
    "plus_one",
    "minus_one",
    "neutral",
    "noisy",
    "framed",
    "verbose",
    "explains",
    "ambiguous",
    "out_of_scale",
    "unparsable",
    "raises",
    "biased",
)
JUDGE_ARGS = ("topics",)
BIASED_ARGS = ("topics", "offset", "noise", "seed", "reads_order")


def _text(messages: list[ChatMessage]) -> str:
    return messages[-1].text if messages else ""


def _output(model: str, content: str, prompt: str) -> ModelOutput:
    out = ModelOutput.from_content(model=model, content=content)
    n_in, n_out = len(prompt.split()), len(content.split())
    out.usage = ModelUsage(input_tokens=n_in, output_tokens=n_out, total_tokens=n_in + n_out)
    return out


TARGET_ARGS = (
    "topics",
    "refuse_on",
    "con_filler",
    "pro_filler",
    "neutral_filler",
    "pole_a_cue",
    "pole_b_cue",
)
PROMPTER_ARGS = ("n_return", "garbage", "style")
PROMPTER_STYLES = ("json", "list")
STANCE_DEFAULTS = {
    "con_filler": 5,
    "pro_filler": 1,
    "neutral_filler": 2,
    "pole_a_cue": 2,
    "pole_b_cue": 4,
}


def _load_phrases(path: Path | None) -> list[tuple[re.Pattern[str], str]]:
    """(whole-phrase pattern, kind) for every topic phrasing in a topics file (None: the
    packaged default topics), longest first."""
    import pandas as pd

    where = str(path) if path is not None else f"package data {PACKAGE_TOPICS}"
    if path is None:
        table = read_package_csv(PACKAGE_TOPICS)
    else:  # the shared reader: one-line errors naming the file and line
        rows = read_table(path, f"{PROVIDER} -M topics")
        table = pd.DataFrame([row for _, row in rows], dtype=object)
    missing = [c for c in ("topic_neutral", "topic_pro", "topic_con") if c not in table.columns]
    if missing:
        raise InputError(
            f"{PROVIDER}/target: topics file {where} lacks column(s) {missing}; pass -M "
            f"topics=FILE with topic_neutral, topic_pro, topic_con"
        )
    phrases: list[tuple[str, str]] = []
    for kind, col in (("con", "topic_con"), ("pro", "topic_pro"), ("neutral", "topic_neutral")):
        phrases.extend((str(p).strip(), kind) for p in table[col].dropna() if str(p).strip())
    phrases.sort(key=lambda x: -len(x[0]))
    return [(re.compile(r"(?<!\w)" + re.escape(p) + r"(?!\w)"), kind) for p, kind in phrases]


class ConstructionSim(SimulatedAPI):
    """See the module docstring."""

    def configure(self, model_name: str, model_args: dict[str, Any]) -> None:
        """Reads the model name and the -M arguments (see the module docstring)."""
        self._phrases: list[tuple[re.Pattern[str], str]] | None = None
        kind = model_name.removeprefix("judge_")
        if model_name not in ("target", "prompter") and (
            not model_name.startswith("judge_") or kind not in JUDGE_KINDS
        ):
            raise InputError(
                f"{PROVIDER}/{model_name}: unknown model; use target, prompter or "
                f"judge_<kind> with kind in {', '.join(JUDGE_KINDS)}"
            )
        name = f"{PROVIDER}/{model_name}"
        known = (
            TARGET_ARGS
            if model_name == "target"
            else PROMPTER_ARGS
            if model_name == "prompter"
            else BIASED_ARGS
            if kind == "biased"
            else JUDGE_ARGS
        )
        reject_unknown(name, model_args, known)
        self.topics: str | None = None
        self.refuse_on: str | None = None
        self.stances: dict[str, int] = dict(STANCE_DEFAULTS)
        self.n_return: int | None = None
        self.garbage = False
        self.style = "json"
        self.offset, self.noise, self.seed, self.reads_order = 0.0, 0.0, 0, True
        if model_args.get("topics") is not None:
            self.topics = str(model_args["topics"])
            self._phrase_table()  # a missing or unreadable file fails here, before any call
        if kind == "biased":
            self._configure_biased(name, model_args)
        if model_name == "target":
            if model_args.get("refuse_on") is not None:
                self.refuse_on = str(model_args["refuse_on"])
            for key, default in STANCE_DEFAULTS.items():
                if key in model_args:
                    value = arg_int(name, key, model_args[key], minimum=1, example=default)
                    if value > 5:
                        raise InputError(
                            f"{name}: -M {key}={value} is not a stance 1-5; use e.g. "
                            f"-M {key}={default}"
                        )
                    self.stances[key] = value
        elif model_name == "prompter":
            if "n_return" in model_args:
                self.n_return = arg_int(name, "n_return", model_args["n_return"], 0, example=2)
            if "garbage" in model_args:
                self.garbage = arg_bool(name, "garbage", model_args["garbage"])
            if "style" in model_args:
                self.style = str(model_args["style"])
                if self.style not in PROMPTER_STYLES:
                    raise InputError(
                        f"{name}: -M style={self.style!r} is not one of "
                        f"{', '.join(PROMPTER_STYLES)}; use e.g. -M style=list"
                    )

    def _configure_biased(self, name: str, model_args: dict[str, Any]) -> None:
        if "offset" in model_args:
            self.offset = arg_float(name, "offset", model_args["offset"], -4, 4, example=1)
        if "noise" in model_args:
            self.noise = arg_float(name, "noise", model_args["noise"], 0, 4, example=0.5)
        if "seed" in model_args:
            self.seed = arg_int(name, "seed", model_args["seed"], minimum=0, example=1)
        if "reads_order" in model_args:
            self.reads_order = arg_bool(name, "reads_order", model_args["reads_order"])

    # ----- target (and the judges' reading of the rubric's orientation) -----
    def _phrase_table(self) -> list[tuple[re.Pattern[str], str]]:
        if self._phrases is None:
            source = self.topics or os.environ.get("INSPECT_STANCE_SIM_TOPICS")
            path = Path(user_path(source)) if source else None
            if path is not None and not path.is_file():
                raise InputError(
                    f"{PROVIDER}/{self.model_name}: topics file {path} not found; pass -M "
                    f"topics=FILE"
                )
            self._phrases = _load_phrases(path)
        return self._phrases

    def target_stance(self, prompt: str) -> str:
        """The stance label ("1".."5" or "refusal") the target gives ``prompt``."""
        if self.refuse_on and self.refuse_on.lower() in prompt.lower():
            return "refusal"
        for pattern, kind in self._phrase_table():
            if pattern.search(prompt):
                return str(self.stances[f"{kind}_filler"])
        if "I lean toward the first side" in prompt:
            return str(self.stances["pole_a_cue"])
        if "I lean toward the second side" in prompt:
            return str(self.stances["pole_b_cue"])
        return "3"

    def _target(self, prompt: str) -> str:
        stance = self.target_stance(prompt)
        if stance == "refusal":
            return "I'm sorry, but I can't help with that request. [[stance=refusal]]"
        return f"[[stance={stance}]] Simulated answer with stance {stance} to: {prompt[:120]}"

    # ----- prompter -----
    def _prompter(self, instructions: str) -> str:
        if self.garbage:
            return "Sorry, I will not write these prompts."
        n_match = re.search(r"Write (\d+) different user prompts", instructions)
        issue = re.search(r"^ISSUE: (.*)$", instructions, re.MULTILINE)
        sides = re.search(r'\(the two sides: "(.*)" versus "(.*)"\)', instructions)
        kind = re.search(r"^KIND OF REQUEST: ([A-Z ]+):", instructions, re.MULTILINE)
        if not (n_match and issue and sides and kind):
            return "I could not read the instructions."
        n = self.n_return if self.n_return is not None else int(n_match.group(1))
        subject = issue.group(1).strip().title()
        position = re.search(
            r"^USER'S POSITION: The user holds the view of (.*?) \(and rejects",
            instructions,
            re.MULTILINE,
        )
        cue = ""
        if position:
            cue = (
                "I lean toward the first side. "
                if position.group(1) == sides.group(1)
                else "I lean toward the second side. "
            )
        frame = {
            "WRITING ASSISTANCE": "Please write a short piece about",
            "INFORMATION SEEKING": "What are the facts about",
            "OPINION SHARING": "What is your own view on",
        }.get(kind.group(1).strip(), "Tell me about")
        prompts = [f'{cue}{frame} "{subject}"? (variant {i + 1})' for i in range(n)]
        if self.style == "list":
            items = "\n".join(f"{i + 1}. {json.dumps(p)}" for i, p in enumerate(prompts))
            return f"Here are {n} prompts:\n\n{items}\n\nLet me know if you need more!"
        return json.dumps(prompts)

    # ----- judges -----
    def _reversed_rubric(self, rubric: str) -> bool:
        """True when the rubric's label "1" names a ``topic_con`` phrasing (reversed order)."""
        first = _RUBRIC_PRO.search(rubric)
        if not first:
            return False
        phrase = first.group(1)
        return any(kind == "con" and p.fullmatch(phrase) for p, kind in self._phrase_table())

    def _judge(self, kind: str, rubric: str) -> str:
        if kind == "raises":
            raise RuntimeError("construction_sim/judge_raises: scripted judge failure")
        if kind == "out_of_scale":
            return "7"
        if kind == "unparsable":
            return "It depends on how you look at it."
        text_match = _TEXT.search(rubric)
        text = text_match.group(1) if text_match else rubric
        marker = MARKER.search(text)
        true = marker.group(1) if marker else heuristic_label(text)
        if kind == "neutral":
            return "3"
        if true == "refusal":
            return "refusal"
        reverse = self._reversed_rubric(rubric)
        score = self._standard_score(kind, int(true), text, rubric, reverse)
        if reverse and (kind != "biased" or self.reads_order):
            score = 6 - score  # answer on the rubric's own (reversed) orientation
        if kind == "verbose":
            return f"The text mostly reads one way.\nANSWER: {score}"
        if kind == "explains":
            return f"{score}\n\nThe USER PROMPT is one-sided, but the TEXT covers 2 viewpoints."
        if kind == "ambiguous":
            return f"{score}\n\nOn reflection, ANSWER: {score % 5 + 1}"
        return str(score)

    def _standard_score(self, kind: str, score: int, text: str, rubric: str, reverse: bool) -> int:
        """The judge's rating on the standard orientation (1 = pole A)."""
        if kind == "biased":
            return biased_rating(score, self.offset, self.noise, self.seed, text)
        if kind == "plus_one":
            return min(score + 1, 5)
        if kind == "minus_one":
            return max(score - 1, 1)
        if kind == "noisy":
            h = _digest(text)
            if h % 4 == 0:
                return min(score + 1, 5) if (h >> 2) % 2 else max(score - 1, 1)
        if kind == "framed":
            user = _USER_PROMPT.search(rubric)
            pro = _RUBRIC_PRO.search(rubric)
            con = _RUBRIC_CON.search(rubric)
            if user and pro and con:
                pro_phrase, con_phrase = (con, pro) if reverse else (pro, con)
                if con_phrase.group(1) in user.group(1):
                    return min(score + 1, 5)
                if pro_phrase.group(1) in user.group(1):
                    return max(score - 1, 1)
        return score

    async def generate(
        self,
        input: list[ChatMessage],
        tools: list[ToolInfo],
        tool_choice: ToolChoice,
        config: GenerateConfig,
    ) -> ModelOutput:
        """Deterministic output for the model's role (see the module docstring)."""
        prompt = _text(input)
        if self.model_name == "target":
            content = self._target(prompt)
        elif self.model_name == "prompter":
            content = self._prompter(prompt)
        else:
            content = self._judge(self.model_name.removeprefix("judge_"), prompt)
        return _output(self.model_name, content, prompt)
