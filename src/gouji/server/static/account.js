// The signed-in account (issue 42; docs/protocol.md, "Accounts"): who is signed in, the calls that change it,
// and the seats this browser holds, handed to the account after a sign-up or a sign-in. Guests never need
// any of it: without an account every page works as before.

import { api, setAccountName } from "./dom.js";
import { t, getLang } from "./i18n.js";

let me = null; // {name, since, seats} or null (a guest)
let known = false; // whether GET /api/me has answered yet
const listeners = new Set();

export function currentAccount() {
  return me;
}

export function accountKnown() {
  return known;
}

/** fn(me) after every change of who is signed in (and of the account's seats); returns its remover. */
export function onAccountChange(fn) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

function set(next) {
  me = next;
  known = true;
  setAccountName(me ? me.name : null);
  for (const fn of listeners) fn(me);
}

/** A call to the accounts' API (dom.js `api`): the JSON answer (null for 204), or an Error with the
 * server's words, its status and, when throttled, `retryAfter` (seconds). */
export const call = (method, path, body) => api(path, body, method);

/** Ask the server who this browser is signed in as. */
export async function loadMe() {
  try {
    set(await call("GET", "/api/me"));
  } catch {
    set(null);
  }
  return me;
}

/** The seats this browser holds (table code → {seat, token, …}), from the page's storage (dom.js). */
function heldSeats() {
  try {
    return Object.entries(JSON.parse(localStorage.getItem("gouji.seats") || "{}")).filter(([, s]) => s && s.token);
  } catch {
    return [];
  }
}

/** Every seat this browser holds becomes the account's (a guest who signs up keeps its seats); a seat that is
 * gone (a closed table, a token taken on another device) is left as it is. */
async function claimSeats() {
  await Promise.allSettled(heldSeats().map(([code, s]) => call("POST", "/api/me/seats", { code, token: s.token })));
}

async function signedIn() {
  await claimSeats();
  return loadMe();
}

export async function signUp(name, password) {
  await call("POST", "/api/accounts", { name, password });
  return signedIn();
}

export async function signIn(name, password) {
  await call("POST", "/api/session", { name, password });
  return signedIn();
}

export async function signOut(everywhere = false) {
  await call("DELETE", "/api/session" + (everywhere ? "?everywhere=1" : ""));
  set(null);
}

export async function changePassword(password, newPassword) {
  return call("POST", "/api/me/password", { password, new_password: newPassword });
}

export async function deleteAccount(password) {
  await call("DELETE", "/api/me", { password });
  set(null);
}

/** The account's seat at table `code` on this device: a new token (the other device's stops working). */
export async function reclaim(code) {
  return call("POST", `/api/tables/${encodeURIComponent(code)}/reclaim`);
}

/** The words of a refusal for a person: the server's own in English; in Chinese those of the answers a
 * person meets here (`what`: "sign_in", "sign_up" or "password"), else the server's. */
export function refusal(err, what) {
  const wait = err.status === 429 && err.retryAfter ? ` (${t("seconds", { n: err.retryAfter })})` : "";
  if (getLang() === "en" || !err.status) return capitalised(err.message) + wait;
  if (err.status === 429) return t("acc_err_wait") + wait;
  if (err.status === 401) return t(what === "sign_in" ? "acc_err_wrong" : "acc_err_wrong_password");
  if (err.status === 409) return t("acc_err_taken");
  if (err.status === 403 && what === "sign_in") return t("acc_err_disabled");
  return capitalised(err.message);
}

function capitalised(s) {
  return s ? s[0].toUpperCase() + s.slice(1) : s;
}
