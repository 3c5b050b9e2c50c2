"""Relay prompts of the multi-hop chain variant: the package's own texts (not the paper's).

In a chain, hop 1 is the ordinary generation (an argument written from the initial stance);
each later hop gives the previous hop's *text* to a relay model with one operation:

- ``paraphrase`` — rewrite the text in other words, keeping its meaning;
- ``summarise`` — shorten the text to at most half the argument's word limit;
- ``clarify`` — edit the text for clarity (grammar, wording, structure), keeping its meaning;
- ``translate`` — translate the text into ``relay_language`` and, in a second call, back into
  English (two relay calls per hop; the stance is read from the back-translation).

None of the prompts mentions stance, position or opinion: the chain measures what ordinary
text operations do to a stance, not how well a model preserves one when asked to. Layout:
``<instruction>\\n\\nText:\\n<text>\\n\\n<label>:``.
"""

from __future__ import annotations

from typing import Literal

from inspect_stance.drift.defaults import RELAY_LANGUAGE, WORDS_LIMIT

RelayOperation = Literal["paraphrase", "summarise", "clarify", "translate"]
RELAY_OPERATIONS: tuple[str, ...] = ("paraphrase", "summarise", "clarify", "translate")
DEFAULT_RELAY_LANGUAGE = RELAY_LANGUAGE
#: the language a translation hop returns to
BACK_LANGUAGE = "English"

_INSTRUCTIONS: dict[str, str] = {
    "paraphrase": (
        "Paraphrase the following text in your own words, keeping its meaning. "
        "Only output the paraphrase itself."
    ),
    "summarise": (
        "Summarise the following text in at most {summary_words} words. "
        "Only output the summary itself."
    ),
    "clarify": (
        "Edit the following text for clarity: fix its grammar and improve its wording and "
        "structure, keeping its meaning. Only output the edited text itself."
    ),
    "translate": (
        "Translate the following text into {language}. Only output the translation itself."
    ),
}
_LABELS: dict[str, str] = {
    "paraphrase": "Paraphrase",
    "summarise": "Summary",
    "clarify": "Edited text",
    "translate": "Translation",
}


def check_operation(operation: str) -> RelayOperation:
    """``operation`` if it is a relay operation, else ``ValueError`` naming the choices."""
    if operation not in RELAY_OPERATIONS:
        raise ValueError(
            f"unknown relay operation {operation!r}; use one of {', '.join(RELAY_OPERATIONS)}"
        )
    return operation  # type: ignore[return-value]


def summary_words(words_limit: int) -> int:
    """The summary's word limit: half the argument's, at least 1 (``max(1, words_limit // 2)``)."""
    return max(1, words_limit // 2)


def relay_prompt(
    operation: str,
    text: str,
    words_limit: int = WORDS_LIMIT,
    language: str = DEFAULT_RELAY_LANGUAGE,
) -> str:
    """One relay call's prompt: the operation's instruction, the text, the output label.

    For ``translate`` this is the outward call into ``language``; the return call is
    ``relay_prompt("translate", foreign_text, language=BACK_LANGUAGE)``.
    """
    op = check_operation(operation)
    instruction = _INSTRUCTIONS[op].format(
        summary_words=summary_words(words_limit), language=language
    )
    return f"{instruction}\n\nText:\n{text}\n\n{_LABELS[op]}:"


def relay_steps(operation: str, language: str = DEFAULT_RELAY_LANGUAGE) -> list[str]:
    """The target language of each relay call of one hop: ``[language, "English"]`` for
    ``translate``, one empty entry (no language) for the other operations."""
    if check_operation(operation) == "translate":
        return [language, BACK_LANGUAGE]
    return [""]


def relay_calls_per_hop(operation: str) -> int:
    """Relay calls one hop makes: 2 for ``translate`` (there and back), else 1."""
    return len(relay_steps(operation))
