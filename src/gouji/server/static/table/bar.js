// The table's bar (deal, score, 托管, settings, help, leave), the banners and the waiting panel.
// Methods of the live table (table.js mixes them into LiveTable); `this` is the table.

import { icon } from "../icons.js";
import { h, clear, api, toast, storeSeat } from "../dom.js";
import { t } from "../i18n.js";
import { teamName } from "../render.js";
import { duplicateBanner } from "../tourney.js";

import { autoMoves } from "./state.js";
import { savePrefs } from "./common.js";

export const barMethods = {
  /** While 托管 plays this seat: how many moves it made for the player, and one tap to take the seat back. */
  renderAutoReturn() {
    if (!this.autoEl) {
      // made once and updated in place (frames come fast while 托管 plays): the button stays the same one
      this.autoText = h("span.auto-text");
      this.autoEl = h("div.auto-return#auto-return", { role: "status", hidden: true }, this.autoText,
        h("button.btn.primary.small#auto-take-back", { type: "button",
          onclick: () => { this.autoAsked = false; this.send({ type: "auto", on: false, token: this.info.token }); } },
        t("auto_take_back")));
      this.banner.after(this.autoEl);
    }
    const me = this.seat !== null && this.table && this.table.seats ? this.table.seats[this.seat] : null;
    const on = !!(me && me.auto && this.info);
    this.autoEl.hidden = !on;
    this.autoText.textContent = on ? t("auto_played", { n: autoMoves(this.state) }) : "";
    this.autoEl.querySelector("#auto-take-back").textContent = t("auto_take_back");
  },


  /** Each side's score: the set's totals; at a duplicate match's table the match's (the deals both tables
   * finished, as the scorekeeper counts them), each side's team's — never this table's points alone. */
  sideTotals(tableTotals) {
    const dup = this.table && this.table.duplicate;
    if (dup && dup.totals) return [0, 1].map((k) => dup.totals[dup.table === 1 ? 1 - k : k]);
    return tableTotals || [0, 0];
  },

  renderBar() {
    const tb = this.table;
    const cfg = this.config || {};
    const pts = this.sideTotals(tb.totals);
    const setLen = cfg.set_length || 1;
    const mySeat = this.seat;
    const auto = mySeat !== null && tb.seats && tb.seats[mySeat] && tb.seats[mySeat].auto;
    clear(this.bar);
    this.bar.append(
      h("div.bar-left",
        h("span.code", { title: t("table_code") }, t("table_code") + " ", h("b", tb.code)),
        h("span.preset", t("preset_" + (cfg.preset || (this.rules && this.rules.name) || "qingdao"))),
        this.ratedChip(),
        h("span.deal-no", t("deal_of", { n: Math.min(this.deal + 1, setLen), m: setLen })),
        h("span.score", [0, 1].map((k) => [k ? h("span.sep", ":") : null,
          h("span.score-side.team" + k, h("span.team-dot.team" + k),
            h("span.side-name", { title: teamName(k) }, teamName(k)), h("span.pts", String(pts[k])))])),
        this.seat === null ? h("span.watching", icon("eye"), " " + t("watching")) : null,
      ),
      h("div.bar-right",
        h("button.chip.sheet-btn#sheet-btn", { type: "button", title: t("sheet_title"),
          "aria-expanded": this.sheetOpen ? "true" : "false", onclick: () => this.toggleSheet() }, t("sheet_btn")),
        h("button.chip.link-chip", { type: "button", title: t("copy_link"), "aria-label": t("copy_link"), onclick: () => this.copyLink() },
          icon("link"), h("span.label-text", " " + t("copy_link"))),
        mySeat !== null && this.info
          ? h("button.chip" + (auto ? ".on" : ""), {
              type: "button", id: "auto-btn", title: t("auto_title"),
              onclick: () => { this.autoAsked = !auto; this.send({ type: "auto", on: !auto, token: this.info.token }); },
            }, auto ? t("auto_on") : t("auto_off"))
          : null,
        mySeat !== null && this.info && !(this.table && this.table.duplicate) ? h("button.chip#phrase-btn", { type: "button", title: t("phrases"),
          "aria-label": t("phrases"), onclick: () => { this.phrasesOpen = true; this.renderOverlay(); } }, icon("chat")) : null,
        h("button.chip#mute-btn", { type: "button", "aria-pressed": this.prefs.sound ? "false" : "true",
          "aria-label": t(this.prefs.sound ? "mute" : "unmute"), title: t(this.prefs.sound ? "mute" : "unmute"),
          onclick: () => {
            this.prefs.sound = !this.prefs.sound;
            savePrefs(this.prefs);
            if (this.prefs.sound) this.sounds.unlock();
            this.renderBar();
          } }, icon(this.prefs.sound ? "sound" : "mute")),
        h("button.chip", { type: "button", id: "settings-btn", title: t("settings"),
          onclick: () => { this.settingsOpen = !this.settingsOpen; this.renderOverlay(); } }, "⚙"),
        h("button.chip", { type: "button", id: "help-btn", title: t("keys_title"), "aria-expanded": this.helpOpen ? "true" : "false",
          onclick: () => this.toggleHelp() }, "?"),
        h("button.chip", { type: "button", onclick: () => this.leave() }, t(this.info ? "leave" : "lobby")),
      ),
    );
  },

  copyLink() {
    const link = `${location.origin}/?t=${this.code}`;
    const done = () => toast(t("link_copied") + ": " + link);
    if (navigator.clipboard && window.isSecureContext) navigator.clipboard.writeText(link).then(done, done);
    else done();
  },

  async leave() {
    if (this.info && this.table && this.table.status === "playing" && !confirm(t("leave") + "?")) return;
    if (this.info) {
      try {
        await api(`/api/tables/${this.code}/leave`, { token: this.info.token });
      } catch {
        /* the seat may be gone already */
      }
      storeSeat(this.code, null);
    }
    this.onExit();
  },

  /** A table of a duplicate match: which match and team, and while it waits for the other table, that. */
  renderDuplicate() {
    const dup = this.table && this.table.duplicate;
    if (!this.dupEl) {
      this.dupEl = h("div.dup-banner#dup-banner", { hidden: true });
      this.banner.after(this.dupEl);
    }
    const text = duplicateBanner(dup);
    this.dupEl.hidden = !text;
    this.dupEl.textContent = text || "";
    this.dupEl.title = text || "";
    this.dupEl.classList.toggle("waiting", !!(dup && dup.waiting));
  },

  setBanner(text) {
    this.banner.hidden = !text;
    this.banner.textContent = text || "";
  },

  waitingPanel() {
    return h("div.waiting",
      h("div.big", t("waiting_players")),
      h("div", t("share_code", { code: this.code })),
      h("div.code-big", this.code));
  },
};
