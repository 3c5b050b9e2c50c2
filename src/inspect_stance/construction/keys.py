"""Names the construction and validation solvers and scorers share: model roles, the one-line
error for an unbound role, and the sample-store keys the solvers write and the scorers read."""

from __future__ import annotations

# prompt_construction / judge_validation
JUDGES_ROLE = "judges"
NO_JUDGES = (
    "no judges: bind one or more models to the role 'judges', e.g. "
    "--model-role judges=openai/gpt-4o-mini,anthropic/claude-3-5-haiku-latest"
)
PROMPTER_ROLE = "prompter"
STORE_PROMPT = "construction:prompt"
STORE_STATUS = "construction:status"
STORE_GENERATION = "construction:generation"
STORE_SWAP_PROMPT = "construction:swap_prompt"  # the opposite stance's prompt (swap control)

# prompt_validation
ANNOTATORS_ROLE = "annotators"
NO_ANNOTATORS = (
    "prompt_validation needs the model role 'annotators'; add --model-role "
    "annotators=PROVIDER/MODEL_A,PROVIDER/MODEL_B,PROVIDER/MODEL_C"
)
STORE_ITEMS = "validation:items"
STORE_MISSING = "validation:missing"
STORE_ANNOTATIONS = "validation:annotations"
STORE_VALIDATION_GENERATION = "validation:generation"
