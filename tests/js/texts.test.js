// The texts are data per language (the hall's pages' with them): both languages have the same keys, no empty string, the same placeholders.
import { test } from "node:test";
import assert from "node:assert/strict";
import zh from "../../src/gouji/server/static/texts/zh.js";
import en from "../../src/gouji/server/static/texts/en.js";
import { t, setLang, getLang } from "../../src/gouji/server/static/i18n.js";
import "../../src/gouji/server/static/texts/hall.js"; // (the hall's pages' texts join zh and en)

// (the glossary's terms, {g_ID}, are not a caller's to fill: a language may name a term or write it out)
const holes = (s) => [...String(s).matchAll(/\{(\w+)\}/g)].map((m) => m[1]).filter((k) => !k.startsWith("g_")).sort().join(",");

test("Chinese and English have the same keys", () => {
  assert.deepEqual(Object.keys(zh).sort(), Object.keys(en).sort());
});

test("every text is non-empty and both languages fill the same placeholders", () => {
  for (const key of Object.keys(zh)) {
    assert.ok(String(zh[key]).trim() && String(en[key]).trim(), key);
    if (key === "why_out") continue; // "第 {n} 个走" / "{nth} out": both are given
    assert.equal(holes(zh[key]), holes(en[key]), key);
  }
});

test("English reads naturally: 1st out, Big Joker, tab labels without Chinese", () => {
  setLang("en");
  assert.equal(getLang(), "en");
  assert.equal(t("why_out", { n: 1, nth: t("ord_1") }), "1st out");
  assert.equal(t("joker_big"), "Big Joker");
  assert.equal(t("joker_small"), "Small Joker");
  for (const k of ["tab_log", "tab_counter", "tab_score", "btn_burn", "btn_yield", "btn_return"]) {
    assert.doesNotMatch(t(k), /[\u4e00-\u9fff]/, k);
  }
  assert.equal(t("phase_setup_wait_you", { what: "declare" }), "You are deciding: declare"); // (not "you is")
  setLang("zh");
  assert.equal(t("why_out", { n: 2, nth: t("ord_2") }), "第 2 个走");
});

test("the game's terms come from one glossary: a short English name with the Chinese beside it", async () => {
  const { TERMS, term, termHelp } = await import("../../src/gouji/server/static/glossary.js");
  for (const id of Object.keys(TERMS)) {
    assert.equal(term(id, "en"), `${TERMS[id].en} (${TERMS[id].zh})`, id);
    assert.equal(term(id, "zh"), TERMS[id].zh, id);
    assert.ok(termHelp(id, "en").length > 20 && termHelp(id, "zh").length > 8, id);
    assert.ok(TERMS[id].en.split(" ").length <= 4, `${id}: a short name`);
  }
  setLang("en");
  assert.equal(t("p_xuandian").split(":")[0], "Call (宣点)");
  assert.equal(t("l_declare", { seat: "Ann" }), "Ann: Call (宣点)");
  assert.doesNotMatch(t("p_xuandian") + t("p_yaotou", { n: 3 }), /declare the point|keep the head/i);
  for (const key of Object.keys(en)) {
    assert.doesNotMatch(t(key), /\{g_/, `${key}: every term it names is in the glossary`);
    // (issue 45) no literal English for a term the glossary names: declare, keep the head, rush the point …
    assert.doesNotMatch(t(key), /\bdeclar|\bthe head\b|\bno head\b|give[s]? up opening|rush the point|^opened 开点/i, key);
  }
  assert.equal(t("b_forfeited"), "Gave up the point (弃点)");
  assert.equal(t("phase_xuandian"), "Call (宣点)");
  assert.match(t("why_dian_call_failed", { caller: "Ann", opp: "Bo" }), /failed: Bo opened the point, so the Point tribute \(点贡\) falls on Ann$/);
  assert.equal(t("more_options_sum", { people: t("sum_people_1", { n: 1 }), bots: t("sum_bots", { n: 5 }), preset: "Q" }),
    "1 person, 5 bots · Q");
  setLang("zh");
  assert.equal(t("l_declare", { seat: "Ann" }), "Ann 宣点");
  assert.equal(t("leads", { name: "Ann" }), "Ann 先出牌"); // (发牌 is dealing)
});
