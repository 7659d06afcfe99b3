// The felt: six seats around the table from one seat's point of view, the top play, and the log lines.
// Used by the live table (table.js) and the replay (replay.js).

import { icon } from "./icons.js";
import { h } from "./dom.js";
import { t, STRINGS, getLang } from "./i18n.js";
import { term, termHelp } from "./glossary.js";

/** t(key) for a line whose subject is `seat`: the "_you" form of the key when that seat is the viewer's own
 * and the language has one ("you pass", not "you passes"). */
function tSubject(key, seat, me, vars) {
  const you = key + "_you";
  if (me !== null && me !== undefined && seat === me && STRINGS[getLang()][you] !== undefined) return t(you, vars);
  return t(key, vars);
}
import { cardFace, playCards, parseCounts, total, DISPLAY_ORDER, RANKS, rankFace } from "./cards.js";

export const SETUP_PHASES = ["swap", "tribute_return", "buy_four", "revolution", "yaotou", "xuandian",
  "giveback", "huiwu", "chongdian", "selfopen"];

export function teamOf(seat) {
  return seat % 2;
}

let sideNames = null;

/** A duplicate match's table names its sides by the teams sitting there (["East", "West"]: even seats,
 * odd seats); null: 红方 / 蓝方. */
export function setSideNames(names) {
  sideNames = names && names.length === 2 ? names : null;
}

export function teamName(team) {
  if (sideNames) return sideNames[team];
  return t(team === 0 ? "team_red" : "team_blue");
}

export function placeName(i) {
  return t("place_" + i);
}

/** A seat's display name: its nickname, or "Bot n", or "Seat n (empty)". */
export function seatName(seats, s) {
  const info = seats && seats[s];
  if (info && info.nickname) return info.nickname;
  if (info && info.bot) return `${t("bot")} ${s + 1}`;
  return `${t("seat_n", { n: s + 1 })}`;
}

/** Cards as text for log lines: "2 2 K K K" style with 10 and jokers written out. */
export function cardsText(text) {
  return Array.from(String(text || ""))
    .map((ch) => (ch === "X" ? t("joker_small") : ch === "D" ? t("joker_big") : rankFace(ch)))
    .join(" ");
}

function actLine(ev, name, setup, me) {
  const a = ev.action;
  const seat = name(ev.seat);
  const say = (key, vars) => tSubject(key, ev.seat, me, { seat, ...vars });
  if (a === "pass") return setup ? null : say("l_pass"); // a "no" before play says nothing new
  if (a === "yield") return say("l_yield");
  if (a === "declare") return say("l_declare");
  if (a === "yaotou") return say("l_yaotou");
  if (a === "wutou") return say("l_wutou");
  if (a === "buy4") return say("l_buy4");
  if (a === "revolt" || a === "return" || a.startsWith("return ")) return null; // told by their own events
  if (["swap", "giveback", "huiwu", "chongdian", "selfopen"].includes(a)) return null; // likewise
  if (a.startsWith("burn ")) return say("l_burn", { cards: cardsText(a.slice(5)) });
  return say("l_play", { cards: cardsText(a) });
}

/**
 * One log line for a public event, or null for events told by another line. `name(seat)` gives a seat's
 * name; `ctx.setup` says whether the deal is still before play (updated as events pass).
 */
export function describeEvent(ev, name, ctx) {
  const kind = (k) => t("k_" + k);
  switch (ev.type) {
    case "deal":
      ctx.setup = true;
      return t("l_deal", { name: name(ev.first_leader ?? ev.leader ?? 0) });
    case "void":
      return t("l_void");
    case "tribute":
      if (ev.exempt) return tSubject("l_tribute_exempt", ev.from, ctx.me, { from: name(ev.from), kind: kind(ev.kind) });
      if (!ev.cards) return tSubject("l_tribute_none", ev.from, ctx.me, { from: name(ev.from), kind: kind(ev.kind) });
      return tSubject("l_tribute", ev.from, ctx.me,
        { from: name(ev.from), to: name(ev.to), cards: cardsText(ev.cards), kind: kind(ev.kind) });
    case "point_swap":
      return tSubject(ev.agree ? "l_swap_yes" : "l_swap_no", ev.seat, ctx.me, { seat: name(ev.seat) });
    case "tribute_giveback":
      return tSubject("l_giveback", ev.from, ctx.me, { from: name(ev.from), to: name(ev.to), cards: cardsText(ev.cards) });
    case "huiwu":
      return tSubject("l_huiwu", ev.seat, ctx.me, { seat: name(ev.seat), cards: cardsText(ev.cards) });
    case "chongdian":
      return tSubject("l_chongdian", ev.seat, ctx.me, { seat: name(ev.seat) });
    case "tribute_return":
      if (typeof ev.cards === "number") return t("l_return_n", { from: name(ev.from), to: name(ev.to), n: ev.cards });
      return t("l_return", { from: name(ev.from), to: name(ev.to), cards: cardsText(ev.cards) });
    case "buy": {
      const rank = rankFace(ev.rank);
      if (ev.from === null || ev.from === undefined) return t("l_buy_none", { seat: name(ev.seat), rank });
      if (ev.kind === "give") return t("l_give", { seat: name(ev.seat), from: name(ev.from), rank });
      if (ev.kind === "free" || !ev.paid) return t("l_free", { seat: name(ev.seat), from: name(ev.from), rank });
      return t("l_buy", { seat: name(ev.seat), from: name(ev.from), rank, paid: cardsText(ev.paid) });
    }
    case "revolution":
      return tSubject("l_revolution", ev.seat, ctx.me, { seat: name(ev.seat), hand: cardsText(ev.hand) });
    case "play":
      ctx.setup = false;
      return t("l_play_start", { name: name(ev.leader) });
    case "round":
      return tSubject("l_round", ev.leader, ctx.me, { name: name(ev.leader) });
    case "act":
      return actLine(ev, name, ctx.setup, ctx.me);
    case "burn":
      return ev.level > 1 ? t("l_burn_level", { n: ev.level }) : null;
    case "burn_success":
    case "burn_broken":
    case "burn_countered":
    case "burn_failed":
    case "burn_ended":
      return tSubject("l_" + ev.type, ev.seat, ctx.me, { seat: name(ev.seat) });
    case "forfeit":
      return tSubject("l_forfeit", ev.seat, ctx.me, { seat: name(ev.seat) });
    case "smothered":
      return tSubject("l_smothered", ev.seat, ctx.me, { seat: name(ev.seat), by: name(ev.by) });
    case "out":
      return tSubject("l_out", ev.seat, ctx.me, { seat: name(ev.seat), place: placeName(ev.order - 1) });
    case "open":
      return tSubject("l_open", ev.seat, ctx.me, { seat: name(ev.seat) });
    case "free_for_all":
      return t("l_ffa");
    case "end":
      return t("l_end");
    default:
      return null;
  }
}

/** The class of a log line, to colour the notable ones. */
export function eventClass(ev) {
  if (ev.type === "act") return ev.action === "pass" ? "ev-pass" : "ev-act";
  if (["open", "out", "smothered", "revolution", "free_for_all", "end", "void"].includes(ev.type)) return "ev-big";
  if (ev.type.startsWith("burn")) return "ev-burn";
  if (ev.type === "tribute" || ev.type === "tribute_return" || ev.type === "buy") return "ev-tribute";
  return "ev-info";
}

/** What each seat did in the current round, from events in order: seat → its last action, and
 * `plays[seat]` → all its actions of the round (a new array each time: a state that holds the old one keeps it). */
export function trackLastActs(last, ev) {
  if (ev.type === "deal" || ev.type === "void" || ev.type === "play" || ev.type === "round") {
    for (const k of Object.keys(last)) delete last[k];
    if (ev.type !== "round") last.setup = ev.type !== "play";
  } else if (ev.type === "act" && typeof ev.action === "string" && !ev.action.startsWith("return")) {
    // before play a "no" (不革命, 不宣, 不买) says nothing: no bubble, and it clears none
    if (last.setup && ev.action === "pass") return;
    last[ev.seat] = ev.action;
    const plays = last.plays || {};
    last.plays = { ...plays, [ev.seat]: [...(plays[ev.seat] || []), ev.action] };
  }
}

const ROUND_SHOWN = 3; // a seat's bubble: its last plays of the round (older ones smaller), "…" before them

/** A seat's bubble: what it did this round, oldest first; the top play itself is in the centre. */
function roundBubble(acts, top) {
  const shown = top ? acts.slice(0, -1) : acts;
  if (!shown.length) return null;
  const tail = shown.slice(-ROUND_SHOWN);
  const one = (act) => (act === "pass" ? t("btn_pass") : act === "yield" ? t("btn_yield") : actBubble(act));
  return h("div.bubble" + (shown.length > 1 ? ".trail" : ""), { dataset: { plays: shown.join(",") } },
    shown.length > tail.length ? h("span.more", "…") : null,
    tail.map((act, i) => h("span.act" + (i < tail.length - 1 || top ? ".earlier" : ""), one(act))));
}

function badge(key, cls, extra) {
  return h("span.badge." + cls, { title: t(key) }, t(key) + (extra || ""));
}

/** A badge that names game term `id` (glossary.js): its title explains the term. */
function termBadge(id, key, cls, extra) {
  const lang = getLang();
  const title = term(id, lang) + (lang === "zh" ? "：" : ": ") + termHelp(id, lang);
  return h("span.badge." + cls, { title, dataset: { term: id } },
    t(key) + (extra || ""));
}

// the setup phases that are game terms: named by the glossary
const PHASE_TERMS = { xuandian: "xuandian", yaotou: "yaotou", swap: "huandian", chongdian: "chongdian", selfopen: "selfopen" };

/** A setup phase's name: "Call (宣点)" … */
export function phaseName(phase) {
  return PHASE_TERMS[phase] ? term(PHASE_TERMS[phase], getLang()) : t("phase_" + phase);
}

/**
 * The felt as a DOM element.
 * model: {view, seats (table seats, or null), bottom (the seat drawn at the bottom), me (own seat or null),
 *         last (seat → last action), hands (six hands to show, or null), turn ({seat, deadline}),
 *         showCounts (bool)}
 */
export function renderFelt(model) {
  const { view } = model;
  const felt = h("div.felt", { "aria-label": "table" });
  felt.appendChild(h("div.felt-rim"));
  const players = (view && view.players) || [];
  const outOrder = (view && view.out_order) || [];
  const places = view && view.places;
  for (let pos = 0; pos < 6; pos++) {
    const s = (model.bottom + pos) % 6;
    felt.appendChild(renderSeat(model, s, pos, players[s] || {}, outOrder, places));
  }
  felt.appendChild(renderCenter(model));
  return felt;
}

function renderSeat(model, s, pos, p, outOrder, places) {
  const { view, seats, me, last, hands, turn } = model;
  const info = (seats && seats[s]) || {};
  const toAct = !!turn && (turn.seats ? turn.seats.includes(s) : turn.seat === s);
  const cls = [
    "seat",
    "pos" + pos,
    "team" + teamOf(s),
    toAct ? "to-act" : "",
    s === me ? "me" : "",
    p.status && p.status !== "in_play" ? "status-" + p.status : "",
    hands ? "open-hand" : "",
  ].join(" ");
  const el = h("div", { class: cls, dataset: { seat: s } });
  const name = seatName(seats, s);
  const head = h(
    "div.seat-head",
    h("span.avatar", { "aria-hidden": "true" }, info.bot ? icon("bot") : name.slice(0, 1).toUpperCase()),
    // (a seat held by an account, beside a guest who may share its name: marked, account.css)
    h("span.seat-name" + (info.account ? ".account" : ""), { title: info.account ? `${name} · ${t("acc_mark")}` : name }, name),
  );
  el.appendChild(head);

  const meta = h("div.seat-meta");
  const count = p.cards;
  meta.appendChild(
    h(
      "span.count",
      { title: count === null || count === undefined ? t("cards_hidden") : t("cards_n", { n: count }) },
      h("span.cardback"),
      count === null || count === undefined ? t("cards_hidden") : String(count),
    ),
  );
  if (s !== me && !hands && p.status === "in_play") {
    // the hand as a fan of card backs: as many as it holds when the count is shown, a few when it is not
    const n = count === null || count === undefined ? 6 : Math.min(count, 12);
    const fan = h("div.backs" + (count === null || count === undefined ? ".unknown" : ""), { "aria-hidden": "true" });
    for (let i = 0; i < n; i++) fan.appendChild(h("span.back"));
    el.appendChild(fan);
  }
  let place = null;
  if (places) place = places.indexOf(s);
  else if (outOrder.includes(s)) place = outOrder.indexOf(s);
  if (place !== null && place >= 0) meta.appendChild(h("span.place.place" + place, placeName(place)));
  el.appendChild(meta);

  const badges = h("div.badges");
  if (me !== null && me !== undefined && s === (me + 3) % 6 && s !== me) badges.appendChild(badge("opposite", "b-opp"));
  if (p.opened) badges.appendChild(termBadge("kaidian", "b_opened", "b-open"));
  if (p.forfeited && !p.opened) badges.appendChild(termBadge("forfeit", "b_forfeited", "b-forfeit"));
  if (p.declared) badges.appendChild(termBadge("xuandian", "b_declared", "b-declare"));
  if (p.burning) badges.appendChild(badge("b_burning", "b-burn"));
  if (p.status === "smothered") badges.appendChild(badge("b_smothered", "b-men"));
  if (p.status === "failed_burn") badges.appendChild(badge("b_failed_burn", "b-men"));
  if (p.status === "revolted") badges.appendChild(badge("b_revolted", "b-rev"));
  if (p.yaotou === "yaotou" && p.yaotou_left > 0) badges.appendChild(termBadge("yaotou", "b_yaotou", "b-head", ` ×${p.yaotou_left}`));
  else if (p.headless) badges.appendChild(termBadge("wutou", "b_headless", "b-headless"));
  if (info.auto && !info.bot) badges.appendChild(badge("b_auto", "b-auto"));
  if (info.offline) badges.appendChild(badge("b_offline", "b-offline"));
  el.appendChild(badges);

  if (turn && turn.seat === s && turn.deadline) {
    el.appendChild(h("div.timer", { dataset: { deadline: turn.deadline } }, ""));
  } else if (turn && toAct && turn.countdown && !info.bot && !info.auto) {
    // every seat to act shows its countdown to everyone (the table's public timer of the window)
    el.appendChild(h("div.timer.public", { dataset: { deadline: turn.countdown } }, ""));
  }
  const act = last && last[s];
  const acts = (last && last.plays && last.plays[s]) || (act ? [act] : []);
  const bubble = acts.length ? roundBubble(acts, s === (view && view.top_seat)) : null;
  if (bubble) el.appendChild(bubble);
  const revealed = p.revealed;
  const shown = hands ? hands[s] : revealed;
  if (shown && !(s === me && !hands)) {
    el.appendChild(h("div.seat-hand", miniHand(shown)));
  }
  return el;
}

function actBubble(act) {
  // a recent play as rank groups with counts (K ×3 + 2 ×1): legible where overlapping cards are not
  if (act.startsWith("burn ")) return h("span", t("btn_burn") + " ", miniHand(act.slice(5)));
  if (/^[3-9TJQKA2XD]+$/.test(act)) return miniHand(act);
  const key = { declare: "btn_declare", revolt: "btn_revolt", yaotou: "btn_yaotou", wutou: "btn_wutou", buy4: "btn_buy4" }[act];
  return key ? t(key) : act;
}

/** A hand as compact rank groups with counts (for open hands in replays and revealed revolutions). */
export function miniHand(text) {
  const counts = parseCounts(text);
  const wrap = h("span.mini-hand", { dataset: { hand: text } });
  for (const r of DISPLAY_ORDER) {
    if (!counts[r]) continue;
    const ch = RANKS[r];
    wrap.appendChild(
      h("span.mini-group", cardFace(ch, "mini"), counts[r] > 1 ? h("span.mini-count", "×" + counts[r]) : null),
    );
  }
  if (!total(counts)) wrap.appendChild(h("span.muted", "—"));
  return wrap;
}

/** A person's seat to act without a connection (断线): "Waiting for Ann (offline) — auto-play (托管) in 12 s",
 * the seconds counted by the table's tick (the table's public countdown; none without a turn timer). */
function absence(status, info, who, turn) {
  if (!info || !info.offline || info.bot || info.auto) return;
  status.classList.add("absent");
  status.replaceChildren(t("absent_wait", { name: who }));
  if (turn.countdown) status.appendChild(h("span.absent-left", { dataset: { deadline: turn.countdown } }));
}

function renderCenter(model) {
  const { view, seats, turn, me } = model;
  const center = h("div.center");
  if (!view) return center;
  const name = (s) => (s === me ? t("you") : seatName(seats, s));
  if (view.free_for_all) center.appendChild(h("div.ffa", t("free_for_all")));
  if (view.top) {
    center.appendChild(
      h(
        "div.top-play" + (view.top_gouji ? ".gouji" : ""),
        playCards(view.top, "top"),
        h(
          "div.top-by",
          h("span.team-dot.team" + teamOf(view.top_seat)),
          t("played_by", { name: name(view.top_seat) }),
          view.top_gouji ? h("span.gouji-tag", t("gouji_play")) : null,
        ),
      ),
    );
  }
  const status = h("div.status-line", { role: "status" });
  if (view.phase === "over") {
    status.textContent = t("l_end");
  } else if (turn && turn.seat !== null && turn.seat !== undefined) {
    const s = turn.seat;
    if (SETUP_PHASES.includes(view.phase)) {
      status.textContent = tSubject("phase_setup_wait", s, me, { name: name(s), what: phaseName(view.phase) });
    } else if (view.burn_offer) {
      // a burn offer is put to all its seats at once: who of them may really burn is nobody's business
      status.textContent = s === me && "legal_count" in turn ? t("your_burn") : t("burn_window");
    } else if (!view.top) {
      status.textContent = s === me ? t("your_turn") : t("leads", { name: name(s) });
    } else {
      status.textContent = s === me ? t("your_turn") : t("turn_of", { name: name(s) });
    }
    if (s === me) status.classList.add("mine");
    if (turn.kind === "revolution" || turn.kind === "buy_four") {
      status.textContent = "legal_count" in turn && s === me ? t("your_turn") : t("window_" + turn.kind);
    } else if (!view.burn_offer && s !== me) absence(status, seats && seats[s], name(s), turn);
  }
  center.appendChild(status);
  return center;
}
