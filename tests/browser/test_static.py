"""The browser table's files, without a browser: complete, local, in step with the engine."""

from __future__ import annotations

import json
import os
import re

from gouji.engine.rules import PRESETS, RuleSet
from gouji.server.replays.api import STATIC_DIR


def _js() -> dict[str, str]:
    """Every script of the page by its path under static/ (node_modules, when there, is not the page's)."""
    return {
        p.relative_to(STATIC_DIR).as_posix(): p.read_text(encoding="utf-8")
        for p in STATIC_DIR.rglob("*.js")
        if "node_modules" not in p.parts
    }


def presets_json() -> str:
    """The lobby's preset list and rule switches as the engine gives them (sorted keys, one-space indent)."""
    data = {"order": list(PRESETS), "presets": {name: RuleSet.preset(name).to_dict() for name in PRESETS}}
    return json.dumps(data, ensure_ascii=False, indent=1, sort_keys=True) + "\n"


def test_presets_json_matches_the_engine() -> None:
    """Regenerate with ``GOUJI_UPDATE_PRESETS=1 pytest tests/browser/test_static.py`` after a rules change."""
    path = STATIC_DIR / "presets.json"
    if os.environ.get("GOUJI_UPDATE_PRESETS") == "1":
        path.write_text(presets_json(), encoding="utf-8")
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["order"] == list(PRESETS)
    assert data["presets"] == {name: RuleSet.preset(name).to_dict() for name in PRESETS}, (
        "regenerate src/gouji/server/static/presets.json: GOUJI_UPDATE_PRESETS=1 pytest tests/browser/test_static.py"
    )


def _strings(lang: str) -> set[str]:
    """The keys of a language: its table (texts/zh.js, texts/en.js), and those a page's module adds to it
    (``Object.assign(STRINGS.zh, {...})``, as tourney.js does)."""
    text = _js()[f"texts/{lang}.js"]
    block = re.search(r"^export default \{\n(.*?)^\};", text, re.S | re.M)
    assert block, f"no {lang} table in texts/{lang}.js"
    keys = set(re.findall(r"^  (\w+):", block.group(1), re.M))
    for other in _js().values():
        for added in re.findall(rf"^Object\.assign\(STRINGS\.{lang}, \{{\n(.*?)^\}}\);", other, re.S | re.M):
            keys |= set(re.findall(r"^  (\w+):", added, re.M))
    return keys


def test_both_languages_have_every_string_the_pages_use() -> None:
    zh, en = _strings("zh"), _strings("en")
    assert zh == en, f"only in zh: {sorted(zh - en)}; only in en: {sorted(en - zh)}"
    used: set[str] = set()
    for name, text in _js().items():
        if name == "i18n.js" or name.startswith("texts/"):
            continue
        used |= set(re.findall(r"""\bt\(\s*["'](\w+)["']\s*[,)]""", text))
    html = (STATIC_DIR / "index.html").read_text(encoding="utf-8")
    used |= set(re.findall(r'data-i18n(?:-ph|-title)?="(\w+)"', html))
    assert used - zh == set(), f"strings used but not defined: {sorted(used - zh)}"
    # keys built at run time: places, presets, phases, badges, tribute kinds, options
    for prefix, names in {
        "place_": [str(i) for i in range(6)],
        "preset_": list(PRESETS),
        "phase_": ["revolution", "yaotou", "xuandian", "buy_four", "tribute_return"],
        "k_": ["men", "shao", "dian", "luo", "sweep"],
        "sc_": ["always", "at_or_below_10", "never"],
        "l_burn_": ["success", "broken", "countered", "failed", "ended"],
    }.items():
        for n in names:
            assert prefix + n in zh, prefix + n
    # the Chinese terms players use are there
    chinese = (STATIC_DIR / "texts" / "zh.js").read_text(encoding="utf-8")
    for term in (
        "头科",
        "大落",
        "开点",
        "烧牌",
        "宣点",
        "闷",
        "革命",
        "要头",
        "无头",
        "托管",
        "记牌器",
        "还贡",
        "让牌",
    ):
        assert term in chinese


def _literals() -> set[str]:
    """Every word a page's script or index.html names in quotes (or as an object's key): the keys it may look up."""
    texts = [text for name, text in _js().items() if name != "i18n.js" and not name.startswith("texts/")]
    texts.append((STATIC_DIR / "index.html").read_text(encoding="utf-8"))
    words: set[str] = set()
    for text in texts:
        words |= set(re.findall(r"""["'`](\w+)["'`]""", text)) | set(re.findall(r"\b(\w+):", text))
    return words


def _prefixes() -> set[str]:
    """The beginnings of keys the scripts build at run time: ``t("phase_" + phase)``, ``t(`o_${key}`)``."""
    found: set[str] = set()
    for name, text in _js().items():
        if not name.startswith("texts/"):
            found |= set(re.findall(r"""["'`](\w+_)["'`]\s*\+""", text)) | set(re.findall(r"`(\w+_)\$\{", text))
    return found


def test_every_string_is_used_by_a_page() -> None:
    """Issue 45: no text is left behind when a page stops using it. A key is used when a script names it, or
    builds it: a prefix the script adds to a name it knows (a phase, a rule of presets.json, a place), the
    ``_you`` form of a line (render.js tSubject), ``_1`` (one of a count), ``_no`` (a setup step refused)."""
    words = _literals()
    presets = json.loads((STATIC_DIR / "presets.json").read_text(encoding="utf-8"))
    names = set(presets["order"]) | {str(i) for i in range(10)}
    for rules in presets["presets"].values():
        names |= set(rules) | {v for v in rules.values() if isinstance(v, str)}
    names |= {"tied"}  # a tie-break the server names (competition/round_robin.py): ev_by_tied
    prefixes = _prefixes()

    def used(key: str) -> bool:
        if key in words:
            return True
        for suffix in ("_you", "_1", "_no"):
            if key.endswith(suffix) and used(key[: -len(suffix)]):
                return True
        return any(key.startswith(p) and key[len(p) :] in words | names for p in prefixes)

    unused = sorted(k for k in _strings("en") if not used(k))
    assert not unused, f"strings no page uses (remove them from texts/zh.js and texts/en.js): {unused}"


def test_everything_is_local_and_every_module_exists() -> None:
    names = {p.relative_to(STATIC_DIR).as_posix() for p in STATIC_DIR.rglob("*")}
    for name, text in {**_js(), "index.html": (STATIC_DIR / "index.html").read_text(encoding="utf-8")}.items():
        assert not re.search(r"""(src|href)=["']https?://|import[^;]*["']https?://|url\(https?://""", text), name
        for imported in re.findall(r"""from\s+["'](\.{1,2}/[\w./]+)["']""", text):
            path = os.path.normpath(os.path.join(os.path.dirname(name), imported)).replace(os.sep, "/")
            assert path in names, f"{name} imports {imported}, which is not in static/"
    css = (STATIC_DIR / "style.css").read_text(encoding="utf-8")
    assert "@import" not in css and "http" not in css
    assert {"index.html", "app.js", "table.js", "replay.js", "i18n.js", "style.css"} <= names


def test_no_script_is_over_600_lines() -> None:
    """The client in modules of a readable size (issue 29): one module a panel; the texts too (issue 45: one
    key a line, the unused ones gone — a language past 600 lines is split by page, as texts/hall.js is)."""
    long = {name: text.count("\n") for name, text in _js().items() if text.count("\n") > 600}
    assert not long, f"scripts over 600 lines: {long}"
