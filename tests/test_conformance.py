"""The conformance suite (conformance/v1, docs/conformance.md): every case holds on this engine, and the cases of a
rule family fail when that rule is broken in the engine (one mutation per family, by monkeypatching)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from gouji.cli.app import main
from gouji.conformance import SuiteError, default_dir, load, run
from gouji.engine import plays, scoring, tribute
from gouji.engine.cards import QUEEN
from gouji.engine.deal import burn, kaidian, legality, places, setup, smother
from gouji.engine.tribute import Payment

SUITE = Path(__file__).resolve().parents[1] / "conformance" / "v1"
FAMILIES = {"plays", "beats", "kaidian", "round", "burn", "biesan", "free_for_all", "places", "setup", "tribute",
            "scoring", "perft"}  # fmt: skip


def test_the_shipped_suite_is_found_and_every_case_holds() -> None:
    assert default_dir() == SUITE
    report = run()
    assert report.ok, report.to_dict()["failures"][:5]
    assert len(report.results) >= 300
    assert set(report.by("family")) == FAMILIES
    cited = [r for f in sorted(SUITE.glob("*.json")) for r in load(f)["cases"]]
    assert all(("seed" in c["cite"] and c["cite"]["quote"]) or "rulebook" in c["cite"] for c in cited)


def test_every_preset_has_cases() -> None:
    from gouji.engine import PRESETS

    named = set()
    for f in SUITE.glob("*.json"):
        for case in load(f)["cases"]:
            rules = case["rules"]
            named.add(rules if isinstance(rules, str) else rules["preset"])
    assert named == set(PRESETS)


def test_the_command(tmp_path: Path) -> None:
    out = CliRunner().invoke(main, ["conformance", "--json", str(SUITE / "scoring.json")])
    assert out.exit_code == 0, out.output
    report = json.loads(out.output)
    assert report["passed"] == report["total"] > 0 and report["failures"] == []
    data = json.loads((SUITE / "scoring.json").read_text(encoding="utf-8"))
    data["cases"][0]["expect"]["points"] = [0] * 6
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data), encoding="utf-8")
    out = CliRunner().invoke(main, ["conformance", str(bad)])
    assert out.exit_code == 1 and "FAIL scoring/places/qingdao" in out.output
    assert CliRunner().invoke(main, ["conformance", str(SUITE / "..")]).exit_code == 1  # no suite file there


def test_malformed_suites_are_refused(tmp_path: Path) -> None:
    path = tmp_path / "x.json"
    for data, words in [
        ({"format": "other"}, "not a conformance suite"),
        ({"format": "gouji-conformance", "version": 2, "cases": []}, "version 2"),
        ({"format": "gouji-conformance", "version": 1, "cases": [{"id": "a"}]}, "no 'family'"),
        (
            {"format": "gouji-conformance", "version": 1, "cases": [
                {"id": "a", "family": "f", "cite": {"seed": "000"}, "rules": "qingdao", "expect": {"x": 1}}]},
            "'cite' needs",
        ),
    ]:  # fmt: skip
        path.write_text(json.dumps(data), encoding="utf-8")
        with pytest.raises(SuiteError, match=words):
            load(path)


# ------------------------------------------------------------------- each family fails when its rule is broken


def _queens_not_gouji(mp: pytest.MonkeyPatch) -> None:
    """§3.1 broken: three queens no longer a gouji play."""
    mp.setattr(plays.Play, "gouji", property(lambda p: p.has_joker or (p.k == 0 and p.t > 0) or (
        p.threshold and p.value != QUEEN)))  # fmt: skip


def _beats_by_rank_only(mp: pytest.MonkeyPatch) -> None:
    """§4 broken: jokers compared like any card, the size alone."""
    mp.setattr(plays, "beats", lambda b, a, kill=False, small=True: b.size == a.size and b.value > a.value)


def _never_open(mp: pytest.MonkeyPatch) -> None:
    mp.setattr(kaidian.OpeningThePoint, "_open", lambda self, s: None)


def _no_yield(mp: pytest.MonkeyPatch) -> None:
    mp.setattr(legality.Legality, "_yield_rule", lambda self, s: legality.NO_YIELD)


def _no_burn_offer(mp: pytest.MonkeyPatch) -> None:
    mp.setattr(burn.Burning, "_burn_offers", lambda self, s, play, final: [])


def _never_smother(mp: pytest.MonkeyPatch) -> None:
    """憋三 broken: nobody is ever smothered, and the rule of 3s names no refusal."""
    mp.setattr(smother.Smothering, "_smother", lambda self, s, prev: None)
    rules = tuple(r for r in legality.PLAY_RULES if r is not legality.Legality._threes_rule)
    mp.setattr(legality, "PLAY_RULES", rules)


def _no_free_for_all(mp: pytest.MonkeyPatch) -> None:
    mp.setattr(places.Placing, "_check_ffa", lambda self: None)


def _holders_reversed(mp: pytest.MonkeyPatch) -> None:
    finish = places.Placing._finish

    def reversed_holders(self: Any) -> None:
        finish(self)
        self.places = self.places[:3] + self.places[3:][::-1]

    mp.setattr(places.Placing, "_finish", reversed_holders)


def _never_buy(mp: pytest.MonkeyPatch) -> None:
    mp.setattr(setup.Setup, "_buy", lambda self, s, rank: None)


def _tribute_reversed(mp: pytest.MonkeyPatch) -> None:
    """Tribute direction swapped: every payment goes from its receiver to its payer."""
    owed = tribute.owed
    mp.setattr(tribute, "owed", lambda rules, result: [
        Payment(p.kind, p.receiver, p.payer, p.cards) for p in owed(rules, result)])  # fmt: skip


def _scores_reversed(mp: pytest.MonkeyPatch) -> None:
    place_scores = scoring.place_scores
    mp.setattr(scoring, "place_scores", lambda rules: tuple(reversed(place_scores(rules))))


def _one_answer_fewer(mp: pytest.MonkeyPatch) -> None:
    answers = legality.answers
    mp.setattr(legality, "answers", lambda *a: answers(*a)[:-1])


MUTATIONS: dict[str, Callable[[pytest.MonkeyPatch], None]] = {
    "plays": _queens_not_gouji,
    "beats": _beats_by_rank_only,
    "kaidian": _never_open,
    "round": _no_yield,
    "burn": _no_burn_offer,
    "biesan": _never_smother,
    "free_for_all": _no_free_for_all,
    "places": _holders_reversed,
    "setup": _never_buy,
    "tribute": _tribute_reversed,
    "scoring": _scores_reversed,
    "perft": _one_answer_fewer,
}


def test_every_family_has_a_mutation() -> None:
    assert set(MUTATIONS) == FAMILIES


@pytest.mark.parametrize("family", sorted(MUTATIONS))
def test_breaking_a_rule_fails_its_cases(family: str, monkeypatch: pytest.MonkeyPatch) -> None:
    assert run(families=[family]).ok
    with monkeypatch.context() as mp:
        MUTATIONS[family](mp)
        broken = run(families=[family])
    assert broken.failed, f"breaking the {family} rule fails none of its cases"


def test_the_docs_example_runner(tmp_path: Path) -> None:
    """docs/conformance.md's runner in 30 lines holds on round.json (its keys are all ones it reads)."""
    import subprocess
    import sys

    doc = (Path(__file__).resolve().parents[1] / "docs" / "conformance.md").read_text(encoding="utf-8")
    code = doc.split("```python\n", 1)[1].split("```", 1)[0]
    assert len([line for line in code.splitlines() if line.strip()]) <= 32
    script = tmp_path / "runner.py"
    script.write_text(code, encoding="utf-8")
    out = subprocess.run([sys.executable, str(script), str(SUITE / "round.json")], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip().endswith("126 of 126 hold"), out.stdout[-500:]
