"""The server's limits as command-line options: name, type and what each limits (nothing imported)."""

from __future__ import annotations

LIMITS: tuple[tuple[str, type, str], ...] = (
    ("rate", float, "messages a second per WebSocket connection"),
    ("burst", float, "a connection's burst of messages"),
    ("bad_rate", float, "refused messages a second before a connection is closed"),
    ("bad_burst", float, "a connection's burst of refused messages"),
    ("queue", int, "frames waiting to be sent before a connection that does not read is dropped"),
    ("hello_seconds", float, "time a connection has to say hello"),
    ("create_rate", float, "creations (tables, matches, events) a second per client"),
    ("create_burst", float, "a client's burst of creations"),
    ("waiting_per_client", int, "tables a client may have waiting for players"),
    ("tables_per_client", int, "tables a client may have open (by any door)"),
    ("tables_per_event", int, "tables an event may have open"),
    ("events_per_client", int, "events a client may have open"),
    ("read_rate", float, "reads of stored games a second per client"),
    ("read_burst", float, "a client's burst of reads"),
    ("miss_rate", float, "lookups of codes that do not exist a second per client"),
    ("miss_burst", float, "a client's burst of such lookups"),
    ("ws_per_client", int, "WebSocket connections per client at once"),
    ("ws_per_table", int, "WebSocket connections per table at once (spectators get what the seats' room leaves)"),
    ("ws_per_seat", int, "WebSocket connections per seat's token at once (always room for them at its table)"),
    ("seat_rate", float, "joins and leaves a second per client"),
    ("seat_burst", float, "a client's burst of joins and leaves"),
    ("auto_rate", float, "托管 switches a second per seat"),
    ("auto_burst", float, "a seat's burst of 托管 switches"),
    ("waiting_seconds", float, "idle seconds that close a table waiting for players"),
    ("over_seconds", float, "seconds a finished table stays in memory"),
    ("ipv6_prefix", int, "bits of an IPv6 address that name one client (a home's /64)"),
)
"""The server's limits (:class:`gouji.server.limits.Limits`, whose defaults apply), each an option
``--name-with-dashes`` of ``gouji serve`` and ``python -m gouji.server.serve`` (listed here, not read from the
class, so that ``gouji`` starts without importing the server; a test checks the two agree)."""
