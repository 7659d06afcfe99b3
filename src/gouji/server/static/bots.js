// The bots this server offers (GET /api/bots) and how a page names them: by level (新手 / 高手 / 大师,
// Novice / Skilled / Master), never by id.

import { api } from "./dom.js";
import { t } from "./i18n.js";

const KNOWN = ["novice", "heuristic", "expert", "random", "learned", "beliefs"];
const FALLBACK = ["heuristic", "random"];
let offered = null;

/** The ids of the bots the server offers, its levels first (weakest first: novice, heuristic, expert when
 * there), then the others (random, learned …); cached for the page's life. */
export async function offeredBots() {
  if (!offered) {
    offered = api("/api/bots").then((r) => {
      const lv = (r.levels || []).map((x) => x.bot);
      return [...lv, ...(r.bots || []).filter((b) => !lv.includes(b))];
    }, () => FALLBACK);
  }
  return offered;
}

/** A bot's level name in the page's language (an id this page does not know is shown as it is). */
export function botLevel(id) {
  return KNOWN.includes(id) ? t("bot_" + id) : String(id);
}

/** "机器人 · 高手" / "Bot · Skilled": a bot as a choice of who sits in a seat. */
export function botChoice(id) {
  return `${t("bot")} · ${botLevel(id)}`;
}
