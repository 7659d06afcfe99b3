// The page's router: the lobby at /, a table at /?t=CODE (add &watch=1 to watch), a replay at
// /?replay=ID&deal=N (&table=T for a table of a duplicate match), a match's scorekeeper at /?match=CODE, an
// event at /?event=CODE, the account's pages at /?account=signin|signup|password|delete, a player's profile at
// /?player=NAME; the hall at /hall, quick play's queue at /quickplay?preset=P&bots=1, the leaderboard at
// /leaderboard (the server serves this page at those paths). Everything else is in the modules it loads.

import { h, clear, storedSeat } from "./dom.js";
import { t, getLang, setLang, applyI18n, onLangChange } from "./i18n.js";
import { Lobby } from "./lobby.js";
import { LiveTable } from "./table.js";
import { ReplayView } from "./replay.js";
import { ScorekeeperView, EventView } from "./tourney.js";
import { AccountPage } from "./account-pages.js";
import { AccountMenu } from "./account-menu.js";
import { ProfileView } from "./profile.js";
import { HallView } from "./hall.js";
import { QueueView } from "./quickplay.js";
import { LeaderboardView } from "./leaderboard.js";

const PAGES = { "/hall": "hall", "/quickplay": "queue", "/leaderboard": "leaderboard" };

const main = document.getElementById("view");
let current = null;

function go(url, replace = false) {
  if (replace) history.replaceState(null, "", url);
  else history.pushState(null, "", url);
  route();
}

function route() {
  if (current && current.destroy) current.destroy();
  current = null;
  clear(main);
  const q = new URLSearchParams(location.search);
  const code = (q.get("t") || "").toUpperCase();
  const replay = q.get("replay");
  const match = (q.get("match") || "").toUpperCase();
  const event = (q.get("event") || "").toUpperCase();
  const account = q.get("account");
  const player = q.get("player");
  const page = PAGES[location.pathname.replace(/\/+$/, "")];
  document.body.dataset.view = page || (replay ? "replay" : code ? "table" : match ? "match" : event ? "event"
    : account ? "account" : player ? "profile" : "lobby");
  const exit = () => go("/");
  if (page === "hall") {
    current = new HallView(main, { go });
  } else if (page === "queue") {
    current = new QueueView(main, { go, preset: q.get("preset"), bots: q.get("bots") !== "0" });
  } else if (page === "leaderboard") {
    current = new LeaderboardView(main, { go });
  } else if (account) {
    current = new AccountPage(main, account, { go });
  } else if (player) {
    current = new ProfileView(main, player, { go });
  } else if (replay === "live") {
    // a finished deal of this table's set in progress (its players only); back goes to the table
    const seat = storedSeat(code) || {};
    current = new ReplayView(main, null, Number(q.get("deal") || 0), {
      onExit: () => go(`/?t=${code}`),
      step: Number(q.get("step") || 0),
      live: { code, token: seat.token, seat: seat.seat },
      review: q.get("review"),
    });
  } else if (replay) {
    current = new ReplayView(main, Number(replay), Number(q.get("deal") || 0), {
      onExit: exit,
      step: Number(q.get("step") || 0),
      table: q.get("table"),
      review: q.get("review"),
    });
  } else if (match) {
    current = new ScorekeeperView(main, match, { go });
  } else if (event) {
    current = new EventView(main, event, { go });
  } else if (code) {
    const seat = storedSeat(code);
    if (seat && seat.token) current = new LiveTable(main, code, seat, { onExit: exit });
    else if (q.get("watch")) current = new LiveTable(main, code, null, { onExit: exit });
    else current = new Lobby(main, { go, code });
  } else {
    current = new Lobby(main, { go });
  }
  window.gouji = { view: current };
}

document.addEventListener("click", (e) => {
  const a = e.target.closest && e.target.closest("a[href^='/']");
  if (!a || e.ctrlKey || e.metaKey || e.shiftKey || a.target) return;
  e.preventDefault();
  go(a.getAttribute("href"));
});
window.addEventListener("popstate", route);

const langBtn = document.getElementById("lang-btn");
const accountSlot = h("div.account-slot#account-slot");
langBtn.before(accountSlot);
new AccountMenu(accountSlot, { go });
langBtn.addEventListener("click", () => setLang(getLang() === "zh" ? "en" : "zh"));
onLangChange(() => applyI18n(document));
applyI18n(document);
document.getElementById("home").addEventListener("click", (e) => {
  e.preventDefault();
  go("/");
});
route();
void h;
void t;
