"""Stance cards: one page per model across every method's headline (:mod:`.core`)."""
