// Quick play (快速开始, issue 43): the lobby's panel — a preset, whether bots may fill, one button; for a guest,
// one line and a link to sign in — and the queue's view at /quickplay?preset=P&bots=1: the time waited and a
// button to leave. The view asks its ticket every second; once seated it keeps the seat's token as every seat
// is kept (dom.js) and opens the table. The queue survives no restart of the server: a ticket it no longer
// knows is said, and queued again once. A ticket is this tab's (sessionStorage): a reload keeps its place;
// leaving the view leaves the queue.

import { h, clear, storeSeat } from "./dom.js";
import { t, onLangChange } from "./i18n.js";
import "./texts/hall.js";
import { call, currentAccount, accountKnown, onAccountChange } from "./account.js";

const TICKET_KEY = "gouji.quickplay";
const POLL_MS = 1000;

/** The lobby's quick play panel (the hall's and the leaderboard's links with it); it follows who is signed
 * in while it is on the page. */
export function quickPlayPanel(go, presets) {
  const panel = h("div.panel.quickplay#quickplay");
  const draw = () => {
    clear(panel).append(h("h2", t("qp_title")), ...panelBody(go, presets),
      h("p.hall-links", h("a#hall-link", { href: "/hall" }, t("hall_title") + " →"), " ",
        h("a#leaderboard-link", { href: "/leaderboard" }, t("lb_title") + " →")));
  };
  const off = onAccountChange(() => (panel.isConnected ? draw() : off()));
  draw();
  return panel;
}

function panelBody(go, presets) {
  if (accountKnown() && !currentAccount()) {
    return [h("p.muted", t("qp_guest"), " ", h("a#qp-sign-in", { href: "/?account=signin" }, t("acc_sign_in")))];
  }
  const preset = h("select#qp-preset", { name: "qp_preset" },
    presets.order.map((n) => h("option", { value: n }, t("preset_" + n))));
  const bots = h("input#qp-bots", { type: "checkbox", name: "qp_bots", checked: true });
  const form = h("form#quickplay-form", { onsubmit: (e) => {
    e.preventDefault();
    go(`/quickplay?preset=${encodeURIComponent(preset.value)}&bots=${bots.checked ? 1 : 0}`);
  } },
  h("p.muted", t("qp_intro")),
  h("label.field", h("span.label", t("preset")), preset),
  h("label.check", bots, t("qp_bots")),
  h("button.btn.primary#qp-start", { type: "submit" }, t("qp_start")));
  return [form];
}

function stored() {
  try {
    return JSON.parse(sessionStorage.getItem(TICKET_KEY) || "null");
  } catch {
    return null;
  }
}

function keep(value) {
  if (value) sessionStorage.setItem(TICKET_KEY, JSON.stringify(value));
  else sessionStorage.removeItem(TICKET_KEY);
}

/** m:ss */
function clock(ms) {
  const s = Math.max(0, Math.floor(ms / 1000));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

export class QueueView {
  constructor(root, { go, preset, bots }) {
    this.root = root;
    this.go = go;
    this.preset = preset || "qingdao";
    this.bots = bots;
    this.ticket = null;
    this.since = Date.now();
    this.notice = null; // a line above the clock: the queue restarted
    this.problem = null; // why the view cannot queue: "guest", "busy", "again" or an error's words
    this.requeued = false;
    this.alive = true;
    this.unLang = onLangChange(() => this.render());
    this.unAccount = onAccountChange(() => this.begin());
    this.timer = setInterval(() => this.tick(), POLL_MS);
    if (accountKnown()) this.begin();
    else this.render();
  }

  destroy() {
    this.alive = false;
    clearInterval(this.timer);
    this.unLang();
    this.unAccount();
    if (this.ticket) {
      // (leaving the view leaves the queue)
      call("DELETE", `/api/quickplay/${encodeURIComponent(this.ticket)}`).catch(() => {});
      keep(null);
    }
  }

  /** Queue (or go on with this tab's ticket for the same preset). */
  async begin() {
    if (!this.alive || !accountKnown() || this.ticket || this.queueing) return this.render();
    if (!currentAccount()) {
      this.problem = "guest";
      return this.render();
    }
    const mine = stored();
    if (mine && mine.preset === this.preset && mine.bots === this.bots) {
      Object.assign(this, { ticket: mine.ticket, since: mine.since, problem: null });
      return this.render();
    }
    await this.queue();
  }

  async queue() {
    this.queueing = true;
    this.problem = null;
    try {
      const res = await call("POST", "/api/quickplay", { preset: this.preset, bots: this.bots });
      if (!this.alive) {
        call("DELETE", `/api/quickplay/${encodeURIComponent(res.ticket)}`).catch(() => {});
        return;
      }
      this.ticket = res.ticket;
      this.since = Date.now();
      keep({ ticket: this.ticket, preset: this.preset, bots: this.bots, since: this.since });
    } catch (e) {
      this.problem = e.status === 401 ? "guest" : e.status === 409 ? "busy" : e.message;
    } finally {
      this.queueing = false;
    }
    this.render();
  }

  /** Every second: the clock, and the ticket asked. */
  async tick() {
    this.drawClock();
    if (!this.ticket || this.asking) return;
    this.asking = true;
    try {
      const res = await call("GET", `/api/quickplay/${encodeURIComponent(this.ticket)}`);
      if (this.alive && res.status === "seated") this.seated(res);
    } catch (e) {
      if (this.alive && e.status === 404) this.restarted();
    } finally {
      this.asking = false;
    }
  }

  seated(res) {
    const me = currentAccount();
    storeSeat(res.table, { seat: res.seat, token: res.token, nickname: me ? me.name : "" });
    this.ticket = null;
    keep(null);
    this.go(`/?t=${encodeURIComponent(res.table)}`, true);
  }

  /** The server knows the ticket no more (it restarted): said, and queued again — once. */
  restarted() {
    this.ticket = null;
    keep(null);
    if (this.requeued) {
      this.notice = null;
      this.problem = "again";
      return this.render();
    }
    this.requeued = true;
    this.notice = t("qp_restarted");
    this.queue();
  }

  async leave() {
    const ticket = this.ticket;
    this.ticket = null;
    keep(null);
    if (ticket) await call("DELETE", `/api/quickplay/${encodeURIComponent(ticket)}`).catch(() => {});
    this.go("/");
  }

  drawClock() {
    const el = this.root.querySelector("#qp-clock");
    if (el) el.textContent = t("qp_waited", { time: clock(Date.now() - this.since) });
  }

  render() {
    if (!this.alive) return;
    const section = h("section.quickplay-view#queue-view", { "aria-busy": String(!this.ticket && !this.problem) });
    clear(this.root).appendChild(section);
    section.appendChild(h("h1", t("qp_title")));
    section.appendChild(h("p.muted", `${t("preset_" + this.preset)} · ${this.bots ? t("qp_bots") : t("qp_people_only")}`));
    if (this.problem) return section.appendChild(this.problemPanel());
    if (this.notice) section.appendChild(h("p.notice#qp-notice", { role: "status" }, this.notice));
    section.append(
      h("div.panel.queue-panel",
        h("div.queue-spinner", { "aria-hidden": "true" }),
        h("p.big#qp-state", t("qp_waiting")),
        h("p.clock#qp-clock", { role: "timer", "aria-live": "off" }, t("qp_waited", { time: clock(Date.now() - this.since) })),
        h("p.muted", this.bots ? t("qp_how_bots") : t("qp_how_people")),
        h("p.muted", t("qp_rated")),
        h("button.btn.big#qp-leave", { type: "button", onclick: () => this.leave() }, t("qp_leave"))));
  }

  problemPanel() {
    const words = { guest: t("qp_guest"), busy: t("qp_busy"), again: t("qp_restarted_again") }[this.problem]
      || t("error", { msg: this.problem });
    return h("div.panel.queue-panel",
      h("p.error#qp-problem", words),
      this.problem === "guest" ? h("p", h("a#qp-sign-in", { href: "/?account=signin" }, t("acc_sign_in"))) : null,
      this.problem === "guest" || this.problem === "busy" ? null
        : h("button.btn.primary#qp-again", { type: "button", onclick: () => { this.requeued = false; this.queue(); } }, t("qp_again")),
      h("p", h("a", { href: "/" }, "← " + t("acc_back"))));
  }
}
