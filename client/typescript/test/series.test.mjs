// Series (docs/series.md): a game's confirmed answer with the series going
// on, and lost answers across games resolved by the public match's games.
import assert from "node:assert/strict";
import { test } from "node:test";
import { ArenaClient, ArenaError, decidedGame, isSeries, seriesGoesOn } from "../dist/index.js";
import { P1, P2, liveMatch, recordingSleep, startArena } from "../testkit/fakearena.mjs";

const LIVE = "GET /api/v1/me/live-match";
const RESULT = "POST /api/v1/matches/12/result";
const PUBLIC = "GET /api/v1/matches/12";
const code = (c) => (e) => e instanceof ArenaError && e.code === c;
const player = (id) => ({ platformId: id, personaName: "p" + id.slice(-1), avatarUrl: "" });

/** A live match at game `game` of a best of 3 standing p1-p2. */
const seriesLive = (game, p1, p2, over = {}) =>
  ({ status: 200, json: liveMatch({ sessionNonce: `nonce-${game}`, game, bestOf: 3, seriesScore: { p1, p2 }, ...over }) });

/** The public best of 3 with these decided games' winners. */
function publicSeries(status, ...winners) {
  const games = winners.map((w, i) => ({ game: i + 1, status: "confirmed", winner: player(w), resultSource: "game_client", score: null, decidedAt: "2026-11-27T16:00:00Z" }));
  if (["live", "awaiting_result", "disputed"].includes(status)) {
    games.push({ game: winners.length + 1, status, winner: null, resultSource: null, score: null, decidedAt: null });
  }
  const seriesScore = { p1: winners.filter((w) => w === P1).length, p2: winners.filter((w) => w === P2).length };
  return {
    status: 200,
    json: {
      id: 12, stage: "playoff", round: "Final", bracketSlot: null, status, opensAt: null, closesAt: null,
      player1: player(P1), player2: player(P2), winner: status === "confirmed" ? player(winners.at(-1)) : null,
      score: null, resultSource: null, tournament: { slug: "cup", name: "Cup" }, bestOf: 3, seriesScore, games,
    },
  };
}

async function withArena(routes, as, fn) {
  const arena = await startArena(routes);
  try {
    const client = new ArenaClient({ baseUrl: arena.base, mockSteamId: as, sleep: recordingSleep().sleep });
    await fn({ arena, client });
  } finally {
    await arena.close();
  }
}

const P1_WINS = { result: "{}", winner: P1, opponentId: P2 };

test("a game confirmed with the series going on, then the deciding game", async () => {
  await withArena({ [LIVE]: seriesLive(1, 0, 0), [RESULT]: { status: 200, json: { status: "confirmed", matchStatus: "scheduled" } } }, P1, async ({ arena, client }) => {
    const out = await client.submit(P1_WINS);
    assert.deepEqual({ status: out.status, matchStatus: out.matchStatus, game: out.game, bestOf: out.bestOf, seriesScore: out.seriesScore },
      { status: "confirmed", matchStatus: "scheduled", game: 1, bestOf: 3, seriesScore: { p1: 1, p2: 0 } });
    assert.equal(seriesGoesOn(out), true);
    assert.match(JSON.parse(arena.to(RESULT)[0].body).result, /"sessionNonce":"nonce-1"/);
  });
  await withArena({ [LIVE]: seriesLive(3, 1, 1), [RESULT]: { status: 200, json: { status: "confirmed", matchStatus: "confirmed" } } }, P1, async ({ client }) => {
    const out = await client.submit(P1_WINS);
    assert.deepEqual(out.seriesScore, { p1: 2, p2: 1 });
    assert.equal(seriesGoesOn(out), false);
  });
  await withArena({ [LIVE]: { status: 200, json: liveMatch({ game: 1, bestOf: 1, seriesScore: { p1: 0, p2: 0 } }) }, [RESULT]: { status: 200, json: { status: "confirmed", matchStatus: "confirmed" } } }, P1, async ({ client }) => {
    const out = await client.submit(P1_WINS);
    assert.equal(out.game, undefined, "a best of 1 carries no series fields");
    assert.equal(isSeries({ bestOf: 1 }), false);
  });
});

test("lost answer across games: not_live finds the game decided", async () => {
  await withArena({ [LIVE]: seriesLive(1, 0, 0), [RESULT]: ["drop", { status: 409, json: { error: "not_live" } }], [PUBLIC]: publicSeries("scheduled", P1) }, P1, async ({ arena, client }) => {
    const out = await client.submit(P1_WINS);
    assert.deepEqual({ status: out.status, matchStatus: out.matchStatus, winner: out.winner, game: out.game, seriesScore: out.seriesScore, attempts: out.attempts },
      { status: "decided", matchStatus: "scheduled", winner: P1, game: 1, seriesScore: { p1: 1, p2: 0 }, attempts: 2 });
    assert.equal(seriesGoesOn(out), true);
    assert.equal(arena.to(PUBLIC)[0].headers.authorization, undefined, "the look-up is public");
  });
  await withArena({ [LIVE]: seriesLive(3, 1, 1), [RESULT]: ["drop", { status: 409, json: { error: "already_resolved" } }], [PUBLIC]: publicSeries("confirmed", P2, P1, P1) }, P1, async ({ client }) => {
    const out = await client.submit(P1_WINS);
    assert.deepEqual({ status: out.status, matchStatus: out.matchStatus, game: out.game, seriesScore: out.seriesScore },
      { status: "decided", matchStatus: "confirmed", game: 3, seriesScore: { p1: 2, p2: 1 } });
    assert.equal(seriesGoesOn(out), false);
  });
  await withArena({ [LIVE]: seriesLive(1, 0, 0), [RESULT]: ["drop", { status: 409, json: { error: "not_live" } }], [PUBLIC]: publicSeries("scheduled", P2) }, P1, async ({ client }) => {
    await assert.rejects(client.submit(P1_WINS), code("not_live"), "game 1 went to the other side");
  });
  await withArena({ [LIVE]: { status: 200, json: liveMatch() }, [RESULT]: ["drop", { status: 409, json: { error: "not_live" } }], [PUBLIC]: publicSeries("confirmed", P1, P1) }, P1, async ({ client }) => {
    await assert.rejects(client.submit(P1_WINS), code("not_live"), "not_live is no lost answer in a single match");
  });
});

test("after a restart, the game played is looked up", async () => {
  for (const [live, status] of [[{ status: 204 }, "scheduled"], [seriesLive(2, 1, 0, { slot: 2, opponentPlatformId: P1 }), "live"]]) {
    await withArena({ [LIVE]: live, [RESULT]: { status: 200, json: { status: "pending", matchStatus: "awaiting_result" } }, [PUBLIC]: publicSeries(status, P1) }, P2, async ({ arena, client }) => {
      const out = await client.submit({ result: "{}", winner: P1, opponentId: P1, localAccountId: P2, matchId: 12, game: 1 });
      assert.deepEqual({ status: out.status, matchStatus: out.matchStatus, winner: out.winner, won: out.won, game: out.game, bestOf: out.bestOf, seriesScore: out.seriesScore },
        { status: "decided", matchStatus: status, winner: P1, won: false, game: 1, bestOf: 3, seriesScore: { p1: 1, p2: 0 } }, status);
      assert.equal(arena.to(RESULT).length, 0, "nothing posted");
    });
  }
  await withArena({ [LIVE]: { status: 204 }, [PUBLIC]: publicSeries("scheduled", P1) }, P2, async ({ client }) => {
    const out = await client.submit({ result: "{}", winner: P1, opponentId: P1, localAccountId: P2, matchId: 12 });
    assert.equal(out.status, "undecided", "without the game");
  });
  assert.equal(decidedGame(publicSeries("live", P1).json, 2), undefined, "the game under way is not decided");
});
