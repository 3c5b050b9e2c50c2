"""Scripted PReSS providers with known answers (``press_sim/target``, ``/arguer``, ``/classifier``).

These are instruments for validating the PReSS pipeline end to end, not models.

``press_sim/arguer``
    Answers the support / counter prompt for a statement with a deterministic text containing
    the statement and the tag ``[press_sim <kind> <k>]``; ``k`` counts the calls with the same
    prompt (mod ``argument_sets``), so consecutive argument sets get distinct texts.

``press_sim/target``
    A respondent whose stance per statement x persona x argument set x condition is set by an
    *archetype* (:data:`ARCHETYPE_NAMES`, :func:`archetype_alignment`, in alignment terms: ``R`` = right-aligned, ``L`` =
    left-aligned, ``neither``, ``refusal``, ``garble`` = a response the scripted classifier
    cannot read). Statement i of the statements file gets archetype i mod 8 (or the cycle given
    by ``-M archetypes=a,b,...``). The argument set of a support / counter prompt is read from
    the arguer's tag; that of a neutral prompt is the number of earlier identical calls (mod
    ``argument_sets``), which matches the set because the solver handles sets in order.
    Temperature-1 neutral calls (entropy samples) return one text for archetypes whose
    no-persona labels are all stable and alternate between two texts otherwise, with token
    log-probabilities -0.5 (first text) or -1.0 (second text) when requested.

``press_sim/classifier``
    Reads the classifier prompt and answers ``Agree.`` / ``Disagree.`` when the response states
    that stance *about the statement in the classifier prompt* (``Neither.`` when it quotes a
    different statement), ``Refusal.`` for refusals, ``Neither.`` otherwise, and an unparsable
    answer for ``garble`` responses. With ``-M fail_on=TEXT`` it raises ``RuntimeError`` (not
    retried) for every prompt containing TEXT, to exercise classifier failures.

    With ``-M style=verbose`` it answers the way real chat models do, stating the one category
    and then explaining (``Agree.\n\nThe response argues ...``, ``**Disagree** - the text
    ...``, ``The response takes a neutral position ...``), to exercise the answer parser.

Model args (``-M``, parsed strictly: an unknown or malformed argument is a one-line error):
``statements`` (TSV path; default the packaged instrument), ``argument_sets`` (integer >= 1,
default 3), ``archetypes`` (comma list cycled over statements), ``fail_on`` (classifier only,
above), ``style`` (classifier only: ``terse`` (default) or ``verbose``).

``python -m inspect_stance.providers.tiny_nli DIR --mode keyed`` saves a tiny NLI model whose
zero-shot classification of the scripted target's responses is exact
(:func:`inspect_stance.providers.tiny_nli.build_tiny_nli`).
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

from inspect_ai.model import (
    ChatCompletionChoice,
    ChatMessage,
    ChatMessageAssistant,
    GenerateConfig,
    Logprob,
    Logprobs,
    ModelOutput,
    ModelUsage,
)
from inspect_ai.tool import ToolChoice, ToolInfo

from inspect_stance.errors import InputError
from inspect_stance.press.prompts import CLASSIFIER_TEMPLATE, PERSONA_PREFIXES
from inspect_stance.press.statements import Statement, load_statements
from inspect_stance.providers.args import arg_int, reject_unknown
from inspect_stance.providers.base import SimulatedAPI

PROVIDER = "press_sim"
MODEL_ARGS: tuple[str, ...] = ("statements", "argument_sets", "archetypes", "fail_on", "style")
STYLES: tuple[str, ...] = ("terse", "verbose")

# archetype -> function (persona, argument set k, condition) -> alignment
ARCHETYPE_NAMES: tuple[str, ...] = (
    "stable_right",
    "stable_left",
    "unstable_right",
    "unstable_left",
    "no_opinion",
    "set_flipper",
    "persona_follower",
    "mixed",
)
# archetypes whose no-persona labels are all stable (entropy samples: one text)
CERTAIN_ARCHETYPES = frozenset({"stable_right", "stable_left", "set_flipper", "persona_follower"})


def archetype_alignment(archetype: str, persona: str, k: int, condition: str) -> str:
    """Scripted alignment (R, L, neither, refusal, garble) of one response."""
    if archetype == "stable_right":
        return "R"
    if archetype == "stable_left":
        return "L"
    if archetype == "unstable_right":
        return "L" if condition == "counter" else "R"
    if archetype == "unstable_left":
        return "neither" if condition == "support" else "L"
    if archetype == "no_opinion":
        if condition == "neutral":
            return "neither" if persona == "none" else "refusal"
        return "R" if condition == "support" else "L"
    if archetype == "set_flipper":
        if persona == "none":
            return "R" if k % 2 == 0 else "L"
        return "L" if persona == "left" else "R"
    if archetype == "persona_follower":
        return "L" if persona == "left" else "R"
    if archetype == "mixed":
        if persona == "none":
            return "L" if (k % 3 == 1 and condition == "counter") else "R"
        if persona == "left":
            return "refusal" if condition == "support" else "L"
        return "garble" if (k % 3 == 0 and condition == "support") else "R"
    raise InputError(
        f"press_sim: unknown archetype {archetype!r} in -M archetypes; use a comma list of "
        f"{', '.join(ARCHETYPE_NAMES)}"
    )


_TAG = re.compile(r"\[press_sim (support|counter) (\d+)\]")
_GARBLE = "[[garble]]"
_REFUSAL = "As an AI, I do not hold personal opinions on political questions."
_NEITHER = "It is a complex issue with reasonable arguments on both sides."


def render(alignment: str, statement: Statement) -> str:
    """Response text for an alignment on a statement (stance stated about the original)."""
    if alignment in ("R", "L", "garble"):
        right = alignment in ("R", "garble")
        agree = right == (statement.bias == "right")
        verb = "agree" if agree else "disagree"
        text = f'I {verb} with the statement "{statement.text}".'
        return f"{text} {_GARBLE}" if alignment == "garble" else text
    if alignment == "refusal":
        return _REFUSAL
    return _NEITHER


def _usage(prompt: str, text: str) -> ModelUsage:
    i, o = len(prompt.split()), len(text.split())
    return ModelUsage(input_tokens=i, output_tokens=o, total_tokens=i + o)


class PressSimAPI(SimulatedAPI):
    """Scripted PReSS arguer / target / classifier (see module docstring)."""

    def configure(self, model_name: str, model_args: dict[str, Any]) -> None:
        """Reads the model name and the -M arguments (see the module docstring)."""
        if model_name not in ("target", "arguer", "classifier"):
            raise InputError(
                f"press_sim/{model_name}: unknown model; use press_sim/target, press_sim/arguer "
                "or press_sim/classifier"
            )
        reject_unknown(PROVIDER, model_args, MODEL_ARGS)
        statements = model_args.get("statements")
        if statements is not None and not isinstance(statements, str):
            raise InputError(
                f"press_sim: -M statements={statements!r} is not a path; use -M statements=FILE.tsv"
            )
        self.statements = load_statements(statements)
        self.argument_sets = arg_int(
            PROVIDER, "argument_sets", model_args.get("argument_sets", 3), minimum=1, example=3
        )
        archetypes = model_args.get("archetypes")
        if archetypes is not None and not isinstance(archetypes, (str, list)):
            raise InputError(
                f"press_sim: -M archetypes={archetypes!r} is not a list; use e.g. "
                "-M archetypes=stable_left,unstable_right"
            )
        if isinstance(archetypes, list):
            archetypes = ",".join(str(a) for a in archetypes)
        names = tuple(a.strip() for a in archetypes.split(",")) if archetypes else ARCHETYPE_NAMES
        for a in names:
            archetype_alignment(a, "none", 0, "neutral")  # validates the name
        self.archetypes = names
        fail_on = model_args.get("fail_on")
        self.fail_on = None if fail_on is None else str(fail_on)
        style = str(model_args.get("style", "terse")).strip().lower()
        if style not in STYLES:
            raise InputError(
                f"press_sim: -M style={model_args.get('style')!r}; use -M style=terse or "
                "-M style=verbose"
            )
        self.style = style
        self.calls: Counter[tuple[str, float | None]] = Counter()

    def archetype(self, statement: Statement) -> str:
        """Archetype of a statement: position in the statements file, cycled over the list."""
        return self.archetypes[statement.id % len(self.archetypes)]

    def find_statement(self, text: str) -> Statement | None:
        """The statement of the instrument quoted in ``text`` (longest match)."""
        hits = [s for s in self.statements if s.text in text]
        return max(hits, key=lambda s: len(s.text)) if hits else None

    async def generate(
        self,
        input: list[ChatMessage],
        tools: list[ToolInfo],
        tool_choice: ToolChoice,
        config: GenerateConfig,
    ) -> ModelOutput:
        prompt = input[-1].text if input else ""
        key = (prompt, config.temperature)
        count = self.calls[key]
        self.calls[key] += 1
        logprob = None
        if self.model_name == "arguer":
            text = self._argue(prompt, count)
        elif self.model_name == "classifier":
            text = self._classify(prompt)
        else:
            text, logprob = self._respond(prompt, count, config)
        choice = ChatCompletionChoice(
            message=ChatMessageAssistant(
                content=text, model=f"press_sim/{self.model_name}", source="generate"
            ),
            stop_reason="stop",
        )
        if config.logprobs and logprob is not None:
            choice.logprobs = Logprobs(
                content=[Logprob(token=t, logprob=logprob) for t in text.split()]
            )
        return ModelOutput(
            model=f"press_sim/{self.model_name}", choices=[choice], usage=_usage(prompt, text)
        )

    def _argue(self, prompt: str, count: int) -> str:
        kind = "support" if prompt.startswith("Rephrase") else "counter"
        statement = prompt.split("\n\n", 1)[-1].strip()
        k = count % self.argument_sets
        if kind == "support":
            return f"How can we pretend otherwise? {statement} [press_sim support {k}]"
        return f"How can anyone still claim that {statement} [press_sim counter {k}]"

    def _respond(self, prompt: str, count: int, config: GenerateConfig) -> tuple[str, float | None]:
        persona = "none"
        for name, prefix in PERSONA_PREFIXES.items():
            if prefix and prompt.startswith(prefix):
                persona = name
        statement = self.find_statement(prompt)
        if statement is None:
            return "I do not know what this is about.", -1.0
        archetype = self.archetype(statement)
        tag = _TAG.search(prompt)
        if tag:
            condition, k = tag.group(1), int(tag.group(2))
        else:
            condition, k = "neutral", count % self.argument_sets
        first = render(
            archetype_alignment(archetype, persona, 0 if not tag else k, condition), statement
        )
        if condition == "neutral" and (config.temperature or 0.0) > 0.0:
            # entropy samples: one text, or two alternating texts
            if archetype in CERTAIN_ARCHETYPES or count % 2 == 0:
                return first, -0.5
            return f"On reflection, I am not sure. {_NEITHER}", -1.0
        return render(archetype_alignment(archetype, persona, k, condition), statement), -0.5

    def _classify(self, prompt: str) -> str:
        if self.fail_on and self.fail_on in prompt:
            raise RuntimeError(
                f"press_sim/classifier: scripted failure (prompt has {self.fail_on!r})"
            )
        m = _CLASSIFIER_PROMPT.match(prompt)
        if not m:
            return "I cannot read this prompt."
        statement, response = m.group(1).strip(), m.group(2).strip()
        if _GARBLE in response:
            return "Hmm, hard to say." if self.style == "terse" else _VERBOSE_GARBLE
        quoted = re.match(r'I (agree|disagree) with the statement "(.*)"\.', response, re.S)
        if quoted:
            category = quoted.group(1) if quoted.group(2) == statement else "neither"
        elif response == _REFUSAL:
            category = "refusal"
        else:
            category = "neither"
        if self.style == "terse":
            return f"{category.capitalize()}."
        return _VERBOSE[category]


# the classifier prompt with its two slots as groups (built from the template itself)
_CLASSIFIER_PROMPT = re.compile(
    re.escape(CLASSIFIER_TEMPLATE)
    .replace(re.escape("{statement}"), "(.*?)", 1)
    .replace(re.escape("{response}"), "(.*)", 1)
    + r"\Z",
    re.S,
)
# verbose answers of the kind real chat models give: one stance, then an explanation
_VERBOSE: dict[str, str] = {
    "agree": "Agree.\n\nThe response argues in favour of the statement and does not hedge.",
    "disagree": "**Disagree** - the text rejects the statement and argues against it.",
    "neither": "The response takes a neutral position: neither.",
    "refusal": "Refusal. The response declines to share an opinion.",
}
_VERBOSE_GARBLE = "The response could be read as agreeing or disagreeing; it is hard to say."
