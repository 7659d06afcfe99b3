"""The card counter (记牌器) as a table option: a table without it never sends the cards played so far."""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import choose

BOTS5 = [None, "random", "random", "random", "random", "random"]


@pytest.mark.parametrize("counter", [True, False])
def test_card_counter_table_option(make_server: Any, counter: bool) -> None:
    with make_server() as srv:
        out = srv.create(bots=BOTS5, card_counter=counter, nickname="ann", seat=0)
        code = out["code"]
        assert srv.client.get(f"/api/tables/{code}").json()["config"]["card_counter"] is counter
        with srv.connect(code, out["token"]) as ann:
            full = ann.last_state
            assert full is not None and full["table"]["config"]["card_counter"] is counter
            assert ("played" in full["view"]) is counter
            # the next frames follow the same rule
            if full["turn"]["seat"] == 0:
                ann.act(choose(full["turn"]), full["state"])
            f = ann.until(lambda fr: fr["type"] == "state" and not fr["full"], timeout=10)
            assert ("played" in f["view"]) is counter


def test_card_counter_must_be_a_bool(make_server: Any) -> None:
    with make_server() as srv:
        r = srv.client.post("/api/tables", json={"bots": BOTS5, "card_counter": "yes"})
        assert r.status_code == 400 and "card_counter" in r.json()["error"]
