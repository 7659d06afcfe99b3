// The side panel (a sheet on a phone): the deal's log, the card counter (记牌器) and the score.
// Methods of the live table (table.js mixes them into LiveTable); `this` is the table.

import { h, clear } from "../dom.js";
import { t } from "../i18n.js";
import { RANKS, DISPLAY_ORDER, parseCounts, deckCounts, cardFace } from "../cards.js";
import { teamName, teamOf } from "../render.js";

export const sideMethods = {
  renderSide() {
    const old = this.logEl;
    const stick = !old || old.scrollTop + old.clientHeight >= old.scrollHeight - 40;
    const keep = old ? old.scrollTop : 0;
    clear(this.side);
    const tabs = [["log", "tab_log"], ["counter", "tab_counter"], ["score", "tab_score"]];
    const bar = h("div.tabs", { role: "tablist" });
    for (const [id, key] of tabs) {
      bar.appendChild(h("button.tab" + (this.sideTab === id ? ".active" : ""), {
        type: "button", role: "tab", dataset: { tab: id }, "aria-selected": this.sideTab === id ? "true" : "false",
        onclick: () => { this.sideTab = id; this.renderSide(); },
      }, t(key)));
    }
    bar.appendChild(h("button.tab.sheet-close#sheet-close", { type: "button", "aria-label": t("close"),
      onclick: () => this.toggleSheet(false) }, "✕"));
    this.side.appendChild(bar);
    this.side.classList.toggle("open", !!this.sheetOpen);
    if (this.sideTab === "log") {
      // a scrollable region keyboards reach (axe: scrollable-region-focusable)
      this.logEl = h("ol.log", { tabindex: "0", "aria-label": t("tab_log") });
      // while the table waits for players, the deal (dealt already) is not told: it starts with the table
      const lines = this.table.status === "waiting" ? [{ line: t("waiting_deal"), cls: "ev-info" }] : this.logLines();
      for (const item of lines.slice(-400)) this.logEl.appendChild(h("li." + item.cls, item.line));
      this.side.appendChild(this.logEl);
      this.logEl.scrollTop = stick ? this.logEl.scrollHeight : keep;
    } else {
      this.logEl = null;
      this.side.appendChild(this.sideTab === "counter" ? this.counterPanel() : this.scorePanel());
    }
  },

  counterEnabled() {
    const cfg = this.config || {};
    if (typeof cfg.card_counter === "boolean") return cfg.card_counter;
    const pref = localStorage.getItem("gouji.counter." + this.code);
    return pref === null ? true : pref === "1";
  },

  counterPanel() {
    if (!this.counterEnabled()) return h("div.pane.muted", t("counter_off"));
    const deck = deckCounts(this.rules);
    const played = parseCounts(this.frame.view.played || "");
    const mine = this.handCounts();
    const grid = h("div.counter-grid");
    for (const r of DISPLAY_ORDER) {
      const left = Math.max(0, deck[r] - played[r] - mine[r]);
      if (!deck[r]) continue;
      grid.appendChild(h("div.counter-cell" + (left ? "" : ".zero"), { dataset: { rank: RANKS[r], left } },
        cardFace(RANKS[r], "mini"), h("span.left", String(left))));
    }
    return h("div.pane", h("div.muted.small", t("counter_help")), grid);
  },

  scorePanel() {
    const tb = this.table;
    const pts = tb.points || [];
    const members = (team) => [0, 1, 2, 3, 4, 5].filter((s) => teamOf(s) === team).map((s) => this.name(s)).join(" · ");
    const rows = pts.map((p, i) => h("tr", h("td", t("deal_n", { n: i + 1 })), h("td", String(p[0])), h("td", String(p[1]))));
    const tot = tb.totals || [0, 0];
    return h("div.pane",
      h("table.score-table",
        h("thead", h("tr", h("th", ""),
          h("th", h("span.team-dot.team0"), teamName(0)), h("th", h("span.team-dot.team1"), teamName(1)))),
        h("tbody", rows, h("tr.total", h("td", t("totals")), h("td", String(tot[0])), h("td", String(tot[1]))),
          tb.duplicate ? h("tr.total.match-total", h("td", t("match_totals")),
            ...this.sideTotals(tot).map((n) => h("td", String(n)))) : null)),
      h("div.small.muted", h("span.team-dot.team0"), members(0)),
      h("div.small.muted", h("span.team-dot.team1"), members(1)));
  },

  /** On a phone: the log, the card counter and the score open as a sheet over the felt. */
  toggleSheet(open = !this.sheetOpen) {
    this.sheetOpen = open;
    this.renderBar();
    this.renderSide();
    if (open) {
      const tab = this.side.querySelector(".tab.active");
      if (tab) tab.focus();
    }
  },
};
