// Tournaments (比赛): the duplicate match at two tables and events of several teams.
// - tourneyPanels(go, presets, bots): the lobby's forms: open a duplicate match, open an event (each team
//   people, bots, or mixed seat by seat), join a team by its code;
// - ScorekeeperView (/?match=CODE): the scorekeeper's view (记分员) of a match, both tables, updated live;
// - EventView (/?event=CODE): an event's schedule, results and standings, updated live; its organiser
//   starts the matches from here.
// The server does the scoring; these pages only show what it answers (polled every POLL_MS).

import { h, clear, api, toast, storeSeat, lastNickname, rememberNickname } from "./dom.js";
import { t, onLangChange } from "./i18n.js";
import { botChoice, botLevel, botOptions } from "./bots.js";

const POLL_MS = 1500;
const ORGANISER_KEY = "gouji.organiser";

// who sits in a seat: a person (""), or one of the bots the server offers (GET /api/bots, its levels first),
// shown by its level's name, never its id (bots.js)
const FALLBACK_BOTS = ["heuristic", "random"];
// (`short`: the level alone, 高手, where the row says it is a seat's)
const seatOptions = (bots, chosen, short) => [h("option", { value: "", selected: !chosen }, t("dup_person")),
  ...botOptions(bots, chosen, short ? botLevel : botChoice)];
/** The bot that fills a seat by default ("bots for the rest"): 高手 when offered. */
const defaultBot = (bots) => (bots.includes("heuristic") ? "heuristic" : bots[0]);

function organiser(kind, code, token) {
  let all = {};
  try {
    all = JSON.parse(localStorage.getItem(ORGANISER_KEY) || "{}");
  } catch {
    all = {};
  }
  const key = kind + ":" + code;
  if (token !== undefined) {
    all[key] = { ...(all[key] || {}), ...token };
    localStorage.setItem(ORGANISER_KEY, JSON.stringify(all));
  }
  return all[key] || null;
}

function field(label, input) {
  return h("label.field", h("span.label", label), input);
}

function presetSelect(presets, name) {
  return h("select", { name, id: name }, presets.order.map((n) =>
    h("option", { value: n, selected: n === "tournament" }, t("preset_" + n))));
}

function timerSelect(name) {
  return h("select", { name, id: name },
    [15, 30, 60, 120].map((n) => h("option", { value: String(n), selected: n === 30 }, t("seconds", { n }))),
    h("option", { value: "" }, t("timer_off")));
}

function speedSelect(name) {
  return h("select", { name, id: name },
    h("option", { value: "0" }, t("speed_instant")),
    h("option", { value: "0.2" }, t("speed_fast")),
    h("option", { value: "0.4", selected: true }, t("speed_normal")));
}

/** The team (0 = first, 1 = second) in `seat` of `table` (0 or 1): seats 0, 2, 4 of table 1 are team 1's. */
export function teamAt(table, seat) {
  return table === 0 ? seat % 2 : 1 - (seat % 2);
}

// ------------------------------------------------------------------------------------ the lobby's forms

/** The lobby's panels of tournaments: a match, an event, a team code. */
export function tourneyPanels(go, presets, bots) {
  const offered = bots && bots.length ? bots : FALLBACK_BOTS;
  return [matchForm(go, presets, offered), eventForm(go, presets, offered), teamJoinForm(go)];
}

function matchForm(go, presets, bots) {
  const names = [h("input", { name: "team_x", id: "team-x", value: "X", maxlength: "24" }),
    h("input", { name: "team_y", id: "team-y", value: "Y", maxlength: "24" })];
  const grid = h("div.dup-seat-grid");
  const relabel = () => {
    for (const el of grid.querySelectorAll("[data-team-label]")) {
      el.textContent = names[Number(el.dataset.teamLabel)].value || "?";
    }
  };
  for (const tb of [0, 1]) {
    const col = h("div.dup-table-col", h("h4", t("dup_table_n", { n: tb + 1 })));
    for (let s = 0; s < 6; s++) {
      const team = teamAt(tb, s);
      col.appendChild(h("label.seat-choice.team" + (s % 2),
        h("span", t("seat_n", { n: s + 1 }), " · ", h("b", { dataset: { teamLabel: team } }, "")),
        h("select", { name: `dup_seat_${tb}_${s}`, id: `dup-seat-${tb}-${s}` },
          seatOptions(bots, null))));
    }
    grid.appendChild(col);
  }
  for (const n of names) n.addEventListener("input", relabel);
  relabel();
  // who plays, in one choice: one person a table (the same team's, seat 1 of table 1 and seat 2 of table 2),
  // bots for the rest; or everyone a person; or seat by seat below
  const who = h("select", { name: "dup_who", id: "dup-who", onchange: () => {
    if (who.value === "custom") return;
    for (const tb of [0, 1]) {
      for (let s = 0; s < 6; s++) {
        const person = who.value === "people" || (tb === 0 && s === 0) || (tb === 1 && s === 1);
        get(`dup_seat_${tb}_${s}`).value = person ? "" : defaultBot(bots);
      }
    }
  } }, ["people", "one_per_table", "custom"].map((v) => h("option", { value: v }, t("dup_who_" + v))));
  const get = (n) => grid.querySelector(`[name=${n}]`);
  const deals = h("input", { name: "deals", id: "dup-deals", type: "number", min: "1", max: "20", value: "4" });
  const form = h("form.panel.tourney#match-form", { onsubmit: (e) => { e.preventDefault(); createMatch(form, go); } },
    h("h2", t("dup_title")),
    h("p.muted.small", t("dup_help")),
    h("div.row2", field(t("dup_team_names"), h("div.row2", names[0], names[1])), field(t("dup_deals"), deals)),
    h("div.row2", field(t("preset"), presetSelect(presets, "dup_preset")), field(t("timer"), timerSelect("dup_timer"))),
    field(t("bot_speed"), speedSelect("dup_speed")),
    field(t("dup_who"), who),  // (a row of its own: "one person per table, bots for the rest" is long)
    h("details.dup-seats", h("summary", t("dup_seats")), grid),
    h("button.btn.primary#match-create", { type: "submit" }, t("dup_create")));
  return form;
}

async function createMatch(form, go) {
  const get = (n) => form.querySelector(`[name=${n}]`);
  const timer = get("dup_timer").value;
  const bots = [0, 1].map((tb) => [0, 1, 2, 3, 4, 5].map((s) => get(`dup_seat_${tb}_${s}`).value || null));
  const body = {
    teams: [get("team_x").value.trim(), get("team_y").value.trim()],
    deals: Number(get("deals").value) || 4,
    preset: get("dup_preset").value,
    turn_seconds: timer ? Number(timer) : null,
    bot_delay: Number(get("dup_speed").value),
    bots,
  };
  try {
    const res = await api("/api/matches", body);
    organiser("match", res.code, { owner_token: res.owner_token });
    go(`/?match=${res.code}`);
  } catch (e) {
    toast(t("error", { msg: e.message }), "error");
  }
}

/** Who plays for a team of an event, as its row of the form chooses: people, one person a table and bots
 * for the rest, a bot (a level) for the whole team, or seat by seat; and the three seats it fills in. */
function teamSeats(choice, bots, seats) {
  if (choice === "one_per_table") return ["", defaultBot(bots), defaultBot(bots)];
  if (choice === "custom") return seats;
  return [choice, choice, choice]; // "": people; else a bot for the whole team
}

/** A team's three seats as POST /api/events takes them: omitted (people), one bot, or three (null: a person). */
export function teamBots(seats) {
  if (seats.every((x) => x === seats[0])) return seats[0] || undefined;
  return seats.map((x) => x || null);
}

function eventForm(go, presets, bots) {
  const teams = h("input", { name: "ev_teams", id: "ev-teams", placeholder: t("ev_teams_ph") });
  const who = h("div.ev-who");
  const picks = new Map(); // team name → { choice, seats }: kept while the names are typed
  const row = (name, i) => {
    const pick = picks.get(name) || { choice: "", seats: ["", "", ""] };
    picks.set(name, pick);
    const seatSels = [0, 1, 2].map((k) => h("select", {
      name: `ev_seat_${i}_${k}`, id: `ev-seat-${i}-${k}`, "aria-label": t("ev_seat_who", { team: name, n: k + 1 }),
      onchange: (e) => { pick.seats[k] = e.target.value; pick.choice = "custom"; choice.value = "custom"; },
    }, seatOptions(bots, pick.seats[k], true)));
    const seatRow = h("div.ev-seats", { hidden: !["custom", "one_per_table"].includes(pick.choice) },
      seatSels.map((sel, k) => h("label.ev-seat", h("span", t("ev_seat_n", { n: k + 1 })), sel)));
    const choice = h("select", {
      name: `ev_bot_${i}`, id: `ev-who-${i}`, dataset: { team: name }, "aria-label": t("ev_team_who", { team: name }),
      onchange: () => {
        pick.choice = choice.value;
        pick.seats = teamSeats(choice.value, bots, pick.seats.slice());
        seatSels.forEach((sel, k) => { sel.value = pick.seats[k]; });
        seatRow.hidden = !["custom", "one_per_table"].includes(choice.value);
      },
    }, [["", t("ev_who_people")], ["one_per_table", t("dup_who_one_per_table")], ["custom", t("dup_who_custom")]].map(
      ([v, label]) => h("option", { value: v, selected: pick.choice === v }, label)),
    botOptions(bots, pick.choice));
    return h("div.ev-team", { dataset: { team: name } }, h("label.seat-choice", h("span.ev-team-name", name), choice), seatRow);
  };
  const refresh = () => {
    const names = [...new Set(teams.value.split(",").map((x) => x.trim()).filter(Boolean))];
    clear(who);
    names.forEach((name, i) => who.appendChild(row(name, i)));
    who.teams = names.map((name) => [name, picks.get(name)]);
  };
  teams.addEventListener("input", refresh);
  const deals = h("input", { name: "ev_deals", id: "ev-deals", type: "number", min: "1", max: "20", value: "4" });
  const form = h("form.panel.tourney#event-form", { onsubmit: (e) => { e.preventDefault(); createEvent(form, who, go); } },
    h("h2", t("ev_title")),
    h("p.muted.small", t("ev_help")),
    field(t("ev_teams"), teams),
    h("fieldset.ev-players", h("legend", t("ev_players")), h("p.muted.small", t("ev_seats_help")), who),
    h("div.row2", field(t("dup_deals"), deals), field(t("preset"), presetSelect(presets, "ev_preset"))),
    h("div.row2", field(t("timer"), timerSelect("ev_timer")), field(t("bot_speed"), speedSelect("ev_speed"))),
    h("button.btn.primary#event-create", { type: "submit" }, t("ev_create")));
  return form;
}

async function createEvent(form, who, go) {
  const get = (n) => form.querySelector(`[name=${n}]`);
  const teams = get("ev_teams").value.split(",").map((x) => x.trim()).filter(Boolean);
  const bots = {};
  for (const [name, pick] of who.teams || []) {
    const chosen = teamBots(pick.seats);
    if (chosen !== undefined) bots[name] = chosen;
  }
  const timer = get("ev_timer").value;
  try {
    const res = await api("/api/events", {
      teams, bots, deals: Number(get("ev_deals").value) || 4, preset: get("ev_preset").value,
      turn_seconds: timer ? Number(timer) : null, bot_delay: Number(get("ev_speed").value),
    });
    organiser("event", res.code, { owner_token: res.owner_token });
    go(`/?event=${res.code}`);
  } catch (e) {
    toast(t("error", { msg: e.message }), "error");
  }
}

function teamJoinForm(go) {
  const form = h("form.panel.tourney#team-join-form", { onsubmit: (e) => { e.preventDefault(); joinTeam(form, go); } },
    h("h2", t("dup_join_title")),
    h("div.row2",
      field(t("dup_team_code"), h("input", { name: "team_code", id: "team-code", placeholder: t("team_code_ph"),
        style: { textTransform: "uppercase" } })),
      field(t("nickname"), h("input", { name: "team_nickname", id: "team-nickname", maxlength: "24", value: lastNickname() }))),
    h("button.btn#team-join-btn", { type: "submit" }, t("dup_join")));
  return form;
}

async function joinTeam(form, go) {
  const code = form.querySelector("[name=team_code]").value.trim().toUpperCase();
  const nickname = form.querySelector("[name=team_nickname]").value.trim();
  try {
    const res = await api(`/api/teams/${encodeURIComponent(code)}/join`, { nickname });
    rememberNickname(nickname);
    storeSeat(res.code, { seat: res.seat, token: res.token, nickname, match: res.match });
    go(`/?t=${res.code}`);
  } catch (e) {
    toast(t("error", { msg: e.message }), "error");
  }
}

// ------------------------------------------------------------------------------------ live pages

class Polled {
  constructor(root, path, { go } = {}) {
    this.root = root;
    this.path = path;
    this.go = go || (() => {});
    this.data = null;
    this.error = null;
    this.unLang = onLangChange(() => this.draw());
    clear(root).appendChild(h("div.loading", "…"));
    this.poll();
    this.timer = setInterval(() => this.poll(), POLL_MS);
  }

  destroy() {
    clearInterval(this.timer);
    this.unLang();
  }

  async poll() {
    try {
      this.data = await api(this.path);
      this.error = null;
      if (this.settled(this.data)) clearInterval(this.timer); // nothing on it can change any more
    } catch (e) {
      this.error = e.message;
    }
    this.draw();
  }

  /** Whether what the page shows is final (it stops asking). */
  settled() {
    return false;
  }

  draw() {
    if (this.error && !this.data) {
      clear(this.root).appendChild(h("section.tourney-view", h("div.panel.error", this.error),
        h("button.btn", { type: "button", onclick: () => this.go("/") }, t("back_to_lobby"))));
      return;
    }
    if (!this.data) return;
    const open = [...this.root.querySelectorAll("details[open]")].map((d) => d.id);
    clear(this.root).appendChild(this.render(this.data));
    for (const id of open) {
      const d = id && this.root.querySelector("#" + id);
      if (d) d.open = true;
    }
  }
}

function placesLine(places) {
  return h("span.places-line", places.map((p) =>
    h("span.place-chip.team" + p.team_index, { title: t("seat_n", { n: p.seat + 1 }) }, `${p.team}${p.seat + 1}`)));
}

export class ScorekeeperView extends Polled {
  constructor(root, code, opts) {
    super(root, `/api/matches/${encodeURIComponent(code)}`, opts);
    this.code = code;
    this.records = null;
    this.codes = null;
    this.loadCodes();
  }

  settled(data) {
    return data.status === "over";
  }

  /** The join codes, for the organiser only (its token from when it created the match); `rotate`: the team
   * whose code is replaced first. */
  async loadCodes(rotate) {
    const org = organiser("match", this.code);
    if (!org || !org.owner_token) return;
    try {
      const body = { owner_token: org.owner_token };
      if (rotate !== undefined) body.rotate = rotate;
      this.codes = await api(`/api/matches/${encodeURIComponent(this.code)}/codes`, body);
      if (rotate !== undefined && this.data) toast(t("dup_rotated", { team: this.data.teams[rotate] }));
    } catch (e) {
      toast(t("error", { msg: e.message }), "error");
    }
    this.draw();
  }

  render(m) {
    const [x, y] = m.teams;
    const teamIndex = (name) => (name === x ? 0 : 1);
    const head = h("div.table-bar",
      h("div.bar-left", h("b", t("dup_scorekeeper")), h("span.code", t("dup_match", { code: m.code })),
        h("span.preset", t("preset_" + (m.preset || "tournament"))),
        h("span.status", { id: "match-status", dataset: { status: m.status } },
          m.status === "over" ? t("dup_over") : t("dup_playing")),
        m.event ? h("a.chip", { href: `/?event=${m.event}` }, t("ev_event", { code: m.event })) : null),
      h("div.bar-right", h("button.chip", { type: "button", onclick: () => this.go("/") }, t("lobby"))));
    const tables = h("div.dup-tables", (m.tables || []).map((tb) => h("div.panel.dup-table", { dataset: { table: tb.table } },
      h("h2", t("dup_table_n", { n: tb.table + 1 }), " ",
        h("span.muted.small", tb.code ? `${t("table_code")} ${tb.code}` : "")),
      tb.seats ? h("p.small", t("dup_deals_finished", { n: tb.deals_finished }), " · ",
        h("span.dup-state", tb.waiting ? t("dup_waiting") : tb.status === "over" ? t("dup_over") : t("dup_playing"))) : null,
      tb.seats ? h("ul.seat-list", tb.seats.map((s) => h("li.team" + teamIndex(s.team),
        h("span.seat-label", t("seat_n", { n: s.seat + 1 })), h("span.team-name", s.team),
        h("span.who", s.nickname || (s.bot ? botChoice(s.bot) : t("free")))))) : null)));
    const mine = this.codes;
    const codes = mine && m.status !== "over"
      ? h("div.panel.dup-codes", h("h2", t("dup_codes")), h("p.small.muted", t("dup_codes_secret")), h("ul.plain",
          mine.team_codes.map((c, i) => h("li", t("dup_team_code_of", { team: c.team }), ": ", h("b.code-text", c.code), " ",
            h("button.btn.small.rotate", { type: "button", dataset: { team: i }, onclick: () => this.loadCodes(i) }, t("dup_rotate")))),
          mine.table_codes.map((tb) => h("li", t("dup_table_code_of", { n: tb.table + 1 }), ": ", h("b.code-text", tb.code)))))
      : null;
    const rows = m.results.map((r) => h("tr", { dataset: { deal: r.deal } },
      h("td", t("deal_n", { n: r.deal })),
      r.places.map((pl) => h("td", placesLine(pl.map((p) => ({ ...p, team_index: teamIndex(p.team) }))))),
      h("td.num", String(r.points[0])), h("td.num", String(r.points[1]))));
    const sheet = h("div.panel.dup-sheet#dup-sheet",
      h("table.score-table.dup-score",
        h("thead", h("tr", h("th", t("dup_deals")), h("th", t("dup_places_t", { n: 1 })), h("th", t("dup_places_t", { n: 2 })),
          h("th", h("span.team-dot.team0"), x), h("th", h("span.team-dot.team1"), y))),
        h("tbody", rows,
          h("tr.total", h("td", t("dup_total")), h("td", ""), h("td", ""),
            h("td.num#dup-total-x", String(m.totals[0])), h("td.num#dup-total-y", String(m.totals[1]))))),
      m.results.length ? null : h("p.muted", t("dup_no_deal_yet")),
      m.match_points ? h("div.dup-result#dup-result",
        h("h2", t("dup_result")),
        h("p.winner", m.totals[0] === m.totals[1] ? t("dup_draw") : t("dup_winner", { team: m.totals[0] > m.totals[1] ? x : y })),
        h("p", t("dup_match_points"), ": ", h("b", `${x} ${m.match_points[0]} : ${m.match_points[1]} ${y}`))) : null);
    const comparison = m.comparison && m.comparison.length
      ? h("details.panel.dup-compare#dup-compare", h("summary", t("dup_comparison")),
          h("table.score-table", h("thead", h("tr", h("th", t("dup_deals")), h("th", t("dup_hands")), h("th", x), h("th", y), h("th", t("dup_margin")))),
            h("tbody", m.comparison.map((c) => c.sides.map((side, i) => h("tr",
              i === 0 ? h("td", { rowSpan: 2 }, t("deal_n", { n: c.deal })) : null,
              h("td", t("dup_side", { seats: side.seats.map((s) => s + 1).join(", ") })),
              h("td.num", String(side.points[0])), h("td.num", String(side.points[1])),
              h("td.num", (side.margin > 0 ? "+" : "") + side.margin)))))))
      : null;
    return h("section.tourney-view.scorekeeper", head, sheet, h("div.dup-side", tables, codes), comparison, this.replays(m));
  }

  replays(m) {
    if (m.status !== "over") return null;
    if (!this.records) {
      this.records = [];
      api(`/api/tables/${m.code}/games`).then((res) => {
        this.records = res.games || [];
        this.draw();
      }, () => {});
      return null;
    }
    const final = this.records.find((g) => g.kind === "match" && g.deal === null);
    if (!final) return null;
    const links = [];
    for (let k = 0; k < m.results.length; k++) {
      for (const tb of [0, 1]) {
        links.push(h("a.chip", { href: `/?replay=${final.id}&deal=${k}&table=${tb}`, dataset: { link: "replay" } },
          t("dup_replay", { n: k + 1, t: tb + 1 })));
      }
    }
    return h("div.panel.replay-links", links);
  }
}

export class EventView extends Polled {
  constructor(root, code, opts) {
    super(root, `/api/events/${encodeURIComponent(code)}`, opts);
    this.code = code;
    this.codes = {};
  }

  async start(key) {
    const org = organiser("event", this.code);
    try {
      const res = await api(`/api/events/${this.code}/start`, { owner_token: org && org.owner_token, fixture: key });
      if (res.team_codes) this.codes[key] = res;
      this.poll();
    } catch (e) {
      toast(t("error", { msg: e.message }), "error");
    }
  }

  render(ev) {
    const org = organiser("event", this.code);
    const head = h("div.table-bar",
      h("div.bar-left", h("b", t("ev_event", { code: ev.code })), h("span.preset", t("preset_" + (ev.preset || "tournament"))),
        h("span.status", { id: "event-status", dataset: { over: ev.over ? "1" : "0" } }, ev.over ? t("dup_over") : t("dup_playing"))),
      h("div.bar-right", h("button.chip", { type: "button", onclick: () => this.go("/") }, t("lobby"))));
    const rounds = ev.rounds.map((r) => h("div.ev-round",
      h("h3", t("ev_round", { n: r.round }), r.byes.length ? h("span.muted.small", " · " + t("ev_bye", { teams: r.byes.join(", ") })) : null),
      h("ul.ev-matches", r.matches.map((m) => {
        const codes = this.codes[m.key];
        return h("li.ev-match", { dataset: { key: m.key, status: m.status } },
          h("span.ev-key", m.key), h("span.ev-teams", `${m.x} — ${m.y}`),
          m.small_points ? h("span.ev-score", `${m.small_points[0]} : ${m.small_points[1]}`, h("span.muted", ` (${m.match_points[0]} : ${m.match_points[1]})`))
            : h("span.muted", m.status === "playing" ? t("dup_playing") + (m.progress ? ` (${m.progress.join(" / ")})` : "") : t("ev_not_started")),
          m.match ? h("a.chip", { href: `/?match=${m.match}` }, t("dup_scorekeeper")) : null,
          !m.match && org ? h("button.btn.small", { type: "button", dataset: { start: m.key }, onclick: () => this.start(m.key) }, t("ev_start")) : null,
          codes ? h("div.small.ev-codes", t("ev_codes_here"), ": ",
            codes.team_codes.map((c) => h("span.code-text", ` ${c.team} ${c.code} `))) : null);
      }))));
    const by = (d) => (d === "head-to-head" ? t("ev_by_head") : d ? t("ev_by_" + d) : "");
    const table = h("table.score-table.standings#standings",
      h("thead", h("tr", ["ev_rank", "ev_team", "ev_played", "ev_wdl", "ev_mp", "ev_sp", "ev_against", "ev_by"].map((k) => h("th", t(k))))),
      h("tbody", ev.standings.map((s) => h("tr", { dataset: { team: s.team } },
        h("td", String(s.rank)), h("td", s.team, whoPlays(ev.bots[s.team])),
        h("td", String(s.played)), h("td", `${s.won}-${s.drawn}-${s.lost}`), h("td.num", String(s.match_points)),
        h("td.num", String(s.small_points)), h("td.num", String(s.small_against)), h("td.small", by(s.decided_by))))));
    return h("section.tourney-view.event-view", head,
      h("div.ev-layout", h("div.panel", h("h2", t("ev_schedule")), rounds), h("div.panel", h("h2", t("ev_standings")), table)));
  }
}

/** Who plays for a team on the event's page: nothing for people, "机器人 · 高手" for a bot standing in, seat by
 * seat "真人 · 新手 · 高手" for a mixed team (levels by name, never by id). */
export function whoPlays(bots) {
  if (!bots) return null;
  const text = Array.isArray(bots) ? bots.map((b) => (b ? botLevel(b) : t("dup_person"))).join(" · ") : botChoice(bots);
  return h("span.muted.small.ev-who-plays", text);
}

// ------------------------------------------------------------------------------------ at a table of a match

/** The line a table of a duplicate match shows above the felt, and whether it waits for the other table. */
export function duplicateBanner(dup, code) {
  if (!dup) return null;
  const text = t("dup_banner", { code: dup.match, n: dup.table + 1, a: dup.seat_teams[0], b: dup.seat_teams[1] });
  return dup.waiting ? `${text} — ${t("dup_waiting_other")}` : text;
}
