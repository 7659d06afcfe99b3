"""The public hall (issue 43): public tables listed across shards, quick play (快速开始) that seats waiting people
of a preset together — nearest in rating — and fills with 高手 after a wait, the leaderboard, and the safety of
playing with strangers (blocks and reports).

- :mod:`.store` — the rows (public tables, online counts, the queue, blocks, reports) and the leaderboard;
- :mod:`.service` — what each shard does every half second: writes its public tables and online count, and
  seats a group from the queue;
- :mod:`.api` — the HTTP routes."""
