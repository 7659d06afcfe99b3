"""Tournaments on the server: the duplicate match at two tables (:mod:`.duplicate`), its scorekeeper's sheet
(:mod:`.scoresheet`), events of several teams (:mod:`.events`) and their HTTP routes (:mod:`.api`)."""
