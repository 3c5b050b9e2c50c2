"""Adaptive trials (``-T adaptive_halfwidth=H``): confidence sequences and the stopping rule
(``confseq``), a sample's waves (``rule``), the unbiased estimate after stopping (``estimate``) and
the replay of a fixed run under the rule (``replay``).
"""
