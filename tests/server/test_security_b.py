"""The second security review (issue 41), items 2, 4, 11 and 12, each checked on a real server process.

The servers trust 127.0.0.1 as a reverse proxy (``--trusted-proxy``), so a test speaks as many clients by
naming them in ``X-Forwarded-For``, as a proxy would (:mod:`.test_security`'s helpers)."""

from __future__ import annotations

from contextlib import ExitStack
from pathlib import Path

import pytest

from .test_security import Served, _hello, _ws, serving

# ------------------------------------------------------------------------------------------ 2: IPv6 clients


def test_an_ipv6_client_is_its_64_and_an_ipv4_mapped_address_its_ipv4(tmp_path: Path) -> None:
    """The review's: 40 addresses of one /64 each missed a code once — 40 × 404, never a 429, so one home
    connection (which owns a /64) went round every per-client limit.  Now the /64 is the client."""
    with serving(tmp_path, "--miss-rate", "0.001") as server:  # (30 misses in a burst, none back meanwhile)
        home = [f"2001:db8:1:2::{i:x}" for i in range(40)]
        statuses = [server.get(f"/api/tables/ZZZZ{i:02d}", client=a).status_code for i, a in enumerate(home)]
        assert statuses[:30] == [404] * 30 and set(statuses[30:]) == {429}, statuses
        # every lookup of that /64 is refused now, from any of its addresses; another /64 is another client
        assert server.get("/api/tables/ZZZZAA", client="2001:db8:1:2:ffff:ffff:ffff:ffff").status_code == 429
        assert server.get("/api/tables/ZZZZAB", client="2001:db8:1:3::1").status_code == 404
        # an IPv4 address and the IPv4-mapped IPv6 address that carries it are one client
        mapped = [server.get(f"/api/tables/ZZZY{i:02d}", client="::ffff:198.51.100.44").status_code for i in range(30)]
        assert mapped == [404] * 30
        assert server.get("/api/tables/ZZZYAA", client="198.51.100.44").status_code == 429
        # tables too: the creations of one /64 share one client's caps
        made = [
            server.post("/api/tables", {"bots": ["random"] * 6}, client=f"2001:db8:9:9::{i + 1:x}").status_code
            for i in range(12)
        ]
        assert made.count(201) == 10 and made[-1] == 429, made  # (10 tables waiting at most)


def test_the_ipv6_prefix_is_an_option(tmp_path: Path) -> None:
    with serving(tmp_path, "--ipv6-prefix", "56", "--miss-burst", "4", "--miss-rate", "0.01") as server:
        # four /64s of one /56: one client
        got = [server.get(f"/api/tables/ZZZZ{i}Z", client=f"2001:db8:0:{i:x}::1").status_code for i in range(5)]
        assert got == [404] * 4 + [429], got
        assert server.get("/api/tables/ZZZZZZ", client="2001:db8:0:100::1").status_code == 404  # another /56


def test_client_id_is_one_function_for_every_limit() -> None:
    from gouji.server.http.guard import client_id

    assert client_id("203.0.113.5") == "203.0.113.5"
    assert client_id("2001:db8:1:2:aaaa::5") == client_id("2001:DB8:1:2::7") == "2001:db8:1:2::/64"
    assert client_id("::ffff:203.0.113.5") == "203.0.113.5"
    assert client_id("fe80::1%eth0") == "fe80::/64"
    assert client_id("2001:db8:1:2::5", 48) == "2001:db8:1::/48"
    assert client_id("2001:db8::5", 128) == "2001:db8::5/128"
    assert client_id("testclient") == "testclient"  # (no IP address: as it is)


# ------------------------------------------------------------------------------------------ 4: seats' room


def test_spectators_leave_room_for_the_seats_tokens(tmp_path: Path) -> None:
    """The review's: 32 spectator sockets from each of two addresses filled a table's 64, and seat 0's own
    token was then refused (429) at the upgrade.  Now a table counts its connections at hello: each seat's
    token has room for 4 always, the spectators share the other 40."""
    with serving(tmp_path) as server, ExitStack() as stack:
        table = server.post("/api/tables", {"bots": [None] + ["random"] * 5, "nickname": "ann"}).json()
        code, token = table["code"], table["token"]
        crowd = [
            stack.enter_context(_ws(server, code, client=f"198.51.100.{who}")) for who in (70, 71) for _ in range(32)
        ]
        answers = [_hello(ws) for ws in crowd]
        seat = [stack.enter_context(_ws(server, code, client="203.0.113.30")) for _ in range(5)]
        welcomes = [_hello(ws, token) for ws in seat]
        assert [w["type"] for w in welcomes[:4]] == ["welcome"] * 4 and all(w["seat"] == 0 for w in welcomes[:4])
        assert [a["type"] for a in answers].count("welcome") == 40
        refused = [a for a in answers if a["type"] == "error"]
        assert len(refused) == 24 and all(
            "too many spectators at this table (at most 40" in a["message"] for a in refused
        )
        assert "too many connections of this seat (at most 4" in welcomes[4]["message"]


# ------------------------------------------------------------------------------------------ 11: file modes


def _modes(*paths: Path) -> dict[str, str]:
    return {p.name: oct(p.stat().st_mode & 0o777) for p in paths}


def test_the_databases_backups_and_restores_are_readable_by_their_owner_only(tmp_path: Path) -> None:
    """The review's: the live and restored SQLite files (and their -wal and -shm) were 0644 under the usual
    umask — every open set's seed and the teams' join codes, readable by every user of the machine."""
    import os

    umask = os.umask(0o022)  # (the usual one, which made them 0644)
    try:
        _check_modes(tmp_path)
    finally:
        os.umask(umask)


def _check_modes(tmp_path: Path) -> None:
    import os
    import subprocess
    import sys

    from gouji.server.storage.backup import backup, restore

    with serving(tmp_path) as server:
        server.post("/api/tables", {"bots": [None] + ["random"] * 5})
        live = Path(server.db.removeprefix("sqlite:///"))
        files = [live, live.with_name(live.name + "-wal"), live.with_name(live.name + "-shm")]
        assert _modes(*files) == dict.fromkeys((p.name for p in files), "0o600")
        saved = backup(server.db, tmp_path / "saved.backup").path
        assert _modes(saved) == {"saved.backup": "0o600"}
        # a file made world-readable before (by an older server) is made private at the next start
        os.chmod(live, 0o644)
        server.restart()
        assert _modes(live) == {live.name: "0o600"}
    restored = tmp_path / "restored.db"
    restore(saved, f"sqlite:///{restored}")
    assert _modes(restored) == {"restored.db": "0o600"}
    # and through the command, with a server started on the restored file
    after = Served(tmp_path, [])
    again = Path(after.db.removeprefix("sqlite:///"))
    run = subprocess.run(
        [sys.executable, "-c", "from gouji.cli import main; main()", "restore", str(saved), "--database-url", after.db],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stderr
    assert _modes(again) == {again.name: "0o600"}
    after.start()
    try:
        after.post("/api/tables", {"bots": [None] + ["random"] * 5})
        files = [again, again.with_name(again.name + "-wal"), again.with_name(again.name + "-shm")]
        assert _modes(*files) == dict.fromkeys((p.name for p in files), "0o600")
    finally:
        after.stop()


# ------------------------------------------------------------------------------------------ 12: the creator


def _creators(db: str) -> list[str]:
    import sqlite3

    with sqlite3.connect(db.removeprefix("sqlite:///")) as c:
        return [str(r[0]) for r in c.execute("SELECT creator FROM tables ORDER BY id")]


def _hmac(secret: bytes, client: str) -> str:
    import hashlib
    import hmac

    return hmac.new(secret, client.encode(), hashlib.sha256).hexdigest()[:32]


def test_the_stored_creator_is_keyed_with_a_secret_kept_outside_the_database(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The review's: ``tables.creator`` was blake2b(address) with no key, so trying every IPv4 address (minutes)
    told from a backup who created what.  Now it is an HMAC keyed with a secret in a file of its own (made on
    first start, 0600), the same across a restart, or the file given."""
    import hashlib
    import subprocess
    import sys

    who = "198.51.100.80"
    with serving(tmp_path, "--waiting-per-client", "2") as server:
        assert server.post("/api/tables", {}, client=who).status_code == 201
        [first] = _creators(server.db)
        assert first != hashlib.blake2b(who.encode(), digest_size=12, person=b"gouji-client").hexdigest()
        secret_file = Path(server.db.removeprefix("sqlite:///")).with_suffix(".secret")
        assert _modes(secret_file) == {secret_file.name: "0o600"}
        assert first == _hmac(secret_file.read_bytes().strip(), who)
        server.restart()
        assert server.post("/api/tables", {}, client=who).status_code == 201
        assert _creators(server.db) == [first, first]  # the same key: the client's tables are still its own
        r = server.post("/api/tables", {}, client=who)
        assert r.status_code == 429 and "2 tables waiting" in r.json()["error"], r.text
    # a secret given: by the option, or the environment (as every shard on one PostgreSQL is given one)
    given = tmp_path / "given.secret"
    given.write_text("correct horse battery staple\n")
    with serving(tmp_path, "--secret-file", str(given)) as server:
        server.post("/api/tables", {}, client=who)
        assert _creators(server.db) == [_hmac(b"correct horse battery staple", who)]
    monkeypatch.setenv("GOUJI_SECRET_FILE", str(given))
    with serving(tmp_path) as server:
        server.post("/api/tables", {}, client=who)
        assert _creators(server.db) == [_hmac(b"correct horse battery staple", who)]
    short = tmp_path / "short.secret"
    short.write_text("1234")
    serve = [sys.executable, "-m", "gouji.server.serve", "--database-url", f"sqlite:///{tmp_path / 'x.db'}"]
    run = subprocess.run(
        [*serve, "--secret-file", str(short)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.returncode == 2 and f"the server's secret file {short} holds 4 bytes" in run.stderr, run.stderr
