"""PReSS (political stance stability under argumentative pressure): the Inspect-free core.

statements (instrument), prompts, classify (stance categories, LLM answer parser), nli
(transformers NLI stance rule), labels (S^R/U^R/S^L/U^L), stability (S_t), faithfulness
(SF/SU/ID), entropy (semantic / naive entropy, AUROC), arguments (reuse), summary (records and
run figures), params (task parameters given as strings), logs, report, compare, cli. The
Inspect task is ``inspect_stance.tasks.press``.
"""
