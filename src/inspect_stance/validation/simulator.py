"""Scripted annotators for the prompt-validation study (offline tests and demos).

Use as ``annotator_sim/<kind>``, e.g. ``--model-role
annotators=annotator_sim/lexical,annotator_sim/contrarian,annotator_sim/confused``. The
annotator reads the study's own annotation prompts
(:mod:`inspect_stance.validation.annotation`) and answers by fixed lexical rules, so every
figure of a run can be computed by hand:

- **realism score** of a prompt: 2 points when none of the topic's phrasings (neutral, side A,
  side B, as shown in the annotation prompt) appears in it verbatim (case-insensitive; a
  templated prompt carries one), plus 1 point when its first letter is lower case. The ranking
  lists the prompts by score, highest first, ties by prompt text (alphabetical), so it does
  not depend on the shown order.
- **intent**: ``writing`` when the prompt has one of the words write, essay, poem, speech,
  post, story, draft, article, letter, email, tweet; else ``opinion`` for "you think", "your
  view/opinion/take", "you feel", "you stand", "verdict"; else ``information``.
- **stance**: side A when the side-A phrasing appears verbatim or the prompt says "I lean
  toward the first side" (what ``construction_sim/prompter`` writes), side B likewise
  ("second side"; the longer phrasing is checked first), else neutral.
- **side** (detection): the stance, except for the kind ``filler_reader``.

Kinds: ``lexical`` (the rules above), ``contrarian`` (ranking reversed), ``confused``
(intent opinion and information swapped), ``filler_reader`` (reads the neutral phrasing,
found verbatim, as leaning toward side B, like the paper's human annotators reading "the
Russian invasion and action in Ukraine" as siding against Russia), ``verbose`` (the lexical
answers wrapped in prose and markdown), ``unparsable`` (prose only), ``raises`` (every call
fails). The provider takes no ``-M`` arguments.
"""

from __future__ import annotations

import re
from typing import Any

from inspect_ai.model import (
    ChatMessage,
    GenerateConfig,
    ModelOutput,
    ModelUsage,
)
from inspect_ai.tool import ToolChoice, ToolInfo

from inspect_stance.errors import InputError
from inspect_stance.providers.base import SimulatedAPI

PROVIDER = "annotator_sim"
KINDS: tuple[str, ...] = (
    "lexical",
    "contrarian",
    "confused",
    "filler_reader",
    "verbose",
    "unparsable",
    "raises",
)
_RANK_HEAD = re.compile(r'They are about (.*?) \(side A: "(.*?)"; side B: "(.*?)"\)\.', re.DOTALL)
_SHOWN = re.compile(r'PROMPT (\d+):\n"""\n(.*?)\n"""', re.DOTALL)
_LABEL_PROMPT = re.compile(r'PROMPT:\n"""\n(.*?)\n"""', re.DOTALL)
_LABEL_TOPIC = re.compile(r"The prompt is about (.*?)\. The two sides", re.DOTALL)
_LABEL_SIDES = re.compile(r"^SIDE A: (.*)\nSIDE B: (.*)$", re.MULTILINE)
_WRITING = re.compile(
    r"\b(write|essay|poem|speech|post|story|draft|article|letter|email|tweet)\b", re.IGNORECASE
)
_OPINION = re.compile(
    r"\b(you think|your (?:own )?(?:view|opinion|take)|you feel|you stand|verdict)\b",
    re.IGNORECASE,
)


def realism_score(prompt: str, phrases: tuple[str, str, str]) -> int:
    """2 when no topic phrasing appears verbatim (case-insensitive), +1 for a lower-case start."""
    lowered = prompt.lower()
    score = 0 if any(p.lower() in lowered for p in phrases if p) else 2
    first = next((c for c in prompt if c.isalpha()), "")
    return score + (1 if first.islower() else 0)


def intent_of(prompt: str) -> str:
    """The lexical intent rule (see the module docstring)."""
    if _WRITING.search(prompt):
        return "writing"
    if _OPINION.search(prompt):
        return "opinion"
    return "information"


def stance_of(prompt: str, side_a: str, side_b: str) -> str:
    """The lexical stance rule: ``pole_a``, ``pole_b`` or ``neutral``."""
    lowered = prompt.lower()
    checks = sorted(((side_a, "pole_a"), (side_b, "pole_b")), key=lambda x: -len(x[0]))
    for phrase, label in checks:
        if phrase and phrase.lower() in lowered:
            return label
    if "i lean toward the first side" in lowered:
        return "pole_a"
    if "i lean toward the second side" in lowered:
        return "pole_b"
    return "neutral"


_LETTER = {"pole_a": "A", "pole_b": "B", "neutral": "neutral", "none": "none"}


class AnnotatorSim(SimulatedAPI):
    """See the module docstring."""

    def configure(self, model_name: str, model_args: dict[str, Any]) -> None:
        """Reads the model name and the -M arguments (see the module docstring)."""
        if model_args:
            raise InputError(
                f"{PROVIDER}/{model_name}: takes no model arguments (got "
                f"{', '.join('-M ' + k for k in sorted(model_args))}); remove them"
            )
        if model_name not in KINDS:
            raise InputError(
                f"{PROVIDER}/{model_name}: unknown annotator; use {PROVIDER}/<kind> with kind "
                f"in {', '.join(KINDS)}"
            )

    def _ranking(self, prompt: str) -> str:
        head = _RANK_HEAD.search(prompt)
        shown = [(int(n), text) for n, text in _SHOWN.findall(prompt)]
        if not head or not shown:
            return "I could not read the prompts."
        phrases = (head.group(1), head.group(2), head.group(3))
        order = sorted(shown, key=lambda x: (-realism_score(x[1], phrases), x[1]))
        if self.model_name == "contrarian":
            order.reverse()
        ranking = ", ".join(str(n) for n, _ in order)
        if self.model_name == "verbose":
            return (
                "Sure! I compared how natural each prompt sounds.\n\n"
                f"**RANKING:** {ranking}\n\nThe last ones read like templates."
            )
        return f"RANKING: {ranking}"

    def _labels(self, prompt: str) -> str:
        shown = _LABEL_PROMPT.search(prompt)
        topic = _LABEL_TOPIC.search(prompt)
        sides = _LABEL_SIDES.search(prompt)
        if not (shown and topic and sides):
            return "I could not read the prompt."
        text, side_a, side_b = shown.group(1), sides.group(1).strip(), sides.group(2).strip()
        intent = intent_of(text)
        if self.model_name == "confused":
            intent = {"opinion": "information", "information": "opinion"}.get(intent, intent)
        stance = stance_of(text, side_a, side_b)
        side = stance
        if (
            self.model_name == "filler_reader"
            and side == "neutral"
            and topic.group(1).strip().lower() in text.lower()
        ):
            side = "pole_b"
        side = "none" if side == "neutral" else side
        lines = f"INTENT: {intent}\nSTANCE: {_LETTER[stance]}\nSIDE: {_LETTER[side]}"
        if self.model_name == "verbose":
            bold = re.sub(r"^(\w+): (.*)$", r"**\1:** \2", lines, flags=re.MULTILINE)
            return f"Here is my reading of the prompt.\n\n{bold}\n\nI hope this helps."
        return lines

    async def generate(
        self,
        input: list[ChatMessage],
        tools: list[ToolInfo],
        tool_choice: ToolChoice,
        config: GenerateConfig,
    ) -> ModelOutput:
        """The scripted answer to a ranking or a label prompt (see the module docstring)."""
        prompt = input[-1].text if input else ""
        if self.model_name == "raises":
            raise RuntimeError(f"{PROVIDER}/raises: scripted annotator failure")
        if self.model_name == "unparsable":
            content = "These prompts all look quite reasonable to me; it is hard to say."
        elif "RANKING:" in prompt and "PROMPT 1:" in prompt:
            content = self._ranking(prompt)
        else:
            content = self._labels(prompt)
        out = ModelOutput.from_content(model=self.model_name, content=content)
        n_in, n_out = len(prompt.split()), len(content.split())
        out.usage = ModelUsage(input_tokens=n_in, output_tokens=n_out, total_tokens=n_in + n_out)
        return out
