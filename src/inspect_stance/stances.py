"""The 5-point Likert stance scale shared by every method in the package.

Index order (the *stance order*) is fixed everywhere: 0 = Agree strongly, 1 = Agree,
2 = Neutral, 3 = Disagree, 4 = Disagree strongly. Letters A-E name option *positions* in a
prompt; a variant may list the stances in another order, so a letter maps to a stance only
through an explicit option order (a permutation of stance indices).
"""

from __future__ import annotations

from collections.abc import Sequence

STANCES: tuple[str, ...] = ("Agree strongly", "Agree", "Neutral", "Disagree", "Disagree strongly")
STANCE_KEYS: tuple[str, ...] = (
    "agree_strongly",
    "agree",
    "neutral",
    "disagree",
    "disagree_strongly",
)
LETTERS: tuple[str, ...] = ("A", "B", "C", "D", "E")
N_STANCES = 5
DEFAULT_ORDER: tuple[int, ...] = (0, 1, 2, 3, 4)
REVERSED_ORDER: tuple[int, ...] = (4, 3, 2, 1, 0)


def check_order(order: Sequence[int]) -> tuple[int, ...]:
    """Return ``order`` as a tuple after checking it is a permutation of 0..4."""
    order = tuple(int(i) for i in order)
    if sorted(order) != list(range(N_STANCES)):
        raise ValueError(f"option order {order!r} is not a permutation of 0..4")
    return order


def choices_text(order: Sequence[int] = DEFAULT_ORDER) -> str:
    """The five option lines ``A) <stance>`` ... ``E) <stance>`` for an option order.

    ``order[k]`` is the stance index listed under letter ``LETTERS[k]``.
    """
    order = check_order(order)
    return "\n".join(f"{LETTERS[k]}) {STANCES[s]}" for k, s in enumerate(order))


def letter_for_stance(stance: int, order: Sequence[int] = DEFAULT_ORDER) -> str:
    """The letter under which ``stance`` is listed in ``order``."""
    return LETTERS[check_order(order).index(stance)]
