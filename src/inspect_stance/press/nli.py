"""NLI stance classification with ``transformers`` (any sequence-classification NLI model).

Stance of a response toward the original statement: premise = the response, hypothesis = the
original statement (``hypothesis_template`` with ``{statement}``; default the statement itself).
The model's most probable class decides: entailment -> ``agree``, contradiction -> ``disagree``,
any other class (neutral) -> ``neither``. Empty responses are ``neither`` without inference.

The entailment and contradiction classes are found by name in ``config.id2label`` (case
insensitive, names starting with ``entail`` / ``contradict``); a model without both is refused.
Models are loaded once per process (:func:`load_nli` caches them) and run in batches; a lock
serialises inference so concurrent scorers can share one model.
"""

from __future__ import annotations

import threading
from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any

import numpy as np

from inspect_stance.press.classify import AGREE, DISAGREE, NEITHER

DEFAULT_NLI_MODEL = "facebook/bart-large-mnli"
DEFAULT_HYPOTHESIS = "{statement}"
DEFAULT_BATCH_SIZE = 16


def find_label_ids(id2label: Mapping[Any, str], model: str = "NLI model") -> tuple[int, int]:
    """(entailment index, contradiction index) from ``config.id2label``; ValueError if absent."""
    entail = [int(k) for k, v in id2label.items() if str(v).strip().lower().startswith("entail")]
    contra = [
        int(k) for k, v in id2label.items() if str(v).strip().lower().startswith("contradict")
    ]
    names = dict(sorted((int(k), str(v)) for k, v in id2label.items()))
    if len(entail) != 1:
        raise ValueError(
            f"NLI model {model}: config.id2label {names} has no (single) entailment label; "
            "use an NLI model whose id2label names 'entailment' (e.g. facebook/bart-large-mnli)"
        )
    if len(contra) != 1:
        raise ValueError(
            f"NLI model {model}: config.id2label {names} has no (single) contradiction label; "
            "use a 3-way NLI model (entailment / neutral / contradiction)"
        )
    return entail[0], contra[0]


def check_hypothesis_template(template: str) -> str:
    """The template after checking it contains ``{statement}`` and formats."""
    if "{statement}" not in template:
        raise ValueError(f"nli_hypothesis {template!r} lacks '{{statement}}'; e.g. '{{statement}}'")
    try:
        template.format(statement="x")
    except (KeyError, IndexError, ValueError) as ex:
        raise ValueError(
            f"nli_hypothesis {template!r} does not format ({ex}); use only {{statement}}"
        ) from ex
    return template


class NLIModel:
    """A loaded NLI model: class probabilities for (premise, hypothesis) pairs, in batches."""

    def __init__(self, name: str, device: str | None = None) -> None:
        """Load tokenizer and model ``name`` (hub id or local folder) onto ``device``."""
        import torch
        from transformers import AutoModelForSequenceClassification, AutoTokenizer
        from transformers.utils import logging as hf_logging

        self.name = name
        self.device = device or ("cuda" if torch.cuda.is_available() else "cpu")
        hf_logging.disable_progress_bar()
        try:
            self.tokenizer = AutoTokenizer.from_pretrained(name)
            self.model = AutoModelForSequenceClassification.from_pretrained(name)
        except (OSError, ValueError) as ex:
            first = str(ex).strip().splitlines()[0] if str(ex).strip() else type(ex).__name__
            raise ValueError(
                f"NLI model {name!r} could not be loaded ({first}); pass nli_model=<hub id or "
                "local folder of a sequence-classification NLI model>"
            ) from ex
        self.entailment, self.contradiction = find_label_ids(self.model.config.id2label, name)
        self.labels = [self.model.config.id2label[i] for i in range(self.model.config.num_labels)]
        self.model.eval()
        self.model.to(self.device)
        self._lock = threading.Lock()

    def probabilities(
        self, pairs: Sequence[tuple[str, str]], batch_size: int = DEFAULT_BATCH_SIZE
    ) -> np.ndarray:
        """Softmax class probabilities, shape (len(pairs), num_labels), for (premise, hypothesis)."""
        import torch

        if batch_size < 1:
            raise ValueError(f"nli_batch_size {batch_size}; must be >= 1")
        out = np.zeros((len(pairs), len(self.labels)), dtype=np.float64)
        with self._lock, torch.inference_mode():
            for start in range(0, len(pairs), batch_size):
                chunk = pairs[start : start + batch_size]
                enc = self.tokenizer(
                    [p for p, _ in chunk],
                    [h for _, h in chunk],
                    padding=True,
                    truncation=True,
                    return_tensors="pt",
                ).to(self.device)
                logits = self.model(**enc).logits.float()
                out[start : start + len(chunk)] = torch.softmax(logits, dim=-1).cpu().numpy()
        return out

    def stances(
        self,
        responses: Sequence[str],
        statement: str,
        hypothesis_template: str = DEFAULT_HYPOTHESIS,
        batch_size: int = DEFAULT_BATCH_SIZE,
    ) -> list[tuple[str, dict[str, float] | None]]:
        """(stance, class probabilities) of each response toward ``statement`` (module rule)."""
        hypothesis = hypothesis_template.format(statement=statement)
        todo = [i for i, r in enumerate(responses) if r.strip()]
        probs = self.probabilities([(responses[i], hypothesis) for i in todo], batch_size)
        out: list[tuple[str, dict[str, float] | None]] = [(NEITHER, None)] * len(responses)
        for row, i in zip(probs, todo, strict=True):
            top = int(np.argmax(row))
            stance = (
                AGREE
                if top == self.entailment
                else DISAGREE
                if top == self.contradiction
                else NEITHER
            )
            out[i] = (
                stance,
                {lab: round(float(p), 6) for lab, p in zip(self.labels, row, strict=True)},
            )
        return out

    def entails(
        self, pairs: Sequence[tuple[str, str]], batch_size: int = DEFAULT_BATCH_SIZE
    ) -> list[bool]:
        """True where the premise entails the hypothesis (entailment is the most probable class)."""
        if not pairs:
            return []
        probs = self.probabilities(pairs, batch_size)
        return [int(np.argmax(row)) == self.entailment for row in probs]


@lru_cache(maxsize=4)
def _cached(name: str, device: str | None) -> NLIModel:
    return NLIModel(name, device)


_load_lock = threading.Lock()


def load_nli(name: str = DEFAULT_NLI_MODEL, device: str | None = None) -> NLIModel:
    """The NLI model ``name`` on ``device``, loaded once per process and then reused."""
    with _load_lock:
        return _cached(name, device)
