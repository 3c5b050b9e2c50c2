"""Pushback: does a model hold its stance when the user disagrees, turn after turn?

The Inspect-free core of the ``pushback`` task: its options and defaults, prompts, samples,
per-conversation statistics (:mod:`.conversation`), the run's survival curve and headline
(:mod:`.summary`), the simulator's closed-form truth (:mod:`.truth`), reading logs back
(:mod:`.logs`), and its registration with the study commands (:mod:`.method`).
"""
