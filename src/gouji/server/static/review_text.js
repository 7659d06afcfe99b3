// The 复盘 review's words: what a decision was, and the one sentence saying what the better play changes
// (its reason, worked out by the server: gouji/lab/review_reason.py), in the page's language.

import { t } from "./i18n.js";
import { cardsText, placeName } from "./render.js";
import "./texts/review.js";

const WORDS = { pass: "btn_pass", yield: "btn_yield", declare: "btn_declare_g", revolt: "btn_revolt",
  yaotou: "btn_yaotou_g", wutou: "btn_wutou_g", buy4: "btn_buy4" };

/** A decision's action as words: "过", "烧 2 2 2", "K K". */
export function actionText(action) {
  const a = String(action);
  if (WORDS[a]) return t(WORDS[a]);
  if (a.startsWith("burn ")) return `${t("btn_burn")} ${cardsText(a.slice(5))}`;
  if (a.startsWith("return ")) return `${t("btn_return")} ${cardsText(a.slice(7))}`;
  if (/^[3-9TJQKA2XD]+$/.test(a)) return cardsText(a);
  return a;
}

/** The cards of an action, or "" for one that plays none (pass, yield, a call). */
export function actionCards(action) {
  const a = String(action);
  const cards = a.startsWith("burn ") ? a.slice(5) : a.startsWith("return ") ? a.slice(7) : a;
  return /^[3-9TJQKA2XD]+$/.test(cards) ? cards : "";
}

/** The unit of a review's figures, in words. */
export function unitText(unit) {
  return t("review_unit_" + unit);
}

/** The sentence of a mistake of `seat`: what its better play would have changed. `name(seat)` names a seat. */
export function reasonSentence(decision, unit, seat, name) {
  const r = decision.reason || { code: "points", params: {} };
  const p = r.params || {};
  const vars = { best: actionText(decision.best), gain: decision.gain, unit: unitText(unit) };
  if (r.code === "lead") {
    return p.by === seat ? t("review_r_lead_you", vars) : t("review_r_lead_mate", { ...vars, mate: name(p.by) });
  }
  if (r.code === "burn") return t("review_r_burn", vars);
  if (r.code === "mate") return t("review_r_mate", { ...vars, mate: name(p.mate), place: placeName(p.place), was: placeName(p.was) });
  if (r.code === "place") return t("review_r_place", { ...vars, place: placeName(p.place), was: placeName(p.was) });
  return t("review_r_points", vars);
}

/** The review's mistakes (so far), each with the replay step that shows it: step i is the deal after
 * decision i, so a mistake's step is its decision's number. */
export function mistakes(decisions) {
  return (decisions || []).filter((d) => d.mistake).map((d) => ({ ...d, step: d.index }));
}
