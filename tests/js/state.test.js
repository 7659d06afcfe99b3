// The live table's reducer: one state object, the next one made from each frame, effects returned.
import { test } from "node:test";
import assert from "node:assert/strict";
import { initialState, reduce, reducePresence } from "../../src/gouji/server/static/table/state.js";

const seats = () => [0, 1, 2, 3, 4, 5].map((s) => ({ seat: s, bot: s ? "heuristic" : null, auto: false }));
const table = (extra = {}) => ({ status: "playing", seats: seats(), points: [], totals: [0, 0], ready: null, ...extra });
const full = (deal, log, extra = {}) => ({ type: "state", full: true, state: 1, deal, table: { ...table(), config: { set_length: 2 } },
  view: { hand: "KKK3", log, rule_options: { bie_san: true } }, turn: { seat: 1 }, ...extra });
const step = (state, deal, events, tb = {}, view = {}) => ({ type: "state", full: false, state, deal, table: table(tb),
  view: { hand: "KKK3", ...view }, turn: { seat: 1 }, events });

test("a full frame sets the deal, its log, the rules and the config; the old state is not changed", () => {
  const s0 = initialState(0);
  const { state, effects } = reduce(s0, full(0, [{ type: "deal", deal: 0 }, { type: "play", leader: 1 }]));
  assert.equal(state.deal, 0);
  assert.equal(state.dealEvents.length, 2);
  assert.deepEqual(state.rules, { bie_san: true });
  assert.equal(state.table.config.set_length, 2);
  assert.equal(effects.full, true);
  assert.equal(s0.deal, -1);
  assert.equal(s0.dealEvents.length, 0);
});

test("events add to the log and the bubbles; a new deal starts a new log and keeps the old one", () => {
  let { state } = reduce(initialState(0), full(0, [{ type: "play", leader: 1, deal: 0 }]));
  ({ state } = reduce(state, step(2, 0, [{ type: "act", seat: 1, action: "99", deal: 0 }])));
  assert.equal(state.last[1], "99");
  ({ state } = reduce(state, step(3, 1, [{ type: "deal", deal: 1 }])));
  assert.equal(state.deal, 1);
  assert.equal(state.dealEvents.length, 1);
  assert.equal(state.prevDeal.deal, 0);
  assert.equal(state.last[1], undefined); // the bubbles start again
});

test("a deal's end holds its summary, with the tribute the next deal owes and why", () => {
  let { state } = reduce(initialState(0), full(0, []));
  const events = [{ type: "end", deal: 0, places: [1, 0, 2, 3, 4, 5], sweep: null },
    { type: "deal", deal: 1 }, { type: "tribute", deal: 1, from: 5, to: 1, kind: "luo", cards: "2" }];
  const r = reduce(state, step(5, 1, events, { points: [[4, -4]], totals: [4, -4], ready: { seats: [false] } }));
  assert.equal(r.effects.hold.length, 1);
  const held = r.effects.hold[0];
  assert.equal(held.deal, 0);
  assert.deepEqual(held.tribute.map((e) => e.kind), ["luo"]);
  assert.deepEqual(held.points, [4, -4]);
  assert.deepEqual(r.state.summaryShown, [0]);
  state = r.state;
  // shown once: the same end again holds nothing
  assert.equal(reduce(state, step(6, 1, [events[0]])).effects.hold.length, 0);
});

test("托管 begun by the timer is an effect; begun by the player is not", () => {
  let { state } = reduce(initialState(0), full(0, []));
  const auto = seats();
  auto[0].auto = true;
  assert.equal(reduce(state, step(2, 0, [], { seats: auto })).effects.autoTimeout, true);
  state = { ...state, autoAsked: true };
  assert.equal(reduce(state, step(2, 0, [], { seats: auto })).effects.autoTimeout, false);
});

test("the selection stays within the hand; a stale hint and an answered intent are dropped", () => {
  let { state } = reduce(initialState(0), full(0, []));
  state = { ...state, sel: state.sel.map((_, r) => (r === 10 ? 3 : r === 0 ? 2 : 0)), hint: { state: 1 },
    pending: { state: 1 } };
  ({ state } = reduce(state, step(2, 0, [], {}, { hand: "KK3" })));
  assert.equal(state.sel[10], 2);
  assert.equal(state.sel[0], 1);
  assert.equal(state.hint, null);
  assert.equal(state.pending, null);
});

test("a presence frame marks the offline seats (断线) and clears the others; the old state is not changed", () => {
  let { state } = reduce(initialState(0), full(0, []));
  const s1 = reducePresence(state, { type: "presence", offline: [3] });
  assert.deepEqual(s1.table.seats.map((s) => !!s.offline), [false, false, false, true, false, false]);
  assert.equal(state.table.seats[3].offline, undefined);
  const s2 = reducePresence(s1, { type: "presence", offline: [] });
  assert.equal(s2.table.seats[3].offline, false);
  assert.equal(s2.frame, state.frame);
  assert.equal(reducePresence(initialState(0), { type: "presence", offline: [1] }).table, null);
});
