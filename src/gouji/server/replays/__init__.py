"""Deals replayed step by step: a stored record's deal and a hint (:mod:`.api`, ``/api/records/…``) and a
finished deal of a set still in play (:mod:`.table`, ``/api/tables/{code}/deals/{n}/replay``)."""
