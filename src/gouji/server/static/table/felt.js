// The felt: seats, the top play and its flight, the marks (够级 / 开点 / 烧 …), the timers.
// Methods of the live table (table.js mixes them into LiveTable); `this` is the table.

import { h, clear } from "../dom.js";
import { t } from "../i18n.js";
import { renderFelt, placeName, cardsText } from "../render.js";

import { MARK_MS, MARK_MIN_MS, DEAL_MS, reducedMotion } from "./common.js";
import { goujiPlay } from "./legal.js";

export const feltMethods = {
  /** Until play starts, the deal's tribute on the felt: who paid (进贡) and who received (收贡) which cards. */
  tributeBadges(felt) {
    const phase = this.frame.view.phase;
    if (phase === "play" || phase === "over") return;
    for (const ev of this.dealEvents) {
      if (ev.type !== "tribute" || !ev.cards) continue;
      for (const [seat, key, cls] of [[ev.from, "b_tribute_out", "b-tribute-out"], [ev.to, "b_tribute_in", "b-tribute-in"]]) {
        const badges = felt.querySelector(`.seat[data-seat='${seat}'] .badges`);
        if (badges) badges.appendChild(h("span.badge." + cls, t(key, { cards: cardsText(ev.cards) })));
      }
    }
  },

  renderFelt() {
    const f = this.frame;
    const me = this.seat;
    const felt = renderFelt({
      view: f.view,
      seats: this.table.seats,
      bottom: me === null ? 0 : me,
      me,
      last: this.last,
      hands: null,
      turn: f.turn,
    });
    if (this.table.status === "waiting") felt.querySelector(".center").replaceChildren(this.waitingPanel());
    this.tributeBadges(felt);
    this.decorateSeats(felt); // (titles, the people's menu, the rated line: people.js)
    const prompt = this.promptPanel();
    clear(this.promptSlot);
    if (prompt) (this.phoneQuery.matches ? this.promptSlot : felt).appendChild(prompt);
    // (a mark on the felt stays its time over the frames after it: the felt is redrawn under it)
    for (const c of [...this.feltHolder.children]) if (c !== this.markHolder) c.remove();
    this.feltHolder.prepend(felt);
    const status = felt.querySelector(".status-line");
    const forced = this.forcedText();
    if (status && forced) {
      status.textContent = forced;
      status.classList.add("mine", "forced");
    }
    if (status) this.announce(status.textContent);
    this.animateTop();
    this.showMarks();
    this.placeMarks();
    this.tick();
  },

  /** At the start of a deal (before play, the first time this page draws it): the cards are dealt — the
   * hand's groups and the seats' backs come in one after another. A tap or a key skips it; none under
   * prefers-reduced-motion. `this.dealtDeals` lists the deals it was shown for. */
  dealCards() {
    if (this.dealAnimDeal === this.deal) return this.paintDealing();
    this.dealAnimDeal = this.deal;
    const before = !this.dealEvents.some((e) => e.type === "play");
    if (!before || this.table.status !== "playing" || this.seat === null || reducedMotion()) return;
    this.dealtDeals = [...(this.dealtDeals || []), this.deal];
    this.dealingSince = performance.now();
    const view = this.root.querySelector(".table-view");
    view.classList.add("dealing");
    const stop = () => {
      view.classList.remove("dealing");
      this.dealingSince = null;
      this.stopDealing = () => {};
      clearTimeout(this.dealTimer);
      for (const ev of ["pointerdown", "keydown"]) document.removeEventListener(ev, stop, true);
    };
    this.stopDealing = stop;
    for (const ev of ["pointerdown", "keydown"]) document.addEventListener(ev, stop, true);
    this.dealTimer = setTimeout(stop, DEAL_MS);
    this.paintDealing();
  },

  /** Skip the dealing (none running: nothing to do). */
  stopDealing() {},

  /** While the cards are dealt: each group its place in the order, the time gone by (a frame redraws them). */
  paintDealing() {
    if (this.dealingSince === null || this.dealingSince === undefined) return;
    const view = this.root.querySelector(".table-view");
    view.style.setProperty("--dealt", `${Math.round(performance.now() - this.dealingSince)}ms`);
    // (the hand's groups one after another; each seat's backs alongside them)
    for (const sel of [".hand .group", ".seat .backs"]) {
      this.root.querySelectorAll(sel).forEach((el, i) => el.style.setProperty("--i", String(i)));
    }
  },

  /** The top play flies in from its player's seat when it is new; a mark shown MARK_MIN_MS or longer makes
   * way for it (bots' plays come every 0.2 s at 正常: a mark would cover the plays after its own). */
  animateTop() {
    const v = this.frame.view;
    const key = v.top ? `${this.deal}:${v.top_seat}:${v.top}:${this.frame.state}` : null;
    const fresh = v.top && this.lastTopPlay !== `${this.deal}:${v.top_seat}:${v.top}`;
    if (v.top) this.lastTopPlay = `${this.deal}:${v.top_seat}:${v.top}`;
    if (!key || !fresh) return;
    if (this.markHolder && performance.now() - this.markShownAt >= MARK_MIN_MS) {
      this.markHolder.remove();
      this.markHolder = null;
    }
    if (this.prefs.sound) this.sounds.play();
    if (reducedMotion()) return;
    const cards = this.feltHolder.querySelector(".top-play .play-cards");
    const seat = this.feltHolder.querySelector(`.seat[data-seat='${v.top_seat}']`);
    if (!cards || !seat) return;
    const a = cards.getBoundingClientRect();
    const b = seat.getBoundingClientRect();
    cards.style.setProperty("--from-x", `${b.left + b.width / 2 - (a.left + a.width / 2)}px`);
    cards.style.setProperty("--from-y", `${b.top + b.height / 2 - (a.top + a.height / 2)}px`);
    cards.classList.add("fly");
  },

  showMarks() {
    const marks = this.marks || [];
    this.marks = null;
    if (!marks.length) return;
    if (this.prefs.sound) this.sounds.mark();
    const holder = h("div.marks", { "aria-hidden": "true" },
      marks.map((m) => h("div.mark.mark-" + m.cls, h("span.mark-text", m.text), h("span.mark-who", m.who))));
    if (!this.feltHolder.querySelector(".felt")) return;
    if (this.markHolder) this.markHolder.remove();
    this.feltHolder.appendChild(holder);
    this.markHolder = holder;
    this.markShownAt = performance.now();
    this.placeMarks();
    this.announce(marks.map((m) => `${m.who}: ${m.text}`).join("; "));
    clearTimeout(this.markTimer);
    this.markTimer = setTimeout(() => {
      holder.remove();
      if (this.markHolder === holder) this.markHolder = null;
    }, reducedMotion() ? MARK_MS / 2 : MARK_MS);
  },

  /** The marks stand above the centre's status line, never over it (who is to act stays readable). */
  placeMarks() {
    const holder = this.markHolder;
    const status = this.feltHolder.querySelector(".status-line");
    if (!holder || !status || !status.offsetHeight) return;
    const room = this.feltHolder.getBoundingClientRect();
    const line = status.getBoundingClientRect();
    holder.style.top = "auto";
    holder.style.bottom = `${Math.round(room.bottom - line.top + 6)}px`;
  },

  /** The brief marks the new events call for: 够级 / 开点 / 烧 / 闷 / 革命 / going out. */
  marksOf(events) {
    const out = [];
    for (const ev of events) {
      if (ev.deal !== this.deal) continue;
      const who = this.name(ev.seat);
      if (ev.type === "open") out.push({ text: t("mark_open"), who, cls: "open" });
      else if (ev.type === "burn") out.push({ text: t("mark_burn"), who, cls: "burn" });
      else if (ev.type === "smothered") out.push({ text: t("mark_smothered"), who, cls: "men" });
      else if (ev.type === "revolution") out.push({ text: t("mark_revolution"), who, cls: "rev" });
      else if (ev.type === "burn_failed") out.push({ text: t("mark_failed_burn"), who, cls: "men" });
      else if (ev.type === "out") out.push({ text: t("mark_out", { place: placeName(ev.order - 1) }), who, cls: "out" });
      else if (goujiPlay(ev, this.frame.view)) out.push({ text: t("mark_gouji"), who, cls: "gouji", soft: true });
    }
    // the strongest mark wins (a gouji play that opens the point is told as 开点)
    const strong = out.filter((m) => !m.soft);
    return strong.length ? strong.slice(-2) : out.slice(-1);
  },

  tick() {
    for (const el of this.root.querySelectorAll(".timer[data-deadline], .ready-countdown[data-deadline]")) {
      const left = Math.max(0, Math.ceil((Number(el.dataset.deadline) - Date.now()) / 1000));
      el.textContent = `${left}s`;
      el.classList.toggle("low", left <= 5);
    }
    for (const el of this.root.querySelectorAll(".absent-left[data-deadline]")) {
      const left = Math.max(0, Math.ceil((Number(el.dataset.deadline) - Date.now()) / 1000));
      el.textContent = t("absent_auto_in", { n: left });
    }
  },
};
