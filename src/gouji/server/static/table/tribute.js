// Why each tribute of a deal's end is owed, in words (rule book §10): 闷, 烧, 点 (a call proved wrong, who opened),
// 落 (the places), 串三户 — from the public events of the deal just ended and its places.

import { t } from "../i18n.js";
import { placeName } from "../render.js";

/** The reason of tribute event `ev` (payer ev.from → receiver ev.to), from the ended deal's `events` and
 * `places` (seats in place order); `name(seat)` gives a seat's shown name. */
export function tributeReason(ev, events, places, name) {
  const from = name(ev.from);
  const to = name(ev.to);
  const opened = (s) => events.some((e) => e.type === "open" && e.seat === s);
  const declared = (s) => events.some((e) => e.type === "act" && e.seat === s && e.action === "declare");
  switch (ev.kind) {
    case "men":
      return t("why_k_men", { from, to });
    case "shao":
      return t("why_k_shao", { from, to });
    case "luo": {
      const at = (s) => (places ? places.indexOf(s) : -1);
      return at(ev.from) >= 0 && at(ev.to) >= 0
        ? t("why_k_luo", { from, to, fromPlace: placeName(at(ev.from)), toPlace: placeName(at(ev.to)) })
        : t("k_luo");
    }
    case "sweep":
      return t("why_k_sweep", { from, to });
    case "dian":
      // (payer and receiver are 对头) why it is owed: a call (宣点) the deal proved wrong or right, else who
      // opened the point (开点)
      if (declared(ev.from) && opened(ev.to)) return t("why_dian_call_failed", { caller: from, opp: to });
      if (declared(ev.to) && !opened(ev.from)) return t("why_dian_call_held", { caller: to, opp: from });
      if (opened(ev.to) && !opened(ev.from)) return t("why_dian_opened", { from, to });
      return t("why_dian_neither", { from, to });
    default:
      return "";
  }
}
