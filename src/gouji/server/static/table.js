// The live table: one WebSocket to the server (docs/protocol.md), the felt, your hand, the actions, the
// log, the card counter and the score. The server holds the game; this page only sends intents.

import { h, clear, toast, storeSeat } from "./dom.js";
import { t, onLangChange } from "./i18n.js";
import { parseCounts, total } from "./cards.js";
import { describeEvent, eventClass, seatName, setSideNames } from "./render.js";
import { SUMMARY_DELAY_MS, PHONE_QUERY, loadPrefs, Sounds } from "./table/common.js";
import { burnNeed } from "./table/legal.js";
import { initialState, reduce, reducePresence, STATE_KEYS } from "./table/state.js";
import { handMethods } from "./table/hand.js";
import { actionsMethods } from "./table/actions.js";
import { sideMethods } from "./table/side.js";
import { overlayMethods } from "./table/overlay.js";
import { barMethods } from "./table/bar.js";
import { feltMethods } from "./table/felt.js";
import { phrasesMethods } from "./table/phrases.js";
import { peopleMethods } from "./table/people.js";

const SEEN_KEY = "gouji.seen.";

export { loadPrefs, PHONE_QUERY };

export class LiveTable {
  constructor(root, code, seatInfo, { onExit } = {}) {
    this.root = root;
    this.code = code;
    this.info = seatInfo; // {seat, token, nickname} or null to watch
    this.onExit = onExit || (() => {});
    this.ws = null;
    this.alive = true;
    this.retry = 0;
    // the page's state: one object, changed by the reducer for each frame (table/state.js); this.deal,
    // this.frame, this.sel … read and write its fields
    this.state = initialState();
    try {
      this.state.seen = JSON.parse(localStorage.getItem(SEEN_KEY + code) || "null");
    } catch {
      this.state.seen = null;
    }
    this.selEpoch = 0; // counts the player's own changes of the selection
    this.suggested = null; // {state, sel}: the hint's play, selected for the player
    this.suggestedFor = null;
    this.sideTab = "log";
    this.msgId = 0;
    this.prefs = loadPrefs();
    this.sounds = new Sounds();
    this.unlockSound = () => this.sounds.unlock();
    for (const ev of ["pointerdown", "keydown"]) document.addEventListener(ev, this.unlockSound, { once: true });
    this.lastTop = null;
    this.confirming = null;
    this.helpOpen = false;
    this.build();
    this.keyHandler = (e) => this.onKey(e);
    document.addEventListener("keydown", this.keyHandler);
    this.timer = setInterval(() => this.tick(), 250);
    this.unLang = onLangChange(() => this.renderAll(true));
    // a phone (narrow, or landscape and low): the prompt joins the action bar, the side panel is a sheet
    this.phoneQuery = window.matchMedia(PHONE_QUERY);
    this.onMedia = () => this.renderAll();
    this.phoneQuery.addEventListener("change", this.onMedia);
    this.onResize = () => this.fitHand();
    window.addEventListener("resize", this.onResize);
    this.connect();
  }

  destroy() {
    this.alive = false;
    setSideNames(null);
    for (const ev of ["pointerdown", "keydown"]) document.removeEventListener(ev, this.unlockSound);
    clearInterval(this.timer);
    document.removeEventListener("keydown", this.keyHandler);
    this.unLang();
    this.phoneQuery.removeEventListener("change", this.onMedia);
    window.removeEventListener("resize", this.onResize);
    this.closePeopleMenu();
    if (this.ws) this.ws.close();
  }

  // ------------------------------------------------------------------ connection

  connect() {
    const proto = location.protocol === "https:" ? "wss" : "ws";
    const ws = new WebSocket(`${proto}://${location.host}/ws/tables/${encodeURIComponent(this.code)}`);
    this.ws = ws;
    ws.onopen = () => {
      this.retry = 0;
      const hello = { type: "hello", v: 1 };
      if (this.info && this.info.token) hello.token = this.info.token;
      ws.send(JSON.stringify(hello));
      this.setBanner(null);
    };
    ws.onmessage = (m) => {
      let frame;
      try {
        frame = JSON.parse(m.data);
      } catch {
        return;
      }
      this.onFrame(frame);
    };
    ws.onclose = () => {
      if (!this.alive || this.closedFor) return;
      this.setBanner(t("reconnecting"));
      this.retry = Math.min(this.retry + 1, 5);
      setTimeout(() => this.alive && this.connect(), 400 * this.retry);
    };
  }

  send(msg) {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return false;
    this.ws.send(JSON.stringify(msg));
    return true;
  }

  /** A play that would break this seat's own burn (诈烧): no joker in it and not the hand's last. */
  breaksBurn(action) {
    const me = this.frame && this.seat !== null && this.frame.view.players[this.seat];
    if (!me || !me.burning || !/^[3-9TJQKA2XD]+$/.test(action)) return false;
    const p = parseCounts(action);
    return !(p[13] || p[14]) && total(p) !== total(this.handCounts());
  }

  /** Ask before a costly action: `what` names it, `price` says what it costs; OK sends it. */
  confirmAct(action, what, price) {
    this.confirming = { action, what, price };
    this.renderOverlay();
  }

  act(action, confirmed = false) {
    if (!this.info || !this.frame || this.pending) return;
    if (!confirmed && this.breaksBurn(action)) return this.confirmAct(action, t("confirm_break_burn"), t("price_last"));
    if (!confirmed && action.startsWith("burn ") && this.frame.view.phase === "play") {
      const need = burnNeed(this.frame.turn, parseCounts(action.slice(5)));
      if (need && !need.ok) return this.confirmAct(action, t("confirm_burn_short", need), t("price_last"));
    }
    this.confirming = null;
    if (!this.tipDone()) {
      this.tipSeen = true; // (the selection tip is shown until the player's first answer or selection)
      localStorage.setItem("gouji.tipDone", "1");
    }
    const id = "a" + ++this.msgId;
    // the intent names the decision it answers: seats taken or left, 托管 and ready marks do not make it stale
    const decision = this.frame.turn.decision;
    if (this.send({ type: "act", action, decision, token: this.info.token, id })) {
      this.pending = { id, state: this.frame.state, sel: this.sel.slice(), action };
      this.sel.fill(0);
      this.hint = null;
      this.renderHand();
      this.renderActions();
    }
  }

  onFrame(f) {
    if (f.type === "welcome") {
      this.seat = f.seat;
      if (f.seat !== null && this.info && this.info.token && this.prefs.askSingle)
        this.send({ type: "prefs", ask_single: true, token: this.info.token });
      if (f.role === "spectator" && this.info && this.info.token) {
        // our token no longer holds a seat: watch
        storeSeat(this.code, null);
        this.info = null;
      }
      return;
    }
    if (f.type === "error") return this.onError(f);
    if (f.type === "said") return this.onSaid(f);
    if (f.type === "presence") {
      this.state = reducePresence(this.state, f);
      if (this.frame) this.renderFelt();
      return;
    }
    if (f.type === "closed") {
      this.closedFor = f.reason;
      this.setBanner(t("closed", { reason: f.reason }));
      return;
    }
    if (f.type !== "state") return;
    this.absorb(f);
  }

  onError(f) {
    if (this.pending && (!f.id || f.id === this.pending.id)) {
      this.sel = this.pending.sel;
      this.pending = null;
    }
    if (f.code === "no_table") {
      this.closedFor = f.message;
      this.setBanner(t("closed", { reason: f.message }));
      return;
    }
    if (f.code === "unauthorized" && this.info) {
      storeSeat(this.code, null);
    }
    if (f.code === "stale") toast(t("stale"), "warn");
    else if (f.code === "rate_limited" && f.id && f.id.startsWith("s")) toast(t("phrases_slow"), "warn");
    else if (f.code === "illegal") toast(t("illegal", { msg: f.message }), "error");
    else toast(t("error", { msg: f.message }), "error");
    this.renderHand();
    this.renderActions();
  }

  /** A state frame: the reducer makes the next state; its effects are played out here; the views redraw. */
  absorb(f) {
    const before = this.state.seen;
    const { state, effects } = reduce(this.state, f);
    this.state = state;
    if (state.seen !== before) localStorage.setItem(SEEN_KEY + this.code, JSON.stringify(state.seen));
    if (effects.autoTimeout) {
      toast(t("auto_timeout"), "warn");
      this.announce(t("auto_timeout"));
    }
    if (!effects.full) this.marks = [...(this.marks || []), ...this.marksOf(effects.events)].slice(-2);
    for (const e of effects.hold) this.holdSummary(e);
    // frames can come faster than a phone draws (instant bots, 托管): between them, one drawing an animation
    // frame; a frame that asks this seat (the table then waits for it) or a full one is drawn at once
    this.dirtyFull = this.dirtyFull || effects.full;
    if (effects.full || this.isMyTurn() || typeof requestAnimationFrame === "undefined") this.flush();
    else if (!this.drawQueued) {
      this.drawQueued = true;
      requestAnimationFrame(() => this.flush());
    }
    if (this.isMyTurn()) {
      this.autoDecline();
      this.suggest();
    }
  }

  /** Draw the state now (what a queued drawing would have drawn). */
  flush() {
    this.drawQueued = false;
    const full = this.dirtyFull;
    this.dirtyFull = false;
    if (this.alive) this.renderAll(full);
  }

  /** Show a deal's summary after a short pause, so its last plays stay visible first. */
  holdSummary(e) {
    const reduce = window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
    this.heldSummary = e;
    clearTimeout(this.summaryTimer);
    this.summaryTimer = setTimeout(() => {
      // (the held summary may have gained the next deal's tribute since: it is the one shown)
      if (!this.heldSummary || this.heldSummary.deal !== e.deal || !this.alive) return;
      this.summary = this.heldSummary;
      this.heldSummary = null;
      this.renderOverlay();
    }, reduce ? 600 : SUMMARY_DELAY_MS);
  }

  /** Say something to screen readers (the live status region). */
  announce(text) {
    if (this.live && text && this.live.textContent !== text) this.live.textContent = text;
  }

  /** The deal's log lines, in the current language. */
  logLines() {
    const ctx = { setup: false, me: this.seat };
    const out = [];
    for (const ev of this.dealEvents) {
      const line = describeEvent(ev, (s) => this.name(s), ctx);
      if (line) out.push({ line, cls: eventClass(ev) });
    }
    return out;
  }

  name(s) {
    if (s === this.seat && this.seat !== null) return t("you");
    return seatName(this.table && this.table.seats, s);
  }

  // ------------------------------------------------------------------ layout

  build() {
    clear(this.root);
    this.bar = h("div.table-bar");
    this.banner = h("div.banner", { hidden: true });
    this.feltHolder = h("div.felt-holder");
    this.handInfo = h("div.hand-info");
    this.promptSlot = h("div.prompt-slot");
    this.handEl = h("div.hand", { role: "group", "aria-label": "hand" });
    this.actionsEl = h("div.actions");
    this.side = h("aside.side", { "aria-label": t("sheet_title") });
    this.overlay = h("div.overlay-holder");
    this.live = h("div.sr-only#status-live", { role: "status", "aria-live": "polite" });
    this.root.appendChild(
      h(
        "section.table-view",
        this.bar,
        this.banner,
        h(
          "div.table-layout",
          h("div.play-area", this.feltHolder,
            h("div.hand-area", this.promptSlot, this.handInfo, this.handEl, this.actionsEl)),
          this.side,
        ),
        this.overlay,
        this.live,
      ),
    );
  }

  renderAll() {
    if (!this.frame) return;
    // a table of a duplicate match: the sides are the teams sitting there, each in its team's colour at both
    // tables (the first team red, the second blue: at table 2 the first team holds the odd seats)
    const dup = this.table && this.table.duplicate;
    setSideNames(dup && dup.seat_teams ? dup.seat_teams.slice(0, 2) : null); // (a team name a seat)
    this.root.querySelector(".table-view").classList.toggle("swap-colours", !!(dup && dup.teams &&
      dup.seat_teams[0] === dup.teams[1] && dup.teams[0] !== dup.teams[1]));
    this.renderBar();
    this.renderFelt();
    this.renderHand();
    this.dealCards();
    this.renderActions();
    this.renderSide();
    this.renderOverlay();
    this.markHint();
    this.renderDuplicate();
    this.renderAutoReturn();
    this.placeFocus();
  }

  /** The table just drawn its hand (opened from the lobby, a link, a reload): the keyboard starts on the hand,
   * not on the page's body. Once. */
  placeFocus() {
    if (this.focusPlaced) return;
    const first = this.root.querySelector(".hand .group");
    if (!first && this.seat !== null) return;
    this.focusPlaced = true;
    const active = document.activeElement;
    const target = first || this.root.querySelector(".table-bar button");
    if (target && (!active || active === document.body || !active.isConnected)) target.focus({ preventScroll: true });
  }

  isMyTurn() {
    const turn = this.frame && this.frame.turn;
    return !!(turn && this.seat !== null && turn.seat === this.seat && "legal_count" in turn);
  }

  // ------------------------------------------------------------------ setup prompts

  // ------------------------------------------------------------------ the hand

  // ------------------------------------------------------------------ actions

  // ------------------------------------------------------------------ side panel

  // ------------------------------------------------------------------ end of deal and set

}

// one module a panel: their methods join the table's
for (const key of STATE_KEYS) {
  Object.defineProperty(LiveTable.prototype, key, {
    get() { return this.state[key]; },
    set(v) { this.state[key] = v; },
  });
}
Object.assign(LiveTable.prototype, handMethods, actionsMethods, sideMethods, overlayMethods, barMethods, feltMethods,
  phrasesMethods, peopleMethods);
