/**
 * Faults on demand, so the bot's reliability tests can use the real sandbox: latency, HTTP 5xx
 * and GraphQL-error rates, token lifetime, async failures and retries. Draws come from a seeded
 * generator, so a run with the same seed and requests sees the same faults.
 */
import { didYouMean, suggest } from '../core/index.js';

export interface Faults {
  /** Added delay before every token and GraphQL answer, in ms. */
  latencyMs: number;
  /** Share (0..1) of GraphQL requests answered with HTTP `http5xxStatus` and `{"error": …}`. */
  http5xxRate: number;
  http5xxStatus: number;
  /** Share of token requests answered with HTTP 503. */
  tokenHttp5xxRate: number;
  /** Share of authenticated GraphQL requests answered 200 with `errors[]` and no data. */
  graphqlErrorRate: number;
  /** The next N GraphQL requests fail with `http5xxStatus` (then the counter is spent). */
  failNextRequests: number;
  /** Lifetime of newly minted tokens, in seconds (default 7200). */
  tokenTtlSeconds: number;
  /** Share of async pivots that end FAILED. */
  asyncFailureRate: number;
  /** Share of async pivots that go UP_FOR_RETRY once before succeeding. */
  asyncRetryRate: number;
  /** Time each async state lasts (PENDING, QUEUED, RUNNING…), in ms, so pollers can see them. */
  asyncStepMs: number;
  /** Lifetime of signed CSV URLs, in seconds. */
  urlTtlSeconds: number;
}

export const DEFAULT_FAULTS: Faults = {
  latencyMs: 0,
  http5xxRate: 0,
  http5xxStatus: 503,
  tokenHttp5xxRate: 0,
  graphqlErrorRate: 0,
  failNextRequests: 0,
  tokenTtlSeconds: 7200,
  asyncFailureRate: 0,
  asyncRetryRate: 0,
  asyncStepMs: 20,
  urlTtlSeconds: 3600,
};

/** A seeded uniform [0,1) generator (mulberry32). */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const RATE_KNOBS = [
  'http5xxRate',
  'tokenHttp5xxRate',
  'graphqlErrorRate',
  'asyncFailureRate',
  'asyncRetryRate',
] as const;
const DURATION_KNOBS = ['latencyMs', 'failNextRequests', 'tokenTtlSeconds', 'asyncStepMs', 'urlTtlSeconds'] as const;

/** Every knob's name, as `--faults` and `PUT /sandbox/faults` accept them. */
export const FAULT_KNOBS = Object.keys(DEFAULT_FAULTS) as Array<keyof Faults>;

/** What is wrong with a complete set of faults; empty when it is fine. */
function rangeProblems(faults: Faults): string[] {
  const problems: string[] = [];
  for (const key of RATE_KNOBS) {
    if (!(faults[key] >= 0 && faults[key] <= 1)) problems.push(`faults.${key} must be between 0 and 1`);
  }
  for (const key of DURATION_KNOBS) {
    if (!(faults[key] >= 0)) problems.push(`faults.${key} must be >= 0`);
  }
  if (!(faults.http5xxStatus >= 500 && faults.http5xxStatus <= 599)) problems.push('faults.http5xxStatus must be 5xx');
  for (const key of ['failNextRequests', 'http5xxStatus'] as const) {
    if (!Number.isInteger(faults[key])) problems.push(`faults.${key} must be a whole number`);
  }
  return problems;
}

/** Validates and merges a partial update; rates must lie in 0..1 and durations be non-negative. */
export function mergeFaults(current: Faults, update: Partial<Faults>): Faults {
  const next = { ...current, ...update };
  const problems = rangeProblems(next);
  if (problems.length > 0) throw new RangeError(problems[0]);
  return next;
}

/**
 * Reads a faults update that came from outside (the `--faults` flag, a `PUT /sandbox/faults`
 * body): an object of known knobs with numbers in range. Every problem is listed, unknown knobs
 * with a suggestion.
 *
 * @example checkFaultsUpdate({ http5xxrate: 0.5 }) // { problems: ['unknown fault "http5xxrate". Did you mean "http5xxRate"?'] }
 */
export function checkFaultsUpdate(value: unknown): { update: Partial<Faults>; problems: string[] } {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return { update: {}, problems: [`expected a JSON object of fault knobs such as {"http5xxRate":0.5}`] };
  }
  const problems: string[] = [];
  const update: Partial<Faults> = {};
  for (const [key, raw] of Object.entries(value)) {
    if (!(FAULT_KNOBS as string[]).includes(key)) {
      problems.push(
        `unknown fault "${key}".${didYouMean(suggest(key, FAULT_KNOBS)) || ` Known faults: ${FAULT_KNOBS.join(', ')}.`}`,
      );
      continue;
    }
    if (typeof raw !== 'number' || !Number.isFinite(raw)) {
      problems.push(`faults.${key} must be a number, not ${JSON.stringify(raw)}`);
      continue;
    }
    update[key as keyof Faults] = raw;
  }
  problems.push(...rangeProblems({ ...DEFAULT_FAULTS, ...update }));
  return { update, problems };
}

/** Parses `--faults` JSON text; see `checkFaultsUpdate`. */
export function parseFaultsJson(text: string): { update: Partial<Faults>; problems: string[] } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return { update: {}, problems: [`not valid JSON (${reason}); for example '{"http5xxRate":0.5,"latencyMs":200}'`] };
  }
  return checkFaultsUpdate(value);
}
