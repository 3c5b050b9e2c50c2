"""``inspect-stance study FILE``: a study file (YAML) of targets, role models, methods and a
design, checked (:mod:`.spec`), sized (:mod:`.design`), counted in calls (:mod:`.calls`) and run
through Inspect's ``eval_set`` (:mod:`.runner`); :mod:`.example` writes an offline example.
The command is :mod:`inspect_stance.cli.study`."""
