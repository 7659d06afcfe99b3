"""The 复盘 review in the card room (issue 44, item 3), on real server processes: who may have a deal's review
(exactly where its replay is served), bad input refused in words before anything is computed, the decisions
shown as they are found, a finished review served from the cache, a bounded pool that refuses past it, and
another table's frames flowing while reviews are worked out."""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest

from gouji.bots import HeuristicBot, NoviceBot
from gouji.competition.records import sign
from gouji.competition.sets import Match
from gouji.lab.review_reason import CODES

from .test_security import Served, _frame_gaps
from .test_security_review2 import _hello, _match_with_people, _until

SEAT_OF_NOVICE = 1
"""The stored set is played by the heuristic in seats 0, 2, 4 and the novice in 1, 3, 5."""


def _record() -> dict[str, Any]:
    match = Match("qingdao", seed=1021, set_length=2)
    bots = [HeuristicBot(), NoviceBot()] * 3
    rng = random.Random(0)
    while not match.is_over:
        seat = match.to_act
        assert seat is not None
        match.act(bots[seat].decide(match.current.view(seat), match.legal_actions(), rng))
    record: dict[str, Any] = match.record()
    return record


def _store(db: str, records: dict[str, dict[str, Any]]) -> None:
    """Finished tables of ``records`` (code → record), stored as the server stores a finished set."""
    from gouji.server.storage import RecordOp, StatusOp, open_store

    store = open_store(db)
    try:
        for code, record in records.items():
            row = store.create_table(code, {"kind": "table", "preset": "qingdao"}, "owner")
            players = [{"seat": s, "nickname": None, "bot": "novice" if s % 2 else "heuristic"} for s in range(6)]
            store.write_batch([RecordOp(row, "set", None, players, record), StatusOp(row, "over")])
    finally:
        store.close()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Served, dict[str, int]]]:
    """A server of one review worker and one review waiting, with three stored sets: a good one, one whose
    checksum fails, one whose shape is wrong (signed anew); their record ids by name."""
    tmp = tmp_path_factory.mktemp("review")
    server = Served(tmp, ["--bot-delay", "0", "--review-workers", "1", "--review-waiting", "1"])
    server.start()  # (migrates the database)
    server.stop()
    good = _record()
    forged = json.loads(json.dumps(good))
    forged["deals"][0]["actions"][3] = "pass"  # the checksum no longer holds
    shapeless = json.loads(json.dumps(good))
    shapeless["deals"][0]["actions"] = "none"
    del shapeless["checksum"]
    _store(server.db, {"GOODSET": good, "FORGED1": forged, "SHAPE01": sign(shapeless)})
    server.start()
    try:
        ids = {
            code: server.get(f"/api/tables/{code}/games").json()["games"][0]["id"]
            for code in ("GOODSET", "FORGED1", "SHAPE01")
        }
        yield server, ids
    finally:
        server.stop()


def _review(server: Served, rid: int, deal: int, query: str) -> httpx.Response:
    return server.get(f"/api/records/{rid}/deals/{deal}/review?{query}")


def _until_done(ask: Any, timeout: float = 120, every: float = 0.05) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """Poll ``ask()`` until the review is done: the states seen on the way, and the review."""
    seen = []
    deadline = time.monotonic() + timeout
    while True:
        r = ask()
        assert r.status_code == 200, r.text
        state = r.json()
        if state["state"] == "done":
            return seen, state["review"]
        seen.append(state)
        assert time.monotonic() < deadline, "the review took too long"
        time.sleep(every)


@pytest.mark.parametrize(
    ("record", "deal", "query", "status", "words"),
    [
        ("GOODSET", 0, "", 400, "name the seat to review"),
        ("GOODSET", 0, "seat=6", 400, "seat"),
        ("GOODSET", 0, "seat=x", 400, "seat"),
        ("GOODSET", 2, "seat=0", 404, "the record has no finished deal 2"),
        ("GOODSET", 0, "seat=0&table=1", 400, "a set's record has one table"),
        ("FORGED1", 0, "seat=0", 422, "checksum"),
        ("SHAPE01", 0, "seat=0", 422, "the record is refused"),
        (None, 0, "seat=0", 404, "no such record"),
    ],
)
def test_bad_input_is_refused_in_words_and_nothing_is_computed(
    server: tuple[Served, dict[str, int]], record: str | None, deal: int, query: str, status: int, words: str
) -> None:
    served, ids = server
    rid = ids[record] if record else 999_999
    r = _review(served, rid, deal, query)
    assert r.status_code == status and words in r.json()["error"], r.text
    assert "decisions" not in r.text and "found" not in r.text
    again = _review(served, rid, deal, query)  # refused again, in the same words: nothing was started
    assert again.status_code == status and again.json() == r.json()


def test_a_public_review_shows_decisions_as_found_and_is_served_from_the_cache_after(
    server: tuple[Served, dict[str, int]],
) -> None:
    served, ids = server
    rid = ids["GOODSET"]
    seen, review = _until_done(lambda: _review(served, rid, 1, f"seat={SEAT_OF_NOVICE}"))
    assert seen and seen[0]["state"] == "pending"
    partial = [s for s in seen if s["found"] and s["total"] and len(s["found"]) < s["total"]]
    assert partial, "no state showed some decisions before the review was done"
    total = max(s["total"] for s in seen if s["total"])
    assert len(review["decisions"]) == total
    for s in partial:  # what was shown is what the review found, in order
        assert s["found"] == review["decisions"][: len(s["found"])]
    mistakes = [d for d in review["decisions"] if d["mistake"]]
    assert review["mistakes"] == len(mistakes) > 0 and review["seat"] == SEAT_OF_NOVICE and review["deal"] == 1
    assert "hindsight" in review["note"] and review["unit"] == "points" and review["threshold"] == 4
    for d in mistakes:
        assert d["gain"] >= 4 and d["reason"]["code"] in CODES and d["reason"]["params"]["best"] == d["best"]
    assert all("reason" not in d for d in review["decisions"] if not d["mistake"])
    started = time.perf_counter()
    cached = _review(served, rid, 1, f"seat={SEAT_OF_NOVICE}")
    took = time.perf_counter() - started
    print(f"{total} decisions, {len(mistakes)} mistakes, {len(seen)} polls; the cached answer in {took * 1000:.0f} ms")
    assert cached.json() == {"state": "done", "review": review}  # done at once: not worked out again
    assert took < 0.5
    served.stop()  # a restart: the review is kept in the database, and read from there
    served.start()
    again = _review(served, rid, 1, f"seat={SEAT_OF_NOVICE}")
    assert again.json() == {"state": "done", "review": review}


def test_the_pool_refuses_past_its_bound_and_the_loop_stays_free(server: tuple[Served, dict[str, int]]) -> None:
    """One worker and one waiting: a third review asked is refused (503, in words); another table's frames
    flow while the two are worked out."""
    served, ids = server
    rid = ids["GOODSET"]
    first = _review(served, rid, 0, "seat=3")
    second = _review(served, rid, 0, "seat=5")
    assert first.json()["state"] == second.json()["state"] == "pending", (first.text, second.text)
    third = _review(served, rid, 0, "seat=1")
    assert third.status_code == 503 and "busy with 2 reviews" in third.json()["error"], third.text
    table = served.post("/api/tables", {"bots": ["random"] * 6, "set_length": 20, "bot_delay": 0.02}).json()["code"]
    gaps = _frame_gaps(served.base, table, 2.5)
    still = _review(served, rid, 0, "seat=5").json()
    print(f"{len(gaps)} frames in 2.5 s while two reviews ran; max gap {max(gaps):.3f} s")
    assert still["state"] == "pending"  # (the frames were counted while the reviews ran)
    assert len(gaps) > 20 and max(gaps) < 0.5, sorted(gaps)[-5:]
    _until_done(lambda: _review(served, rid, 0, "seat=5"))
    _until_done(lambda: _review(served, rid, 0, "seat=1"))  # room again once they are done


def test_a_tables_deal_is_reviewed_by_its_players_only(server: tuple[Served, dict[str, int]]) -> None:
    served, _ = server
    body = {"bots": [None] + ["random"] * 5, "turn_seconds": None, "set_length": 20, "nickname": "ann"}
    me = served.post("/api/tables", body).json()
    code = me["code"]
    path = f"/api/tables/{code}/deals/0/review"
    with _hello(served, code, me["token"]) as ws:
        ws.send(json.dumps({"type": "auto", "on": True, "token": me["token"]}))
        _until(lambda: served.get(f"/api/tables/{code}").json()["deals_over"] >= 1, 120, 0.01)
        ws.send(json.dumps({"type": "auto", "on": False, "token": me["token"]}))  # the set waits for ann
        time.sleep(0.5)
    assert served.get(f"/api/tables/{code}").json()["status"] == "playing"
    for token, status, words in [
        ("x" * 32, 403, "this token holds no seat at this table"),
        (None, 400, "token"),
    ]:
        r = served.post(path, {"token": token} if token else {})
        assert r.status_code == status and words in r.json()["error"], r.text
        assert "decisions" not in r.text and "found" not in r.text and "hands" not in r.text
    games = served.get(f"/api/tables/{code}/games").json()["games"]
    for g in games:  # the set in progress: its records are not reviewed by anyone else
        r = _review(served, g["id"], 0, "seat=0")
        assert r.status_code == 403 and "once the set is over" in r.json()["error"], r.text
    late = served.post(f"/api/tables/{code}/deals/19/review", {"token": me["token"]})
    assert late.status_code == 404 and "no finished deal 19" in late.json()["error"]
    bad_seat = served.post(path + "?seat=7", {"token": me["token"]})
    assert bad_seat.status_code == 400 and "seat" in bad_seat.json()["error"]
    _, review = _until_done(lambda: served.post(path, {"token": me["token"]}), every=0.6)
    assert review["seat"] == 0 and review["deal"] == 0 and review["decisions"]
    _, other = _until_done(lambda: served.post(path + "?seat=1", {"token": me["token"]}), every=0.6)
    assert other["seat"] == 1


def test_a_match_deal_is_not_reviewed_while_the_other_table_plays_it(server: tuple[Served, dict[str, int]]) -> None:
    served, _ = server
    out = _match_with_people(served)
    alice = out["alice"]
    one = alice["code"]
    with _hello(served, one, alice["token"]) as ws:
        ws.send(json.dumps({"type": "auto", "on": True, "token": alice["token"]}))
        _until(lambda: served.get(f"/api/tables/{one}").json()["duplicate"]["waiting"], 60)
    r = served.post(f"/api/tables/{one}/deals/0/review", {"token": alice["token"]})
    assert r.status_code == 404 and "other table" in r.json()["error"], r.text
    assert "decisions" not in r.text and "found" not in r.text


def test_a_review_is_kept_in_the_database_once(db_url: str) -> None:
    """On SQLite (and PostgreSQL when ``GOUJI_TEST_POSTGRES`` names one): kept by its key, read back whole; a
    second keeping under the same key (another server on the database) leaves the first."""
    from gouji.server.review.stored import deal_key, key_text, store_review, stored_review
    from gouji.server.storage import open_store

    store = open_store(db_url)
    try:
        key = key_text(deal_key(5, 1, None, 3))
        assert key == "deal:5:1:None:3" and stored_review(store, key) is None
        review = {"seat": 3, "decisions": [{"index": 4, "reason": {"code": "lead", "params": {"by": 3}}}]}
        store_review(store, key, review)
        store_review(store, key, {"seat": 3, "decisions": []})
        assert stored_review(store, key) == review
        assert stored_review(store, key_text(deal_key(5, 1, 0, 3))) is None  # (table 0 of a match)
    finally:
        store.close()


@pytest.mark.parametrize(("field", "value"), [("review_workers", 0), ("review_workers", 65), ("review_waiting", -1)])
def test_a_pool_no_server_can_work_with_is_refused_naming_its_setting(field: str, value: int) -> None:
    from click.testing import CliRunner

    from gouji.cli import main
    from gouji.server.errors import SettingError
    from gouji.server.settings import ServerSettings

    option = "--" + field.replace("_", "-")
    with pytest.raises(SettingError) as refused:
        ServerSettings(**{field: value})
    assert refused.value.option == option
    out = CliRunner().invoke(main, ["serve", option, str(value)])
    assert out.exit_code == 2 and option in out.output, out.output


def test_the_pools_reader_ends_without_an_error_when_the_pool_closes(monkeypatch: pytest.MonkeyPatch) -> None:
    """The progress queue was closed under its reader thread while it read (a ``TypeError`` in the thread, 8
    closes in 20 before): now the reader closes it, after the None that ends it."""
    import asyncio
    import threading

    from gouji.server.review.pool import ReviewPool

    failed: list[BaseException | None] = []
    monkeypatch.setattr(threading, "excepthook", lambda args: failed.append(args.exc_value))

    async def open_and_close() -> None:
        for _ in range(20):
            pool = ReviewPool(1, 1)
            pool._ensure()  # (its queue and reader; no worker starts before a review is asked)
            await asyncio.sleep(0.01)
            pool.close()
            assert pool._reader is None

    # asyncio.run in a thread of its own: in a test worker another test may have left a loop running here
    errors: list[BaseException] = []
    runner = threading.Thread(target=lambda: _run_noting(lambda: asyncio.run(open_and_close()), errors))
    runner.start()
    runner.join(60)
    assert errors == [] and not runner.is_alive(), errors
    assert failed == []


def _run_noting(run: Callable[[], object], errors: list[BaseException]) -> None:
    try:
        run()
    except BaseException as e:  # (reported by the test's thread)
        errors.append(e)
