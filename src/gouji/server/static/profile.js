// A player's profile (/?player=NAME): the avatar and the name, the rating and its title with the rating's
// history as a line chart (ratings.js), the places as a small chart, the numbers (all
// rules together or one preset's), the recent games linked to their replays; one's own profile also lists the
// account's open seats, each with a button to go back to it on this device.

import { h, clear, api, storeSeat, toast } from "./dom.js";
import { t, onLangChange } from "./i18n.js";
import { placeName } from "./render.js";
import { avatar } from "./avatar.js";
import { currentAccount, onAccountChange, reclaim, refusal } from "./account.js";
import { ratingChart, titleChip } from "./ratings.js";

const ALL = "";

export class ProfileView {
  constructor(root, name, { go }) {
    this.root = root;
    this.name = name;
    this.go = go;
    this.data = null;
    this.error = null;
    this.preset = ALL;
    this.unLang = onLangChange(() => this.render());
    this.unAccount = onAccountChange(() => this.render());
    this.load();
  }

  destroy() {
    this.unLang();
    this.unAccount();
  }

  async load() {
    try {
      this.data = await api(`/api/players/${encodeURIComponent(this.name)}`);
    } catch (e) {
      this.error = e;
    }
    this.render();
  }

  get own() {
    const me = currentAccount();
    return !!(me && this.data && me.name === this.data.name);
  }

  render() {
    const section = h("section.profile#profile", { "aria-busy": String(!this.data && !this.error) });
    clear(this.root).appendChild(section);
    if (this.error) {
      section.appendChild(h("div.panel",
        h("h1", this.name),
        h("p.error", this.error.status === 404 ? t("prof_not_found", { name: this.name }) : t("error", { msg: this.error.message })),
        h("p", h("a", { href: "/" }, "← " + t("acc_back")))));
      return;
    }
    if (!this.data) return;
    const d = this.data;
    section.append(
      h("header.profile-head",
        avatar(d.name, "large"),
        h("div", h("h1", d.name), h("p.muted", t("prof_since", { date: dateOf(d.since) })))),
      this.own ? this.seatsPanel() : null,
      this.ratingPanel(),
      this.statsPanel(),
      this.recentPanel());
  }

  // ------------------------------------------------------------------ own seats

  seatsPanel() {
    const me = currentAccount();
    const seats = (me && me.seats) || [];
    return h("div.panel.profile-seats#profile-seats",
      h("h2", t("prof_seats")),
      seats.length
        ? h("ul.plain.seat-rows", seats.map((s) => h("li",
          h("span", `${t("table_code")} ${s.code} · ${t("seat_n", { n: s.seat + 1 })} · ${t("preset_" + s.preset)} · ${t("status_" + s.status)}`),
          h("button.btn.primary.small.continue", { type: "button", dataset: { code: s.code },
            "aria-label": `${t("prof_continue")} — ${t("table_code")} ${s.code}`, onclick: (e) => this.continue(s, e.target) },
          t("prof_continue")))))
        : h("p.muted", t("prof_no_seats")));
  }

  async continue(seat, btn) {
    btn.disabled = true;
    try {
      const res = await reclaim(seat.code);
      const me = currentAccount();
      storeSeat(res.code, { seat: res.seat, token: res.token, nickname: me ? me.name : this.data.name });
      this.go(`/?t=${res.code}`);
    } catch (e) {
      btn.disabled = false;
      toast(refusal(e, "seat"), "error");
    }
  }

  // ------------------------------------------------------------------ rating

  ratingPanel() {
    const d = this.data;
    if (d.rating === undefined) return null;
    return h("div.panel.profile-rating#profile-rating",
      h("h2", t("rating_title")),
      h("p.rating-line",
        h("span.rating-value#rating-value", String(d.rating)), " ", titleChip(d.title),
        h("span.muted", " · " + t("rating_games", { n: d.rated_games || 0 }))),
      ratingChart(d.history));
  }

  // ------------------------------------------------------------------ statistics

  statsPanel() {
    const presets = Object.keys(this.data.stats.presets || {});
    const stats = (this.preset && this.data.stats.presets[this.preset]) || this.data.stats.total;
    const choose = presets.length > 1
      ? h("label.field.profile-preset", h("span.label", t("preset")),
        h("select#profile-preset", { onchange: (e) => { this.preset = e.target.value; this.render(); } },
          h("option", { value: ALL, selected: this.preset === ALL }, t("prof_all")),
          presets.map((p) => h("option", { value: p, selected: this.preset === p }, t("preset_" + p)))))
      : presets.length === 1 ? h("p.muted", t("preset") + ": " + t("preset_" + presets[0])) : null;
    return h("div.panel.profile-stats#profile-stats",
      h("h2", t("prof_stats")),
      choose,
      placesChart(stats),
      numbers(stats));
  }

  // ------------------------------------------------------------------ recent games

  recentPanel() {
    const games = this.data.recent || [];
    return h("div.panel.profile-recent#profile-recent",
      h("h2", t("prof_recent")),
      games.length
        ? h("ul.games", games.map((g) => {
          const deal = g.kind === "deal" ? g.deal : 0;
          const label = g.kind === "deal" ? t("deal_n", { n: g.deal + 1 }) : t("set_record");
          const tot = g.totals || [0, 0];
          return h("li", h("a", { href: `/?replay=${g.id}&deal=${deal}` }, `${g.table || t("set_in_progress")} · ${label}`),
            h("span.muted", ` ${t("team_red")} ${tot[0]} : ${tot[1]} ${t("team_blue")}`),
            g.created_at ? h("span.muted.small.nowrap", " · " + dateOf(g.created_at)) : null);
        }))
        : h("p.muted", t("prof_no_games")));
  }
}

/** Six bars, 头科 first, each as tall as its share of the deals; one image for a screen reader, its label
 * giving every count. */
export function placesChart(stats) {
  const places = stats.places || [0, 0, 0, 0, 0, 0];
  const most = Math.max(1, ...places);
  const said = places.map((n, i) => `${placeName(i)} ${n}`).join(", ");
  return h("figure.places-chart#places-chart",
    h("figcaption", t("prof_places", { n: stats.deals })),
    h("div.bars", { role: "img", "aria-label": t("prof_places_label", { n: stats.deals, list: said }) },
      places.map((n, i) => {
        const bar = h("span.bar.place" + i);
        bar.style.height = `${Math.round((100 * n) / most)}%`;
        return h("div.bar-col", { dataset: { place: i, count: n } },
          h("span.bar-n", String(n)), h("span.bar-box", bar), h("span.bar-label", placeName(i)));
      })));
}

function numbers(s) {
  const pct = (x) => (x === null || x === undefined ? "—" : `${Math.round(x * 100)}%`);
  const wdl = (r) => `${r.won}–${r.drawn}–${r.lost}`;
  const rows = [
    ["deals", s.deals],
    ["points", s.points],
    ["points_per_deal", s.points_per_deal === null ? "—" : s.points_per_deal],
    ["burns", `${s.burns_won} / ${s.burns_tried} (${pct(s.burn_rate)})`],
    ["open_rate", `${s.opened} (${pct(s.open_rate)})`],
    ["men", `${s.men_suffered} / ${s.men_dealt}`],
    ["revolutions", s.revolutions],
    ["sets", wdl(s.sets)],
    ["matches", wdl(s.matches)],
  ];
  return h("dl.stat-list#stat-list", rows.map(([k, v]) =>
    h("div", { dataset: { stat: k } }, h("dt", t("prof_" + k)), h("dd", String(v)))));
}

function dateOf(iso) {
  return String(iso || "").slice(0, 10);
}
