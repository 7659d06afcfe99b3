// What covers the table: the end-of-deal summary (places, why, tribute, ready), help, settings and confirmations.
// Methods of the live table (table.js mixes them into LiveTable); `this` is the table.

import { h, clear, api } from "../dom.js";
import { t, getLang, setLang } from "../i18n.js";
import { describeEvent, teamName, placeName, teamOf } from "../render.js";
import { TERMS, term, termHelp } from "../glossary.js";

import { savePrefs } from "./common.js";

import { tributeReason } from "./tribute.js";
import "../texts/review.js";

export const overlayMethods = {
  renderOverlay() {
    clear(this.overlay);
    if (this.confirming || this.helpOpen || this.settingsOpen || this.phrasesOpen) {
      const box = this.confirming ? this.confirmBox() : this.helpOpen ? this.helpBox()
        : this.settingsOpen ? this.settingsBox() : this.phrasesBox();
      this.overlay.appendChild(h("div.backdrop", box));
      (box.querySelector("#confirm-cancel, #help-close, #settings-close, #phrases-close") || box).focus();
      return;
    }
    const s = this.summary;
    if (!s) return;
    const dup = this.table && this.table.duplicate;
    const pp = dup ? [6, 5, 4, 3, 2, 1] : (this.rules && this.rules.place_points) || [4, 2, 0, 0, -2, -4];
    const why = this.placeReasons(s);
    const placeRows = (s.places || []).map((seat, i) =>
      h("li.team" + teamOf(seat), h("span.place.place" + i, placeName(i)), h("span.who", this.name(seat)),
        h("span.why", why[seat] || ""),
        h("span.pts", s.sweep === null || s.sweep === undefined ? (pp[i] > 0 ? "+" : "") + pp[i] : "")));
    // each tribute with why it is owed (闷, 烧, 点, 落, 串三户), then what was given back (还贡)
    const nameOf = (x) => this.name(x);
    const tribute = s.tribute.filter((e) => e.type === "tribute").map((e) =>
      h("li.tribute-row", { dataset: { kind: e.kind } }, describeEvent(e, nameOf, { setup: true, me: this.seat }),
        h("span.tribute-why", tributeReason(e, s.events || [], s.places, nameOf))));
    for (const e of s.tribute.filter((x) => x.type === "tribute_return")) {
      tribute.push(h("li.tribute-row.returned", describeEvent(e, nameOf, { setup: true, me: this.seat })));
    }
    const tot = this.sideTotals(s.totals);
    const box = h("div.summary", { role: "dialog", "aria-modal": "true", tabindex: "-1",
      "aria-label": s.last ? t("set_over") : t("deal_over", { n: s.deal + 1 }) },
      h("h2", s.last ? t("set_over") : t("deal_over", { n: s.deal + 1 })),
      s.sweep !== null && s.sweep !== undefined ? h("p.sweep", t("sweep", { team: teamName(s.sweep) })) : null,
      h("ol.places", placeRows),
      s.points ? h("p.deal-points", t("points") + ": ", h("span.team-dot.team0"), `${teamName(0)} ${s.points[0]}`, " · ",
        h("span.team-dot.team1"), `${teamName(1)} ${s.points[1]}`) : null,
      !s.last && !dup ? h("div.tribute", h("h3", t("tribute_next")), tribute.length ? h("ul", tribute) : h("p.muted", t("no_tribute"))) : null,
      h("p.totals#summary-totals", t(dup ? "match_totals" : "totals") + ": ", h("span.team-dot.team0"), `${teamName(0)} ${tot[0]}`, " · ",
        h("span.team-dot.team1"), `${teamName(1)} ${tot[1]}`),
      dup ? h("p.dup-wait#dup-wait", dup.waiting ? t("dup_waiting_other") : t("dup_other_done")) : null,
      s.last && !dup ? h("p.winner", tot[0] === tot[1] ? t("draw") : t("winner", { team: teamName(tot[0] > tot[1] ? 0 : 1) })) : null,
      s.last && dup && dup.match_points ? h("p.winner", t("dup_match_points") + `: ${dup.teams[0]} ${dup.match_points[0]} : ${dup.match_points[1]} ${dup.teams[1]}`) : null,
      s.last && dup ? h("a.chip", { href: `/?match=${dup.match}`, id: "dup-scorekeeper-link" }, t("dup_scorekeeper")) : null,
      s.last && !dup ? this.replayLinks() : null,
      !s.last && this.info ? h("div.replay-links", h("a.chip", { href: `/?replay=live&t=${this.code}&deal=${s.deal}`,
        dataset: { link: "replay-live" } }, t("replay_live", { n: s.deal + 1 })),
        h("a.chip", { href: `/?replay=live&t=${this.code}&deal=${s.deal}&review=${this.seat}`,
          dataset: { link: "review-live" } }, t("review_deal", { n: s.deal + 1 }))) : null,
      !s.last ? this.readyPanel() : null,
      h("div.prompt-btns", this.continueButton(s)),
    );
    this.overlay.appendChild(h("div.backdrop", box));
    if (this.focusedSummary !== s) {
      this.focusedSummary = s;
      box.focus();
    }
    this.tick();
  },

  /** Why each seat placed where it did: seat → one line (went out Nth, smothered by whom, 诈烧, 革命, or
   * still holding cards when the deal ended), from the deal's events or the table's last_deal. */
  placeReasons(s) {
    const out = {};
    const ld = s.lastDeal && s.lastDeal.deal === s.deal ? s.lastDeal : null;
    const evs = s.events || [];
    const outs = ld ? ld.out_order : evs.filter((e) => e.type === "out").map((e) => e.seat);
    const smothered = ld ? ld.smothered : evs.filter((e) => e.type === "smothered").map((e) => [e.seat, e.by]);
    const failed = ld ? ld.failed_burns : evs.filter((e) => e.type === "burn_failed").map((e) => e.seat);
    const revolted = ld ? ld.revolted : evs.filter((e) => e.type === "revolution").map((e) => e.seat);
    if (!ld && !evs.length) return out;
    outs.forEach((seat, i) => (out[seat] = t("why_out", { n: i + 1, nth: t("ord_" + (i + 1)) })));
    for (const [seat, by] of smothered) out[seat] = t("why_smothered", { by: this.name(by) });
    for (const seat of failed) out[seat] = t("why_failed_burn");
    for (const seat of revolted) out[seat] = t("why_revolted");
    for (const seat of s.places || []) if (!out[seat]) out[seat] = t("why_held");
    return out;
  },

  /** Between two deals: who is ready for the next deal (✓) and the time left. */
  readyPanel() {
    const gate = this.table && this.table.ready;
    if (!gate) return null;
    const seats = (gate.seats || []).map((ok, seat) =>
      h("li.ready-seat" + (ok ? ".ok" : ""), { dataset: { seat, ready: ok ? "1" : "0" } },
        h("span.mark", ok ? "✓" : "…"), " " + this.name(seat)));
    return h("div.ready-gate",
      h("h3", t("ready_title"),
        gate.deadline ? h("span.ready-countdown", { dataset: { deadline: gate.deadline } }) : null),
      h("ul.ready-seats", seats));
  },

  continueButton(s) {
    const close = () => { this.summary = null; this.renderOverlay(); };
    if (s.last) return h("button.btn.primary", { type: "button", id: "summary-continue", onclick: close }, t("close"));
    const gate = this.table && this.table.ready;
    const mine = this.seat !== null && this.info;
    if (!gate || !mine) {
      // play goes on already, or a spectator: the button only closes the summary
      return h("button.btn.primary", { type: "button", id: "summary-continue", onclick: close },
        gate ? t("close") : t("continue"));
    }
    const done = !!gate.seats[this.seat] || this.readySent;
    return h("button.btn.primary", {
      type: "button", id: "summary-continue", disabled: done,
      onclick: () => {
        if (this.send({ type: "ready", token: this.info.token, id: "r" + ++this.msgId })) {
          this.readySent = true;
          this.renderOverlay();
        }
      },
    }, done ? t("ready_waiting") : t("continue"));
  },

  replayLinks() {
    const holder = h("div.replay-links");
    api(`/api/tables/${this.code}/games`).then((res) => {
      const games = res.games || [];
      const set = games.find((g) => g.kind === "set");
      const n = (this.table.points || []).length;
      for (let i = 0; i < n; i++) {
        const rec = set || games.find((g) => g.kind === "deal" && g.deal === i);
        if (!rec) continue;
        holder.appendChild(h("a.chip", { href: `/?replay=${rec.id}&deal=${i}`, dataset: { link: "replay" } }, t("replay_deal", { n: i + 1 })));
        if (i === n - 1 && this.seat !== null) { // the deal just over, reviewed for this seat (复盘)
          holder.appendChild(h("a.chip", { href: `/?replay=${rec.id}&deal=${i}&review=${this.seat}`, dataset: { link: "review" } },
            t("review_deal", { n: i + 1 })));
        }
      }
    }, () => {});
    return holder;
  },

  helpBox() {
    const rows = [["keys_select", "3–9 0 J Q K A 2 X D"], ["keys_fewer", "Shift + …"], ["keys_play", "Enter"],
      ["keys_pass", "P"], ["keys_yield", "Y"], ["keys_hint", "H"], ["keys_clear", "Esc"], ["keys_help", "?"]];
    const gestures = ["g_click", "g_again", "g_double", "g_special", "g_fewer", "g_long", "g_suggest", "g_pass"];
    return h("div.summary.help#help", { role: "dialog", "aria-label": t("keys_title"), tabindex: "-1" },
      h("h2", t("keys_title")),
      h("p", t("keys_mouse")),
      h("ul.gestures#gestures", gestures.map((k) => h("li", { dataset: { gesture: k } }, t(k)))),
      h("p", t("keys_keyboard")),
      h("table.keys", h("tbody", rows.map(([k, v]) => h("tr", h("th", h("kbd", v)), h("td", t(k)))))),
      h("h3", t("help_terms")),
      h("dl.terms#terms", Object.keys(TERMS).map((id) => [h("dt", { dataset: { term: id } }, term(id, getLang())),
        h("dd", termHelp(id, getLang()))])),
      h("div.prompt-btns", h("button.btn.primary", { type: "button", id: "help-close",
        onclick: () => this.toggleHelp() }, t("close"))));
  },

  confirmBox() {
    const c = this.confirming;
    return h("div.summary.confirm#confirm", { role: "alertdialog", "aria-label": c.what, tabindex: "-1" },
      h("h2", t("confirm_title")), h("p", c.what), h("p.price", c.price),
      h("div.prompt-btns",
        h("button.btn#confirm-cancel", { type: "button", onclick: () => { this.confirming = null; this.renderOverlay(); } }, t("cancel")),
        h("button.btn.danger#confirm-ok", { type: "button", onclick: () => this.act(c.action, true) }, t("confirm_anyway"))));
  },

  settingsBox() {
    const box = h("div.summary.settings#settings", { role: "dialog", "aria-label": t("settings"), tabindex: "-1" },
      h("h2", t("settings")),
      h("label.check", h("input#pref-sound", { type: "checkbox", checked: this.prefs.sound,
        onchange: (e) => { this.prefs.sound = e.target.checked; savePrefs(this.prefs); if (this.prefs.sound) this.sounds.play(); } }),
      " " + t("pref_sound")),
      h("label.check", h("input#pref-ask-single", { type: "checkbox", checked: this.prefs.askSingle,
        onchange: (e) => {
          this.prefs.askSingle = e.target.checked;
          savePrefs(this.prefs);
          if (this.info && this.info.token) this.send({ type: "prefs", ask_single: this.prefs.askSingle, token: this.info.token });
        } }),
      " " + t("pref_ask_single")),
      h("p.muted.small", t("pref_ask_single_help")),
      h("label.check", h("input#pref-suggest", { type: "checkbox", checked: this.prefs.suggest,
        onchange: (e) => { this.prefs.suggest = e.target.checked; savePrefs(this.prefs); } }),
      " " + t("pref_suggest")),
      h("label.check", h("input#pref-burn-chance", { type: "checkbox", checked: this.prefs.burnChanceOnly,
        onchange: (e) => { this.prefs.burnChanceOnly = e.target.checked; savePrefs(this.prefs); } }),
      " " + t("pref_burn_chance")),
      h("p.muted.small", t("pref_burn_chance_help")),
      h("div.prompt-btns",
        h("button.btn#settings-link", { type: "button", onclick: () => this.copyLink() }, t("copy_link")),
        h("button.btn#settings-help", { type: "button",
          onclick: () => { this.settingsOpen = false; this.toggleHelp(); } }, t("keys_title")),
        h("button.btn#settings-lang", { type: "button", onclick: () => setLang(getLang() === "zh" ? "en" : "zh") }, t("menu_lang")),
        h("button.btn.primary#settings-close", { type: "button",
        onclick: () => { this.settingsOpen = false; this.renderOverlay(); } }, t("close"))));
    return box;
  },

  toggleHelp() {
    this.helpOpen = !this.helpOpen;
    this.renderBar();
    this.renderOverlay();
  },
};
