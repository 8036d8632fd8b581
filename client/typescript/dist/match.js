/** The only result protocol this client speaks (spec 9). */
export const RESULT_PROTOCOL = "svc.result.v3";
/** Whether the match is a series of more than one game (bestOf > 1). */
export function isSeries(m) {
    return (m.bestOf ?? 1) > 1;
}
/** Game n of the public match when it is decided (has a winner), else undefined. */
export function decidedGame(pm, n) {
    return pm.games?.find((g) => g.game === n && g.winner != null);
}
/** Whether the match has no fairness seed (gameSeed 0 or absent). */
export function isCasual(m) {
    return !m.gameSeed;
}
/** The hand mode, with an empty or absent one read as hidden. */
export function castPolicy(m) {
    const mode = m.cast?.handMode;
    return mode === undefined || mode === "" ? "hidden" : mode;
}
/** Whether the match belongs to a team tournament (teamMaxPlayers > 1). */
export function isTeam(m) {
    return (m.teamMaxPlayers ?? 1) > 1;
}
/**
 * Whether the client can report a result on m: a positive matchId, a
 * sessionNonce, slot 1 or 2 and resultProtocol svc.result.v3.
 */
export function isValidLiveMatch(m) {
    return (m != null &&
        Number.isSafeInteger(m.matchId) &&
        m.matchId > 0 &&
        typeof m.sessionNonce === "string" &&
        m.sessionNonce !== "" &&
        (m.slot === 1 || m.slot === 2) &&
        m.resultProtocol === RESULT_PROTOCOL);
}
/**
 * The side (1 or 2) accountId plays on, or 0 for neither: p1PlatformId /
 * p2PlatformId in 1v1, the rosters in team mode. An empty id is on no side.
 */
export function sideOf(m, accountId) {
    if (accountId === "")
        return 0;
    if (isTeam(m)) {
        if (m.p1Roster?.includes(accountId))
            return 1;
        if (m.p2Roster?.includes(accountId))
            return 2;
        return 0;
    }
    if (accountId === m.p1PlatformId)
        return 1;
    if (accountId === m.p2PlatformId)
        return 2;
    return 0;
}
