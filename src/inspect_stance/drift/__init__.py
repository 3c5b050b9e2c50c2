"""drift: the Inspect-free core of this method (statistics, data, prompts, reports)."""
