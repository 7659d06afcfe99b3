// The texts are data per language (the hall's pages' with them): both languages have the same keys, no empty string, the same placeholders.
import { test } from "node:test";
import assert from "node:assert/strict";
import zh from "../../src/gouji/server/static/texts/zh.js";
import en from "../../src/gouji/server/static/texts/en.js";
import { t, setLang, getLang } from "../../src/gouji/server/static/i18n.js";
import "../../src/gouji/server/static/texts/hall.js"; // (the hall's pages' texts join zh and en)

const holes = (s) => [...String(s).matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort().join(",");

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
