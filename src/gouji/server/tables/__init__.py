"""A table on the server: its state as a pure reducer (:mod:`.state`), its frames and views (:mod:`.frames`), its
decision windows (:mod:`.window`), what a seat may choose (:mod:`.choices`), its I/O — connections, timers,
bots, writes (:mod:`.table`) — and its quick phrases (:mod:`.phrases`)."""
