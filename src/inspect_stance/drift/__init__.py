"""drift: the Inspect-free core of the stance-drift method (statistics, data, prompts, reports).

Top-level modules: ``options`` (the task's ``-T`` parameters), ``propositions``, ``prompts``,
``dataset`` (the task's Inspect samples), ``extraction``, ``trials``, ``started``, ``transition``
(per-trial vectors to transition matrices), ``logs`` / ``inputs`` / ``expand`` / ``run`` (reading
runs), ``compare``, ``gate``, ``human_study``. Subpackages: ``metrics`` (SPR, patterns, bounds,
pass rate), ``chain`` (the multi-hop variant), ``adaptive`` (adaptive trials), ``planning``
(variance components, designs) and ``report``.
"""
