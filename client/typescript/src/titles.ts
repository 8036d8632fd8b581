import type { PublicPlayer } from "./match.js";
import { ensureEnabled, type Runtime } from "./runtime.js";
import type { CallOptions } from "./transport.js";

/** One reign over a title. */
export interface Reign {
  player: PublicPlayer | null;
  since: string;
  until: string | null;
  defenses: number;
  /** How it ended (lost or stripped); null for the current reign. */
  ended: string | null;
}

/** An e-sport title with its holder, clock, challenge and lineage (spec 2.7). */
export interface Title {
  id: number;
  slug: string;
  name: string;
  environment: string;
  /** null: vacant. */
  holder: PublicPlayer | null;
  reign: { since: string; defenses: number } | null;
  /** null: vacant (or retired). */
  clockExpiresAt: string | null;
  pendingChallenge: { id: number; challenger: PublicPlayer | null; at: string; status: "pending" | "declined" } | null;
  match: {
    id: number;
    kind: "coronation" | "challenge";
    status: string;
    player1: PublicPlayer | null;
    player2: PublicPlayer | null;
    opensAt: string;
    closesAt: string;
  } | null;
  volunteers: { player: PublicPlayer | null; at: string }[];
  /** Oldest first, the current reign last. */
  lineage: Reign[];
  retiredAt: string | null;
}

/** A challenge of a title's holder. */
export interface TitleChallenge {
  id: number;
  titleId: number;
  challenger: PublicPlayer | null;
  holder: PublicPlayer | null;
  status: "pending" | "accepted" | "declined" | "expired" | "void";
  at: string;
  respondedAt: string | null;
  /** The title match of an accepted challenge. */
  matchId: number | null;
}

/** A volunteer for a vacant title. */
export interface Volunteering {
  titleId: number;
  volunteer: PublicPlayer | null;
  /** 1 or 2: the first two play the coronation. */
  position: number;
  /** The coronation match, once a second volunteer came. */
  matchId: number | null;
}

/**
 * Title endpoints (spec 4.1), under the same AppID gate as tournaments.
 * Title matches are ordinary organized matches, found by discovery. Reach
 * it as ArenaClient.titles. Refusals carry the server's code
 * (title_already_held, not_holder, title_vacant_use_coronation, ...).
 */
export class Titles {
  /** @internal */
  constructor(private readonly rt: Runtime) {}

  /** Every title with holder, reign, clock and lineage. */
  async list(options: CallOptions = {}): Promise<Title[]> {
    ensureEnabled(this.rt);
    const out = await this.rt.transport.jsonBody<{ titles?: Title[] }>("GET", "/api/v1/titles", undefined, options);
    return out.titles ?? [];
  }

  /** Challenges the holder of title titleId. */
  async challenge(titleId: number, options: CallOptions = {}): Promise<TitleChallenge> {
    ensureEnabled(this.rt);
    return this.rt.transport.jsonBody<TitleChallenge>("POST", `/api/v1/titles/${titleId}/challenge`, undefined, options);
  }

  /** The holder accepts (creating the title match) or declines a challenge. */
  async respond(challengeId: number, accept: boolean, options: CallOptions = {}): Promise<TitleChallenge> {
    ensureEnabled(this.rt);
    return this.rt.transport.jsonBody<TitleChallenge>("POST", `/api/v1/title-challenges/${challengeId}/respond`, { accept }, options);
  }

  /** Queues for a vacant title; two volunteers trigger the coronation match. */
  async volunteer(titleId: number, options: CallOptions = {}): Promise<Volunteering> {
    ensureEnabled(this.rt);
    return this.rt.transport.jsonBody<Volunteering>("POST", `/api/v1/titles/${titleId}/volunteer`, undefined, options);
  }
}
