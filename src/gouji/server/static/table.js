// The live table: one WebSocket to the server (docs/protocol.md), the felt, your hand, the actions, the
// log, the card counter and the score. The server holds the game; this page only sends intents.

import { icon } from "./icons.js";
import { h, clear, api, toast, storeSeat } from "./dom.js";
import { t, onLangChange, getLang, setLang } from "./i18n.js";
import {
  RANKS, DISPLAY_ORDER, NUM_RANKS, TWO, parseCounts, formatCounts, total, sameCounts, playAllowed, deckCounts,
  cardFace, rankFace,
} from "./cards.js";
import {
  renderFelt, describeEvent, eventClass, trackLastActs, seatName, teamName, placeName, cardsText, teamOf,
  SETUP_PHASES,
} from "./render.js";
import { duplicateBanner } from "./tourney.js";
import { reasonText } from "./reasons.js";
import { playOf, contains } from "./cards.js";

const KEY_RANKS = {
  Digit2: "2", Digit3: "3", Digit4: "4", Digit5: "5", Digit6: "6", Digit7: "7", Digit8: "8", Digit9: "9", Digit0: "T",
  Numpad2: "2", Numpad3: "3", Numpad4: "4", Numpad5: "5", Numpad6: "6", Numpad7: "7", Numpad8: "8", Numpad9: "9",
  Numpad0: "T", KeyT: "T", KeyJ: "J", KeyQ: "Q", KeyK: "K", KeyA: "A", KeyX: "X", KeyD: "D",
};
const LONG_PRESS_MS = 450;
const SUMMARY_DELAY_MS = 1800; // the last plays stay visible this long before the summary covers them
const MARK_MS = 1300;
const PREFS_KEY = "gouji.prefs";
export const PHONE_QUERY = "(max-width: 760px), (max-height: 500px)";

const DEFAULT_PREFS = { sound: false, askSingle: false, suggest: true };
const DOUBLE_CLICK_MS = 500;

/** The page's settings: sound (Web Audio, made here), whether to be asked even with one answer, and whether
 * the hint's play is selected for you when you are asked (one click on Play takes it). */
export function loadPrefs() {
  try {
    return { ...DEFAULT_PREFS, ...JSON.parse(localStorage.getItem(PREFS_KEY) || "{}") };
  } catch {
    return { ...DEFAULT_PREFS };
  }
}

function savePrefs(prefs) {
  localStorage.setItem(PREFS_KEY, JSON.stringify(prefs));
}

const reducedMotion = () => !!(window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches);

/** Sounds made in the page (no files): a soft tick for a play, a rising pair of notes for a mark. */
class Sounds {
  constructor() {
    this.ctx = null;
  }

  tone(freq, start, dur, gain = 0.08, type = "triangle") {
    const Ctx = window.AudioContext || window.webkitAudioContext;
    if (!Ctx) return;
    if (!this.ctx) this.ctx = new Ctx();
    const c = this.ctx;
    const o = c.createOscillator();
    const g = c.createGain();
    o.type = type;
    o.frequency.value = freq;
    g.gain.setValueAtTime(0, c.currentTime + start);
    g.gain.linearRampToValueAtTime(gain, c.currentTime + start + 0.01);
    g.gain.exponentialRampToValueAtTime(0.0001, c.currentTime + start + dur);
    o.connect(g).connect(c.destination);
    o.start(c.currentTime + start);
    o.stop(c.currentTime + start + dur + 0.02);
  }

  play() {
    this.tone(520, 0, 0.09, 0.05, "square");
  }

  mark() {
    this.tone(660, 0, 0.16);
    this.tone(990, 0.12, 0.22);
  }
}

/** How many plays empty a hand at best (one per natural rank; 2s and jokers ride along; 憋三: the 3s last). */
export function playsNeeded(hand, bieSan) {
  let groups = 0;
  for (let r = bieSan ? 1 : 0; r <= 11; r++) if (hand[r]) groups++;
  let n = groups;
  if (!groups && (hand[12] || hand[13] || hand[14])) n = 1;
  if (bieSan && hand[0]) n += 1;
  return n;
}

/**
 * What a burn with `sel` needs (烧牌: every later play but the last carries a joker): {after, needed, jokers,
 * ok}. `after` is the plays left once it is made, `needed` the jokers they need, `jokers` the jokers left.
 */
export function burnNeeds(hand, sel, bieSan) {
  const rest = hand.map((n, r) => n - (sel[r] || 0));
  const after = total(rest) ? playsNeeded(rest, bieSan) : 0;
  const jokers = rest[13] + rest[14];
  const needed = Math.max(0, after - 1);
  return { after, needed, jokers, ok: jokers >= needed };
}

export class LiveTable {
  constructor(root, code, seatInfo, { onExit } = {}) {
    this.root = root;
    this.code = code;
    this.info = seatInfo; // {seat, token, nickname} or null to watch
    this.onExit = onExit || (() => {});
    this.ws = null;
    this.alive = true;
    this.retry = 0;
    this.frame = null;
    this.table = null;
    this.config = null;
    this.rules = null;
    this.seat = null;
    this.deal = -1;
    this.resetDeal();
    this.sel = new Array(NUM_RANKS).fill(0);
    this.selEpoch = 0; // counts the player's own changes of the selection
    this.suggested = null; // {state, sel}: the hint's play, selected for the player
    this.suggestedFor = null;
    this.pending = null;
    this.hint = null;
    this.summary = null;
    this.summaryShown = new Set();
    this.finalShown = false;
    this.sideTab = window.innerWidth < 800 ? "log" : "log";
    this.msgId = 0;
    this.autoAsked = false;
    this.prefs = loadPrefs();
    this.sounds = new Sounds();
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
    this.connect();
  }

  destroy() {
    this.alive = false;
    clearInterval(this.timer);
    document.removeEventListener("keydown", this.keyHandler);
    this.unLang();
    this.phoneQuery.removeEventListener("change", this.onMedia);
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
      const need = burnNeeds(this.handCounts(), parseCounts(action.slice(5)), this.bieSan());
      if (!need.ok) return this.confirmAct(action, t("confirm_burn_short", need), t("price_last"));
    }
    this.confirming = null;
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
    else if (f.code === "illegal") toast(t("illegal", { msg: f.message }), "error");
    else toast(t("error", { msg: f.message }), "error");
    this.renderHand();
    this.renderActions();
  }

  absorb(f) {
    const full = f.full;
    const mySeat = f.table && f.table.seats && this.seat !== null ? f.table.seats[this.seat] : null;
    const wasAuto = !!(this.table && this.table.seats && this.seat !== null && this.table.seats[this.seat].auto);
    if (mySeat && mySeat.auto && !wasAuto && !full && !this.autoAsked) {
      toast(t("auto_timeout"), "warn");
      this.announce(t("auto_timeout"));
    }
    if (mySeat && !mySeat.auto) this.autoAsked = false;
    const wasPaused = !!(this.table && this.table.ready);
    this.table = { ...(this.table || {}), ...f.table, config: f.table.config || this.config };
    if (full) {
      this.config = f.table.config || this.config;
      if (f.view.rule_options) this.rules = f.view.rule_options;
      this.deal = f.deal;
      this.resetDeal();
      for (const ev of f.view.log || []) this.addEvent(ev);
    } else {
      const ended = [];
      for (const ev of f.events || []) {
        if (ev.deal > this.deal) {
          this.deal = ev.deal;
          this.resetDeal();
        }
        if (ev.deal < this.deal) continue;
        if (ev.type === "end") ended.push({ deal: ev.deal, places: ev.places, sweep: ev.sweep, tribute: [] });
        else if (ended.length && (ev.type === "tribute" || ev.type === "tribute_return") && ev.deal === ended[0].deal + 1)
          ended[0].tribute.push(ev);
        this.addEvent(ev);
      }
      if (f.deal > this.deal) {
        this.deal = f.deal;
        this.resetDeal();
      }
      this.marks = this.marksOf(f.events || []);
      for (const e of ended) {
        if (this.summaryShown.has(e.deal)) continue;
        this.summaryShown.add(e.deal);
        e.points = (f.table.points || [])[e.deal] || null;
        e.totals = f.table.totals;
        e.last = f.table.status === "over";
        e.events = this.dealEventsOf(e.deal);
        e.lastDeal = f.table.last_deal || null;
        this.holdSummary(e);
      }
    }
    this.table.config = this.config;
    this.frame = f;
    if (this.pending && f.state > this.pending.state) this.pending = null;
    if (this.hint && this.hint.state !== f.state) this.hint = null;
    // keep the selection within the hand
    const hand = parseCounts(f.view.hand || "");
    for (let r = 0; r < NUM_RANKS; r++) this.sel[r] = Math.min(this.sel[r], hand[r]);
    if (this.table.status === "over" && !this.finalShown && !this.summary && !this.heldSummary) {
      this.finalShown = true;
      this.summary = { deal: f.deal, places: f.view.places, sweep: f.view.sweep, tribute: [],
        points: (f.table.points || [])[f.deal], totals: f.table.totals, last: true,
        events: this.dealEvents.slice(), lastDeal: f.table.last_deal || null };
    }
    if (this.summary && this.summary.last) this.finalShown = true;
    // the pause between two deals: the summary stays up until every seat is ready (or the timeout)
    const gate = f.table.ready;
    if (gate && !this.summary && !this.heldSummary && f.deal > 0 && !this.summaryShown.has(f.deal - 1)) {
      // (a full frame mid-pause: after a reload or a reconnect) the places come from the table, the tribute
      // owed for the next deal from that deal's log
      this.summaryShown.add(f.deal - 1);
      const ld = f.table.last_deal && f.table.last_deal.deal === f.deal - 1 ? f.table.last_deal : null;
      this.summary = { deal: f.deal - 1, places: ld ? ld.places : null, sweep: ld ? ld.sweep : null,
        tribute: (f.view.log || []).filter((e) => e.type === "tribute" || e.type === "tribute_return"),
        points: (f.table.points || [])[f.deal - 1] || null, totals: f.table.totals, last: false, lastDeal: ld };
    }
    if (!gate && (wasPaused || this.readySent) && this.summary && !this.summary.last) this.summary = null;
    if (!gate) this.readySent = false;
    this.renderAll(full);
    if (this.isMyTurn()) this.suggest();
  }

  resetDeal() {
    this.last = {};
    if (this.dealEvents && this.dealEvents.length) this.prevDeal = { deal: this.deal - 1, events: this.dealEvents };
    this.dealEvents = [];
  }

  dealEventsOf(n) {
    if (n === this.deal) return this.dealEvents.slice();
    return this.prevDeal && this.prevDeal.deal === n ? this.prevDeal.events.slice() : [];
  }

  /** Show a deal's summary after a short pause, so its last plays stay visible first. */
  holdSummary(e) {
    const reduce = window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
    this.heldSummary = e;
    clearTimeout(this.summaryTimer);
    this.summaryTimer = setTimeout(() => {
      if (this.heldSummary !== e || !this.alive) return;
      this.heldSummary = null;
      this.summary = e;
      this.renderOverlay();
    }, reduce ? 600 : SUMMARY_DELAY_MS);
  }

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
      else if (ev.type === "act" && /^[3-9TJQKA2XD]+$/.test(ev.action || "")) {
        const p = playOf(parseCounts(ev.action));
        if (p && p.gouji) out.push({ text: t("mark_gouji"), who, cls: "gouji", soft: true });
      }
    }
    // the strongest mark wins (a gouji play that opens the point is told as 开点)
    const strong = out.filter((m) => !m.soft);
    return strong.length ? strong.slice(-2) : out.slice(-1);
  }

  showMarks() {
    const marks = this.marks || [];
    this.marks = null;
    if (!marks.length) return;
    if (this.prefs.sound) this.sounds.mark();
    const holder = h("div.marks", { "aria-hidden": "true" },
      marks.map((m) => h("div.mark.mark-" + m.cls, h("span.mark-text", m.text), h("span.mark-who", m.who))));
    const felt = this.feltHolder.querySelector(".felt");
    if (!felt) return;
    felt.appendChild(holder);
    this.announce(marks.map((m) => `${m.who}: ${m.text}`).join("; "));
    clearTimeout(this.markTimer);
    this.markTimer = setTimeout(() => holder.remove(), reducedMotion() ? MARK_MS / 2 : MARK_MS);
  }

  /** The top play flies in from its player's seat when it is new. */
  animateTop() {
    const v = this.frame.view;
    const key = v.top ? `${this.deal}:${v.top_seat}:${v.top}:${this.frame.state}` : null;
    const fresh = v.top && this.lastTopPlay !== `${this.deal}:${v.top_seat}:${v.top}`;
    if (v.top) this.lastTopPlay = `${this.deal}:${v.top_seat}:${v.top}`;
    if (!key || !fresh) return;
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
  }

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
      h("div.prompt-btns",
        h("button.btn#settings-link", { type: "button", onclick: () => this.copyLink() }, t("copy_link")),
        h("button.btn#settings-lang", { type: "button", onclick: () => setLang(getLang() === "zh" ? "en" : "zh") }, t("menu_lang")),
        h("button.btn.primary#settings-close", { type: "button",
        onclick: () => { this.settingsOpen = false; this.renderOverlay(); } }, t("close"))));
    return box;
  }

  bieSan() {
    return !this.rules || this.rules.bie_san !== false;
  }

  /** Say something to screen readers (the live status region). */
  announce(text) {
    if (this.live && text && this.live.textContent !== text) this.live.textContent = text;
  }

  addEvent(ev) {
    this.dealEvents.push(ev);
    trackLastActs(this.last, ev);
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

  setBanner(text) {
    this.banner.hidden = !text;
    this.banner.textContent = text || "";
  }

  renderAll() {
    if (!this.frame) return;
    this.renderBar();
    this.renderFelt();
    this.renderHand();
    this.renderActions();
    this.renderSide();
    this.renderOverlay();
    this.markHint();
    this.renderDuplicate();
  }

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
    this.dupEl.classList.toggle("waiting", !!(dup && dup.waiting));
  }

  isMyTurn() {
    const turn = this.frame && this.frame.turn;
    return !!(turn && this.seat !== null && turn.seat === this.seat && "legal_count" in turn);
  }

  renderBar() {
    const tb = this.table;
    const cfg = this.config || {};
    const pts = tb.totals || [0, 0];
    const setLen = cfg.set_length || 1;
    const mySeat = this.seat;
    const auto = mySeat !== null && tb.seats && tb.seats[mySeat] && tb.seats[mySeat].auto;
    clear(this.bar);
    this.bar.append(
      h("div.bar-left",
        h("span.code", { title: t("table_code") }, t("table_code") + " ", h("b", tb.code)),
        h("span.preset", t("preset_" + (cfg.preset || (this.rules && this.rules.name) || "qingdao"))),
        h("span.deal-no", t("deal_of", { n: Math.min(this.deal + 1, setLen), m: setLen })),
        h("span.score",
          h("span.team-dot.team0"), `${teamName(0)} ${pts[0]}`, h("span.sep", " : "),
          h("span.team-dot.team1"), `${teamName(1)} ${pts[1]}`),
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
        h("button.chip", { type: "button", id: "settings-btn", title: t("settings"),
          onclick: () => { this.settingsOpen = !this.settingsOpen; this.renderOverlay(); } }, "⚙"),
        h("button.chip", { type: "button", id: "help-btn", title: t("keys_title"), "aria-expanded": this.helpOpen ? "true" : "false",
          onclick: () => this.toggleHelp() }, "?"),
        h("button.chip", { type: "button", onclick: () => this.leave() }, t(this.info ? "leave" : "lobby")),
      ),
    );
  }

  /** On a phone: the log, the card counter and the score open as a sheet over the felt. */
  toggleSheet(open = !this.sheetOpen) {
    this.sheetOpen = open;
    this.renderBar();
    this.renderSide();
    if (open) {
      const tab = this.side.querySelector(".tab.active");
      if (tab) tab.focus();
    }
  }

  copyLink() {
    const link = `${location.origin}/?t=${this.code}`;
    const done = () => toast(t("link_copied") + ": " + link);
    if (navigator.clipboard && window.isSecureContext) navigator.clipboard.writeText(link).then(done, done);
    else done();
  }

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
  }

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
    const prompt = this.promptPanel();
    clear(this.promptSlot);
    if (prompt) (this.phoneQuery.matches ? this.promptSlot : felt).appendChild(prompt);
    clear(this.feltHolder).appendChild(felt);
    const status = felt.querySelector(".status-line");
    const forced = this.forcedText();
    if (status && forced) {
      status.textContent = forced;
      status.classList.add("mine", "forced");
    }
    if (status) this.announce(status.textContent);
    this.animateTop();
    this.showMarks();
    this.tick();
  }

  /** When this seat's one legal answer is given for it: what the page says instead of asking (要不起 …). */
  forcedText() {
    const turn = this.frame && this.frame.turn;
    if (!turn || !turn.forced || this.seat === null) return null;
    const kind = turn.kind;
    if (kind === "burn") return t("forced_no_burn");
    if (kind === "revolution") return t("forced_no_revolution");
    if (kind === "buy_four") return t("forced_no_buy");
    if (turn.forced === "pass") return t("forced_pass");
    return t("forced_play", { cards: cardsText(turn.forced) });
  }

  waitingPanel() {
    return h("div.waiting",
      h("div.big", t("waiting_players")),
      h("div", t("share_code", { code: this.code })),
      h("div.code-big", this.code));
  }

  // ------------------------------------------------------------------ setup prompts

  /** The setup question put to this seat now: {text, buttons: [[label key, action, class]]}, or null. */
  promptModel() {
    const f = this.frame;
    const v = f.view;
    if (!this.isMyTurn() || !SETUP_PHASES.includes(v.phase)) return null;
    const choices = f.turn.choices || f.turn.sample || [];
    if (v.phase === "revolution") {
      return choices.includes("revolt")
        ? { text: t("p_revolution"), buttons: [["btn_revolt", "revolt", ".danger"], ["btn_no_revolt", "pass", ".primary"]] }
        : { text: t("p_revolution_no"), buttons: [["btn_ok", "pass", ".primary"]] };
    }
    if (v.phase === "yaotou") {
      return { text: t("p_yaotou", { n: (this.rules && this.rules.yaotou_limit) || 3 }),
        buttons: [["btn_yaotou", "yaotou", ".primary"], ["btn_wutou", "wutou", ""]] };
    }
    if (v.phase === "xuandian") {
      return { text: t("p_xuandian"), buttons: [["btn_declare", "declare", ".primary"], ["btn_no_declare", "pass", ""]] };
    }
    if (v.phase === "buy_four") {
      return { text: t("p_buy_four"), buttons: [["btn_buy4", "buy4", ".primary"], ["btn_no_buy", "pass", ""]] };
    }
    if (["giveback", "huiwu", "chongdian", "selfopen"].includes(v.phase)) {
      // rule book §16: take the step, or decline; a hand that may not take it has only "pass"
      const may = choices.includes(v.phase);
      return { text: t(may ? "p_" + v.phase : "p_" + v.phase + "_no"),
        buttons: may ? [["btn_" + v.phase, v.phase, ".primary"], ["btn_decline", "pass", ""]] : [["btn_ok", "pass", ".primary"]] };
    }
    if (v.phase === "tribute_return") {
      return { text: t("p_return", { n: this.returnSize(), name: this.name(this.returnTo()) }), buttons: [] };
    }
    return null;
  }

  /** The label key of the button that makes the hint's choice (出牌, 烧牌, 还贡, 过, 不烧, 不宣 …). */
  hintButton() {
    const hnt = this.hint;
    if (!hnt || !this.frame || hnt.state !== this.frame.state) return null;
    const a = hnt.action;
    const prompt = this.promptModel();
    if (prompt) {
      const b = prompt.buttons.find(([, action]) => action === a);
      if (b) return b[0];
      if (a.startsWith("return ")) return "btn_return";
    }
    if (a === "pass") return this.frame.turn.burn_offer ? "btn_no_burn" : "btn_pass";
    if (a === "yield") return "btn_yield";
    if (a.startsWith("burn ")) return "btn_burn";
    if (a.startsWith("return ")) return "btn_return";
    return "btn_play";
  }

  /** The button that sends the selection in this decision: 出牌, 烧牌 (a burn offer) or 还贡. */
  sendButton() {
    const f = this.frame;
    if (f && f.view.phase === "tribute_return") return "btn_return";
    return f && f.turn && f.turn.burn_offer ? "btn_burn" : "btn_play";
  }

  /** The hint line: the button it suggests, then why. */
  hintLine() {
    const key = this.hintButton();
    return [key ? h("b.hint-button", t("hint_prompt", { button: t(key) })) : null, key ? " — " : null,
      h("span.hint-why", this.hintText())];
  }

  promptPanel() {
    const model = this.promptModel();
    if (!model) return null;
    const f = this.frame;
    const v = f.view;
    const choices = f.turn.choices || f.turn.sample || [];
    // the bright style goes to the hint's choice once there is one (never against it)
    const hinted = this.hint && this.hint.state === f.state ? this.hint.action : null;
    const btn = ([key, action, cls]) => {
      const style = hinted && model.buttons.some((b) => b[1] === hinted) ? (action === hinted ? ".primary" : "") : cls;
      return h("button.btn" + style, { type: "button", dataset: { action }, onclick: () => this.act(action),
        disabled: !!this.pending || !choices.includes(action) }, t(key));
    };
    const body = [h("p", model.text), model.buttons.length ? h("div.prompt-btns", model.buttons.map(btn)) : null];
    const hint = this.hint ? h("div.hint-reason", icon("bulb"), " ", this.hintLine()) : null;
    return h("div.prompt", { role: "dialog", "aria-label": t("phase_" + v.phase) },
      h("h3", t("phase_" + v.phase)), body, hint);
  }

  returnSize() {
    const turn = this.frame.turn;
    const c = (turn.choices || turn.sample || []).find((x) => x.startsWith("return "));
    return c ? c.length - 7 : 0;
  }

  returnTo() {
    // 还贡 goes back to the payer of a 落贡 this seat received, in the order they were paid
    const paid = this.dealEvents.filter((e) => e.type === "tribute" && e.to === this.seat && e.cards && e.kind === "luo");
    const back = this.dealEvents.filter((e) => e.type === "tribute_return" && e.from === this.seat).length;
    const ev = paid[back] || paid[0];
    return ev ? ev.from : this.seat;
  }

  // ------------------------------------------------------------------ the hand

  handCounts() {
    return parseCounts((this.frame && this.frame.view.hand) || "");
  }

  renderHand() {
    if (!this.frame) return;
    const v = this.frame.view;
    const focusRank = document.activeElement && document.activeElement.dataset && document.activeElement.dataset.rank;
    clear(this.handEl);
    if (this.seat === null) {
      this.handEl.classList.add("spectating");
      this.handEl.appendChild(h("div.muted", icon("eye"), " " + t("watching")));
      clear(this.handInfo);
      return;
    }
    const hand = this.handCounts();
    const special = h("div.cluster.special");
    const naturals = h("div.cluster.naturals");
    for (const r of DISPLAY_ORDER) {
      const n = hand[r];
      if (!n) continue;
      const ch = RANKS[r];
      const sel = this.sel[r];
      const stack = h("span.stack", { dataset: { depth: Math.min(n, 4) } }, cardFace(ch));
      const g = h(
        "button.group" + (sel ? ".selected" : "") + (sel && sel === n ? ".all" : ""),
        {
          type: "button",
          dataset: { rank: ch, count: n, sel },
          "aria-label": `${rankFace(ch)} ×${n}` + (sel ? `, ${sel} ✓` : ""),
          "aria-pressed": sel ? "true" : "false",
        },
        stack,
        h("span.n", "×" + n),
        sel ? h("span.sel-n", String(sel)) : null,
      );
      this.bindGroup(g, r);
      (r >= TWO ? special : naturals).appendChild(g);
    }
    if (special.lastChild) special.lastChild.classList.add("last-special");
    if (special.childNodes.length) this.handEl.appendChild(special);
    if (naturals.childNodes.length) this.handEl.appendChild(naturals);
    if (!total(hand)) this.handEl.appendChild(h("div.muted", t("hand_empty")));
    if (focusRank) {
      const again = this.handEl.querySelector(`[data-rank="${focusRank}"]`);
      if (again) again.focus();
    }
    clear(this.handInfo);
    const selText = formatCounts(this.sel);
    const suggestion = !!selText && this.isSuggestion();
    this.handEl.classList.toggle("suggested", suggestion);
    const said = suggestion ? "suggested_sel" : "selected";
    this.handInfo.append(
      ...[h("span.sel-text", selText
        ? t(said, { cards: `${cardsText(selText)} (${total(this.sel)})`, button: t(this.sendButton()) })
        : t("nothing_selected")),
      this.hint && !SETUP_PHASES.includes(v.phase) ? h("span.hint-reason", icon("bulb"), " ", this.hintLine()) : null,
      this.burnInfo(),
      ].filter(Boolean),
    );
  }

  /** The hint's reason in the page's language, with the seats' names as shown. */
  hintText() {
    const hnt = this.hint;
    if (!hnt) return "";
    return (hnt.code && reasonText(hnt.code, hnt.params, (s) => this.name(s))) || hnt.reason;
  }

  /** Before a burn: what it needs (the plays left after it, a joker for each but the last) and whether the
   * hand can carry it; during this seat's own burn: the jokers left for the plays to come. */
  burnInfo() {
    if (!this.isMyTurn() || this.frame.view.phase !== "play") return null;
    const hand = this.handCounts();
    const me = this.frame.view.players[this.seat] || {};
    if (this.frame.turn.burn_offer && total(this.sel)) {
      const need = burnNeeds(hand, this.sel, this.bieSan());
      return h("span.burn-need" + (need.ok ? ".ok" : ".short"), { id: "burn-need" },
        t(need.ok ? "burn_need_ok" : "burn_need_short", need));
    }
    if (me.burning) {
      const left = playsNeeded(hand, this.bieSan());
      const jokers = hand[13] + hand[14];
      return h("span.burn-need" + (jokers >= left - 1 ? ".ok" : ".short"), { id: "burn-need" },
        t("burning_need", { after: left, needed: Math.max(0, left - 1), jokers }));
    }
    return null;
  }

  /** A click on a rank: a natural rank is selected whole (or as many as the play to beat needs, and it
   * replaces another natural rank); clicked again, one fewer; 2s and jokers are added one per click. */
  clickRank(r) {
    const n = this.handCounts()[r];
    if (!n) return;
    // another natural rank than the suggestion's starts a selection of its own (its 2s and jokers too)
    if (r < TWO && !this.sel[r] && this.isSuggestion()) this.sel.fill(0);
    this.suggested = null;
    const cur = this.sel[r];
    if (r >= TWO) {
      this.setSel(r, cur >= n ? 0 : cur + 1);
      return;
    }
    if (cur) {
      this.setSel(r, cur - 1);
      return;
    }
    for (let q = 0; q < TWO; q++) if (q !== r) this.sel[q] = 0;
    let want = n;
    const top = this.frame && this.frame.view.top;
    if (top && this.frame.view.phase === "play") {
      const a = playOf(parseCounts(top));
      const extra = this.sel[TWO] + this.sel[13] + this.sel[14];
      if (a && !a.effBig) {
        want = Math.max(1, Math.min(n, a.size - extra));
        if (want < a.size - extra) {
          // too few of the rank: make up the count with 2s, then small, then big jokers, if that beats
          const hand = this.handCounts();
          const trial = this.sel.slice();
          trial[r] = want;
          let short = a.size - extra - want;
          for (const q of [TWO, 13, 14]) {
            const add = Math.min(short, hand[q] - trial[q]);
            trial[q] += add;
            short -= add;
          }
          if (!short && playAllowed(trial, hand, top, this.rules)) {
            this.selEpoch = (this.selEpoch || 0) + 1;
            this.sel = trial;
            this.renderHand();
            this.renderActions();
            this.markHint();
            return;
          }
        }
      }
    }
    this.setSel(r, want);
  }

  bindGroup(g, r) {
    let timer = null;
    g.addEventListener("pointerdown", (e) => {
      if (e.button !== 0) return;
      this.longPressed = false;
      timer = setTimeout(() => {
        this.longPressed = true; // a long press clears the rank
        this.setSel(r, 0);
      }, LONG_PRESS_MS);
    });
    const cancel = () => clearTimeout(timer);
    g.addEventListener("pointerup", cancel);
    g.addEventListener("pointerleave", cancel);
    g.addEventListener("click", (e) => {
      if (this.longPressed) {
        this.longPressed = false;
        return;
      }
      // a double click on a rank plays it: the first click selected it, the second sends that selection
      const last = this.lastPick;
      this.lastPick = null;
      if (e.detail >= 2 && last && last.rank === r && last.fresh && Date.now() - last.at < DOUBLE_CLICK_MS) {
        if (this.sendSelection()) return;
      }
      const fresh = !this.sel[r];
      this.clickRank(r);
      this.lastPick = { rank: r, fresh: fresh && this.sel[r] > 0, at: Date.now() };
    });
    g.addEventListener("contextmenu", (e) => {
      e.preventDefault();
      this.setSel(r, Math.max(0, this.sel[r] - 1));
    });
    g.addEventListener("keydown", (e) => {
      const n = this.handCounts()[r];
      if (e.key === "ArrowUp" || e.key === "+" || e.key === "=") this.setSel(r, Math.min(n, this.sel[r] + 1));
      else if (e.key === "ArrowDown" || e.key === "-") this.setSel(r, Math.max(0, this.sel[r] - 1));
      else if (e.key === "ArrowLeft" || e.key === "ArrowRight") {
        const all = Array.from(this.handEl.querySelectorAll(".group"));
        const i = all.indexOf(g) + (e.key === "ArrowLeft" ? -1 : 1);
        if (all[i]) all[i].focus();
      } else return;
      e.preventDefault();
      e.stopPropagation();
    });
  }

  setSel(r, n) {
    this.selEpoch = (this.selEpoch || 0) + 1;
    this.sel[r] = n;
    this.renderHand();
    this.renderActions();
    this.markHint();
  }

  // ------------------------------------------------------------------ actions

  /** Which plays the selection may be sent as now: {play, burn, ret} (booleans). */
  selectionState() {
    const out = { play: false, burn: false, ret: false };
    if (!this.isMyTurn() || this.pending || !total(this.sel)) return out;
    const f = this.frame;
    const v = f.view;
    const turn = f.turn;
    const hand = this.handCounts();
    if (v.phase === "tribute_return") {
      const n = this.returnSize();
      const text = "return " + formatCounts(this.sel);
      out.ret = total(this.sel) === n && (turn.choices ? turn.choices.includes(text) : true);
      return out;
    }
    if (v.phase !== "play") return out;
    let ok;
    if (turn.choices) {
      ok = turn.choices.some((c) => {
        const text = turn.burn_offer ? (c.startsWith("burn ") ? c.slice(5) : null) : c;
        if (!text || text === "pass" || text === "yield") return false;
        try {
          return sameCounts(parseCounts(text), this.sel);
        } catch {
          return false;
        }
      });
    } else {
      ok = playAllowed(this.sel, hand, v.top, this.rules);
    }
    if (turn.burn_offer) out.burn = ok;
    else out.play = ok;
    return out;
  }

  renderActions() {
    if (!this.frame) return;
    clear(this.actionsEl);
    if (this.seat === null) return;
    const f = this.frame;
    const v = f.view;
    const mine = this.isMyTurn() && !this.pending;
    const turn = f.turn;
    const st = this.selectionState();
    const b = (id, key, enabled, onclick, cls = "") =>
      h("button.btn" + cls, { type: "button", id, disabled: !enabled, onclick }, t(key));
    const hintBtn = b("btn-hint", "btn_hint", mine, () => this.askHint(), ".ghost");
    const clearBtn = b("btn-clear", "btn_clear", total(this.sel) > 0, () => this.clearSel(), ".ghost");
    if (SETUP_PHASES.includes(v.phase)) {
      this.actionsEl.append(hintBtn);
      if (v.phase === "tribute_return") {
        this.actionsEl.append(clearBtn,
          b("btn-return", "btn_return", st.ret, () => this.act("return " + formatCounts(this.sel)), ".primary"));
      }
      return;
    }
    const burnOffer = mine && turn.burn_offer;
    const forced = this.forcedText();
    if (forced) this.actionsEl.append(h("span.forced-pill#forced", { role: "note" }, forced));
    this.actionsEl.append(
      hintBtn,
      clearBtn,
      b("btn-pass", burnOffer ? "btn_no_burn" : "btn_pass", mine && !!turn.can_pass, () => this.act("pass")),
      b("btn-yield", "btn_yield", mine && !!turn.can_yield, () => this.act("yield")),
      b("btn-burn", "btn_burn", st.burn, () => this.act("burn " + formatCounts(this.sel)), ".burn"),
      b("btn-play", "btn_play", st.play, () => this.act(formatCounts(this.sel)), ".primary"),
    );
    if (mine) this.actionsEl.classList.add("my-turn");
    else this.actionsEl.classList.remove("my-turn");
  }

  clearSel() {
    this.selEpoch = (this.selEpoch || 0) + 1;
    this.suggested = null;
    this.sel.fill(0);
    this.renderHand();
    this.renderActions();
  }

  /**
   * When a real question reaches this seat: ask for the hint and select its play for the player (a
   * suggestion: one click on Play, or Enter, takes it; a click on another rank starts a selection of its
   * own). Nothing is selected over what the player has already picked. `suggestedFor` names the state the
   * suggestion (or its absence) is settled for.
   */
  suggest() {
    if (!this.frame) return;
    const state = this.frame.state;
    if (this.suggestAsked === state) return;
    this.suggestAsked = state;
    this.suggested = null;
    if (!this.prefs.suggest || !this.isMyTurn() || !this.info || this.pending || total(this.sel)) {
      this.suggestedFor = state;
      return;
    }
    const epoch = this.selEpoch;
    this.askHint({ soft: true, epoch }).finally(() => {
      if (this.frame && this.frame.state === state) this.suggestedFor = state;
    });
  }

  async askHint({ soft = false, epoch = null } = {}) {
    if (!this.isMyTurn() || !this.info) return;
    const state = this.frame.state;
    let action, reason;
    try {
      const res = await api(`/api/tables/${this.code}/hint`, { token: this.info.token });
      if (res.state !== this.frame.state) return;
      action = res.action;
      reason = res.reason;
      this.hintCode = { code: res.code, params: res.params };
    } catch (e) {
      // the table moved on (409), or the automatic suggestion: nothing to show
      if (e.status === 409 || this.frame.state !== state || soft) return;
      // a hint for this seat already being worked out (429), the server busy with hints (503): say so
      if (e.status === 429 || e.status === 503) {
        toast(t(e.status === 429 ? "hint_pending" : "hint_busy"), "warn");
        return;
      }
      const turn = this.frame.turn;
      const list = turn.choices || turn.sample || [];
      action = list.find((c) => c !== "pass" && c !== "yield") || list[0];
      reason = t("hint_fallback");
      this.hintCode = { code: null, params: null };
    }
    if (!action || this.frame.state !== state || this.pending) return;
    // a suggestion never replaces what the player picked meanwhile
    if (soft && (this.selEpoch !== epoch || total(this.sel))) return;
    this.hint = { state, action, reason, ...(this.hintCode || {}) };
    let cards = null;
    if (action.startsWith("burn ")) cards = action.slice(5);
    else if (action.startsWith("return ")) cards = action.slice(7);
    else if (/^[3-9TJQKA2XD]+$/.test(action)) cards = action;
    if (cards) this.sel = parseCounts(cards);
    else this.sel.fill(0);
    this.suggested = cards ? { state, sel: this.sel.slice() } : null;
    this.hint.flash = action === "pass" ? "#btn-pass, .prompt [data-action='pass']"
      : action === "yield" ? "#btn-yield"
      : cards === null ? `.prompt [data-action='${action}']` : action.startsWith("burn") ? "#btn-burn"
      : action.startsWith("return") ? "#btn-return" : "#btn-play";
    this.renderAll();
    const flash = this.root.querySelector(".hinted");
    if (flash && !soft) flash.focus();
  }

  /** Whether the selection is still the hint's suggestion, untouched. */
  isSuggestion() {
    const s = this.suggested;
    return !!(s && this.frame && s.state === this.frame.state && sameCounts(s.sel, this.sel));
  }

  /** Send the selection as what it may be sent as now (play, burn or 还贡); false when it may not be. */
  sendSelection() {
    const st = this.selectionState();
    if (st.play) this.act(formatCounts(this.sel));
    else if (st.burn) this.act("burn " + formatCounts(this.sel));
    else if (st.ret) this.act("return " + formatCounts(this.sel));
    else return false;
    return true;
  }

  /** Mark the hinted button again after a redraw (a change of language redraws everything). */
  markHint() {
    if (!this.hint || !this.hint.flash || !this.frame || this.hint.state !== this.frame.state) return;
    const el = this.root.querySelector(this.hint.flash);
    if (el) el.classList.add("hinted");
  }

  onKey(e) {
    if (!this.frame || e.target.closest && e.target.closest("input, select, textarea")) return;
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    const key = e.key;
    const ch = KEY_RANKS[e.code];
    if (ch && this.seat !== null) {
      const r = RANKS.indexOf(ch);
      const n = this.handCounts()[r];
      if (n && r < TWO && !this.sel[r] && this.isSuggestion()) this.sel.fill(0);
      this.suggested = null;
      if (n) this.setSel(r, e.shiftKey ? Math.max(0, this.sel[r] - 1) : Math.min(n, this.sel[r] + 1));
      e.preventDefault();
      return;
    }
    const click = (sel) => {
      const b = this.root.querySelector(sel);
      if (b && !b.disabled) b.click();
    };
    if (key === "Enter") {
      if (e.target.tagName === "BUTTON" && !e.target.classList.contains("group")) return;
      click("#btn-play:not([disabled]), #btn-burn:not([disabled]), #btn-return:not([disabled])");
      e.preventDefault();
    } else if (key === "?") {
      this.toggleHelp();
    } else if (key === "Escape") {
      if (this.sheetOpen) this.toggleSheet(false);
      else if (this.helpOpen || this.confirming || this.settingsOpen) {
        this.helpOpen = false;
        this.settingsOpen = false;
        this.confirming = null;
        this.renderOverlay();
      } else this.clearSel();
    } else if (e.code === "KeyP") click("#btn-pass");
    else if (e.code === "KeyY") click("#btn-yield");
    else if (e.code === "KeyH") click("#btn-hint");
  }

  toggleHelp() {
    this.helpOpen = !this.helpOpen;
    this.renderBar();
    this.renderOverlay();
  }

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
      h("div.prompt-btns", h("button.btn.primary", { type: "button", id: "help-close",
        onclick: () => this.toggleHelp() }, t("close"))));
  }

  confirmBox() {
    const c = this.confirming;
    return h("div.summary.confirm#confirm", { role: "alertdialog", "aria-label": c.what, tabindex: "-1" },
      h("h2", t("confirm_title")), h("p", c.what), h("p.price", c.price),
      h("div.prompt-btns",
        h("button.btn#confirm-cancel", { type: "button", onclick: () => { this.confirming = null; this.renderOverlay(); } }, t("cancel")),
        h("button.btn.danger#confirm-ok", { type: "button", onclick: () => this.act(c.action, true) }, t("confirm_anyway"))));
  }

  tick() {
    for (const el of this.root.querySelectorAll(".timer[data-deadline], .ready-countdown[data-deadline]")) {
      const left = Math.max(0, Math.ceil((Number(el.dataset.deadline) - Date.now()) / 1000));
      el.textContent = `${left}s`;
      el.classList.toggle("low", left <= 5);
    }
  }

  // ------------------------------------------------------------------ side panel

  renderSide() {
    const old = this.logEl;
    const stick = !old || old.scrollTop + old.clientHeight >= old.scrollHeight - 40;
    const keep = old ? old.scrollTop : 0;
    clear(this.side);
    const tabs = [["log", "tab_log"], ["counter", "tab_counter"], ["score", "tab_score"]];
    const bar = h("div.tabs", { role: "tablist" });
    for (const [id, key] of tabs) {
      bar.appendChild(h("button.tab" + (this.sideTab === id ? ".active" : ""), {
        type: "button", role: "tab", dataset: { tab: id }, "aria-selected": this.sideTab === id ? "true" : "false",
        onclick: () => { this.sideTab = id; this.renderSide(); },
      }, t(key)));
    }
    bar.appendChild(h("button.tab.sheet-close#sheet-close", { type: "button", "aria-label": t("close"),
      onclick: () => this.toggleSheet(false) }, "✕"));
    this.side.appendChild(bar);
    this.side.classList.toggle("open", !!this.sheetOpen);
    if (this.sideTab === "log") {
      // a scrollable region keyboards reach (axe: scrollable-region-focusable)
      this.logEl = h("ol.log", { tabindex: "0", "aria-label": t("tab_log") });
      // while the table waits for players, the deal (dealt already) is not told: it starts with the table
      const lines = this.table.status === "waiting" ? [{ line: t("waiting_deal"), cls: "ev-info" }] : this.logLines();
      for (const item of lines.slice(-400)) this.logEl.appendChild(h("li." + item.cls, item.line));
      this.side.appendChild(this.logEl);
      this.logEl.scrollTop = stick ? this.logEl.scrollHeight : keep;
    } else {
      this.logEl = null;
      this.side.appendChild(this.sideTab === "counter" ? this.counterPanel() : this.scorePanel());
    }
  }

  counterEnabled() {
    const cfg = this.config || {};
    if (typeof cfg.card_counter === "boolean") return cfg.card_counter;
    const pref = localStorage.getItem("gouji.counter." + this.code);
    return pref === null ? true : pref === "1";
  }

  counterPanel() {
    if (!this.counterEnabled()) return h("div.pane.muted", t("counter_off"));
    const deck = deckCounts(this.rules);
    const played = parseCounts(this.frame.view.played || "");
    const mine = this.handCounts();
    const grid = h("div.counter-grid");
    for (const r of DISPLAY_ORDER) {
      const left = Math.max(0, deck[r] - played[r] - mine[r]);
      if (!deck[r]) continue;
      grid.appendChild(h("div.counter-cell" + (left ? "" : ".zero"), { dataset: { rank: RANKS[r], left } },
        cardFace(RANKS[r], "mini"), h("span.left", String(left))));
    }
    return h("div.pane", h("div.muted.small", t("counter_help")), grid);
  }

  scorePanel() {
    const tb = this.table;
    const pts = tb.points || [];
    const members = (team) => [0, 1, 2, 3, 4, 5].filter((s) => teamOf(s) === team).map((s) => this.name(s)).join(" · ");
    const rows = pts.map((p, i) => h("tr", h("td", t("deal_n", { n: i + 1 })), h("td", String(p[0])), h("td", String(p[1]))));
    const tot = tb.totals || [0, 0];
    return h("div.pane",
      h("table.score-table",
        h("thead", h("tr", h("th", ""),
          h("th", h("span.team-dot.team0"), teamName(0)), h("th", h("span.team-dot.team1"), teamName(1)))),
        h("tbody", rows, h("tr.total", h("td", t("totals")), h("td", String(tot[0])), h("td", String(tot[1]))))),
      h("div.small.muted", h("span.team-dot.team0"), members(0)),
      h("div.small.muted", h("span.team-dot.team1"), members(1)));
  }

  // ------------------------------------------------------------------ end of deal and set

  renderOverlay() {
    clear(this.overlay);
    if (this.confirming || this.helpOpen || this.settingsOpen) {
      const box = this.confirming ? this.confirmBox() : this.helpOpen ? this.helpBox() : this.settingsBox();
      this.overlay.appendChild(h("div.backdrop", box));
      (box.querySelector("#confirm-cancel, #help-close, #settings-close") || box).focus();
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
    const tribute = s.tribute.filter((e) => e.type === "tribute").map((e) =>
      h("li", describeEvent(e, (x) => this.name(x), { setup: true })));
    const tot = s.totals || [0, 0];
    const box = h("div.summary", { role: "dialog", "aria-modal": "true", tabindex: "-1",
      "aria-label": s.last ? t("set_over") : t("deal_over", { n: s.deal + 1 }) },
      h("h2", s.last ? t("set_over") : t("deal_over", { n: s.deal + 1 })),
      s.sweep !== null && s.sweep !== undefined ? h("p.sweep", t("sweep", { team: teamName(s.sweep) })) : null,
      h("ol.places", placeRows),
      s.points ? h("p.deal-points", t("points") + ": ", h("span.team-dot.team0"), `${teamName(0)} ${s.points[0]}`, " · ",
        h("span.team-dot.team1"), `${teamName(1)} ${s.points[1]}`) : null,
      !s.last && !dup ? h("div.tribute", h("h3", t("tribute_next")), tribute.length ? h("ul", tribute) : h("p.muted", t("no_tribute"))) : null,
      h("p.totals", t("totals") + ": ", h("span.team-dot.team0"), `${teamName(0)} ${tot[0]}`, " · ",
        h("span.team-dot.team1"), `${teamName(1)} ${tot[1]}`),
      dup ? h("p.dup-wait#dup-wait", dup.waiting ? t("dup_waiting_other") : t("dup_other_done")) : null,
      s.last && !dup ? h("p.winner", tot[0] === tot[1] ? t("draw") : t("winner", { team: teamName(tot[0] > tot[1] ? 0 : 1) })) : null,
      s.last && dup && dup.match_points ? h("p.winner", t("dup_match_points") + `: ${dup.teams[0]} ${dup.match_points[0]} : ${dup.match_points[1]} ${dup.teams[1]}`) : null,
      s.last && dup ? h("a.chip", { href: `/?match=${dup.match}`, id: "dup-scorekeeper-link" }, t("dup_scorekeeper")) : null,
      s.last && !dup ? this.replayLinks() : null,
      !s.last ? this.readyPanel() : null,
      h("div.prompt-btns", this.continueButton(s)),
    );
    this.overlay.appendChild(h("div.backdrop", box));
    if (this.focusedSummary !== s) {
      this.focusedSummary = s;
      box.focus();
    }
    this.tick();
  }

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
  }

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
  }

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
  }

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
      }
    }, () => {});
    return holder;
  }
}
