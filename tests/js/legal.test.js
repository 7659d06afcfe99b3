// What the page may send, as the frame says it (table/legal.js): listed choices, compact blocks, burn needs.
import { test } from "node:test";
import assert from "node:assert/strict";
import { parseCounts } from "../../src/gouji/server/static/cards.js";
import { allowed, answerWith, burnNeed, burnLeft, goujiPlay, inBlock, listed } from "../../src/gouji/server/static/table/legal.js";

const c = parseCounts;

test("listed choices: a selection is allowed as a play, a burn or a return only when listed so", () => {
  const turn = { choices: ["pass", "KKK", "2KK", "burn AAA", "revolt"] };
  assert.equal(allowed(turn, "play", c("KKK")), true);
  assert.equal(allowed(turn, "play", c("KK2")), true); // the same cards in any order
  assert.equal(allowed(turn, "play", c("QQQ")), false);
  assert.equal(allowed(turn, "play", c("AAA")), false); // listed as a burn only
  assert.equal(allowed(turn, "burn", c("AAA")), true);
  assert.equal(allowed(turn, "burn", c("KKK")), false);
  assert.equal(allowed(turn, "play", c("")), false);
  assert.deepEqual(listed(turn, "play").length, 2); // pass and revolt are no cards
  assert.equal(allowed({ choices: ["return 65", "return 75"] }, "return", c("56")), true);
  assert.equal(allowed({ choices: ["return 65"] }, "return", c("57")), false);
});

test("many choices: the explicit ones and the blocks of leads, nothing else", () => {
  // a lead: K×1..3 with 0..2 2s, a small joker or not, no big one; 2s alone with jokers; jokers alone
  const legal = { explicit: ["pass"], blocks: [["K", 1, 3, 0, 3, 2, 1, 0], ["", 0, 1, 1, 2, 2, 1, 0], ["", 0, 1, 0, 1, 2, 1, 1]] };
  const turn = { choices: null, legal };
  for (const ok of ["K", "KKK", "KK22", "KKK22X", "2", "22X", "X"]) assert.equal(allowed(turn, "play", c(ok)), true, ok);
  for (const no of ["KKKK", "KQ", "K222", "KD", "D", "Q", "222"]) assert.equal(allowed(turn, "play", c(no)), false, no);
  assert.equal(inBlock(legal.blocks[2], c("")), false); // (skip: not the empty play)
  assert.equal(allowed(turn, "burn", c("K")), false); // blocks are plays, never burns
});

test("a click on a rank answers with the most of it, then 2s before jokers, keeping what is selected", () => {
  const turn = { choices: ["pass", "KKK", "KK2", "K22", "KKX", "AAA"] };
  assert.deepEqual(answerWith(turn, "play", c("K").indexOf(1), c("")), c("KKK"));
  assert.deepEqual(answerWith(turn, "play", c("K").indexOf(1), c("X")), c("KKX"));
  assert.deepEqual(answerWith(turn, "play", c("K").indexOf(1), c("22")), c("K22"));
  assert.equal(answerWith(turn, "play", c("Q").indexOf(1), c("")), null);
  assert.equal(answerWith(turn, "burn", c("K").indexOf(1), c("")), null);
});

test("what a burn needs is the server's word for the burn selected; the burner's plays left too", () => {
  const turn = { burn_offer: true, burn_needs: { KKK: [3, 2, 1], "XAAA": [2, 1, 0] } };
  assert.deepEqual(burnNeed(turn, c("KKK")), { after: 3, needed: 2, jokers: 1, ok: false });
  assert.deepEqual(burnNeed(turn, c("AAAX")), { after: 2, needed: 1, jokers: 0, ok: false });
  assert.equal(burnNeed(turn, c("QQQ")), null);
  assert.deepEqual(burnLeft({ burn_left: [2, 1, 2] }), { after: 2, needed: 1, jokers: 2, ok: true });
  assert.equal(burnLeft({}), null);
});

test("a play is marked 够级 when the view says its top play, that play, is", () => {
  const view = { top: "KKK2", top_seat: 3, top_gouji: true };
  assert.equal(goujiPlay({ type: "act", seat: 3, action: "2KKK" }, view), true);
  assert.equal(goujiPlay({ type: "act", seat: 2, action: "2KKK" }, view), false); // another seat's
  assert.equal(goujiPlay({ type: "act", seat: 3, action: "KKK" }, view), false); // another play
  assert.equal(goujiPlay({ type: "act", seat: 3, action: "pass" }, view), false);
  assert.equal(goujiPlay({ type: "act", seat: 3, action: "KKK2" }, { ...view, top_gouji: false }), false);
  assert.equal(goujiPlay({ type: "burn", seat: 3 }, view), false);
});
