// The lobby: open a table (rules, options, set length, timer, who sits where, listed in the hall or not),
// quick play and the hall's links (quickplay.js), join one by code or link, and find finished games to replay.

import { icon } from "./icons.js";
import { h, clear, api, toast, storeSeat, storedSeat, lastNickname, rememberNickname } from "./dom.js";
import { t, onLangChange } from "./i18n.js";
import { tourneyPanels } from "./tourney.js";
import { offeredBots, botOptions } from "./bots.js";
import { quickPlayPanel } from "./quickplay.js";

const OPTION_KEYS = ["bie_san", "revolution", "xuandian", "tribute", "big_joker_kill", "burn_needs_kaidian",
  "kaidian_needs_four", "buy_four"];
const SHOW_COUNTS = ["always", "at_or_below_10", "never"];
// rule book §16: the regional switches, and the options with a few named values
const REGIONAL_KEYS = ["smothered_keeps_head", "open_when_opposite_smothered", "fours_whole", "gousiji",
  "return_held_ranks_only", "huiwu", "sweep_restart_leader", "sweep_keeps_point_tribute", "chongdian", "self_open"];
const CHOICE_OPTIONS = {
  no_three: ["revolt", "free", "last"],
  buy_order: ["opposite_first", "teammates_second", "teammates_first"],
  burn_priority: ["team_first", "turn_order"],
  smother_by: ["anyone", "not_opposite", "opposite_only"],
  failed_burn_third: ["sike", "sanke"],
  first_leader: ["random", "liang_san"],
  mutual_point_tribute: ["pay", "waive", "agree"],
  lao_to_teammate: ["none", "returnable"],
};
const CODE_RE = /^[A-HJ-NP-Z2-9]{6}$/;

let presetsCache = null;
async function presets() {
  if (!presetsCache) presetsCache = await api("/presets.json");
  return presetsCache;
}

export class Lobby {
  constructor(root, { go, code } = {}) {
    this.root = root;
    this.go = go;
    this.joinCode = code || "";
    this.state = { seats: ["me", "heuristic", "heuristic", "heuristic", "heuristic", "heuristic"] };
    this.unLang = onLangChange(() => this.render());
    this.render();
  }

  destroy() {
    this.unLang();
  }

  async render() {
    const data = await presets();
    this.presets = data;
    this.bots = await offeredBots();
    clear(this.root).appendChild(
      h("section.lobby",
        h("div.hero", h("h1", t("hero_title")), h("p", t("hero_text"))),
        h("div.lobby-grid", this.createForm(), h("div.lobby-col", quickPlayPanel(this.go, data), this.joinForm(), this.mySeats(), this.replayForm())),
        h("div.lobby-grid.lobby-tourney", tourneyPanels(this.go, data, this.bots))),
    );
    if (this.joinCode) {
      const form = this.root.querySelector("#join-form");
      form.querySelector("[name=code]").value = this.joinCode;
      this.findTable(form);
      form.scrollIntoView({ block: "start" });
    }
  }

  // ------------------------------------------------------------------ open a table

  createForm() {
    const p = this.presets;
    const field = (label, input, extra) => h("label.field", h("span.label", label), input, extra || null);
    const preset = h("select", { name: "preset", id: "preset" },
      p.order.map((n) => h("option", { value: n }, t("preset_" + n))));
    const setLength = h("input", { name: "set_length", id: "set-length", type: "number", min: "1", max: "20", value: "5" });
    const timer = h("select", { name: "timer", id: "timer" },
      [15, 30, 60, 120].map((n) => h("option", { value: String(n), selected: n === 30 }, t("seconds", { n }))),
      h("option", { value: "" }, t("timer_off")));
    const speed = h("select", { name: "bot_delay", id: "bot-delay" },
      h("option", { value: "0" }, t("speed_instant")),
      h("option", { value: "0.2" }, t("speed_fast")),
      h("option", { value: "0.4", selected: true }, t("speed_normal")),
      h("option", { value: "0.8" }, t("speed_slow")));
    const nickname = h("input", { name: "nickname", id: "nickname", maxlength: "24", value: lastNickname(),
      placeholder: t("nickname_ph"), autocomplete: "nickname" });
    const seats = h("div.seat-grid");
    this.state.seats.forEach((v, s) => {
      const sel = h("select", { name: "seat" + s, id: "seat-" + s, dataset: { seat: s },
        onchange: (e) => {
          if (e.target.value === "me") {
            this.state.seats = this.state.seats.map((x, i) => (i !== s && x === "me" ? "heuristic" : x));
            for (const other of seats.querySelectorAll("select")) {
              if (other !== e.target && other.value === "me") other.value = "heuristic";
            }
          }
          this.state.seats[s] = e.target.value;
        } },
        [["me", t("seat_you")], ["person", t("seat_person")]].map(
          ([val, label]) => h("option", { value: val, selected: v === val }, label)),
        botOptions(this.bots, v));
      sel.addEventListener("change", () => summary());
      seats.appendChild(h("label.seat-choice.team" + (s % 2), h("span", t("seat_n", { n: s + 1 })), sel));
    });
    const counter = h("input", { type: "checkbox", name: "card_counter", id: "card-counter", checked: true });
    const options = h("div.options");
    const fillOptions = () => {
      const base = p.presets[preset.value];
      clear(options);
      for (const key of OPTION_KEYS.concat(REGIONAL_KEYS)) {
        options.appendChild(h("label.check", h("input", { type: "checkbox", name: "opt_" + key, checked: !!base[key],
          dataset: { option: key } }), t("o_" + key)));
      }
      options.appendChild(field(t("o_show_counts"), h("select", { name: "opt_show_counts", dataset: { option: "show_counts" } },
        SHOW_COUNTS.map((v) => h("option", { value: v, selected: base.show_counts === v }, t("sc_" + v))))));
      for (const [key, values] of Object.entries(CHOICE_OPTIONS)) {
        options.appendChild(field(t("o_" + key), h("select", { name: "opt_" + key, dataset: { option: key } },
          values.map((v) => h("option", { value: v, selected: base[key] === v }, t("v_" + v))))));
      }
      setLength.value = String(base.set_length);
    };
    preset.addEventListener("change", fillOptions);
    fillOptions();
    // the seats and the rule options fold away (a phone reaches 开桌 without scrolling past them); the fold's
    // line says what they are now
    const sumText = h("span.more-sum#more-sum");
    const summary = () => {
      const people = this.state.seats.filter((x) => x === "me" || x === "person").length;
      const count = (key, n) => t(n === 1 ? key + "_1" : key, { n });
      sumText.textContent = t("more_options_sum",
        { people: count("sum_people", people), bots: count("sum_bots", 6 - people), preset: t("preset_" + preset.value) });
    };
    preset.addEventListener("change", summary);
    summary();
    const form = h("form.panel.create#create-form", { onsubmit: (e) => { e.preventDefault(); this.create(form); } },
      h("h2", t("create_title")),
      field(t("nickname"), nickname),
      h("div.row2", field(t("preset"), preset), field(t("set_length"), setLength)),
      h("div.row2", field(t("timer"), timer), field(t("bot_speed"), speed)),
      h("button.btn.primary.big#create-btn", { type: "submit" }, t("create_btn")),
      h("details.more-options#more-options",
        h("summary", t("more_options"), " ", sumText),
        h("label.check", h("input#public", { type: "checkbox", name: "public" }), t("o_public")),
        h("fieldset.seats", h("legend", t("seats")), seats),
        h("label.check", counter, t("card_counter"), h("span.muted.small", " — " + t("card_counter_help"))),
        h("details.rule-options", h("summary", t("rule_options")), options)),
    );
    return form;
  }

  async create(form) {
    const get = (n) => form.querySelector(`[name=${n}]`);
    const presetName = get("preset").value;
    const base = this.presets.presets[presetName];
    const seats = Array.from({ length: 6 }, (_, s) => get("seat" + s).value);
    const mine = seats.indexOf("me");
    const nickname = get("nickname").value.trim();
    if (mine >= 0 && !nickname) {
      toast(t("nickname") + "?", "error");
      get("nickname").focus();
      return;
    }
    const options = {};
    for (const el of form.querySelectorAll("[data-option]")) {
      const key = el.dataset.option;
      const value = el.type === "checkbox" ? el.checked : el.value;
      if (value !== base[key]) options[key] = value;
    }
    const timer = get("timer").value;
    const body = {
      preset: presetName,
      options,
      set_length: Number(get("set_length").value) || base.set_length,
      turn_seconds: timer ? Number(timer) : null,
      bot_delay: Number(get("bot_delay").value),
      bots: seats.map((v) => (this.bots.includes(v) ? v : null)),
      card_counter: get("card_counter").checked,
      public: get("public").checked,
    };
    if (mine >= 0) {
      body.nickname = nickname;
      body.seat = mine;
      rememberNickname(nickname);
    }
    let res;
    const btn = form.querySelector("#create-btn");
    btn.disabled = true;
    try {
      res = await api("/api/tables", body);
    } catch (e) {
      toast(t("error", { msg: e.message }), "error");
      btn.disabled = false;
      return;
    }
    localStorage.setItem("gouji.counter." + res.code, get("card_counter").checked ? "1" : "0");
    storeSeat(res.code, { owner_token: res.owner_token, ...(res.token ? { seat: res.seat, token: res.token, nickname } : {}) });
    this.go(`/?t=${res.code}` + (res.token ? "" : "&watch=1"));
  }

  // ------------------------------------------------------------------ join

  joinForm() {
    const form = h("form.panel#join-form", { onsubmit: (e) => { e.preventDefault(); this.findTable(form); } },
      h("h2", t("join_title")),
      h("div.row2",
        h("label.field", h("span.label", t("join_code")),
          h("input", { name: "code", id: "join-code", placeholder: t("join_code_ph"), maxlength: "6", autocapitalize: "characters",
            style: { textTransform: "uppercase" } })),
        h("label.field", h("span.label", t("nickname")),
          h("input", { name: "nickname", id: "join-nickname", maxlength: "24", value: lastNickname(), placeholder: t("nickname_ph") }))),
      h("button.btn#find-btn", { type: "submit" }, t("find_table")),
      h("div.join-seats#join-seats"));
    return form;
  }

  async findTable(form) {
    const code = form.querySelector("[name=code]").value.trim().toUpperCase();
    const out = form.querySelector("#join-seats");
    clear(out);
    if (!code) return;
    let table;
    try {
      table = await api(`/api/tables/${encodeURIComponent(code)}`);
    } catch (e) {
      out.appendChild(h("p.error", e.message));
      return;
    }
    const held = storedSeat(code);
    const list = h("ul.seat-list");
    for (const s of table.seats || []) {
      const who = s.nickname || (s.bot ? `${t("bot")} ${s.seat + 1}` : t("free"));
      const free = !s.bot && !s.nickname;
      list.appendChild(h("li.team" + (s.seat % 2),
        h("span.seat-label", t("seat_n", { n: s.seat + 1 })), h("span.who" + (s.account ? ".account" : ""), { title: s.account ? `${who} · ${t("acc_mark")}` : null }, who),
        free && !(held && held.token) && table.status !== "over"
          ? h("button.btn.small", { type: "button", dataset: { sit: s.seat }, onclick: () => this.join(form, code, s.seat) }, t("sit_here"))
          : h("span.muted", free ? t("free") : t("taken"))));
    }
    out.append(...[
      h("p.muted", `${t("table_code")} ${code} · ${t("preset_" + ((table.config && table.config.preset) || "qingdao"))} · ${t("status_" + table.status)}`),
      list,
      held && held.token
        ? h("button.btn.primary", { type: "button", onclick: () => this.go(`/?t=${code}`) },
          (Number.isInteger(held.seat) ? t("seat_n", { n: held.seat + 1 }) : t("table_code") + " " + code) + " →")
        : null,
      h("button.btn", { type: "button", id: "watch-btn", onclick: () => this.go(`/?t=${code}&watch=1`) }, icon("eye"), " " + t("watch")),
    ].filter(Boolean)); // (Element.append writes a null as the text "null")
  }

  async join(form, code, seat) {
    const nickname = form.querySelector("[name=nickname]").value.trim();
    if (!nickname) {
      toast(t("nickname") + "?", "error");
      form.querySelector("[name=nickname]").focus();
      return;
    }
    try {
      const res = await api(`/api/tables/${code}/join`, { nickname, seat });
      rememberNickname(nickname);
      storeSeat(code, { seat: res.seat, token: res.token, nickname });
      this.go(`/?t=${code}`);
    } catch (e) {
      toast(t("error", { msg: e.message }), "error");
      this.findTable(form);
    }
  }

  mySeats() {
    let all = {};
    try {
      all = JSON.parse(localStorage.getItem("gouji.seats") || "{}");
    } catch {
      all = {};
    }
    const codes = Object.keys(all).filter((c) => all[c].token).slice(-6);
    if (!codes.length) return null;
    return h("div.panel.mine",
      h("ul.plain", codes.map((c) => h("li", h("a", { href: `/?t=${c}` }, `${t("table_code")} ${c}`),
        h("span.muted", " · " + t("seat_n", { n: all[c].seat + 1 }) + " · " + (all[c].nickname || ""))))));
  }

  // ------------------------------------------------------------------ replays

  replayForm() {
    const form = h("form.panel#replay-form", { onsubmit: (e) => { e.preventDefault(); this.listGames(form); } },
      h("h2", t("replays_title")),
      h("label.field", h("span.label", t("replay_query")),
        h("input", { name: "q", id: "replay-q", placeholder: t("replay_query_ph"), value: lastNickname() })),
      h("button.btn", { type: "submit" }, t("list_games")),
      h("div#games"));
    return form;
  }

  async listGames(form) {
    const q = form.querySelector("[name=q]").value.trim();
    const out = form.querySelector("#games");
    clear(out);
    if (!q) return;
    let games = [];
    try {
      if (CODE_RE.test(q.toUpperCase())) {
        try {
          games = (await api(`/api/tables/${q.toUpperCase()}/games`)).games;
        } catch {
          games = (await api(`/api/players/${encodeURIComponent(q)}/games`)).games;
        }
      } else {
        games = (await api(`/api/players/${encodeURIComponent(q)}/games`)).games;
      }
    } catch (e) {
      out.appendChild(h("p.error", e.message));
      return;
    }
    if (!games.length) {
      out.appendChild(h("p.muted", t("no_games")));
      return;
    }
    out.appendChild(h("ul.games", games.slice(0, 50).map((g) => {
      const deal = g.kind === "deal" ? g.deal : 0;
      const label = g.kind === "deal" ? t("deal_n", { n: g.deal + 1 }) : t("set_record");
      const tot = g.totals || [0, 0];
      return h("li", h("a", { href: `/?replay=${g.id}&deal=${deal}` }, `${g.table || t("set_in_progress")} · ${label}`),
        h("span.muted", ` ${teamLabel(0)} ${tot[0]} : ${tot[1]} ${teamLabel(1)}`));
    })));
  }
}

function teamLabel(team) {
  return t(team === 0 ? "team_red" : "team_blue");
}
