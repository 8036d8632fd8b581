import { ensureEnabled } from "./runtime.js";
/**
 * Title endpoints (spec 4.1), under the same AppID gate as tournaments.
 * Title matches are ordinary organized matches, found by discovery. Reach
 * it as ArenaClient.titles. Refusals carry the server's code
 * (title_already_held, not_holder, title_vacant_use_coronation, ...).
 */
export class Titles {
    rt;
    /** @internal */
    constructor(rt) {
        this.rt = rt;
    }
    /** Every title with holder, reign, clock and lineage. */
    async list(options = {}) {
        ensureEnabled(this.rt);
        const out = await this.rt.transport.jsonBody("GET", "/api/v1/titles", undefined, options);
        return out.titles ?? [];
    }
    /** Challenges the holder of title titleId. */
    async challenge(titleId, options = {}) {
        ensureEnabled(this.rt);
        return this.rt.transport.jsonBody("POST", `/api/v1/titles/${titleId}/challenge`, undefined, options);
    }
    /** The holder accepts (creating the title match) or declines a challenge. */
    async respond(challengeId, accept, options = {}) {
        ensureEnabled(this.rt);
        return this.rt.transport.jsonBody("POST", `/api/v1/title-challenges/${challengeId}/respond`, { accept }, options);
    }
    /** Queues for a vacant title; two volunteers trigger the coronation match. */
    async volunteer(titleId, options = {}) {
        ensureEnabled(this.rt);
        return this.rt.transport.jsonBody("POST", `/api/v1/titles/${titleId}/volunteer`, undefined, options);
    }
}
