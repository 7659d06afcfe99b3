// Quick phrases (server/phrases.py): a fixed set, sent with `say`, shown at the speaker's seat for a few
// seconds in this page's language — or not at all when this viewer muted them (a setting of this browser).
// Methods of the live table (table.js mixes them into LiveTable); `this` is the table.

import { h, toast } from "../dom.js";
import { t } from "../i18n.js";

export const PHRASES = ["nice", "thanks", "hurry", "oops", "sorry", "wow", "well_played", "gg"];
const MUTE_KEY = "gouji.mutePhrases";
const SHOW_MS = 3000;

export const phrasesMethods = {
  phrasesMuted() {
    return localStorage.getItem(MUTE_KEY) === "1";
  },

  /** The phrases box: one button a phrase, and this viewer's mute. */
  phrasesBox() {
    const close = () => { this.phrasesOpen = false; this.renderOverlay(); };
    return h("div.summary.phrases#phrases", { role: "dialog", "aria-label": t("phrases"), tabindex: "-1" },
      h("h2", t("phrases")),
      h("div.phrase-grid", PHRASES.map((p) => h("button.btn.phrase", { type: "button", dataset: { phrase: p },
        disabled: !this.info, onclick: () => { this.say(p); close(); } }, t("ph_" + p)))),
      h("label.check", h("input#mute-phrases", { type: "checkbox", checked: this.phrasesMuted(),
        onchange: (e) => localStorage.setItem(MUTE_KEY, e.target.checked ? "1" : "0") }), " " + t("phrases_mute")),
      h("div.prompt-btns", h("button.btn.primary#phrases-close", { type: "button", onclick: close }, t("close"))));
  },

  say(phrase) {
    if (this.info) this.send({ type: "say", phrase, token: this.info.token, id: "s" + ++this.msgId });
  },

  /** A `said` frame: the phrase at its seat for a few seconds (unless muted here). */
  onSaid(f) {
    if (this.phrasesMuted() || this.speakerHidden(f.seat) || !PHRASES.includes(f.phrase)) return; // (blocked: people.js)
    const text = t("ph_" + f.phrase);
    this.announce(`${this.name(f.seat)}: ${text}`);
    const seat = this.feltHolder.querySelector(`.seat[data-seat='${f.seat}']`);
    if (!seat) return toast(`${this.name(f.seat)}: ${text}`);
    const bubble = h("div.said", { dataset: { phrase: f.phrase } }, text);
    seat.appendChild(bubble);
    setTimeout(() => bubble.remove(), SHOW_MS);
  },
};
