// The hint line names the button of the decision at hand (issue 29, item 4): the table's methods on a frame.
import { test } from "node:test";
import assert from "node:assert/strict";
import { setLang } from "../../src/gouji/server/static/i18n.js";
import { actionsMethods } from "../../src/gouji/server/static/table/actions.js";

setLang("zh");

/** A table as far as the hint's methods need: this seat asked in `phase` with `choices`, the hint's `action`. */
function table(phase, choices, action, turn = {}) {
  const frame = { state: 7, view: { phase }, turn: { seat: 0, legal_count: choices.length, choices, ...turn } };
  return Object.assign(Object.create(actionsMethods), {
    frame, seat: 0, info: { token: "x" }, rules: {}, dealEvents: [], hint: { state: 7, action },
    isMyTurn: () => true, name: (s) => `seat ${s}`,
  });
}

const label = (tb) => actionsMethods.hintButton.call(tb);

test("a play, a pass, a yield name 出牌, 过, 让牌", () => {
  assert.equal(label(table("play", ["KKK", "pass"], "KKK")), "btn_play");
  assert.equal(label(table("play", ["KKK", "pass"], "pass")), "btn_pass");
  assert.equal(label(table("play", ["KKK", "yield"], "yield")), "btn_yield");
});

test("a burn offer names 烧牌 or 不烧; 还贡 names 还贡", () => {
  assert.equal(label(table("play", ["burn KKKK", "pass"], "burn KKKK", { burn_offer: true })), "btn_burn");
  assert.equal(label(table("play", ["burn KKKK", "pass"], "pass", { burn_offer: true })), "btn_no_burn");
  assert.equal(label(table("tribute_return", ["return 3", "return 4"], "return 3")), "btn_return");
});

test("a setup question names its own button: 不宣, 宣点, 不革命, 买四", () => {
  assert.equal(label(table("xuandian", ["declare", "pass"], "pass")), "btn_no_declare");
  assert.equal(label(table("xuandian", ["declare", "pass"], "declare")), "btn_declare");
  assert.equal(label(table("revolution", ["revolt", "pass"], "pass")), "btn_no_revolt");
  assert.equal(label(table("buy_four", ["buy4", "pass"], "buy4")), "btn_buy4");
});

test("no hint for this state: no button named", () => {
  const tb = table("play", ["KKK", "pass"], "KKK");
  tb.hint.state = 6;
  assert.equal(label(tb), null);
});
