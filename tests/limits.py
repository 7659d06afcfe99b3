"""The limits of the tests' servers: the tests create tables, take seats, poll and open sockets from one client far
faster than a person would (the tests of the limits set their own)."""

from __future__ import annotations

from gouji.server import Limits

ROOMY = Limits(
    create_burst=1000,
    waiting_per_client=1000,
    tables_per_client=1000,
    tables_per_event=1000,
    miss_burst=1000,
    read_burst=1000,
    ws_per_client=1000,
    ws_per_table=1000,
    seat_burst=1000,
    auto_burst=1000,
)
