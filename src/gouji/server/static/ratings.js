// Ratings as a person sees them (issue 43): a title in the page's language, the rating's history as a small
// line chart, and an account's rating looked up once (cached) for the pages that show titles beside names.

import { h, api } from "./dom.js";
import { t, getLang } from "./i18n.js";
import "./texts/hall.js";

const SVG = "http://www.w3.org/2000/svg";
const KEEP_MS = 5 * 60 * 1000;
const looked = new Map(); // name → {at, answer: Promise<{rating, title, rated_games} | null>}

/** A title ({level, zh, en}) in the page's language ("" for none). */
export function titleName(title) {
  if (!title) return "";
  return getLang() === "zh" ? title.zh : title.en;
}

/** A title as a small chip (its level as a class: the higher, the warmer its colour). */
export function titleChip(title, tag = "span") {
  if (!title) return null;
  return h(`${tag}.title-chip.level${Number(title.level) || 0}`, titleName(title));
}

/** An account's rating, title and rated games (GET /api/players/NAME, asked once in a while): null when
 * there is no such account or the server does not answer. */
export function ratingOf(name) {
  const found = looked.get(name);
  if (found && Date.now() - found.at < KEEP_MS) return found.answer;
  const answer = api(`/api/players/${encodeURIComponent(name)}`).then(
    (p) => ({ rating: p.rating, title: p.title, rated_games: p.rated_games }),
    () => {
      looked.delete(name);
      return null;
    });
  looked.set(name, { at: Date.now(), answer });
  return answer;
}

function svg(tag, attrs, ...children) {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs || {})) el.setAttribute(k, String(v));
  for (const c of children) el.appendChild(typeof c === "string" ? document.createTextNode(c) : c);
  return el;
}

/** The rating after each rated result ([{rating, at}], oldest first) as a line, its lowest and highest
 * written at the left; one image for a screen reader, its label saying where it went. */
export function ratingChart(history) {
  const points = (history || []).map((x) => Number(x.rating));
  if (!points.length) return h("p.muted#rating-chart-none", t("rating_no_history"));
  const series = points.length === 1 ? [1000, points[0]] : points; // (one result: from the start to it)
  const W = 320, H = 120, L = 40, R = 8, T = 10, B = 12;
  let lo = Math.min(...series), hi = Math.max(...series);
  if (hi - lo < 20) {
    lo -= 10;
    hi += 10;
  }
  const x = (i) => L + ((W - L - R) * i) / (series.length - 1);
  const y = (v) => T + ((H - T - B) * (hi - v)) / (hi - lo);
  const path = series.map((v, i) => `${i ? "L" : "M"}${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(" ");
  const label = t("rating_chart_label", { n: points.length, first: series[0], last: points[points.length - 1],
    top: Math.max(...points) });
  const chart = svg("svg", { viewBox: `0 0 ${W} ${H}`, role: "img", "aria-label": label, class: "rating-svg" },
    svg("title", {}, label),
    svg("line", { x1: L, y1: T, x2: L, y2: H - B, class: "axis" }),
    svg("line", { x1: L, y1: H - B, x2: W - R, y2: H - B, class: "axis" }),
    svg("text", { x: L - 6, y: y(hi) + 4, class: "tick", "text-anchor": "end" }, String(Math.round(hi))),
    svg("text", { x: L - 6, y: y(lo) + 4, class: "tick", "text-anchor": "end" }, String(Math.round(lo))),
    svg("path", { d: path, class: "line" }),
    svg("circle", { cx: x(series.length - 1), cy: y(series[series.length - 1]), r: 4, class: "dot" }));
  return h("figure.rating-chart#rating-chart", h("figcaption", t("rating_chart")), chart);
}
