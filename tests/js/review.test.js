// The 复盘 review's words (review_text.js): an action as words and cards, the sentence of each reason in both
// languages, the mistakes with the replay step that shows each.
import { test } from "node:test";
import assert from "node:assert/strict";
import { setLang } from "../../src/gouji/server/static/i18n.js";
import { actionCards, actionText, mistakes, reasonSentence, unitText } from "../../src/gouji/server/static/review_text.js";

const name = (s) => `seat${s + 1}`;
const mistake = (code, params, extra = {}) => ({
  index: 12, played: "KK", best: "XKK", gain: 6, mistake: true, reason: { code, params }, ...extra,
});

test("an action as words, and its cards", () => {
  setLang("en");
  assert.equal(actionText("pass"), "Pass");
  assert.equal(actionText("burn 222"), "Burn 2 2 2");
  assert.equal(actionText("XKK"), "Small Joker K K");
  assert.equal(actionCards("burn 222"), "222");
  assert.equal(actionCards("return 65"), "65");
  assert.equal(actionCards("pass"), "");
  assert.equal(actionCards("declare"), "");
});

test("each reason is one sentence naming the better play and the points, in English", () => {
  setLang("en");
  const unit = "points";
  assert.equal(reasonSentence(mistake("lead", { by: 0 }), unit, 0, name),
    "Small Joker K K would have won this trick, and the lead, for you: +6 points.");
  assert.equal(reasonSentence(mistake("lead", { by: 2 }), unit, 0, name),
    "Small Joker K K would have won this trick, and the lead, for your teammate seat3: +6 points.");
  assert.match(reasonSentence(mistake("burn", {}), unit, 0, name), /kept this play from being burnt \(烧\): \+6 points/);
  assert.match(reasonSentence(mistake("mate", { mate: 4, place: 0, was: 2 }), unit, 0, name),
    /your teammate seat5 out .*instead of .*: \+6 points\./);
  assert.match(reasonSentence(mistake("place", { place: 1, was: 3 }), "small points", 0, name), /\+6 small points\.$/);
  assert.equal(reasonSentence(mistake("points", {}), unit, 0, name), "Small Joker K K would have scored 6 points more for your team.");
  assert.equal(reasonSentence({ ...mistake("points", {}), reason: undefined }, unit, 0, name),
    "Small Joker K K would have scored 6 points more for your team.");
});

test("the same sentences in Chinese, the places by their names", () => {
  setLang("zh");
  assert.equal(reasonSentence(mistake("lead", { by: 0 }), "points", 0, name), "换成小王 K K，这一轮的牌权就是你的：多得 6 分。");
  assert.equal(reasonSentence(mistake("mate", { mate: 4, place: 0, was: 2 }), "points", 0, name),
    "换成小王 K K，队友seat5能拿头科，而不是三科：多得 6 分。");
  assert.equal(unitText("small points"), "小分");
});

test("the mistakes, each at the step after its decision", () => {
  const ds = [{ index: 3, mistake: false }, { index: 9, mistake: true, gain: 4 }, { index: 20, mistake: true, gain: 8 }];
  assert.deepEqual(mistakes(ds).map((m) => m.step), [9, 20]);
  assert.deepEqual(mistakes(undefined), []);
});
