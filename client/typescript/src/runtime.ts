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
export function submitBackoffSeconds(maxAttempts: number, attemptsLeft: number): number {
  return 2 ** Math.max(maxAttempts - attemptsLeft + 1, 0);
}

/** Throws ArenaError `disabled` when the client is off. */
export function ensureEnabled(rt: Runtime): void {
  if (!rt.settings.enabled) throw new ArenaError("disabled", "the arena client is disabled");
}

/**
 * Runs step until it succeeds, fails for good (any failure that is not
 * ArenaError.retryable), or settings.maxSubmitAttempts are spent, waiting
 * submitBackoffSeconds (times backoffScale) between attempts. When every
 * attempt failed it throws `retries_exhausted` (see exhausted).
 */
export async function retry<T>(rt: Runtime, what: string, step: () => Promise<T>, signal?: AbortSignal): Promise<T> {
  const maxAttempts = rt.settings.maxSubmitAttempts;
  for (let attempt = 1; ; attempt++) {
    try {
      return await step();
    } catch (e) {
      if (signal?.aborted) throw signal.reason;
      if (!(e instanceof ArenaError) || !e.retryable) throw e;
      if (attempt >= maxAttempts) throw exhausted(e, attempt);
      const wait = submitBackoffSeconds(maxAttempts, maxAttempts - attempt) * 1000 * rt.backoffScale;
      rt.log(`${what}: attempt ${attempt} failed, retrying in ${wait} ms: ${e.message}`);
      await rt.sleep(wait, signal);
    }
  }
}

/**
 * ArenaError `retries_exhausted` after the last failure e of a retried call:
 * e's status, method and path, the attempts made, e as the cause.
 */
export function exhausted(e: ArenaError, attempts: number): ArenaError {
  return new ArenaError("retries_exhausted", `${e.message} (${e.code}, after ${attempts} attempts)`, {
    status: e.status,
    ...(e.method === undefined ? {} : { method: e.method }),
    ...(e.path === undefined ? {} : { path: e.path }),
    attempts,
    cause: e,
  });
}
