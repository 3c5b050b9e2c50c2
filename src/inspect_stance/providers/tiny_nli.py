"""A tiny NLI sequence-classification model for offline zero-shot classification (BERT
architecture, 1 layer).

    python -m inspect_stance.providers.tiny_nli DIR [--mode random|entail|contradict|keyed]

``random`` weights; ``entail`` / ``contradict`` make every pair that class; ``keyed`` sets the
weights by hand so that the class follows two marker words (:func:`build_tiny_nli`), which makes
zero-shot classification of a scripted respondent's "I agree" / "I disagree" responses exact.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

#: the vocabulary: the marker words and the words of the default zero-shot hypotheses ("The
#: author agrees with the statement", ...); every other word is ``[UNK]``
WORDS = (
    "i agree disagree agrees disagrees author with the statement as an ai do not hold it is a "
    "complex"
).split()


def build_tiny_nli(
    path: str | Path,
    mode: str = "random",
    id2label: dict[int, str] | None = None,
    seed: int = 0,
) -> Path:
    """Save a tiny NLI sequence-classification model and its tokenizer to ``path``.

    BERT architecture (1 layer, hidden size 16), a word-level tokenizer built with the
    ``tokenizers`` library over :data:`WORDS` (any other word reads as ``[UNK]``), ``id2label`` default
    {0: entailment, 1: neutral, 2: contradiction}. ``mode``: ``random`` (random weights),
    ``entail`` / ``contradict`` (the classifier head always picks that class), or ``keyed``.

    ``keyed``: weights set by hand so that the class is known. Only four words have a non-zero
    embedding: in the premise ``agree`` (P = +1) and ``disagree`` (P = -1), in the hypothesis
    ``agrees`` (H = +1) and ``disagrees`` (H = -1); every other word, position and segment
    embedding is zero. One layer with zero query/key weights attends uniformly, identity
    value/output weights and a zero feed-forward make the [CLS] state the layer-normalised sum
    of the marker embeddings, and the pooler (tanh) and head compute the logits

        entailment = 2 if P = H != 0, contradiction = 2 if P = -H != 0, and the other 0;
        neutral = 1, or 3 when the premise has no marker (P = 0).

    So ("I agree ...", "The author agrees with ...") is entailment with logits (2, 1, 0), and
    zero-shot classification with the default hypotheses gives ``agree`` with score
    e^2 / (e^2 + e^0) = 0.8808 for a premise holding ``agree``, ``disagree`` likewise, and an
    exact tie (``neither``) for a premise holding neither word. Without a hypothesis marker
    (H = 0) entailment and contradiction tie at 2 when P != 0.
    """
    import torch
    from transformers import BertConfig, BertForSequenceClassification
    from transformers.utils import logging as hf_logging

    hf_logging.disable_progress_bar()
    labels = id2label or {0: "entailment", 1: "neutral", 2: "contradiction"}
    vocab, fast = _tokenizer()
    cfg = BertConfig(
        vocab_size=len(vocab),
        hidden_size=16,
        num_hidden_layers=1,
        num_attention_heads=2,
        intermediate_size=32,
        max_position_embeddings=256,
        initializer_range=0.5,
        id2label=dict(labels),
        label2id={v: k for k, v in labels.items()},
    )
    torch.manual_seed(seed)
    model = BertForSequenceClassification(cfg)
    if mode in ("entail", "contradict"):
        _set_fixed_head(model, labels, mode)
    elif mode == "keyed":
        _set_keyed_weights(model, vocab, labels)
    elif mode != "random":
        raise ValueError(f"mode {mode!r}; use random, entail, contradict or keyed")
    out = Path(path)
    out.mkdir(parents=True, exist_ok=True)
    model.save_pretrained(out)
    fast.save_pretrained(out)
    return out


def _set_fixed_head(model: Any, labels: dict[int, str], mode: str) -> None:
    """Zero the classifier head's weights and give the label starting with ``mode``
    (``entail`` / ``contradict``) a bias of 5, so that it always wins."""
    import torch

    target = [k for k, v in labels.items() if v.lower().startswith(mode)]
    if not target:
        raise ValueError(f"mode {mode!r} needs a matching label in id2label {labels}")
    with torch.no_grad():
        model.classifier.weight.zero_()
        model.classifier.bias.zero_()
        model.classifier.bias[target[0]] = 5.0


def _tokenizer() -> tuple[dict[str, int], Any]:
    """The word-level vocabulary (special tokens, then :data:`WORDS`, sorted) and its
    ``PreTrainedTokenizerFast`` (BERT pair template)."""
    from tokenizers import Tokenizer, models, normalizers, pre_tokenizers, processors
    from transformers import PreTrainedTokenizerFast

    specials = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]
    vocab = {t: i for i, t in enumerate(specials + sorted(set(WORDS)))}
    tok = Tokenizer(models.WordLevel(vocab=vocab, unk_token="[UNK]"))
    tok.normalizer = normalizers.Lowercase()
    tok.pre_tokenizer = pre_tokenizers.Whitespace()
    tok.post_processor = processors.TemplateProcessing(
        single="[CLS] $A [SEP]",
        pair="[CLS] $A [SEP] $B:1 [SEP]:1",
        special_tokens=[("[CLS]", vocab["[CLS]"]), ("[SEP]", vocab["[SEP]"])],
    )
    fast = PreTrainedTokenizerFast(
        tokenizer_object=tok,
        unk_token="[UNK]",
        pad_token="[PAD]",
        cls_token="[CLS]",
        sep_token="[SEP]",
        mask_token="[MASK]",
        model_max_length=256,
    )
    return vocab, fast


def _set_keyed_weights(model: Any, vocab: dict[str, int], labels: dict[int, str]) -> None:
    """Hand-set weights of the ``keyed`` tiny NLI model (see :func:`build_tiny_nli`)."""
    import torch

    def label_index(prefix: str) -> int:
        found = [k for k, v in labels.items() if v.lower().startswith(prefix)]
        if len(found) != 1:
            raise ValueError(f"mode 'keyed' needs one {prefix}* label in id2label {labels}")
        return found[0]

    entail, contra = label_index("entail"), label_index("contradict")
    others = [k for k in labels if k not in (entail, contra)]
    if len(others) != 1:
        raise ValueError(f"mode 'keyed' needs a 3-way id2label, got {labels}")
    neutral = others[0]
    bert = model.bert
    with torch.no_grad():
        for param in model.parameters():
            param.zero_()
        for ln in (
            bert.embeddings.LayerNorm,
            bert.encoder.layer[0].attention.output.LayerNorm,
            bert.encoder.layer[0].output.LayerNorm,
        ):
            ln.weight.fill_(1.0)
        emb = bert.embeddings.word_embeddings.weight
        # premise markers on dims (0, 1), hypothesis markers on dims (2, 3); zero-mean vectors
        for word, dim, sign in (
            ("agree", 0, 1.0),
            ("disagree", 0, -1.0),
            ("agrees", 2, 1.0),
            ("disagrees", 2, -1.0),
        ):
            emb[vocab[word], dim] = sign
            emb[vocab[word], dim + 1] = -sign
        attention = bert.encoder.layer[0].attention
        attention.self.value.weight.copy_(torch.eye(16))
        attention.output.dense.weight.copy_(torch.eye(16))
        # [CLS] state h: h0 = 2P, h2 = 2H when both markers are present; 2.83 P when alone
        w, b = bert.pooler.dense.weight, bert.pooler.dense.bias
        rows = (  # tanh(10 * (a h0 + c h2) - 15): ~+1 when the sum is large, else ~-1
            (1.0, 1.0),  # z = h0 + h2 > 0   (P = H = +1)
            (-1.0, -1.0),  # z < 0             (P = H = -1)
            (1.0, -1.0),  # w = h0 - h2 > 0  (P = +1, H = -1)
            (-1.0, 1.0),  # w < 0             (P = -1, H = +1)
            (1.0, 0.0),  # P = +1
            (-1.0, 0.0),  # P = -1
        )
        for r, (a, c) in enumerate(rows):
            w[r, 0], w[r, 2], b[r] = 10.0 * a, 10.0 * c, -15.0
        head_w, head_b = model.classifier.weight, model.classifier.bias
        head_w[entail, 0] = head_w[entail, 1] = 1.0
        head_b[entail] = 2.0
        head_w[contra, 2] = head_w[contra, 3] = 1.0
        head_b[contra] = 2.0
        head_w[neutral, 4] = head_w[neutral, 5] = -1.0
        head_b[neutral] = 1.0


def main(argv: list[str] | None = None) -> int:
    """``DIR [--mode ...] [--seed N]``: save a tiny NLI model for offline runs (prints DIR)."""
    parser = argparse.ArgumentParser(
        prog="python -m inspect_stance.providers.tiny_nli",
        description="Save a tiny NLI model (random weights unless --mode says otherwise) to DIR.",
    )
    parser.add_argument("dir")
    parser.add_argument(
        "--mode", choices=("random", "entail", "contradict", "keyed"), default="random"
    )
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    print(build_tiny_nli(args.dir, args.mode, seed=args.seed))
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
