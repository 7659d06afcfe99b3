"""``gouji backup`` while a real server process plays, and ``gouji restore`` into an empty database: on SQLite,
and on PostgreSQL when ``GOUJI_TEST_POSTGRES`` is set (``.ci/run`` starts one).

Two tables play (the crash test's clients: they answer their turns and say ``ready``, keeping every ``state``
frame): one of a person and five bots plays a set of one deal to its end, one of six people a longer set.
Once the first is over and the second has finished a deal, ``gouji backup``'s code runs while the second plays on.
The backup restored into a new database must be the original's history cut at one moment — each table's
events the original's up to a state number, every frame any client saw up to it the view that history gives,
a record for every deal finished in it — and a server started on it serves every record and resumes the open
table at the last change the backup holds: its players come back with their tokens and play on from there.
"""

from __future__ import annotations

import json
import os
import random
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import httpx
import pytest
import sqlalchemy as sa
from click.testing import CliRunner

from gouji.cli import main
from gouji.server.storage.backup import BackupError, backup, restore

from ..helpers import free_port
from .test_crash import Client, ServerProcess, _check_table, _stored


@contextmanager
def empty_database(db_url: str, tmp_path: Path, name: str) -> Iterator[str]:
    """A new, empty database of the same kind as ``db_url`` (a file beside it, or a database on its server)."""
    url = sa.make_url(db_url)
    if url.get_backend_name() == "sqlite":
        yield f"sqlite:///{tmp_path / f'{name}.db'}"
        return
    db = f"gouji_{name}_{uuid.uuid4().hex[:8]}"
    admin = sa.create_engine(url, isolation_level="AUTOCOMMIT")
    with admin.connect() as c:
        c.execute(sa.text(f'CREATE DATABASE "{db}"'))
    try:
        yield url.set(database=db).render_as_string(hide_password=False)
    finally:
        with admin.connect() as c:
            c.execute(sa.text(f'DROP DATABASE IF EXISTS "{db}" WITH (FORCE)'))
        admin.dispose()


def open_table(base: str, port: int, set_length: int, rng: random.Random, people: int = 6) -> tuple[str, list[Client]]:
    """A table of ``people`` people (the other seats random bots), each person's client (not yet started)."""
    # no masking time: a window over people's seats resolves on their last answer (with one, under uvloop,
    # an answer landing in the instant the window's task wakes before its end hangs the window — reported)
    body = {"bots": [None] * people + ["random"] * (6 - people), "set_length": set_length, "bot_delay": 0}
    code = httpx.post(f"{base}/api/tables", json=body).json()["code"]
    clients = []
    for seat in range(people):
        token = httpx.post(f"{base}/api/tables/{code}/join", json={"nickname": f"p{seat}", "seat": seat}).json()
        clients.append(Client(port, code, token["token"], seat, rng.randrange(2**32)))
    return code, clients


def wait_for(what: str, cond: Any, timeout: float = 60.0) -> None:
    end = time.monotonic() + timeout
    while not cond():
        assert time.monotonic() < end, f"{what}: not within {timeout} s"
        time.sleep(0.05)


def stop(clients: list[Client]) -> None:
    for c in clients:
        c.stop.set()
    for c in clients:
        c.join(timeout=10)
    for c in clients:
        assert c.error is None, c.error


def test_a_backup_taken_during_play_restores_every_record_and_resumes_the_open_table(
    db_url: str, tmp_path: Path
) -> None:
    rng = random.Random(int.from_bytes(uuid.uuid4().bytes[:4], "big"))
    port = free_port()
    server = ServerProcess(db_url, port, tmp_path / "server.log")
    server.start()
    base = f"http://127.0.0.1:{port}"
    backup_file = tmp_path / "gouji.backup"
    clients: list[Client] = []
    try:
        short, short_clients = open_table(base, port, 1, rng, people=1)  # over before the backup
        # in play during it (and long after); people only, so nothing moves it on until they are back
        long, long_clients = open_table(base, port, 12, rng)
        clients = short_clients + long_clients
        for c in clients:
            c.start()
        wait_for("the one-deal set's end", lambda: httpx.get(f"{base}/api/tables/{short}").json()["status"] == "over")
        wait_for("a deal of the long set", lambda: httpx.get(f"{base}/api/tables/{long}").json()["deals_over"] >= 1)
        seen_before = sum(len(c.frames) for c in long_clients)
        made = backup(db_url, backup_file)  # (the command's own code, without an interpreter's start)
        seen_after = sum(len(c.frames) for c in long_clients)
        assert made.size > 0
        assert seen_after > seen_before, "play went on while the backup was taken"
    finally:
        stop(clients)
        if server.proc is not None:
            server.kill()

    with empty_database(db_url, tmp_path, "restored") as restored:
        held = restore(backup_file, restored)
        assert (held.tables, held.open_tables) == (2, 1)

        # the backup is the original's history cut at one moment
        cut: dict[str, int] = {}
        for code, mine in ((short, short_clients), (long, long_clients)):
            table, events, _ = _stored(restored, code)
            _, original, _ = _stored(db_url, code)
            cut[code] = events[-1]["state"]
            assert events == original[: len(events)], f"table {code}: the backup's events are not the original's"
            seen = [SimpleNamespace(seat=c.seat, frames=[f for f in c.frames if f["state"] <= cut[code]]) for c in mine]
            checked, deals = _check_table(restored, code, seen)
            assert checked > 0 and deals >= 1
        _, long_original, _ = _stored(db_url, long)
        assert long_original[-1]["state"] > cut[long], "the long set played on after the backup"

        engine = sa.create_engine(restored)
        with engine.connect() as c:
            rows = c.execute(sa.text("SELECT r.id, t.code, r.body FROM records r JOIN tables t ON t.id = r.table_id"))
            records = {r[0]: (r[1], r[2] if isinstance(r[2], dict) else json.loads(r[2])) for r in rows.all()}
        engine.dispose()
        per_table = [code for code, _ in records.values()]
        assert per_table.count(short) == 2 and per_table.count(long) >= 1  # a deal and a set; the first deal

        port = free_port()
        again = ServerProcess(restored, port, tmp_path / "restored.log")
        again.start()
        base = f"http://127.0.0.1:{port}"
        resumed: list[Client] = []
        try:
            for record_id, (code, body) in records.items():
                r = httpx.get(f"{base}/api/records/{record_id}")
                if code == short:  # a finished set's records are served, as stored
                    assert r.status_code == 200 and r.json() == body, r.text
                else:  # those of the set still in play are listed, and served once it is over (as before)
                    assert r.status_code == 403 and "once the set is over" in r.text, r.text
            games = httpx.get(f"{base}/api/tables/{long}/games").json()["games"]
            assert sorted(g["id"] for g in games) == sorted(i for i, (code, _) in records.items() if code == long)
            assert httpx.get(f"{base}/api/tables/{short}").json()["status"] == "over"
            table = httpx.get(f"{base}/api/tables/{long}").json()
            assert (table["status"], table["state"]) == ("playing", cut[long]), "the open table resumes at the cut"
            resumed = [Client(port, long, c.token, c.seat, rng.randrange(2**32)) for c in long_clients]
            for c in resumed:
                c.start()
            wait_for("the restored table's first frames", lambda: all(c.frames for c in resumed), 30)
            firsts = [c.frames[0]["state"] for c in resumed]
            assert min(firsts) == cut[long], f"the first player back finds the table at the cut: {firsts}"
            wait_for(
                "play after the restore", lambda: httpx.get(f"{base}/api/tables/{long}").json()["state"] > cut[long]
            )
        finally:
            stop(resumed)
            if again.proc is not None:
                again.kill()


def test_a_restore_refuses_a_database_that_is_not_empty_and_a_backup_of_the_other_kind(
    db_url: str, tmp_path: Path
) -> None:
    from gouji.server.storage import open_store

    store = open_store(db_url)
    store.create_table("ABCDEF", {"rules": "qingdao"}, "0" * 64)
    store.close()
    kind = sa.make_url(db_url).get_backend_name()
    made = backup(db_url, tmp_path / "one.backup")
    assert made.kind == kind and made.size > 0
    assert (tmp_path / "one.backup").stat().st_mode & 0o777 == 0o600  # its owner's only, whatever the umask
    assert [p.name for p in tmp_path.iterdir() if "partial" in p.name] == []
    # the server's own database (a server has started on it: it has tables) is not overwritten
    with pytest.raises(BackupError, match=r"is not empty \(it has the tables .*alembic_version, .*createdb"):
        restore(tmp_path / "one.backup", db_url)
    # nor a database that holds anything at all
    with empty_database(db_url, tmp_path, "other") as other:
        engine = sa.create_engine(other)
        with engine.begin() as c:
            c.execute(sa.text("CREATE TABLE notes (x INTEGER)"))
        engine.dispose()
        with pytest.raises(BackupError, match=r"is not empty \(it has the tables notes\)"):
            restore(tmp_path / "one.backup", other)
    # a backup restores into its own kind of database only
    other_kind = "postgresql://nobody@127.0.0.1:9/none" if kind == "sqlite" else f"sqlite:///{tmp_path / 'x.db'}"
    with pytest.raises(BackupError, match=r"is a backup of an? (SQLite|PostgreSQL) database: restore it into one"):
        restore(tmp_path / "one.backup", other_kind)
    assert not (tmp_path / "x.db").exists()
    # a file that is no backup
    (tmp_path / "notes.txt").write_text("hello")
    with pytest.raises(BackupError, match="is not a file written by gouji backup"):
        restore(tmp_path / "notes.txt", db_url)
    # and the commands: a backup, its restore into a new database, which holds the table
    made = CliRunner().invoke(main, ["backup", "--to", str(tmp_path / "two.backup"), "--database-url", db_url])
    assert made.exit_code == 0 and f"to {tmp_path / 'two.backup'} (" in made.output, made.output
    with empty_database(db_url, tmp_path, "fresh") as fresh:
        done = CliRunner().invoke(main, ["restore", str(tmp_path / "two.backup"), "--database-url", fresh])
        assert done.exit_code == 0 and "tables 1 (1 open), changes 0, records 0" in done.output, done.output
        again = CliRunner().invoke(main, ["restore", str(tmp_path / "two.backup"), "--database-url", fresh])
        assert again.exit_code == 1 and "is not empty" in again.output


def test_a_backup_of_no_database_says_so_and_leaves_no_file(tmp_path: Path) -> None:
    with pytest.raises(BackupError, match=r"no database at .*nothing to back up"):
        backup(f"sqlite:///{tmp_path / 'none.db'}", tmp_path / "b.db")
    (tmp_path / "other.db").write_bytes(b"")
    with pytest.raises(BackupError, match="is not a gouji server's database"):
        backup(f"sqlite:///{tmp_path / 'other.db'}", tmp_path / "b.db")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["other.db"]
    r = CliRunner().invoke(main, ["backup", "--to", str(tmp_path / "b.db"), "--database-url", "mysql://x@y/z"])
    assert r.exit_code == 1 and "is not a database this server knows" in r.output and r.exception is not None
    assert isinstance(r.exception, SystemExit)  # a message, not a traceback


def test_pg_dump_gets_the_password_in_its_environment_never_on_its_command_line() -> None:
    from gouji.server.storage.backup import _pg_conninfo

    conninfo, env = _pg_conninfo(sa.make_url("postgresql+psycopg://ann:s3cret@db.internal:5433/gouji?sslmode=require"))
    assert "s3cret" not in conninfo and env["PGPASSWORD"] == "s3cret"
    assert set(conninfo.split()) == {"host=db.internal", "port=5433", "user=ann", "dbname=gouji", "sslmode=require"}
    # the unit's URL: the local socket, peer authentication, no password at all
    conninfo, env = _pg_conninfo(sa.make_url("postgresql+psycopg://gouji@/gouji?host=/run/postgresql"))
    assert set(conninfo.split()) == {"host=/run/postgresql", "user=gouji", "dbname=gouji"}
    assert env.get("PGPASSWORD") == os.environ.get("PGPASSWORD")
