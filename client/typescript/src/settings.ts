import { ArenaError } from "./errors.js";

/** Bounds and defaults of the client settings (spec 4.4 and 8). */
export const DEFAULT_MAX_SUBMIT_ATTEMPTS = 3;
export const MIN_SUBMIT_ATTEMPTS = 1;
export const MAX_SUBMIT_ATTEMPTS = 5;
export const DEFAULT_DISCOVER_INTERVAL_SECONDS = 60;
export const MIN_DISCOVER_INTERVAL_SECONDS = 15;
export const MAX_DISCOVER_INTERVAL_SECONDS = 600;
export const DEFAULT_REFEREE_TRACE_SCHEMA = "game.gameplay.v1";
export const DEFAULT_REFEREE_RULESET = "standard";

/** The rule of spec 4.4 for refereeTraceSchema. */
export const TRACE_SCHEMA_PATTERN = /^[a-z0-9][a-z0-9.-]{2,79}\.v[1-9][0-9]*$/;

/** A platform account id: exactly 17 decimal digits (spec 2). */
export const PLATFORM_ID_PATTERN = /^[0-9]{17}$/;

/** clientRole values; metadata only for the server (spec 2.3). */
export type ClientRole = "host" | "guest";

/** The settings of spec 4.4 as a game passes them; every one is optional. */
export interface ArenaSettingsInput {
  /** Default true. When false every network call fails with `disabled`. */
  enabled?: boolean;
  /** The arena's origin, e.g. "https://demo.example.com"; trailing slashes stripped. */
  baseUrl?: string;
  /** Sent as X-Platform-AppId: an ordering hint for the server (spec 5.1). */
  appId?: string;
  /** POSTs per submit; default 3, clamped to 1..5. */
  maxSubmitAttempts?: number;
  /** Default true; waitForLiveMatch polls only when on. */
  autoDiscover?: boolean;
  /** Pause between discovery polls; default 60, clamped to 15..600. */
  autoDiscoverIntervalSeconds?: number;
  /** When set (17 digits) every ticket is `MOCK:<id>`; production leaves it empty. */
  mockSteamId?: string;
  /** Sent as clientRole with each result; omitted when absent. */
  clientRole?: ClientRole;
  /** Default false; tracing is inert unless the arena enabled the referee and consent is complete. */
  enableReferee?: boolean;
  /** The game's trace schema id; default "game.gameplay.v1"; must match TRACE_SCHEMA_PATTERN. */
  refereeTraceSchema?: string;
  /** A ruleset label stamped into trace envelopes; default "standard". */
  refereeRuleset?: string;
}

/** Settings after defaults and clamps: what a client runs with. */
export interface ArenaSettings {
  readonly enabled: boolean;
  readonly baseUrl: string;
  readonly appId: string;
  readonly maxSubmitAttempts: number;
  readonly autoDiscover: boolean;
  readonly autoDiscoverIntervalSeconds: number;
  readonly mockSteamId: string;
  readonly clientRole: ClientRole | "";
  readonly enableReferee: boolean;
  readonly refereeTraceSchema: string;
  readonly refereeRuleset: string;
}

/**
 * Fills the defaults of spec 4.4 and brings bounded values into range: an
 * absent (or non-numeric) count takes its default, a given one is
 * truncated and clamped (0 attempts becomes 1, 900 seconds 600). It never
 * fails; validateSettings reports what cannot be clamped.
 */
export function normalizeSettings(input: ArenaSettingsInput = {}): ArenaSettings {
  return Object.freeze({
    enabled: input.enabled ?? true,
    baseUrl: (input.baseUrl ?? "").trim().replace(/\/+$/, ""),
    appId: input.appId ?? "",
    maxSubmitAttempts: clamp(input.maxSubmitAttempts, DEFAULT_MAX_SUBMIT_ATTEMPTS, MIN_SUBMIT_ATTEMPTS, MAX_SUBMIT_ATTEMPTS),
    autoDiscover: input.autoDiscover ?? true,
    autoDiscoverIntervalSeconds: clamp(
      input.autoDiscoverIntervalSeconds,
      DEFAULT_DISCOVER_INTERVAL_SECONDS,
      MIN_DISCOVER_INTERVAL_SECONDS,
      MAX_DISCOVER_INTERVAL_SECONDS,
    ),
    mockSteamId: input.mockSteamId ?? "",
    clientRole: input.clientRole ?? "",
    enableReferee: input.enableReferee ?? false,
    refereeTraceSchema: input.refereeTraceSchema ?? DEFAULT_REFEREE_TRACE_SCHEMA,
    refereeRuleset: input.refereeRuleset ?? DEFAULT_REFEREE_RULESET,
  });
}

/**
 * Throws ArenaError `invalid_settings` for the first setting that is invalid
 * as given: refereeTraceSchema not matching the pattern, clientRole other
 * than host or guest, a mockSteamId that is not 17 digits, and, when
 * enabled, a baseUrl that is not an absolute http(s) URL.
 */
export function validateSettings(s: ArenaSettings): void {
  const bad = (why: string): never => {
    throw new ArenaError("invalid_settings", `invalid settings: ${why}`);
  };
  if (!TRACE_SCHEMA_PATTERN.test(s.refereeTraceSchema)) bad(`refereeTraceSchema ${JSON.stringify(s.refereeTraceSchema)} does not match ${TRACE_SCHEMA_PATTERN}`);
  if (s.clientRole !== "" && s.clientRole !== "host" && s.clientRole !== "guest") bad(`clientRole ${JSON.stringify(s.clientRole)} is not host or guest`);
  if (s.mockSteamId !== "" && !PLATFORM_ID_PATTERN.test(s.mockSteamId)) bad(`mockSteamId ${JSON.stringify(s.mockSteamId)} is not 17 digits`);
  if (s.enabled) {
    let url: URL | undefined;
    try {
      url = new URL(s.baseUrl);
    } catch {
      url = undefined;
    }
    if (url === undefined || (url.protocol !== "http:" && url.protocol !== "https:") || url.host === "") {
      bad(`baseUrl ${JSON.stringify(s.baseUrl)} is not an absolute http(s) URL`);
    }
  }
}

function clamp(v: number | undefined, fallback: number, lo: number, hi: number): number {
  if (typeof v !== "number" || Number.isNaN(v)) return fallback;
  return Math.min(Math.max(Math.trunc(v), lo), hi);
}
