// Small helpers: building elements, the HTTP API, a toast, stored seats.

/** h("div.cls#id", {attr: value, onclick: fn}, ...children): an element; strings become text nodes. */
export function h(tag, attrs, ...children) {
  const m = /^([a-z0-9]+)?((?:[.#][\w-]+)*)$/i.exec(tag);
  const el = document.createElement((m && m[1]) || "div");
  if (m && m[2]) {
    for (const part of m[2].match(/[.#][\w-]+/g)) {
      if (part[0] === ".") el.classList.add(part.slice(1));
      else el.id = part.slice(1);
    }
  }
  if (attrs && (typeof attrs !== "object" || attrs instanceof Node || Array.isArray(attrs))) {
    children.unshift(attrs);
    attrs = null;
  }
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith("on") && typeof v === "function") el.addEventListener(k.slice(2), v);
    else if (k === "class") el.className += (el.className ? " " : "") + v;
    else if (k === "dataset") Object.assign(el.dataset, v);
    else if (k === "style" && typeof v === "object") Object.assign(el.style, v);
    else if (k in el && typeof v !== "string") el[k] = v;
    else el.setAttribute(k, v === true ? "" : v);
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    if (Array.isArray(c)) append(el, c);
    else el.appendChild(c instanceof Node ? c : document.createTextNode(String(c)));
  }
}

export function clear(el) {
  while (el.firstChild) el.removeChild(el.firstChild);
  return el;
}

/** Call the server's HTTP API; resolves with the JSON answer or rejects with an Error (its message). */
export async function api(path, body, method) {
  const opts = { method: method || (body === undefined ? "GET" : "POST"), headers: {} };
  if (body !== undefined) {
    opts.headers["content-type"] = "application/json";
    opts.body = JSON.stringify(body);
  }
  const res = await fetch(path, opts);
  let data = null;
  try {
    data = res.status === 204 ? null : await res.json();
  } catch {
    data = null;
  }
  if (!res.ok) {
    const err = new Error((data && data.error) || `${res.status} ${res.statusText}`);
    err.status = res.status;
    err.retryAfter = Number(res.headers.get("retry-after")) || null;
    throw err;
  }
  return data;
}

let toastTimer = null;
export function toast(message, kind = "info") {
  const el = document.getElementById("toast");
  if (!el) return;
  el.textContent = message;
  el.className = "show " + kind;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => (el.className = ""), kind === "error" ? 5000 : 2600);
}

// Seats this browser holds: table code → {seat, token, nickname, owner_token?}.
const SEATS_KEY = "gouji.seats";

export function storedSeat(code) {
  try {
    return JSON.parse(localStorage.getItem(SEATS_KEY) || "{}")[code] || null;
  } catch {
    return null;
  }
}

export function storeSeat(code, info) {
  let all = {};
  try {
    all = JSON.parse(localStorage.getItem(SEATS_KEY) || "{}");
  } catch {
    all = {};
  }
  if (info) all[code] = { ...(all[code] || {}), ...info };
  else delete all[code];
  localStorage.setItem(SEATS_KEY, JSON.stringify(all));
}

// The signed-in account's name (account.js sets it): every nickname field takes it.
let accountName = null;

export function setAccountName(name) {
  accountName = name || null;
}

export function lastNickname() {
  return accountName || localStorage.getItem("gouji.nickname") || "";
}

export function rememberNickname(name) {
  localStorage.setItem("gouji.nickname", name);
}
