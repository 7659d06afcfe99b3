// Why each tribute is owed, in words: 闷, 烧, 点 (who opened, who declared), 落 (the places), 串三户.
import { test } from "node:test";
import assert from "node:assert/strict";
import { setLang } from "../../src/gouji/server/static/i18n.js";
import { tributeReason } from "../../src/gouji/server/static/table/tribute.js";

const name = (s) => `S${s}`;

test("落贡 names both places; 闷贡 and 烧贡 who did it to whom", () => {
  setLang("en");
  const places = [1, 3, 5, 0, 2, 4];
  assert.equal(tributeReason({ kind: "luo", from: 4, to: 1 }, [], places, name), "S4 placed last 大落, S1 1st 头科 (落贡)");
  assert.equal(tributeReason({ kind: "men", from: 2, to: 5 }, [], places, name), "S5 smothered S2 (闷贡)");
  assert.equal(tributeReason({ kind: "shao", from: 2, to: 5 }, [], places, name), "S5 burned S2 to the end (烧贡)");
});

test("点贡 says why it is owed: a call (宣点) proved wrong or right, else who opened the point", () => {
  setLang("zh");
  const failed = [{ type: "open", seat: 1 }, { type: "act", seat: 4, action: "declare" }];
  assert.equal(tributeReason({ kind: "dian", from: 4, to: 1 }, failed, null, name), "S4 宣点失败：S1 开了点，由 S4 进点贡");
  setLang("en");
  assert.equal(tributeReason({ kind: "dian", from: 4, to: 1 }, failed, null, name),
    "Call (宣点) by S4 failed: S1 opened the point, so the Point tribute (点贡) falls on S4");
  // said of the reader too: no "you's", no "you pays"
  const mine = (s) => (s === 4 ? "you" : `S${s}`);
  assert.equal(tributeReason({ kind: "dian", from: 4, to: 1 }, failed, null, mine),
    "Call (宣点) by you failed: S1 opened the point, so the Point tribute (点贡) falls on you");
  const held = [{ type: "open", seat: 4 }, { type: "act", seat: 4, action: "declare" }];
  assert.equal(tributeReason({ kind: "dian", from: 1, to: 4 }, held, null, name),
    "Call (宣点) by S4 held: S1 did not open the point, so the Point tribute (点贡) falls on S1");
  assert.equal(tributeReason({ kind: "dian", from: 4, to: 1 }, [{ type: "open", seat: 1 }], null, name),
    "S1 opened the point and S4 did not: the Point tribute (点贡) falls on S4");
  assert.equal(tributeReason({ kind: "dian", from: 4, to: 1 }, [], null, name),
    "neither S4 nor S1 opened the point: each pays the other the Point tribute (点贡)");
});

test("换点 answers and the regional setup steps have their own log lines, never 'plays swap'", async () => {
  const { describeEvent } = await import("../../src/gouji/server/static/render.js");
  const name = (s) => `S${s}`;
  for (const lang of ["en", "zh"]) {
    setLang(lang);
    const ctx = { setup: true, me: 1 };
    const yes = describeEvent({ type: "point_swap", seat: 0, agree: true }, name, ctx);
    const no = describeEvent({ type: "point_swap", seat: 1, agree: false }, name, ctx);
    assert.match(yes, /S0.*换点/);
    assert.match(no, /换点/);
    assert.notEqual(yes, no);
    for (const action of ["swap", "giveback", "huiwu", "chongdian", "selfopen"]) {
      assert.equal(describeEvent({ type: "act", seat: 0, action }, name, ctx), null, action);
    }
    assert.match(describeEvent({ type: "tribute_giveback", from: 0, to: 2, cards: "DX" }, name, ctx), /S0.*S2|S2.*S0/);
  }
});
