// The live table's state: one object, changed by `reduce(state, frame)` for each `state` frame of the server
// (docs/protocol.md). The reducer is pure: it returns the next state and the effects the page must play out
// (a toast, a summary to show after a pause, the marks of new events); the views draw from the state alone.

import { parseCounts, NUM_RANKS } from "../cards.js";
import { trackLastActs } from "../render.js";

/** The state of a table page before its first frame. */
export function initialState(seat = null) {
  return {
    seat, // this page's seat (null: watching)
    frame: null, // the last state frame
    table: null, // the table's public part, merged over frames (config kept from the full frame)
    config: null,
    rules: null, // the deal's rule options (full frames only)
    deal: -1, // the deal shown
    dealEvents: [], // the public events of that deal, in order
    prevDeal: null, // {deal, events}: the one before (its summary may still need them)
    last: {}, // seat → what it did last in the current round (the bubbles)
    sel: new Array(NUM_RANKS).fill(0), // the selection in the hand, per rank
    pending: null, // {id, state, sel, action}: an intent sent, not yet answered
    hint: null, // {state, action, reason, code, params}: the hint for a state
    summary: null, // the end-of-deal summary shown
    heldSummary: null, // a summary waiting for its pause (so the last plays stay visible first)
    summaryShown: [], // the deals whose summary has been shown
    finalShown: false,
    readySent: false,
    autoAsked: false, // the player turned 托管 on themselves (no "time ran out" toast then)
    seen: null, // {deal, index}: how far this player followed the deal's log while at the table
    autoFrom: null, // {deal, index}: where 托管 took over this seat (its moves since are counted for them)
  };
}

function newDeal(s, deal) {
  const prevDeal = s.dealEvents.length ? { deal: s.deal, events: s.dealEvents } : s.prevDeal;
  return { ...s, deal, prevDeal, dealEvents: [], last: {} };
}

function addEvent(s, ev) {
  const last = { ...s.last };
  trackLastActs(last, ev);
  return { ...s, dealEvents: [...s.dealEvents, ev], last };
}

function eventsOf(s, n) {
  if (n === s.deal) return s.dealEvents.slice();
  return s.prevDeal && s.prevDeal.deal === n ? s.prevDeal.events.slice() : [];
}

const isTribute = (e) => e.type === "tribute" || e.type === "tribute_return";

/**
 * The next state after frame `f`, and its effects: {autoTimeout (托管 began for this seat by the timer),
 * hold (summaries to show after a pause), events (the frame's new events, for the marks), full}.
 */
export function reduce(state, f) {
  let s = { ...state };
  const effects = { autoTimeout: false, hold: [], events: f.full ? [] : f.events || [], full: !!f.full };
  const seats = f.table && f.table.seats;
  const mine = seats && s.seat !== null ? seats[s.seat] : null;
  const wasAuto = !!(s.table && s.table.seats && s.seat !== null && s.table.seats[s.seat].auto);
  if (mine && mine.auto && !wasAuto && !f.full && !s.autoAsked) effects.autoTimeout = true;
  if (mine && !mine.auto) s.autoAsked = false;
  const wasPaused = !!(s.table && s.table.ready);
  // 托管 took over: from here (or, after a reload or a reconnect, from where the player last followed)
  const autoBegins = mine && mine.auto && (!wasAuto || f.full) && !s.autoFrom;
  const from = f.full ? s.seen : { deal: s.deal, index: s.dealEvents.length };
  if (f.full) {
    s.config = f.table.config || s.config;
    if (f.view.rule_options) s.rules = f.view.rule_options;
    s = newDeal(s, f.deal);
    for (const ev of f.view.log || []) s = addEvent(s, ev);
  } else {
    const ended = [];
    for (const ev of f.events || []) {
      if (ev.deal > s.deal) s = newDeal(s, ev.deal);
      if (ev.deal < s.deal) continue;
      if (ev.type === "end") ended.push({ deal: ev.deal, places: ev.places, sweep: ev.sweep, tribute: [] });
      else if (ended.length && isTribute(ev) && ev.deal === ended[0].deal + 1) ended[0].tribute.push(ev);
      else if (isTribute(ev)) {
        // the tribute the next deal owes, come in a later frame than the end: to the summary of that end
        for (const k of ["summary", "heldSummary"]) {
          if (s[k] && s[k].deal === ev.deal - 1) s[k] = { ...s[k], tribute: [...s[k].tribute, ev] };
        }
      }
      s = addEvent(s, ev);
    }
    if (f.deal > s.deal) s = newDeal(s, f.deal);
    for (const e of ended) {
      if (s.summaryShown.includes(e.deal)) continue;
      s.summaryShown = [...s.summaryShown, e.deal];
      effects.hold.push({ ...e, points: (f.table.points || [])[e.deal] || null, totals: f.table.totals,
        last: f.table.status === "over", events: eventsOf(s, e.deal), lastDeal: f.table.last_deal || null });
    }
  }
  if (autoBegins) s.autoFrom = from || { deal: s.deal, index: 0 };
  if (mine && !mine.auto) {
    s.autoFrom = null;
    s.seen = { deal: s.deal, index: s.dealEvents.length };
  }
  s.table = { ...(s.table || {}), ...f.table, config: s.config };
  s.frame = f;
  if (s.pending && f.state > s.pending.state) s.pending = null;
  if (s.hint && s.hint.state !== f.state) s.hint = null;
  // the selection stays within the hand
  const hand = parseCounts(f.view.hand || "");
  s.sel = s.sel.map((n, r) => Math.min(n, hand[r]));
  const held = s.heldSummary || effects.hold.length;
  if (s.table.status === "over" && !s.finalShown && !s.summary && !held) {
    s.summary = { deal: f.deal, places: f.view.places, sweep: f.view.sweep, tribute: [],
      points: (f.table.points || [])[f.deal], totals: f.table.totals, last: true,
      events: s.dealEvents.slice(), lastDeal: f.table.last_deal || null };
  }
  if (s.summary && s.summary.last) s.finalShown = true;
  // the pause between two deals: the summary stays up until every seat is ready (or the timeout)
  const gate = f.table.ready;
  if (gate && !s.summary && !held && f.deal > 0 && !s.summaryShown.includes(f.deal - 1)) {
    // (a full frame mid-pause: after a reload or a reconnect) the places come from the table, the tribute
    // owed for the next deal from that deal's log
    s.summaryShown = [...s.summaryShown, f.deal - 1];
    const ld = f.table.last_deal && f.table.last_deal.deal === f.deal - 1 ? f.table.last_deal : null;
    s.summary = { deal: f.deal - 1, places: ld ? ld.places : null, sweep: ld ? ld.sweep : null,
      tribute: (f.view.log || []).filter(isTribute), points: (f.table.points || [])[f.deal - 1] || null,
      totals: f.table.totals, last: false, lastDeal: ld };
  }
  if (!gate && (wasPaused || s.readySent) && s.summary && !s.summary.last) s.summary = null;
  if (!gate) s.readySent = false;
  return { state: s, effects };
}

/** A `presence` frame: which people's seats have no connection (断线); the next state frame says the same. */
export function reducePresence(state, f) {
  if (!state.table || !state.table.seats) return state;
  const off = new Set(f.offline || []);
  const seats = state.table.seats.map((s) => ({ ...s, offline: off.has(s.seat) }));
  return { ...state, table: { ...state.table, seats } };
}

/** The moves 托管 made for this seat since it took over (this deal's, and all of a deal begun since). */
export function autoMoves(state) {
  const a = state.autoFrom;
  if (!a || state.seat === null) return 0;
  const start = a.deal === state.deal ? a.index : 0;
  return state.dealEvents.slice(start).filter((e) => e.type === "act" && e.seat === state.seat).length;
}

/** The state's keys: LiveTable reads and writes them as its own fields (this.deal is this.state.deal). */
export const STATE_KEYS = Object.keys(initialState());
