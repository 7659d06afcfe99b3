"""The ``gouji`` command: ``rules``, ``sim``, ``--version``, and the ``simulate`` function behind ``sim``."""

from __future__ import annotations

import json
from typing import Any

import pytest
from click.testing import CliRunner, Result

import gouji
from gouji import PRESETS, RuleSet
from gouji.cli import main
from gouji.cli.rules import option_docs, option_names
from gouji.cli.sim import BURN_RESULTS, random_deal, simulate
from gouji.engine.ruledocs import describe

WIDE = {"COLUMNS": "100"}


def run(*args: str) -> Result:
    return CliRunner().invoke(main, list(args), env=WIDE)


def sim_json(*args: str) -> dict[str, Any]:
    result = run("sim", "--json", *args)
    assert result.exit_code == 0, result.output
    data: dict[str, Any] = json.loads(result.output)
    return data


def without_timing(stats: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in stats.items() if k != "timing"}


def option_line(output: str, option: str) -> str:
    """The one table line of ``option``, without the table's borders."""
    lines = [" ".join(line.replace("│", " ").split()) for line in output.splitlines()]
    found = [line for line in lines if line.split()[:1] == [option]]
    assert len(found) == 1, output
    return found[0]


# ---------------------------------------------------------------------------------------------- --version


def test_version() -> None:
    result = run("--version")
    assert result.exit_code == 0
    assert gouji.__version__ in result.output


# ---------------------------------------------------------------------------------------------- rules


def test_rules_lists_every_preset_with_its_source() -> None:
    result = run("rules")
    assert result.exit_code == 0, result.output
    headers = [line.split() for line in result.output.splitlines() if line.startswith("option")]
    assert [name for h in headers for name in h[1:]] == list(PRESETS)  # in tables of a few presets

    def values(option: str) -> list[str]:
        lines = [" ".join(line.split()) for line in result.output.splitlines()]
        found = [line.split()[1:] for line in lines if line.split()[:1] == [option]]
        assert len(found) == len(headers), result.output
        return [v for row in found for v in row]

    for name in option_names():
        values(name)
    # the 6-deck preset is the only one with decks 6; zhangqiu the only one with luanchan_at 5
    assert values("decks") == ["6" if p == "zaozhuang" else "4" for p in PRESETS]
    assert values("luanchan_at") == ["5" if p == "zhangqiu" else "4" for p in PRESETS]
    assert "通用规则" in result.output and "比赛规则" in result.output


def test_rules_fits_an_80_column_terminal() -> None:
    from rich.cells import cell_len

    for args in (["rules"], ["rules", "zhangqiu"], ["rules", "shandong"]):
        result = CliRunner().invoke(main, args, env={"COLUMNS": "80"})
        assert result.exit_code == 0, result.output
        assert max(cell_len(line) for line in result.output.splitlines()) <= 80
        # and nothing is cut short: every option's explanation is there in full
        if len(args) == 2:
            flat = " ".join(result.output.split())
            for name, _, text in describe(RuleSet.preset(args[1])):
                assert " ".join(text.split()) in flat, name


def test_rules_one_preset_shows_values_and_descriptions() -> None:
    result = run("rules", "tongyong")
    assert result.exit_code == 0, result.output
    assert "003 通用规则" in result.output
    line = option_line(result.output, "big_joker_kill")
    assert line.split()[1] == "true"
    lines = result.output.splitlines()
    below = lines[next(i for i, x in enumerate(lines) if x.startswith("big_joker_kill")) + 1]
    assert below.startswith("    ") and "大王二杀一" in below  # its explanation (gouji.engine.ruledocs), indented
    assert option_line(result.output, "removed").split()[1:3] == ["3×10", "4×8"]
    assert option_line(run("rules", "qingdao").output, "big_joker_kill").split()[1] == "false"


def test_preset_names_are_case_insensitive() -> None:
    result = run("rules", "TongYong")
    assert result.exit_code == 0
    assert option_line(result.output, "big_joker_kill").split()[1] == "true"


def test_every_option_has_a_description_from_its_docstring() -> None:
    docs = option_docs()
    for name in option_names():
        assert docs.get(name), f"RuleSet.{name} has no attribute docstring"
    assert docs["bie_san"].startswith("憋三: 3s only as a player's final play")
    assert "\n" not in docs["sweep_tribute"]  # a docstring over two lines is joined into one


def test_rules_json_round_trips() -> None:
    result = run("rules", "zhangqiu", "--json")
    assert result.exit_code == 0
    assert RuleSet.from_dict(json.loads(result.output)) == RuleSet.preset("zhangqiu")
    every = json.loads(run("rules", "--json").output)
    assert list(every) == list(PRESETS)


@pytest.mark.parametrize("args", [["rules", "beijing"], ["sim", "--rules", "beijing", "--deals", "1"]])
def test_unknown_preset_is_a_usage_error_listing_the_presets(args: list[str]) -> None:
    result = run(*args)
    assert result.exit_code == 2
    assert "beijing" in result.output
    for name in PRESETS:
        assert name in result.output


# ---------------------------------------------------------------------------------------------- sim


def test_sim_json_counts_add_up() -> None:
    stats = sim_json("--deals", "5", "--seed", "3")
    assert stats["deals"] == 5 and stats["seed"] == 3 and stats["rules"] == "qingdao"
    seats = stats["seats"]
    assert [s["seat"] for s in seats] == list(range(6))
    for s in seats:
        assert len(s["places"]) == 6 and sum(s["places"]) == 5
        assert s["mean_place"] == pytest.approx(sum((p + 1) * c for p, c in enumerate(s["places"])) / 5)
    for place in range(6):
        assert sum(s["places"][place] for s in seats) == 5
    points = stats["place_scores"]
    assert points == list(RuleSet.preset("qingdao").place_points)
    total = 0
    for t in stats["teams"]:
        assert t["seats"] == [s for s in range(6) if s % 2 == t["team"]]
        own = sum(points[p] * seats[s]["places"][p] for s in t["seats"] for p in range(6))
        assert t["place_points"] == own
        assert t["mean_place_points"] == pytest.approx(own / 5)
        assert 0 <= t["sweeps"] <= 5
        total += own
    assert total == 5 * sum(points)
    assert sum(t["sweeps"] for t in stats["teams"]) <= 5
    burns = stats["burns"]
    assert burns["started"] == sum(burns[r] for r in BURN_RESULTS)
    assert stats["mean_decisions"] == pytest.approx(stats["decisions"] / 5)
    assert stats["decisions"] > 5 * 30  # a deal of 216 cards takes many decisions
    assert stats["timing"]["seconds"] > 0
    assert stats["timing"]["deals_per_second"] == pytest.approx(5 / stats["timing"]["seconds"])


def test_sim_is_reproducible_from_its_seed() -> None:
    a = sim_json("--deals", "4", "--seed", "3")
    b = sim_json("--deals", "4", "--seed", "3")
    c = sim_json("--deals", "4", "--seed", "4")
    assert without_timing(a) == without_timing(b)
    assert [s["places"] for s in a["seats"]] != [s["places"] for s in c["seats"]]
    assert a["decisions"] != c["decisions"]


def test_sim_refuses_no_deals() -> None:
    for n in ("0", "-3"):
        result = run("sim", "--deals", n, "--seed", "1")
        assert result.exit_code == 2
        assert "--deals" in result.output
    with pytest.raises(ValueError, match="at least 1"):
        simulate("qingdao", 0, 1)


def test_sim_tables() -> None:
    result = run("sim", "--rules", "tongyong", "--deals", "3", "--seed", "2")
    assert result.exit_code == 0, result.output
    out = result.output
    assert out.startswith("tongyong (003 通用规则): 3 random deals, seed 2")
    for heading in ("Places by seat", "Teams", "Events", "Speed", "头科", "大落", "闷", "串三户"):
        assert heading in out
    stats = simulate("tongyong", 3, 2)
    seat_rows = [line.split("│") for line in out.splitlines() if line.startswith("│") and len(line.split("│")) == 11]
    assert [[int(c) for c in row[3:9]] for row in seat_rows] == [s["places"] for s in stats["seats"]]


def test_sim_without_seed_reports_the_seed_it_drew() -> None:
    stats = sim_json("--deals", "1")
    again = sim_json("--deals", "1", "--seed", str(stats["seed"]))
    assert without_timing(stats) == without_timing(again)


def test_simulate_agrees_with_the_deals_it_plays() -> None:
    stats = simulate("zhangqiu", 3, 11)
    deals = [random_deal("zhangqiu", 11, i) for i in range(3)]
    assert all(d.is_over for d in deals)
    for seat in range(6):
        assert stats["seats"][seat]["places"] == [sum(d.places[p] == seat for d in deals if d.places) for p in range(6)]
    assert stats["smothered"] == sum(len(d.smothered) for d in deals)
    assert stats["openings"] == sum(sum(d.opened) for d in deals)
    assert stats["decisions"] == sum(d.decisions for d in deals)
    assert stats["burns"]["started"] == sum(len(d.burns) for d in deals)
    assert [t["sweeps"] for t in stats["teams"]] == [sum(d.sweep == t for d in deals) for t in (0, 1)]


def test_simulate_scores_tournament_places_six_to_one() -> None:
    stats = simulate("tournament", 2, 5)
    assert stats["place_scores"] == [6, 5, 4, 3, 2, 1]
    assert sum(t["place_points"] for t in stats["teams"]) == 2 * 21
    assert stats["smothered"] == 0  # no 憋三, so nobody is smothered


def test_simulate_reports_progress() -> None:
    seen: list[int] = []
    simulate("heze", 3, 1, progress=seen.append)
    assert seen == [1, 2, 3]


QUIET = {"trusted_proxy": (), "allowed_origin": (), "writer": None, "secret_file": None}


def test_serve_sets_every_limit_of_the_server(monkeypatch: pytest.MonkeyPatch) -> None:
    """``gouji serve`` has an option for each of the server's limits (the same names as ``python -m
    gouji.server.serve``), ``--max-tables`` and the log's; a value no server can work with is refused naming
    its option, and nothing is served."""
    import dataclasses

    import gouji.server.serve as serve_module
    from gouji.server.limit_options import LIMITS
    from gouji.server.limits import WHOLE_LIMITS, Limits
    from gouji.server.settings import ServerSettings

    fields = {f.name: f.type for f in dataclasses.fields(Limits)}
    assert [name for name, _, _ in LIMITS] == list(fields)
    assert {name for name, kind, _ in LIMITS if kind is int} == set(WHOLE_LIMITS)
    calls: list[dict[str, Any]] = []
    monkeypatch.setattr(serve_module, "run", lambda *a, **kw: calls.append(kw))
    args = ["--tables-per-client", "60", "--ws-per-client", "200", "--create-rate", "1.5", "--max-tables", "10"]
    assert run("serve", *args, "--log-level", "warning", "--no-access-log").exit_code == 0
    limits = Limits(tables_per_client=60, ws_per_client=200, create_rate=1.5)
    assert calls[-1] == {
        **QUIET,
        "settings": ServerSettings(limits=limits, max_tables=10),
        "log_level": "warning",
        "access_log": False,
    }
    for bad, option in [
        (["--rate", "nan"], "--rate"),
        (["--ws-per-table", "0"], "--ws-per-table"),
        (["--max-tables", "0"], "--max-tables"),
    ]:
        out = run("serve", *bad)
        assert out.exit_code == 2 and option in out.output, out.output
    assert len(calls) == 1


def test_serve_passes_its_timers_to_the_server(monkeypatch: pytest.MonkeyPatch) -> None:
    import gouji.server.serve as serve_module
    from gouji.server.settings import ServerSettings

    calls: list[tuple[Any, ...]] = []
    monkeypatch.setattr(serve_module, "run", lambda *a, **kw: calls.append((a, kw)))
    assert run("serve", "--port", "8123").exit_code == 0
    assert run("serve", "--turn-seconds", "0", "--bot-delay", "0", "--ready-seconds", "12.5").exit_code == 0
    assert calls[0] == (
        ("127.0.0.1", 8123, "sqlite:///gouji.db"),
        {**QUIET, "settings": ServerSettings(), "log_level": "info", "access_log": True},
    )
    assert calls[1][1] == {
        **QUIET,
        "settings": ServerSettings(turn_seconds=None, bot_delay=0.0, ready_seconds=12.5),
        "log_level": "info",
        "access_log": True,
    }
    assert run("serve", "--auto-bot", "novice").exit_code == 0
    assert calls[-1][1]["settings"] == ServerSettings(auto_bot="novice")
    assert run("serve", "--trusted-proxy", "10.0.0.1", "--trusted-proxy", "10.1.0.0/16").exit_code == 0
    assert calls[-1][1]["trusted_proxy"] == ("10.0.0.1", "10.1.0.0/16")
    assert run("serve", "--writer", "thread").exit_code == 0
    assert calls[-1][1]["writer"] == "thread"
    assert run("serve", "--writer", "nope").exit_code == 2
    no_address = run("serve", "--trusted-proxy", "proxy.example")
    assert no_address.exit_code == 2 and "not an IP address or network" in no_address.output
    bad = run("serve", "--ready-seconds", "0")
    assert bad.exit_code == 2 and "--ready-seconds" in bad.output


@pytest.mark.parametrize(
    "args",
    [
        ["--minutes", "nan"],
        ["--minutes", "inf"],
        ["--minutes", "1", "--eval-minutes", "-1"],
        ["--minutes", "1", "--eval-minutes", "nan"],
    ],
)
def test_train_refuses_minutes_that_are_no_time(args: list[str], tmp_path: Any) -> None:
    """(click's ranges let NaN and infinity through: a run of NaN minutes ended at once, one of infinite ones
    never.)"""
    out = run("train", *args, "--out", str(tmp_path / "run"))
    assert out.exit_code == 2 and "is not a number of minutes above 0" in out.output, out.output
    assert not (tmp_path / "run").exists()


def test_the_module_server_takes_the_auto_bot_too(monkeypatch: pytest.MonkeyPatch) -> None:
    """``python -m gouji.server.serve`` has ``gouji serve``'s ``--auto-bot`` (it had the limits alone)."""
    import gouji.server.serve as serve_module
    from gouji.server.settings import ServerSettings

    calls: list[dict[str, Any]] = []
    monkeypatch.setattr(serve_module, "run", lambda *a, **kw: calls.append(kw))
    serve_module.main(["--auto-bot", "novice"])
    assert calls[-1]["settings"] == ServerSettings(auto_bot="novice")
    with pytest.raises(SystemExit) as e:
        serve_module.main(["--auto-bot", "random"])
    assert e.value.code == 2 and len(calls) == 1


def test_the_module_server_sets_every_limit_too(monkeypatch: pytest.MonkeyPatch) -> None:
    """``python -m gouji.server.serve`` reads the limits from the same list as ``gouji serve`` (it lacked
    ``--bad-rate``, ``--queue``, ``--read-rate`` and others)."""
    import gouji.server.serve as serve_module
    from gouji.server.limit_options import LIMITS
    from gouji.server.limits import Limits
    from gouji.server.settings import ServerSettings

    calls: list[dict[str, Any]] = []
    monkeypatch.setattr(serve_module, "run", lambda *a, **kw: calls.append(kw))
    values = {name: (7 if kind is int else 2.5) for name, kind, _ in LIMITS}
    values["ws_per_table"] = 50  # (above the seats' room, 6 × ws_per_seat)
    serve_module.main([x for name, v in values.items() for x in ("--" + name.replace("_", "-"), str(v))])
    assert calls[-1]["settings"] == ServerSettings(limits=Limits(**values))
    serve_module.main([])
    assert calls[-1]["settings"] == ServerSettings()
