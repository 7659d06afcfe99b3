// The cards module: parsing and formatting.
import { test } from "node:test";
import assert from "node:assert/strict";
import { parseCounts, formatCounts, total } from "../../src/gouji/server/static/cards.js";

test("a hand's text and its counts round-trip, highest first", () => {
  const c = parseCounts("3 10 DX22AKK9");
  assert.equal(total(c), 10);
  assert.equal(formatCounts(c), "DX22AKKT93");
  assert.throws(() => parseCounts("Z"), /not a card: Z/);
});
