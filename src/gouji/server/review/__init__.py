"""The 复盘 review served to a table's players and to anyone for a public record (issue 44): the review of
:mod:`gouji.lab.review` worked out in a bounded pool of worker processes (:mod:`.pool`, the work itself in
:mod:`.worker`), its decisions shown as they are found, and the endpoints that say who may have it
(:mod:`.api`)."""
