/** The only result protocol this client speaks (spec 9). */
export declare const RESULT_PROTOCOL = "svc.result.v3";
/** Recording-release policies for hidden information (spec 2.1). */
export type HandMode = "hidden" | "delayed" | "shown";
export interface Tournament {
    slug: string;
    name: string;
}
/** A match's recording-release policy. */
export interface Cast {
    /** Empty or absent means hidden (see castPolicy). */
    handMode?: HandMode | "";
    /** For delayed: seconds after capture; 0 otherwise. */
    delaySeconds?: number;
}
/** One active caster of a match. */
export interface Caster {
    platformId: string;
    streamUrl: string;
    source: "community" | "invited" | "arena";
}
/** Present on a live match only when the arena runs the AI referee. */
export interface RefereeM0 {
    enabled: boolean;
    /** Both players granted training consent; traces are accepted only then. */
    consentComplete: boolean;
    traceProtocol: string;
    captureProtocol: string;
}
/**
 * The caller's live match as discovery returns it (spec 2.1). Servers may
 * add fields; they are kept as received.
 */
export interface LiveMatch {
    matchId: number;
    /**
     * The fairness seed of an organized match: an unsigned 32-bit value
     * (0..4294967295) carried in an int64 on the wire, exact in a JS number.
     * Absent or 0 means a casual session (see isCasual): the game seeds
     * itself. Never read it into a signed 32-bit integer (`| 0` wraps
     * 4218965659 to a negative number); use `>>> 0` if you need a uint32.
     */
    gameSeed?: number;
    /** The caller's side: 1 or 2. */
    slot: 1 | 2;
    sessionNonce: string;
    /** Slot-1 side (its captain in team mode). */
    p1PlatformId: string;
    /** Slot-2 side (its captain in team mode). */
    p2PlatformId: string;
    opponentPlatformId: string;
    tournament: Tournament;
    windowClosesAt: string;
    allowSpectators: boolean;
    cast?: Cast;
    casters?: Caster[];
    casterPlatformId?: string | null;
    streamUrl?: string | null;
    p1Roster?: string[];
    p2Roster?: string[];
    teamMinPlayers?: number;
    teamMaxPlayers?: number;
    resultProtocol: string;
    /** Absent: do not trace or capture. */
    refereeM0?: RefereeM0;
    /** The game of the series being played, from 1 (absent from an arena without series). */
    game?: number;
    /** The series' length: 1 for a single match (absent: 1). */
    bestOf?: number;
    /** The games each side won so far. */
    seriesScore?: SeriesScore;
}
/** The games each side has won in a series, slot order. */
export interface SeriesScore {
    p1: number;
    p2: number;
}
/** The caller's next match before it goes live (spec 2.2). */
export interface UpcomingMatch {
    matchId: number;
    slot: 1 | 2;
    opponentPlatformId: string;
    opponentName: string;
    tournament: Tournament;
    windowOpensAt: string;
    windowClosesAt: string;
    windowOpen: boolean;
    selfReady: boolean;
    opponentReady: boolean;
    /** The game of the series next to be played, from 1. */
    game?: number;
    /** The series' length: 1 for a single match. */
    bestOf?: number;
    /** The games each side won so far. */
    seriesScore?: SeriesScore;
}
/** The answer to a ready call; live is true once both sides are ready. */
export interface ReadyState {
    status: string;
    live: boolean;
    opponentReady: boolean;
}
/** A player as the public API shows one. */
export interface PublicPlayer {
    platformId: string;
    personaName: string;
    avatarUrl: string;
}
/** Match statuses (spec 3). */
export type MatchStatus = "pending" | "scheduled" | "live" | "awaiting_result" | "confirmed" | "disputed" | "forfeited" | (string & {});
/** The public match object of GET /api/v1/matches/{id} (no ticket). */
export interface PublicMatch {
    id: number;
    stage: string;
    round: string;
    bracketSlot: string | null;
    status: MatchStatus;
    opensAt: string | null;
    closesAt: string | null;
    player1: PublicPlayer | null;
    player2: PublicPlayer | null;
    winner: PublicPlayer | null;
    score: {
        p1: number;
        p2: number;
    } | null;
    resultSource: string | null;
    tournament: Tournament | null;
    /** The series' length: 1 for a single match. */
    bestOf?: number;
    seriesScore?: SeriesScore;
    /** The decided games, then the game under way (winner null). */
    games?: MatchGame[];
}
/** One game of a match's series as the public match shows it. */
export interface MatchGame {
    /** From 1. */
    game: number;
    status: MatchStatus;
    /** Null while the game is undecided. */
    winner: PublicPlayer | null;
    resultSource: string | null;
    score: {
        p1: number;
        p2: number;
    } | null;
    decidedAt: string | null;
}
/** Whether the match is a series of more than one game (bestOf > 1). */
export declare function isSeries(m: {
    bestOf?: number;
}): boolean;
/** Game n of the public match when it is decided (has a winner), else undefined. */
export declare function decidedGame(pm: PublicMatch, n: number): MatchGame | undefined;
/** Whether the match has no fairness seed (gameSeed 0 or absent). */
export declare function isCasual(m: LiveMatch): boolean;
/** The hand mode, with an empty or absent one read as hidden. */
export declare function castPolicy(m: LiveMatch): HandMode;
/** Whether the match belongs to a team tournament (teamMaxPlayers > 1). */
export declare function isTeam(m: LiveMatch): boolean;
/**
 * Whether the client can report a result on m: a positive matchId, a
 * sessionNonce, slot 1 or 2 and resultProtocol svc.result.v3.
 */
export declare function isValidLiveMatch(m: LiveMatch | null | undefined): boolean;
/**
 * The side (1 or 2) accountId plays on, or 0 for neither: p1PlatformId /
 * p2PlatformId in 1v1, the rosters in team mode. An empty id is on no side.
 */
export declare function sideOf(m: LiveMatch, accountId: string): 0 | 1 | 2;
