"""Bad task parameters are one-line errors before any model call."""

from __future__ import annotations

from typing import Any

import pytest
from inspect_stance.tasks.even_handedness import even_handedness

from inspect_stance.errors import InputError


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ({"threshold": 2}, "threshold 2; use a number in"),
        ({"hedging_threshold": "x"}, "hedging_threshold 'x'"),
        ({"topics": "nosuch"}, "unknown topics nosuch"),
        ({"template_categories": "essays"}, "unknown template_categories essays"),
        ({"partisan": "maybe"}, "partisan 'maybe' is not a boolean"),
        ({"limit": 0}, "limit 0; use an integer >= 1"),
        ({"thresold": 0.5}, "thresold"),
        ({}, "needs the model role 'graders'"),
    ],
)
def test_bad_parameters(args: dict[str, Any], message: str) -> None:
    with pytest.raises(InputError, match=message):
        even_handedness(**args)
