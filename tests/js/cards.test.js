// The cards module: parsing, formatting and play shapes.
import { test } from "node:test";
import assert from "node:assert/strict";
import { parseCounts, formatCounts, playOf, total } from "../../src/gouji/server/static/cards.js";

test("a hand's text and its counts round-trip, highest first", () => {
  const c = parseCounts("3 10 DX22AKK9");
  assert.equal(total(c), 10);
  assert.equal(formatCounts(c), "DX22AKKT93");
  assert.throws(() => parseCounts("Z"), /not a card: Z/);
});

test("a play's shape: one natural rank at most, 2s and jokers ride along", () => {
  assert.equal(playOf(parseCounts("KQ")), null);
  const p = playOf(parseCounts("KKK2"));
  assert.equal(p.size, 4);
  assert.equal(p.gouji, true); // a 2 makes a gouji play
  assert.equal(playOf(parseCounts("99")).gouji, false);
});
