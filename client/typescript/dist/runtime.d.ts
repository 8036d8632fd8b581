import { ArenaError } from "./errors.js";
import type { ArenaSettings } from "./settings.js";
import type { Sleep, Transport } from "./transport.js";
/** What the parts of a client share: settings, HTTP, clock, waits, log. */
export interface Runtime {
    readonly settings: ArenaSettings;
    readonly transport: Transport;
    readonly now: () => Date;
    readonly sleep: Sleep;
    /** Multiplies retry backoff waits (1: the spec's waits; 0: none). */
    readonly backoffScale: number;
    readonly log: (message: string) => void;
}
/**
 * The wait before the next attempt after a retryable failure, in seconds:
 * 2^(maxAttempts - attemptsLeft + 1) (spec 4.4), where attemptsLeft is the
 * number of attempts still allowed after the one that just failed. After
 * the k-th failed attempt that is 2^(k+1): 4 s, 8 s, 16 s, 32 s. No wait
 * follows the last attempt.
 */
export declare function submitBackoffSeconds(maxAttempts: number, attemptsLeft: number): number;
/** Throws ArenaError `disabled` when the client is off. */
export declare function ensureEnabled(rt: Runtime): void;
/**
 * Runs step until it succeeds, fails for good (any failure that is not
 * ArenaError.retryable), or settings.maxSubmitAttempts are spent, waiting
 * submitBackoffSeconds (times backoffScale) between attempts. When every
 * attempt failed it throws `retries_exhausted` (see exhausted).
 */
export declare function retry<T>(rt: Runtime, what: string, step: () => Promise<T>, signal?: AbortSignal): Promise<T>;
/**
 * ArenaError `retries_exhausted` after the last failure e of a retried call:
 * e's status, method and path, the attempts made, e as the cause.
 */
export declare function exhausted(e: ArenaError, attempts: number): ArenaError;
