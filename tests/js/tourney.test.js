// An event's team as the lobby's form sends it (POST /api/events `bots`): people, one bot, or seat by seat.
import { test } from "node:test";
import assert from "node:assert/strict";
import { teamBots } from "../../src/gouji/server/static/tourney.js";

test("a team's three seats: omitted when all people, one bot when all the same, else the three", () => {
  assert.equal(teamBots(["", "", ""]), undefined);
  assert.equal(teamBots(["novice", "novice", "novice"]), "novice");
  assert.deepEqual(teamBots(["", "heuristic", "novice"]), [null, "heuristic", "novice"]);
  assert.deepEqual(teamBots(["heuristic", "", "heuristic"]), ["heuristic", null, "heuristic"]);
});
