"""Inspect-free statistics of the comparison layer: paired item-level tests and intervals
(:mod:`.paired`), multiplicity (:mod:`.multiplicity`), rankings (:mod:`.ranking`), power
(:mod:`.power`) and the comparison family (:mod:`.family`)."""
