// The leaderboard (/leaderboard, issue 43): the listed players by rating — place, avatar and name (a link to
// the profile), title, rating, rated games — and one's own place, its row marked; below the list when it is
// further down.

import { h, clear, api } from "./dom.js";
import { t, onLangChange } from "./i18n.js";
import "./texts/hall.js";
import { avatar } from "./avatar.js";
import { currentAccount, onAccountChange } from "./account.js";
import { titleChip } from "./ratings.js";

const LIMIT = 100;

export class LeaderboardView {
  constructor(root, { go }) {
    this.root = root;
    this.go = go;
    this.data = null;
    this.error = null;
    this.alive = true;
    this.unLang = onLangChange(() => this.render());
    this.unAccount = onAccountChange(() => this.load());
    this.render();
    this.load();
  }

  destroy() {
    this.alive = false;
    this.unLang();
    this.unAccount();
  }

  async load() {
    try {
      this.data = await api(`/api/leaderboard?limit=${LIMIT}`);
      this.error = null;
    } catch (e) {
      this.error = e;
    }
    this.render();
  }

  render() {
    if (!this.alive) return;
    const d = this.data;
    const section = h("section.leaderboard#leaderboard", { "aria-busy": String(!d && !this.error) },
      h("h1", t("lb_title")),
      h("p.hall-links", h("a", { href: "/" }, "← " + t("hall_back")), " ", h("a", { href: "/hall" }, t("hall_title") + " →")));
    clear(this.root).appendChild(section);
    if (this.error) return section.appendChild(h("p.error", t("error", { msg: this.error.message })));
    if (!d) return;
    section.appendChild(this.mine(d.me));
    section.appendChild(d.players.length ? this.board(d) : h("p.muted#lb-empty", t("lb_empty")));
  }

  /** One's own place in words (or why one is not listed). */
  mine(me) {
    if (me) return h("p.lb-mine#lb-mine", t("lb_your_place", { place: me.place }));
    return h("p.muted#lb-mine", currentAccount() ? t("lb_not_listed") : t("lb_guest"));
  }

  board(d) {
    const mine = d.me && d.me.name;
    const rows = d.players.map((p) => row(p, p.name === mine));
    if (d.me && !d.players.some((p) => p.name === mine)) {
      rows.push(h("tr.gap", { "aria-hidden": "true" }, h("td", { colspan: "5" }, "⋯")));
      rows.push(row(d.me, true));
    }
    return h("div.panel.lb-panel",
      h("table.lb-table#lb-table",
        h("caption", t("lb_caption")),
        h("thead", h("tr",
          h("th.num", { scope: "col" }, t("lb_place")),
          h("th", { scope: "col" }, t("lb_player")),
          h("th", { scope: "col" }, t("lb_title_col")),
          h("th.num", { scope: "col" }, t("lb_rating")),
          h("th.num", { scope: "col" }, t("lb_games")))),
        h("tbody", rows)));
  }
}

function row(p, own) {
  return h("tr" + (own ? ".me" : ""), { dataset: { place: p.place }, "aria-current": own ? "true" : null },
    h("td.num.lb-place", String(p.place)),
    h("th.player", { scope: "row" },
      h("a", { href: `/?player=${encodeURIComponent(p.name)}` }, avatar(p.name), h("span.name", p.name)),
      own ? h("span.you", ` (${t("you")})`) : null),
    h("td", titleChip(p.title)),
    h("td.num.rating", String(p.rating)),
    h("td.num", String(p.games)));
}
