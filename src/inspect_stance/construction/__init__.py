"""Prompt construction as a confound: templated vs LLM-generated prompts, judged by an ensemble.

Inspect-free core of the ``prompt_construction`` and ``judge_validation`` tasks (the
``prompt_validation`` study is :mod:`inspect_stance.validation`). One concept per module:

- ``issuebench``: loading IssueBench ``issues`` / ``templates`` with ``datasets``;
- ``topics``: topic selection (default six topics), seed prompts;
- ``settings``: intents, user stances, methods, settings and sample ids;
- ``templates``: ``X``-slot templates (built-in information / opinion sets) and sampling;
- ``generation``: generator instructions and parsing of generated prompts;
- ``prompts``: prompt specs, and prompt reuse across target models; ``samples``: the sample list;
- ``rubric``: the judge rubric (IssueBench templ-5 based) and judge-answer parsing;
- ``labels``: the 1-5 + refusal scale and non-label outcomes;
- ``majority``: strict-majority aggregation; ``lean``: lean and distance from neutral;
- ``comparison``: the neutral-setting comparison (Wilcoxon, direction counts);
- ``agreement``: Krippendorff's alpha, judge-human agreement; ``human_labels``: label files;
- ``records``: one judged response; ``report``: ``inspect-stance construction-report``.
"""
