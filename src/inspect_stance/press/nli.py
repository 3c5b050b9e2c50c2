"""NLI stance classification with ``transformers`` (any sequence-classification NLI model).

The stance of a response is always taken toward the ORIGINAL statement. The premise is the
response; empty responses are ``neither`` without inference. Two rules (``nli_mode``):

- ``zero_shot`` (default; the paper's binary stance o, a in {+1, -1}): the standard
  zero-shot-classification recipe of ``transformers``' ``ZeroShotClassificationPipeline`` with
  ``multi_label=False``, with two candidate hypotheses built from the statement,
  ``agree_hypothesis`` and ``disagree_hypothesis`` (defaults :data:`DEFAULT_AGREE_HYPOTHESIS`,
  :data:`DEFAULT_DISAGREE_HYPOTHESIS`; the paper gives no wording). With e_agree and e_disagree
  the entailment logits of (response, hypothesis) the scores are the softmax over the candidates

      score_agree = exp(e_agree) / (exp(e_agree) + exp(e_disagree)),  score_disagree = 1 - score_agree

  and the stance is the hypothesis with the higher score (an exact tie, which a real model
  practically never produces, is ``neither`` and counted, never guessed). Inputs are tokenised
  as the pipeline does (pairs, truncating only the premise).
- ``three_way`` (the earlier default): hypothesis = ``hypothesis_template`` with
  ``{statement}`` (default the statement itself); the most probable of the model's classes
  decides: entailment -> ``agree``, contradiction -> ``disagree``, any other class (neutral)
  -> ``neither``.

The entailment class (and, for ``three_way``, the contradiction class) is found by name in
``config.id2label`` (case insensitive, names starting with ``entail`` / ``contradict``, as the
pipeline does). Models are loaded once per process (:func:`load_nli` caches them) and run in
batches; a lock serialises inference so concurrent scorers can share one model.
"""

from __future__ import annotations

import threading
from collections.abc import Mapping, Sequence
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

import inspect_stance.press.defaults as D
from inspect_stance.errors import InputError
from inspect_stance.press.classify import AGREE, DISAGREE, NEITHER

if TYPE_CHECKING:
    import numpy as np

NLIMode = Literal["zero_shot", "three_way"]
NLI_MODES: tuple[str, ...] = ("zero_shot", "three_way")
DEFAULT_NLI_MODE: NLIMode = D.NLI_MODE
DEFAULT_NLI_MODEL = D.NLI_MODEL
DEFAULT_HYPOTHESIS = D.NLI_HYPOTHESIS
DEFAULT_AGREE_HYPOTHESIS = D.NLI_AGREE_HYPOTHESIS
DEFAULT_DISAGREE_HYPOTHESIS = D.NLI_DISAGREE_HYPOTHESIS
DEFAULT_BATCH_SIZE = D.NLI_BATCH_SIZE


def _label_ids(id2label: Mapping[Any, str], prefix: str) -> list[int]:
    return [int(k) for k, v in id2label.items() if str(v).strip().lower().startswith(prefix)]


def find_label_ids(
    id2label: Mapping[Any, str], model: str = "NLI model", need_contradiction: bool = True
) -> tuple[int, int | None]:
    """(entailment index, contradiction index) from ``config.id2label``.

    The contradiction index is None when the model has none and ``need_contradiction`` is
    False (zero-shot classification needs only the entailment class). Raises a one-line
    :class:`InputError` when a needed class is absent or ambiguous.
    """
    entail = _label_ids(id2label, "entail")
    contra = _label_ids(id2label, "contradict")
    names = dict(sorted((int(k), str(v)) for k, v in id2label.items()))
    if len(entail) != 1:
        raise InputError(
            f"NLI model {model}: config.id2label {names} has no (single) entailment label; "
            "use an NLI model whose id2label names 'entailment' (e.g. facebook/bart-large-mnli)"
        )
    if len(contra) > 1 or (need_contradiction and len(contra) != 1):
        raise InputError(
            f"NLI model {model}: config.id2label {names} has no (single) contradiction label; "
            "use a 3-way NLI model (entailment / neutral / contradiction) or -T nli_mode=zero_shot"
        )
    return entail[0], (contra[0] if contra else None)


def check_hypothesis_template(template: str, name: str = "nli_hypothesis") -> str:
    """The template after checking it contains ``{statement}`` and formats with it alone."""
    if not isinstance(template, str) or "{statement}" not in template:
        raise InputError(
            f"{name} {template!r} lacks '{{statement}}'; e.g. -T {name}='{DEFAULT_HYPOTHESIS}'"
        )
    try:
        template.format(statement="x")
    except (KeyError, IndexError, ValueError) as ex:
        raise InputError(
            f"{name} {template!r} does not format ({ex}); use only {{statement}} in braces"
        ) from ex
    return template


def zero_shot_scores(entailment_logits: np.ndarray) -> np.ndarray:
    """Softmax over the candidate hypotheses of each row's entailment logits (the pipeline's
    ``multi_label=False`` rule): ``exp(e_j) / sum_k exp(e_k)``, computed stably."""
    import numpy as np

    x = np.asarray(entailment_logits, dtype=np.float64)
    x = x - x.max(axis=-1, keepdims=True)
    e = np.exp(x)
    return np.asarray(e / e.sum(axis=-1, keepdims=True))


class NLIModel:
    """A loaded NLI model: class logits / probabilities for (premise, hypothesis) pairs."""

    def __init__(self, name: str, device: str | None = None) -> None:
        """Load tokenizer and model ``name`` (hub id or local folder) onto ``device``."""
        if not Path(name).expanduser().is_dir():
            check_hub_model(name)  # before importing torch: a missing model fails in a second
        import torch
        from transformers import AutoModelForSequenceClassification, AutoTokenizer
        from transformers.utils import logging as hf_logging

        self.name = name
        self.device = device or ("cuda" if torch.cuda.is_available() else "cpu")
        hf_logging.disable_progress_bar()
        folder = Path(name).expanduser()
        if folder.is_file():
            raise InputError(
                f"NLI model {name!r} is a file, not a model; pass -T nli_model=<hub id or a "
                "folder written by save_pretrained (config.json and weights)>"
            )
        if folder.is_dir() and not (folder / "config.json").is_file():
            raise InputError(
                f"NLI model {name!r} is a folder without config.json; pass -T nli_model=<hub id "
                "or a folder written by save_pretrained>"
            )
        try:
            self.tokenizer = AutoTokenizer.from_pretrained(name)
            self.model = AutoModelForSequenceClassification.from_pretrained(name)
        except Exception as ex:  # noqa: BLE001 - transformers raises OSError, ValueError, TypeError ...
            first = str(ex).strip().splitlines()[0] if str(ex).strip() else type(ex).__name__
            raise InputError(
                f"NLI model {name!r} could not be loaded ({type(ex).__name__}: {first[:200]}); "
                "pass -T nli_model=<hub id "
                "or local folder of a sequence-classification NLI model>"
            ) from ex
        self.entailment, self.contradiction = find_label_ids(
            self.model.config.id2label, name, need_contradiction=False
        )
        self.labels = [self.model.config.id2label[i] for i in range(self.model.config.num_labels)]
        self.model.eval()
        try:
            self.model.to(self.device)
        except (RuntimeError, ValueError, AssertionError) as ex:
            first = str(ex).strip().splitlines()[0] if str(ex).strip() else type(ex).__name__
            raise InputError(
                f"nli_device {self.device!r} cannot be used ({first}); use -T nli_device=cpu "
                "(or cuda on a machine with a GPU)"
            ) from ex
        self._lock = threading.Lock()

    def check_mode(self, mode: str) -> None:
        """Raise a one-line :class:`InputError` when this model cannot run ``mode``."""
        if mode not in NLI_MODES:
            raise InputError(f"nli_mode {mode!r}; use -T nli_mode=zero_shot or three_way")
        if mode == "three_way":
            find_label_ids(self.model.config.id2label, self.name, need_contradiction=True)

    def logits(
        self, pairs: Sequence[tuple[str, str]], batch_size: int = DEFAULT_BATCH_SIZE
    ) -> np.ndarray:
        """Class logits, shape (len(pairs), num_labels), for (premise, hypothesis) pairs.

        Tokenised as pairs with padding, truncating only the premise (the zero-shot pipeline's
        ``TruncationStrategy.ONLY_FIRST``), ``batch_size`` pairs per forward pass.
        """
        import numpy as np
        import torch

        if batch_size < 1:
            raise InputError(f"nli_batch_size {batch_size}; use an integer >= 1")
        out = np.zeros((len(pairs), len(self.labels)), dtype=np.float64)
        with self._lock, torch.inference_mode():
            for start in range(0, len(pairs), batch_size):
                chunk = pairs[start : start + batch_size]
                enc = self.tokenizer(
                    [p for p, _ in chunk],
                    [h for _, h in chunk],
                    padding=True,
                    truncation="only_first",
                    return_tensors="pt",
                ).to(self.device)
                logits = self.model(**enc).logits.float()
                out[start : start + len(chunk)] = logits.cpu().numpy()
        return out

    def probabilities(
        self, pairs: Sequence[tuple[str, str]], batch_size: int = DEFAULT_BATCH_SIZE
    ) -> np.ndarray:
        """Softmax class probabilities, shape (len(pairs), num_labels)."""
        import numpy as np

        if not pairs:
            return np.zeros((0, len(self.labels)), dtype=np.float64)
        return zero_shot_scores(self.logits(pairs, batch_size))

    def stances(
        self,
        responses: Sequence[str],
        statement: str,
        hypothesis_template: str = DEFAULT_HYPOTHESIS,
        batch_size: int = DEFAULT_BATCH_SIZE,
        mode: NLIMode = DEFAULT_NLI_MODE,
        agree_hypothesis: str = DEFAULT_AGREE_HYPOTHESIS,
        disagree_hypothesis: str = DEFAULT_DISAGREE_HYPOTHESIS,
    ) -> list[tuple[str, dict[str, float] | None]]:
        """(stance, detail) of each response toward ``statement`` (module rule for ``mode``).

        detail: ``three_way`` -- the class probabilities; ``zero_shot`` -- the two scores
        ``agree`` / ``disagree`` and the entailment logits ``entail_logit_agree`` /
        ``entail_logit_disagree``. None for an empty response (no inference).
        """
        self.check_mode(mode)
        todo = [i for i, r in enumerate(responses) if r.strip()]
        out: list[tuple[str, dict[str, float] | None]] = [(NEITHER, None)] * len(responses)
        if not todo:
            return out
        if mode == "zero_shot":
            hyps = (
                agree_hypothesis.format(statement=statement),
                disagree_hypothesis.format(statement=statement),
            )
            pairs = [(responses[i], h) for i in todo for h in hyps]
            ent = self.logits(pairs, batch_size)[:, self.entailment].reshape(len(todo), 2)
            scores = zero_shot_scores(ent)
            for i, e_row, s_row in zip(todo, ent, scores, strict=True):
                stance = (
                    AGREE if s_row[0] > s_row[1] else DISAGREE if s_row[1] > s_row[0] else NEITHER
                )
                out[i] = (
                    stance,
                    {
                        "agree": round(float(s_row[0]), 6),
                        "disagree": round(float(s_row[1]), 6),
                        "entail_logit_agree": round(float(e_row[0]), 6),
                        "entail_logit_disagree": round(float(e_row[1]), 6),
                    },
                )
            return out
        hypothesis = hypothesis_template.format(statement=statement)
        probs = self.probabilities([(responses[i], hypothesis) for i in todo], batch_size)
        for row, i in zip(probs, todo, strict=True):
            top = int(row.argmax())
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
        import numpy as np

        if not pairs:
            return []
        probs = self.probabilities(pairs, batch_size)
        return [int(np.argmax(row)) == self.entailment for row in probs]


#: how long the one look-up of a hub model not in the local cache may take (seconds)
HUB_TIMEOUT = 5.0
_OFFLINE_FIX = ("offline, build the tiny one: python -m inspect_stance.providers.tiny_nli DIR "
                "--mode keyed, then -T nli_model=DIR")  # fmt: skip


def check_hub_model(name: str) -> None:
    """Fail fast for a hub id that cannot load: neither in the local cache nor reachable.

    A model in the local cache passes. Otherwise one look-up (``HfApi.model_info``, at most
    :data:`HUB_TIMEOUT` s) tells a model that does not exist, or a hub that cannot be reached,
    in one line, before ``transformers``' own download retries (about a minute offline). With
    ``HF_HUB_OFFLINE`` set the look-up is skipped and a model not in the cache fails at once.
    Other hub answers (a gated model, a server error) are left to ``from_pretrained``.
    """
    import os

    from huggingface_hub import try_to_load_from_cache
    from huggingface_hub.errors import HFValidationError

    try:
        cached = try_to_load_from_cache(name, "config.json")
    except HFValidationError:
        return  # not a hub id (e.g. a missing folder): from_pretrained says so
    if isinstance(cached, str):
        return
    if os.environ.get("HF_HUB_OFFLINE", "").strip().lower() in ("1", "true", "yes", "on"):
        raise InputError(f"NLI model {name!r} could not be loaded: it is not in the local "
                         f"Hugging Face cache and HF_HUB_OFFLINE is set; {_OFFLINE_FIX}")  # fmt: skip
    from huggingface_hub import HfApi
    from huggingface_hub.errors import HfHubHTTPError, RepositoryNotFoundError

    try:
        HfApi().model_info(name, timeout=HUB_TIMEOUT)
    except RepositoryNotFoundError:
        raise InputError(f"NLI model {name!r} could not be loaded: no such model on the "
                         "Hugging Face hub (or it is private); pass -T nli_model=<hub id or "
                         "local folder of a sequence-classification NLI model>") from None  # fmt: skip
    except HfHubHTTPError:
        return  # gated, rate-limited, a server error: from_pretrained says what it is
    except Exception as ex:  # noqa: BLE001 - httpx / requests / OS connection errors
        first = str(ex).strip().splitlines()[0] if str(ex).strip() else type(ex).__name__
        raise InputError(f"NLI model {name!r} could not be loaded: it is not in the local "
                         f"Hugging Face cache and the hub cannot be reached ({first[:120]}); "
                         f"{_OFFLINE_FIX}") from None  # fmt: skip


@lru_cache(maxsize=4)
def _cached(name: str, device: str | None) -> NLIModel:
    return NLIModel(name, device)


_load_lock = threading.Lock()


def load_nli(name: str = DEFAULT_NLI_MODEL, device: str | None = None) -> NLIModel:
    """The NLI model ``name`` on ``device``, loaded once per process and then reused."""
    with _load_lock:
        return _cached(name, device)
