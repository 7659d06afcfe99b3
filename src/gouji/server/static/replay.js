// Replays: a finished deal from its record, step by step, forward and back, every hand open.
// The server replays the record with the engine (GET /api/records/{id}/deals/{n}) and sends each step's
// public view with all six hands; this page only shows them.

import { icon } from "./icons.js";
import { h, clear, api } from "./dom.js";
import { t, onLangChange } from "./i18n.js";
import "./tourney.js"; // the strings of matches and events
import { ReviewRun, reviewBox, reviewMarks, reviewNote } from "./review.js";
import { renderFelt, describeEvent, eventClass, trackLastActs, teamName, placeName, teamOf, miniHand } from "./render.js";

/** The felt's seats in three columns: the left two, the top and the bottom seat with the centre between them,
 * the right two.  On a wide screen the columns lay the open hands out one under the other, so that no seat
 * covers another however tall its hand (style.css); on a phone they are no boxes and the seats keep their
 * places around the table. */
function inColumns(felt) {
  const seat = (pos) => felt.querySelector(`.seat.pos${pos}`);
  felt.classList.add("columns");
  felt.append(
    h("div.felt-col.outer", seat(4), seat(5)),
    h("div.felt-col.mid", seat(3), felt.querySelector(".center"), seat(0)),
    h("div.felt-col.outer", seat(2), seat(1)));
  return felt;
}

export class ReplayView {
  constructor(root, recordId, dealIndex, { onExit, step, table, live, review } = {}) {
    this.root = root;
    // a deal of a set in progress, for the table's own players (`live`: {code, token}): from the table
    this.live = live || null;
    this.tableIndex = table === undefined || table === null ? null : Number(table); // a match's table (0 or 1)
    this.id = recordId;
    this.dealIndex = dealIndex;
    this.onExit = onExit || (() => {});
    this.data = null;
    this.i = step || 0;
    this.playing = null;
    this.bottom = this.live && Number.isInteger(this.live.seat) ? this.live.seat : Number(review) || 0;
    this.run = null; // the 复盘 review of the bottom seat, when asked for (review.js)
    this.wantReview = review !== undefined && review !== null;
    this.keyHandler = (e) => this.onKey(e);
    document.addEventListener("keydown", this.keyHandler);
    this.unLang = onLangChange(() => this.render());
    clear(root).appendChild(h("div.loading", "…"));
    this.load();
  }

  destroy() {
    this.stop();
    if (this.run) this.run.stop();
    document.removeEventListener("keydown", this.keyHandler);
    this.unLang();
  }

  async load() {
    try {
      const q = this.tableIndex === null ? "" : `?table=${this.tableIndex}`;
      this.data = this.live
        ? await api(`/api/tables/${this.live.code}/deals/${this.dealIndex}/replay`, { token: this.live.token })
        : await api(`/api/records/${this.id}/deals/${this.dealIndex}${q}`);
    } catch (e) {
      clear(this.root).appendChild(
        h("section.replay-view", h("div.panel.error", e.message),
          h("button.btn", { type: "button", onclick: () => this.onExit() }, t("back_to_lobby"))));
      return;
    }
    this.i = Math.max(0, Math.min(this.i, this.data.steps.length - 1));
    if (this.wantReview) this.review(true);
    else this.render();
  }

  /** The 复盘 review of the bottom seat on (asked of the server, polled until done) or off. */
  review(on) {
    if (this.run) this.run.stop();
    this.run = null;
    if (on) {
      const path = this.live
        ? `/api/tables/${this.live.code}/deals/${this.dealIndex}/review?seat=${this.bottom}`
        : `/api/records/${this.id}/deals/${this.dealIndex}/review?seat=${this.bottom}` +
          (this.tableIndex === null ? "" : `&table=${this.tableIndex}`);
      this.run = new ReviewRun(path, this.live ? { token: this.live.token } : undefined, () => this.render());
    }
    const url = new URL(location.href);
    if (on) url.searchParams.set("review", String(this.bottom));
    else url.searchParams.delete("review");
    history.replaceState(null, "", url);
    this.render();
  }

  name(s) {
    const p = (this.data.players || []).find((x) => x.seat === s);
    if (p && p.nickname) return p.nickname;
    if (p && p.bot) return `${t("bot")} ${s + 1}`;
    return t("seat_n", { n: s + 1 });
  }

  seats() {
    return [0, 1, 2, 3, 4, 5].map((s) => {
      const p = (this.data.players || []).find((x) => x.seat === s) || {};
      return { seat: s, nickname: p.nickname || null, bot: p.bot || null };
    });
  }

  go(i) {
    if (!this.data) return;
    const n = this.data.steps.length;
    this.i = Math.max(0, Math.min(n - 1, i));
    const url = new URL(location.href);
    url.searchParams.set("step", String(this.i));
    history.replaceState(null, "", url);
    this.render();
  }

  play() {
    if (this.playing) return this.stop();
    this.playing = setInterval(() => {
      if (this.i >= this.data.steps.length - 1) return this.stop();
      this.go(this.i + 1);
    }, 700);
    this.render();
  }

  stop() {
    if (this.playing) clearInterval(this.playing);
    this.playing = null;
    if (this.data) this.render();
  }

  onKey(e) {
    if (e.target.closest && e.target.closest("input, select, textarea")) return;
    if (e.key === "ArrowRight") this.go(this.i + 1);
    else if (e.key === "ArrowLeft") this.go(this.i - 1);
    else if (e.key === "Home") this.go(0);
    else if (e.key === "End") this.go(Infinity);
    else if (e.key === " ") this.play();
    else return;
    e.preventDefault();
  }

  /** The unit of the review's figures: small points under 比赛规则 (a match's too), else points. */
  reviewUnit() {
    const r = this.run && this.run.review;
    if (r) return r.unit;
    return this.data.match || (this.data.rule_options && this.data.rule_options.scoring === "tournament")
      ? "small points" : "points";
  }

  handsList(view) {
    const rows = [];
    for (let k = 0; k < 6; k++) {
      const s = (this.bottom + k) % 6;
      rows.push(h("li.team" + teamOf(s) + (view.to_act === s ? ".to-act" : ""), { dataset: { seat: s } },
        h("span.who", this.name(s)), miniHand(view.hands[s])));
    }
    return h("ol.hands-list", rows);
  }

  render() {
    if (!this.data) return;
    const d = this.data;
    const steps = d.steps;
    const step = steps[this.i];
    const last = {};
    const ctx = { setup: false };
    const lines = [];
    const name = (s) => this.name(s);
    for (let k = 0; k <= this.i; k++) {
      for (const ev of steps[k].events) {
        trackLastActs(last, ev);
        const line = describeEvent(ev, name, ctx);
        if (line) lines.push({ line, cls: eventClass(ev), step: k });
      }
    }
    const view = step.view;
    const felt = renderFelt({
      view,
      seats: this.seats(),
      bottom: this.bottom,
      me: null,
      last,
      hands: view.hands,
      turn: { seat: view.to_act, deadline: null },
    });
    const n = steps.length;
    const ctl = (id, label, title, fn, disabled) =>
      h("button.btn.ctl", { type: "button", id, title, "aria-label": title, onclick: fn, disabled }, label);
    const slider = h("input.step-slider", {
      type: "range", min: "0", max: String(n - 1), value: String(this.i), "aria-label": "step",
      oninput: (e) => this.go(Number(e.target.value)),
    });
    const current = lines.filter((l) => l.step === this.i).map((l) => l.line);
    const log = h("ol.log", { tabindex: "0", "aria-label": t("tab_log") }, lines.map((l) => h("li." + l.cls + (l.step === this.i ? ".current" : ""), l.line)));
    const dealButtons = [];
    for (let k = 0; k < d.deals; k++) {
      const tq = this.tableIndex === null ? "" : `&table=${this.tableIndex}`;
      const href = this.live ? `/?replay=live&t=${this.live.code}&deal=${k}` : `/?replay=${this.id}&deal=${k}${tq}`;
      dealButtons.push(h("a.chip" + (k === this.dealIndex ? ".on" : ""), { href },
        t("deal_n", { n: k + 1 })));
    }
    // a duplicate match: the same cards at the other table, held by the other team
    const tableSwitch = d.match
      ? h("div.replay-tables", [0, 1].map((tb) => h("a.chip" + (tb === d.match.table ? ".on" : ""),
          { href: `/?replay=${this.id}&deal=${this.dealIndex}&table=${tb}`, dataset: { table: tb } },
          t("dup_table_n", { n: tb + 1 }), " · ", d.match.seat_teams[0], " / ", d.match.seat_teams[1])))
      : null;
    const perspective = h("select.perspective", {
      "aria-label": "bottom seat",
      onchange: (e) => { this.bottom = Number(e.target.value); if (this.run) this.review(true); else this.render(); },
    }, [0, 1, 2, 3, 4, 5].map((s) => h("option", { value: String(s), selected: s === this.bottom }, `${t("seat_n", { n: s + 1 })} · ${this.name(s)}`)));
    const pp = d.match ? [6, 5, 4, 3, 2, 1]
      : (d.rule_options && d.rule_options.place_points) || [4, 2, 0, 0, -2, -4];
    const result = this.i === n - 1
      ? h("div.replay-result", { id: "rp-result" },
          h("ol.places", d.places.map((s, i) => h("li.team" + teamOf(s), h("span.place.place" + i, placeName(i)),
            h("span.who", this.name(s)), h("span.pts", (pp[i] > 0 ? "+" : "") + pp[i])))),
          d.match
            ? h("p", t("dup_small_points") + ": ", h("span.team-dot.team0"), `${d.match.seat_teams[0]} ${d.points[0]}`, " · ",
              h("span.team-dot.team1"), `${d.match.seat_teams[1]} ${d.points[1]}`)
            : h("p", t("points") + ": ", h("span.team-dot.team0"), `${teamName(0)} ${d.points[0]}`, " · ",
              h("span.team-dot.team1"), `${teamName(1)} ${d.points[1]}`))
      : null;
    // the review's box beside the felt, or on a phone under it (before the six hands)
    const box = this.run ? reviewBox(this.run, {
      who: this.name(this.bottom), unit: this.reviewUnit(), step: this.i, go: (k) => this.go(k),
    }) : null;
    const narrow = typeof matchMedia === "function" && matchMedia("(max-width: 760px)").matches;
    const root = h("section.replay-view",
      h("div.table-bar",
        h("div.bar-left", h("b", t("replay_title", { n: this.dealIndex + 1 })),
          d.table ? h("span.code", t("table_code") + " " + d.table) : null,
          h("span.preset", t("preset_" + d.rules)), dealButtons),
        h("div.bar-right", perspective,
          h("button.chip#rp-review" + (this.run ? ".on" : ""), {
            type: "button", "aria-pressed": this.run ? "true" : "false",
            title: t("review_btn_label", { name: this.name(this.bottom) }), onclick: () => this.review(!this.run),
          }, t("review_btn")),
          h("button.chip", { type: "button", onclick: () => this.onExit() }, t("back_to_lobby")))),
      h("div.table-layout",
        h("div.play-area",
          h("div.felt-holder", inColumns(felt)),
          h("div.replay-controls",
            ctl("rp-first", icon("first"), t("first"), () => this.go(0), this.i === 0),
            ctl("rp-back", icon("back"), t("back"), () => this.go(this.i - 1), this.i === 0),
            ctl("rp-play", icon(this.playing ? "pause" : "play"), this.playing ? t("pause") : t("autoplay"), () => this.play(), false),
            ctl("rp-forward", icon("forward"), t("forward"), () => this.go(this.i + 1), this.i >= n - 1),
            ctl("rp-last", icon("last"), t("last"), () => this.go(n - 1), this.i >= n - 1),
            h("span.step-no", { id: "rp-step" }, t("step_of", { i: this.i, n: n - 1 })),
            h("div.slider-track", slider, this.run ? reviewMarks(this.run, n) : null)),
          h("div.step-text", { id: "rp-text" }, current.length ? current.join(" · ") : t("deal_start")),
          this.run ? reviewNote(this.run, this.i, { unit: this.reviewUnit(), seat: this.bottom, name: (s) => this.name(s) }) : null,
          narrow ? box : null,
          this.handsList(view)),
        h("aside.side", tableSwitch, narrow ? null : box, result, h("div.tabs", h("span.tab.active", t("tab_log"))), log)),
    );
    clear(this.root).appendChild(root);
    const cur = log.querySelector(".current");
    log.scrollTop = cur ? cur.offsetTop - log.clientHeight / 2 : log.scrollHeight;
  }
}
