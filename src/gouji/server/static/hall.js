// The public hall (/hall, issue 43): the tables whose creators listed them — each with its rules, its seats
// (the people's titles), whether it waits or plays — and how many people are online. A free seat is one tap
// (the join API, with the signed-in name or the nickname); a table in play is one tap to watch. It asks the
// server every few seconds and redraws only when the answer changed. Every name is a stranger's: text only.

import { icon } from "./icons.js";
import { h, clear, api, toast, storeSeat, storedSeat, lastNickname, rememberNickname } from "./dom.js";
import { t, onLangChange } from "./i18n.js";
import "./texts/hall.js";
import { currentAccount, onAccountChange } from "./account.js";
import { botLevel } from "./bots.js";
import { titleChip } from "./ratings.js";

const POLL_MS = 2500;

export class HallView {
  constructor(root, { go }) {
    this.root = root;
    this.go = go;
    this.data = null;
    this.version = null; // the last answer as text: a redraw only when it changes
    this.error = null;
    this.alive = true;
    this.unLang = onLangChange(() => this.render());
    this.unAccount = onAccountChange(() => this.render());
    this.timer = setInterval(() => this.load(), POLL_MS);
    this.render();
    this.load();
  }

  destroy() {
    this.alive = false;
    clearInterval(this.timer);
    this.unLang();
    this.unAccount();
  }

  async load() {
    if (this.loading || document.hidden) return;
    this.loading = true;
    try {
      const data = await api("/api/hall");
      const version = JSON.stringify(data);
      this.error = null;
      if (version !== this.version && this.alive) {
        this.version = version;
        this.data = data;
        this.render();
      }
    } catch (e) {
      if (this.alive && !this.data) {
        this.error = e;
        this.render();
      }
    } finally {
      this.loading = false;
    }
  }

  render() {
    if (!this.alive) return;
    // (a redraw keeps the nickname typed and the focus on the control it was on, when it is still there)
    const typed = this.root.querySelector("#hall-nickname");
    const focused = focusKey(this.root);
    const d = this.data;
    const section = h("section.hall#hall", { "aria-busy": String(!d && !this.error) });
    section.append(...[
      h("header.hall-head",
        h("div", h("h1", t("hall_title")), h("p.muted", t("hall_intro"))),
        h("p.online#hall-online", d ? t("hall_online", { n: d.online }) : "")),
      h("p.hall-links", h("a", { href: "/" }, "← " + t("hall_back")), " ",
        h("a#hall-leaderboard", { href: "/leaderboard" }, t("lb_title") + " →")),
      currentAccount() ? null
        : h("label.field.hall-nickname", h("span.label", t("nickname")),
          h("input#hall-nickname", { maxlength: "24", value: typed ? typed.value : lastNickname(),
            placeholder: t("nickname_ph"), autocomplete: "nickname" })),
    ].filter(Boolean)); // (Element.append writes a null as the text "null")
    if (this.error) section.appendChild(h("p.error", t("error", { msg: this.error.message })));
    if (d) section.appendChild(this.tables(d.tables || []));
    clear(this.root).appendChild(section);
    const again = focused && this.root.querySelector(focused);
    if (again) again.focus({ preventScroll: true });
  }

  tables(tables) {
    if (!tables.length) return h("p.muted.hall-empty#hall-empty", t("hall_empty"));
    return h("div.hall-list",
      h("h2.sr-only", t("hall_tables")),
      h("ul.hall-tables#hall-tables", tables.map((tb) => this.table(tb))));
  }

  table(tb) {
    const held = storedSeat(tb.code);
    const mine = !!(held && held.token);
    let action;
    if (mine) {
      action = h("a.btn.primary.hall-go", { href: `/?t=${encodeURIComponent(tb.code)}` }, t("hall_your_seat") + " →");
    } else if (tb.status === "waiting" && tb.free > 0) {
      action = h("button.btn.primary.hall-sit", { type: "button", dataset: { code: tb.code },
        "aria-label": t("hall_sit_label", { code: tb.code }), onclick: (e) => this.sit(tb.code, e.target) },
      t("hall_sit"));
    } else {
      action = h("a.btn.hall-watch", { href: `/?t=${encodeURIComponent(tb.code)}&watch=1`, dataset: { code: tb.code },
        "aria-label": t("hall_watch_label", { code: tb.code }) }, icon("eye"), " " + t("watch"));
    }
    return h("li.panel.hall-table", { dataset: { code: tb.code, status: tb.status } },
      h("div.hall-table-head",
        h("h3", t("preset_" + tb.preset)),
        h("span.status-chip.status-" + tb.status, t("status_" + tb.status)),
        tb.free > 0 ? h("span.free-chip", t("hall_free", { n: tb.free })) : null,
        h("span.muted.small", `${t("table_code")} ${tb.code}`)),
      h("ol.hall-seats", tb.seats.map((s) => this.seat(s))),
      h("div.hall-actions", action));
  }

  seat(s) {
    let who;
    if (s.nickname) who = h("span.who" + (s.account ? ".account" : ""), s.nickname);
    else if (s.bot) who = h("span.who.bot", `${t("bot")} · ${botLevel(s.bot)}`);
    else who = h("span.who.free", t("free"));
    return h("li.team" + (s.seat % 2), { dataset: { seat: s.seat } }, who, s.title ? titleChip(s.title) : null);
  }

  /** A free seat (the first the server finds free when the tap arrives). */
  async sit(code, btn) {
    const me = currentAccount();
    const field = this.root.querySelector("#hall-nickname");
    const nickname = me ? me.name : (field ? field.value.trim() : "");
    if (!nickname) {
      toast(t("nickname") + "?", "error");
      if (field) field.focus();
      return;
    }
    btn.disabled = true;
    try {
      const res = await api(`/api/tables/${encodeURIComponent(code)}/join`, { nickname });
      if (!me) rememberNickname(nickname);
      storeSeat(code, { seat: res.seat, token: res.token, nickname });
      this.go(`/?t=${encodeURIComponent(code)}`);
    } catch (e) {
      btn.disabled = false;
      toast(t("error", { msg: e.message }), "error");
      this.version = null;
      this.load();
    }
  }
}

/** Where the keyboard is in the view, as a selector that finds the same control after a redraw. */
function focusKey(root) {
  const el = document.activeElement;
  if (!el || el === document.body || !root.contains(el)) return null;
  if (el.id) return "#" + CSS.escape(el.id);
  if (el.dataset.code) return `.${CSS.escape(el.classList[el.classList.length - 1])}[data-code="${CSS.escape(el.dataset.code)}"]`;
  return null;
}
