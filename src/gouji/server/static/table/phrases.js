// Quick phrases and reactions (server/phrases.py): a fixed set of phrases and one of emotes, both sent with
// `say`; a phrase is shown at the speaker's seat for a few seconds in this page's language, an emote as a small
// animated picture (still under prefers-reduced-motion) — either not at all when this viewer muted that kind
// (settings of this browser). A duplicate match's table offers neither (its rules forbid talking).
// Methods of the live table (table.js mixes them into LiveTable); `this` is the table.

import { h, toast } from "../dom.js";
import { t } from "../i18n.js";

export const PHRASES = ["nice", "thanks", "hurry", "oops", "sorry", "wow", "well_played", "gg"];
// the emotes and their pictures: symbols every system's fonts draw (no colour-emoji font needed)
export const EMOTES = { heart: "♥", smile: "☺", sad: "☹", star: "★", flower: "✿", victory: "✌" };
const MUTE_KEY = "gouji.mutePhrases";
const MUTE_EMOTES_KEY = "gouji.muteEmotes";
const SHOW_MS = 3000;

export const phrasesMethods = {
  phrasesMuted() {
    return localStorage.getItem(MUTE_KEY) === "1";
  },

  emotesMuted() {
    return localStorage.getItem(MUTE_EMOTES_KEY) === "1";
  },

  /** The phrases box: one button a phrase, one an emote, and this viewer's mutes. */
  phrasesBox() {
    const close = () => { this.phrasesOpen = false; this.renderOverlay(); };
    const mute = (id, key, checked, label) => h("label.check", h("input#" + id, { type: "checkbox", checked,
      onchange: (e) => localStorage.setItem(key, e.target.checked ? "1" : "0") }), " " + t(label));
    return h("div.summary.phrases#phrases", { role: "dialog", "aria-label": t("phrases"), tabindex: "-1" },
      h("h2", t("phrases")),
      h("div.emote-grid#emotes", Object.entries(EMOTES).map(([id, pic]) => h("button.btn.emote-btn", { type: "button",
        dataset: { emote: id }, title: t("em_" + id), "aria-label": t("em_" + id), disabled: !this.info,
        onclick: () => { this.say(id); close(); } }, h("span.emote-pic", { "aria-hidden": "true" }, pic)))),
      h("div.phrase-grid", PHRASES.map((p) => h("button.btn.phrase", { type: "button", dataset: { phrase: p },
        disabled: !this.info, onclick: () => { this.say(p); close(); } }, t("ph_" + p)))),
      mute("mute-phrases", MUTE_KEY, this.phrasesMuted(), "phrases_mute"),
      mute("mute-emotes", MUTE_EMOTES_KEY, this.emotesMuted(), "emotes_mute"),
      h("div.prompt-btns", h("button.btn.primary#phrases-close", { type: "button", onclick: close }, t("close"))));
  },

  say(phrase) {
    if (this.info) this.send({ type: "say", phrase, token: this.info.token, id: "s" + ++this.msgId });
  },

  /** A `said` frame: the phrase or the emote at its seat for a few seconds (unless muted here). */
  onSaid(f) {
    if (this.speakerHidden(f.seat)) return; // (a blocked account's: people.js)
    const emote = f.kind === "emote" || f.phrase in EMOTES;
    if (emote ? this.emotesMuted() || !(f.phrase in EMOTES) : this.phrasesMuted() || !PHRASES.includes(f.phrase)) return;
    const text = t((emote ? "em_" : "ph_") + f.phrase);
    this.announce(`${this.name(f.seat)}: ${text}`);
    const seat = this.feltHolder.querySelector(`.seat[data-seat='${f.seat}']`);
    if (!seat) return toast(`${this.name(f.seat)}: ${text}`);
    const bubble = emote
      ? h("div.said.emote", { dataset: { emote: f.phrase }, title: text },
        h("span.emote-pic", { "aria-hidden": "true" }, EMOTES[f.phrase]))
      : h("div.said", { dataset: { phrase: f.phrase } }, text);
    seat.appendChild(bubble);
    setTimeout(() => bubble.remove(), SHOW_MS);
  },
};
