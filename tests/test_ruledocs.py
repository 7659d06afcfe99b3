"""The one-line option docs (gouji.engine.ruledocs) cover every rule option, and the rule book's tables are theirs."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from gouji.engine import ruledocs
from gouji.engine.rules import PRESETS, RuleSet

ROOT = Path(__file__).resolve().parents[1]

SECTION_16 = (
    "burn_priority",
    "smother_by",
    "smothered_keeps_head",
    "open_when_opposite_smothered",
    "fours_whole",
    "failed_burn_third",
    "gousiji",
    "first_leader",
    "buy_order",
    "return_held_ranks_only",
    "mutual_point_tribute",
    "huiwu",
    "sweep_restart_leader",
    "lao_to_teammate",
    "sweep_keeps_point_tribute",
    "chongdian",
    "self_open",
)
"""The options of rule book section 16, by the names the engine gives them."""

SECTION_16_VALUES = {"no_three": {"last"}}
"""Values section 16 adds to options that exist already; documented before the engine has them."""

FIELDS = [f.name for f in dataclasses.fields(RuleSet)]


@pytest.mark.parametrize("name", FIELDS)
def test_every_ruleset_field_is_explained_in_both_languages(name: str) -> None:
    en, zh = ruledocs.OPTION_DOCS[name]
    assert en.strip() and zh.strip() and "\n" not in en + zh
    assert any("a" <= c <= "z" for c in en), f"{name}: the English line has no English"
    assert any("\u4e00" <= c <= "\u9fff" for c in zh), f"{name}: the Chinese line has no Chinese"
    if name not in ruledocs.META_FIELDS:
        assert ruledocs.OPTION_SECTIONS[name], f"{name} names no rule book section"


def test_section_16_options_are_explained_whether_or_not_the_engine_has_them_yet() -> None:
    for name in SECTION_16:
        assert name in ruledocs.OPTION_DOCS, name
        assert ruledocs.OPTION_SECTIONS[name].startswith("16."), name


def test_no_doc_for_an_option_that_is_neither_a_field_nor_of_section_16() -> None:
    known = set(FIELDS) | set(SECTION_16)
    assert set(ruledocs.OPTION_DOCS) <= known
    assert set(ruledocs.OPTION_SECTIONS) <= known
    assert set(ruledocs.VALUE_DOCS) <= known


@pytest.mark.parametrize("name", [n for n in FIELDS if ruledocs.literal_values(n)])
def test_every_word_of_an_enumerated_option_is_explained(name: str) -> None:
    words = ruledocs.literal_values(name)
    assert words is not None
    documented = set(ruledocs.VALUE_DOCS[name])
    assert documented >= set(words), f"{name}: no explanation of {sorted(set(words) - documented)}"
    assert documented - set(words) <= SECTION_16_VALUES.get(name, set()), f"{name}: explains unknown values"
    for word in words:
        assert ruledocs.explain_value(name, word, "en") and ruledocs.explain_value(name, word, "zh")


def test_every_tribute_kind_is_explained() -> None:
    from gouji.engine.rules import TRIBUTE_KINDS

    assert set(ruledocs.VALUE_DOCS["tribute_order"]) == set(TRIBUTE_KINDS)


def test_explain_and_values() -> None:
    assert ruledocs.explain("bie_san").startswith("憋三")
    assert ruledocs.explain("bie_san", "zh").startswith("憋三")
    assert ruledocs.explain_value("show_counts", "never", "zh") == "从不显示"
    assert ruledocs.explain_value("decks", 4) is None
    with pytest.raises(KeyError):
        ruledocs.explain("no_such_option")


def test_presets_table_has_every_preset_and_option_and_bolds_differences() -> None:
    table = ruledocs.presets_markdown("en")
    lines = table.splitlines()
    assert lines[0] == "| option | " + " | ".join(f"`{p}`" for p in PRESETS) + " |"
    assert len(lines) == 4 + len(ruledocs.option_names())
    row = next(line for line in lines if line.startswith("| `decks` |"))
    cells = [c.strip() for c in row.strip("|").split("|")]
    assert cells[1 + PRESETS.index("zaozhuang")] == "**6**"
    assert cells[1 + PRESETS.index("qingdao")] == "4"
    assert "| 216 (36 each) |" in table and "196 (32–33 each)" in table
    zh = ruledocs.presets_markdown("zh")
    assert "青岛 `qingdao`" in zh and "| 是 |" in zh


def test_options_table_lists_each_option_with_its_section_and_default() -> None:
    table = ruledocs.options_markdown("en")
    assert len(table.splitlines()) == 2 + len(ruledocs.option_names())
    assert "| `luanchan_at` | §5.4 | " in table
    assert "`at_or_below_10`: once a player holds 10 cards or fewer" in table
    # the default comes first
    row = next(line for line in table.splitlines() if line.startswith("| `show_counts`"))
    assert row.index("`always`") < row.index("`never`")


@pytest.mark.parametrize("lang", ruledocs.LANGS)
def test_the_rule_books_tables_are_the_generated_ones(lang: ruledocs.Lang) -> None:
    text = (ROOT / ruledocs.BOOKS[lang]).read_text(encoding="utf-8")
    for block, body in ruledocs.generated_blocks(lang).items():
        assert ruledocs.BEGIN.format(block) + "\n" + body + ruledocs.END.format(block) in text, (
            f"{ruledocs.BOOKS[lang]}: the {block} table is stale; run python -m gouji.engine.ruledocs"
        )


def test_main_rewrites_a_stale_book_and_check_reports_it(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for rel in ruledocs.BOOKS.values():
        path = tmp_path / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        fresh = (ROOT / rel).read_text(encoding="utf-8")
        stale = fresh.replace("| `decks` |", "| `decks` (old) |", 1)
        assert stale != fresh
        path.write_text(stale, encoding="utf-8")
    assert ruledocs.main(["--check", "--root", str(tmp_path)]) == 1
    assert "stale tables in docs/rulebook.md, docs/rulebook.zh.md" in capsys.readouterr().err
    assert ruledocs.main(["--root", str(tmp_path)]) == 0
    for rel in ruledocs.BOOKS.values():
        assert (tmp_path / rel).read_text(encoding="utf-8") == (ROOT / rel).read_text(encoding="utf-8")
    assert ruledocs.main(["--check", "--root", str(tmp_path)]) == 0


def test_a_book_without_markers_is_an_error() -> None:
    with pytest.raises(ValueError, match="no markers for the generated presets table"):
        ruledocs.render_book("# a book\n", "en")


def test_describe_explains_each_option_and_the_value_it_has() -> None:
    lines = {name: (value, text) for name, value, text in ruledocs.describe(RuleSet.preset("zoucheng"))}
    assert list(lines) == ruledocs.option_names()
    assert lines["show_counts"] == ("never", ruledocs.explain("show_counts") + " — never")
    assert lines["decks"] == (4, ruledocs.explain("decks"))
    zh = {name: text for name, _, text in ruledocs.describe(RuleSet.preset("zoucheng"), "zh")}
    assert zh["show_counts"].endswith("——从不显示")


@pytest.mark.parametrize("lang", ruledocs.LANGS)
def test_the_rule_book_describes_every_preset_and_links_the_other_language(lang: ruledocs.Lang) -> None:
    text = (ROOT / ruledocs.BOOKS[lang]).read_text(encoding="utf-8")
    for name in (*PRESETS, "shandong"):
        assert f"\n| `{name}` | " in text, f"{ruledocs.BOOKS[lang]} §14 has no row for {name}"
    other = "rulebook.zh.md" if lang == "en" else "rulebook.md"
    assert f"]({other})" in text.split("\n\n")[1], "the other language is linked at the top"
    for n in range(1, 17):
        assert f"\n## {n}. " in text, f"{ruledocs.BOOKS[lang]} has no section {n}"
    for sub in ("3.1", "5.1", "5.2", "5.3", "5.4", "5.5", "8.1", "8.2", "16.1", "16.2", "16.3", "16.4", "16.5", "16.6"):
        assert f"\n### {sub} " in text, f"{ruledocs.BOOKS[lang]} has no section {sub}"


def test_the_lobbys_choices_are_the_options_words() -> None:
    """The lobby's menus for options that take one of a few words offer exactly the words the engine takes,
    each with a text in both languages (a new word such as ``mutual_point_tribute="agree"`` reaches the page)."""
    import re

    static = ROOT / "src/gouji/server/static"
    lobby = (static / "lobby.js").read_text(encoding="utf-8")
    block = lobby[lobby.index("const CHOICE_OPTIONS = {") : lobby.index("};", lobby.index("const CHOICE_OPTIONS"))]
    menus = {k: re.findall(r'"([a-z_]+)"', v) for k, v in re.findall(r"(\w+): \[([^\]]*)\]", block)}
    assert menus["mutual_point_tribute"] == ["pay", "waive", "agree"]
    for option, words in menus.items():
        if option in ruledocs.VALUE_DOCS:
            assert set(words) == set(ruledocs.VALUE_DOCS[option]), option
        for lang in ("en", "zh"):
            texts = (static / "texts" / f"{lang}.js").read_text(encoding="utf-8")
            for w in words:
                assert re.search(rf"\bv_{w}:", texts), (lang, option, w)
