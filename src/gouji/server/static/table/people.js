// The people at the table (issue 43): each signed-in player's title under the name (looked up once, cached:
// ratings.js), whether the table is rated (the bar; the waiting panel says it before the start), and for a
// signed-in viewer a small menu on another account's name — its profile, block (its phrases hidden here;
// quick play never seats the two together) or report it to the operator.
// Methods of the live table (table.js mixes them into LiveTable); `this` is the table. The felt calls
// decorateSeats(felt) once drawn, the bar ratedChip(), the phrases speakerHidden(seat).

import { h, toast } from "../dom.js";
import { t } from "../i18n.js";
import "../texts/hall.js";
import { call, currentAccount, loadMe } from "../account.js";
import { ratingOf, titleChip } from "../ratings.js";

const REASON_MAX = 300;

function same(a, b) {
  const key = (s) => String(s || "").normalize("NFKC").toLowerCase();
  return key(a) === key(b);
}

function blocked(name) {
  const me = currentAccount();
  return !!(me && (me.blocks || []).some((b) => same(b, name)));
}

export const peopleMethods = {
  /** An account's seat by its index: its name, or null (a guest's, a bot's, a free seat). */
  accountAt(seat) {
    const s = this.table && this.table.seats && this.table.seats[seat];
    return s && s.account && s.nickname ? s.nickname : null;
  },

  /** Whether a `said` from this seat is hidden: its account is blocked by the viewer. */
  speakerHidden(seat) {
    const name = this.accountAt(seat);
    return !!name && blocked(name);
  },

  /** 计分 / 不计分 in the bar (phones leave it to the waiting panel). */
  ratedChip() {
    if (!this.table || this.table.rated === undefined) return null;
    return h("span.rated-chip" + (this.table.rated ? ".rated" : ".unrated"),
      { title: this.table.rated ? t("rated_help") : t("unrated_guest") }, t(this.table.rated ? "rated" : "unrated"));
  },

  /** The words the waiting panel says about rating, before the start. */
  ratedLine() {
    const seats = (this.table && this.table.seats) || [];
    const guest = seats.some((s) => s.nickname && !s.account);
    const key = this.table.rated ? "rated_help" : guest ? "unrated_guest" : "rated_if";
    return h("div.rated-line#rated-line", { dataset: { rated: String(!!this.table.rated) } }, t(key));
  },

  /** The felt just drawn: titles beside the accounts' names, their names a menu's button, the rated line. */
  decorateSeats(felt) {
    const waiting = felt.querySelector(".center .waiting");
    if (waiting && this.table) waiting.appendChild(this.ratedLine());
    const me = currentAccount();
    for (const el of felt.querySelectorAll(".seat[data-seat]")) {
      const seat = Number(el.dataset.seat);
      const name = this.accountAt(seat);
      const label = el.querySelector(".seat-name");
      if (!name || !label) continue;
      // (on the line under the name, beside the cards' count: a seat is narrow, its name whole)
      const chip = h("span.seat-title");
      const meta = el.querySelector(".seat-meta");
      if (meta) meta.appendChild(chip);
      else label.after(chip);
      ratingOf(name).then((r) => {
        if (r && r.title && chip.isConnected) chip.replaceChildren(titleChip(r.title));
      });
      if (!me || same(me.name, name) || seat === this.seat) continue;
      const btn = h("button.seat-name-btn", { type: "button", dataset: { seat },
        "aria-label": t("pm_menu", { name }), "aria-haspopup": "dialog",
        onclick: () => this.openPeopleMenu(seat) });
      label.replaceWith(btn);
      btn.appendChild(label);
    }
  },

  closePeopleMenu() {
    if (this.peopleMenu) this.peopleMenu.remove();
    this.peopleMenu = null;
    if (this.peopleKeys) document.removeEventListener("keydown", this.peopleKeys);
    this.peopleKeys = null;
  },

  /** The menu on another account's name: profile, block or unblock, report (a reason, then send). */
  openPeopleMenu(seat) {
    this.closePeopleMenu();
    const name = this.accountAt(seat);
    if (!name) return;
    const back = () => {
      const btn = this.root.querySelector(`.seat-name-btn[data-seat='${seat}']`);
      this.closePeopleMenu();
      if (btn) btn.focus();
    };
    const isBlocked = blocked(name);
    const reason = h("textarea#pm-reason", { maxlength: String(REASON_MAX), rows: "3" });
    const reportBox = h("form.pm-report#pm-report", { hidden: true, onsubmit: (e) => { e.preventDefault(); this.report(name, reason.value, back); } },
      h("label.field", h("span.label", t("pm_reason")), reason),
      h("button.btn.primary.small#pm-send", { type: "submit" }, t("pm_send")));
    const menu = h("div.people-menu#people-menu", { role: "dialog", "aria-label": t("pm_menu", { name }) },
      h("p.pm-name", name),
      h("ul",
        h("li", h("a#pm-profile", { href: `/?player=${encodeURIComponent(name)}`, target: "_blank", rel: "noopener" }, t("pm_profile"))),
        h("li", h("button#pm-block", { type: "button", onclick: () => this.block(name, !isBlocked, back) },
          t(isBlocked ? "pm_unblock" : "pm_block"))),
        h("li", h("button#pm-report-open", { type: "button", onclick: () => { reportBox.hidden = false; reason.focus(); } },
          t("pm_report")))),
      reportBox,
      h("button.btn.small#pm-close", { type: "button", onclick: back }, t("close")));
    this.peopleKeys = (e) => {
      if (e.key === "Escape") back();
    };
    document.addEventListener("keydown", this.peopleKeys);
    this.root.querySelector(".table-view").appendChild(menu);
    this.peopleMenu = menu;
    menu.querySelector("button").focus();
  },

  async block(name, on, done) {
    try {
      if (on) await call("POST", "/api/me/blocks", { name });
      else await call("DELETE", `/api/me/blocks/${encodeURIComponent(name)}`);
      await loadMe(); // (the account's blocks, which the phrases read)
      toast(t(on ? "pm_blocked" : "pm_unblocked", { name }));
    } catch (e) {
      toast(t("error", { msg: e.message }), "error");
    }
    done();
  },

  async report(name, reason, done) {
    try {
      await call("POST", "/api/reports", { table: this.code, name, reason: reason.trim().slice(0, REASON_MAX) });
      toast(t("pm_reported"));
    } catch (e) {
      toast(t("error", { msg: e.message }), "error");
    }
    done();
  },
};
