// The 复盘 review beside a replay: asked of the server (which works it out in a worker process), asked again
// until it is done, the mistakes found so far shown as they come — marked on the replay's timeline, listed to
// jump to, and at a mistake's step the better play on the cards with the sentence of what it changes.

import { h, api } from "./dom.js";
import { t } from "./i18n.js";
import { playCards } from "./cards.js";
import { actionCards, actionText, mistakes, reasonSentence, unitText } from "./review_text.js";

const POLL_MS = 1000;

/** One review being asked for: `path` (and `body`, a table's) polled until done; `onChange` after each answer. */
export class ReviewRun {
  constructor(path, body, onChange) {
    this.path = path;
    this.body = body;
    this.onChange = onChange;
    this.state = { state: "pending", found: [], total: null };
    this.error = null;
    this.timer = null;
    this.stopped = false;
    this.poll();
  }

  async poll() {
    this.timer = null;
    let wait = POLL_MS;
    try {
      this.state = await api(this.path, this.body);
      this.error = null;
    } catch (e) {
      this.error = e;
      if (e.status === 429) wait = 1000 * (e.retryAfter || 2); // (the seat's reads: ask again a little later)
    }
    if (this.stopped) return;
    this.onChange();
    const again = this.state.state === "pending" && (!this.error || this.error.status === 429);
    if (again) this.timer = setTimeout(() => this.poll(), wait);
  }

  retry() {
    this.error = null;
    this.onChange();
    this.poll();
  }

  stop() {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
  }

  get done() {
    return this.state.state === "done";
  }

  get review() {
    return this.done ? this.state.review : null;
  }

  /** The decisions found so far (all of them once done). */
  get decisions() {
    return this.done ? this.state.review.decisions : this.state.found || [];
  }
}

/** The marks of the mistakes on the replay's timeline (`n` steps): decoration beside the slider; the list of
 * the review's box is what a keyboard or a finger uses. */
export function reviewMarks(run, n) {
  const marks = mistakes(run.decisions).map((m) =>
    h("span.review-mark", { style: { left: `${(100 * m.step) / Math.max(1, n - 1)}%` }, dataset: { step: m.step } }));
  return h("div.review-marks", { "aria-hidden": "true" }, marks);
}

/** The review's box: whose, how far (a progress bar while it runs), its mistakes to jump to, the caveat. */
export function reviewBox(run, { who, unit, step, go }) {
  const found = mistakes(run.decisions);
  const s = run.state;
  let status;
  if (run.error && run.error.status !== 429) {
    status = h("div.review-error", { role: "alert" }, run.error.message,
      h("button.chip", { type: "button", onclick: () => run.retry() }, t("review_retry")));
  } else if (!run.done) {
    const text = s.total ? t("review_running", { done: (s.found || []).length, total: s.total }) : t("review_waiting");
    status = h("div.review-progress", { role: "status" }, h("span", text),
      h("progress", { max: String(s.total || 1), value: String((s.found || []).length), "aria-label": text }));
  } else {
    const r = run.review;
    status = h("p.review-summary", { role: "status" }, found.length
      ? t("review_done", { n: r.decisions.length, m: r.mistakes, lost: r.lost, unit: unitText(r.unit) })
      : t("review_none", { n: r.decisions.length }));
  }
  const list = h("ol.review-list", found.map((m) => h("li",
    h("button.chip" + (m.step === step ? ".on" : ""), {
      type: "button", dataset: { step: m.step }, "aria-current": m.step === step ? "step" : null,
      onclick: () => go(m.step),
    }, t("review_mistake_at", { step: m.step, gain: m.gain, unit: unitText(unit) })))));
  return h("section.review-box#rp-review-box", { "aria-label": t("review_title", { name: who }) },
    h("h2", t("review_title", { name: who })), status, list, h("p.review-caveat", t("review_note")));
}

/** At a mistake's step: what was played, the better play on the cards, and what it would have changed. */
export function reviewNote(run, step, { unit, seat, name }) {
  const m = mistakes(run.decisions).find((d) => d.step === step);
  if (!m) return null;
  const shown = (action) => {
    const cards = actionCards(action);
    if (!cards) return h("span.review-words", actionText(action));
    const verb = action.startsWith("burn ") ? "btn_burn" : action.startsWith("return ") ? "btn_return" : null;
    if (verb) return h("span.review-words", t(verb), playCards(cards, "review-cards"));
    return playCards(cards, "review-cards");
  };
  return h("div.review-note#rp-review-note", { role: "note", "aria-label": t("review_here", { step }) },
    h("div.review-plays",
      h("span.review-played", h("span.lbl", t("review_played")), shown(m.played)),
      h("span.review-better", h("span.lbl", t("review_better")), shown(m.best))),
    h("p.review-why", reasonSentence(m, unit, seat, name)));
}
