// The bots this server offers (GET /api/bots) and how a page names them: by level (新手 / 高手 / 大师,
// Novice / Skilled / Master), never by id.

import { api, h } from "./dom.js";
import { t } from "./i18n.js";

const KNOWN = ["novice", "heuristic", "expert", "random", "learned", "beliefs"];
const FALLBACK = ["heuristic", "random"];
let offered = null;
let levels = ["novice", "heuristic", "expert"]; // (the server's, once asked)

/** The ids of the bots the server offers, its levels first (weakest first: novice, heuristic, expert when
 * there), then the others (random, learned …); cached for the page's life. */
export async function offeredBots() {
  if (!offered) {
    offered = api("/api/bots").then((r) => {
      const lv = (r.levels || []).map((x) => x.bot);
      if (lv.length) levels = lv;
      return [...lv, ...(r.bots || []).filter((b) => !lv.includes(b))];
    }, () => FALLBACK);
  }
  return offered;
}

/** A bot's level name in the page's language (an id this page does not know is shown as it is); `expert`
 * is 大师 / Master only while the server offers it as a level, else an experiment like the others. */
export function botLevel(id) {
  if (id === "expert" && !isLevel(id)) return t("bot_expert_trial");
  return KNOWN.includes(id) ? t("bot_" + id) : String(id);
}

/** "机器人 · 高手" / "Bot · Skilled": a bot as a choice of who sits in a seat. */
export function botChoice(id) {
  return `${t("bot")} · ${botLevel(id)}`;
}

/** Whether bot `id` is one of the server's levels (新手 / 高手 / 大师), not an experimental bot. */
export function isLevel(id) {
  return levels.includes(id);
}

/** The bots as a select's choices: the levels first, the others (记牌型, 学习型, 随机 …) in a group of their
 * own after them ("More bots (experimental)"); `label(id)` names each. */
export function botOptions(bots, chosen, label = botChoice) {
  const option = (b) => h("option", { value: b, selected: chosen === b }, label(b));
  const more = bots.filter((b) => !isLevel(b));
  return [...bots.filter(isLevel).map(option),
    more.length ? h("optgroup", { label: t("bots_more") }, more.map(option)) : null];
}
