"""PReSS (political stance stability under argumentative pressure): the Inspect-free core.

statements (instrument), prompts (Appendix D verbatim, LLM-classifier prompt), classify (stance
categories, LLM answer parser), nli (transformers NLI: zero-shot binary stance by default,
three-way as an option), labels (S^R/U^R/S^L/U^L), stability (S_t), faithfulness (SF/SU/ID),
entropy (semantic / naive entropy, AUROC), factor_analysis (Appendix B), arguments (reuse across
targets, source and fingerprint), summary (records and run figures), logs, report, compare,
cli. The Inspect tasks are ``inspect_stance.tasks.press`` and
``inspect_stance.tasks.press_arguments``.
"""
