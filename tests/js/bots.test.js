// The bots' names on the page: the server's levels by level name; `expert` is 大师 / Master only as a level.
import { test } from "node:test";
import assert from "node:assert/strict";
import { setLang } from "../../src/gouji/server/static/i18n.js";

const serve = (levels, bots) => {
  globalThis.fetch = async () => ({ ok: true, status: 200, json: async () => ({ levels: levels.map((bot) => ({ bot })), bots }) });
};

test("an expert that is not one of the server's levels is named as an experiment", async () => {
  serve(["novice", "heuristic"], ["novice", "heuristic", "beliefs", "expert", "learned", "random"]);
  const bots = await import("../../src/gouji/server/static/bots.js?trial");
  setLang("zh");
  assert.deepEqual(await bots.offeredBots(), ["novice", "heuristic", "beliefs", "expert", "learned", "random"]);
  assert.equal(bots.isLevel("expert"), false);
  assert.equal(bots.botLevel("expert"), "蒸馏型（试验）");
  assert.equal(bots.botLevel("heuristic"), "高手");
  setLang("en");
  assert.equal(bots.botLevel("expert"), "Distilled (experimental)");
});

test("an expert among the server's levels is 大师 / Master", async () => {
  serve(["novice", "heuristic", "expert"], ["novice", "heuristic", "expert", "random"]);
  const bots = await import("../../src/gouji/server/static/bots.js?level");
  await bots.offeredBots();
  setLang("zh");
  assert.equal(bots.botLevel("expert"), "大师");
  setLang("en");
  assert.equal(bots.botLevel("expert"), "Master");
});
