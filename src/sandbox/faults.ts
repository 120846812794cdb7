/**
 * Faults on demand, so the bot's reliability tests can use the real sandbox: latency, HTTP 5xx
 * and GraphQL-error rates, token lifetime, async failures and retries. Draws come from a seeded
 * generator, so a run with the same seed and requests sees the same faults.
 */

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

/** Validates and merges a partial update; rates must lie in 0..1 and durations be non-negative. */
export function mergeFaults(current: Faults, update: Partial<Faults>): Faults {
  const next = { ...current, ...update };
  for (const key of [
    'http5xxRate',
    'tokenHttp5xxRate',
    'graphqlErrorRate',
    'asyncFailureRate',
    'asyncRetryRate',
  ] as const) {
    if (!(next[key] >= 0 && next[key] <= 1)) throw new RangeError(`faults.${key} must be between 0 and 1`);
  }
  for (const key of ['latencyMs', 'failNextRequests', 'tokenTtlSeconds', 'asyncStepMs', 'urlTtlSeconds'] as const) {
    if (!(next[key] >= 0)) throw new RangeError(`faults.${key} must be >= 0`);
  }
  if (!(next.http5xxStatus >= 500 && next.http5xxStatus <= 599))
    throw new RangeError('faults.http5xxStatus must be 5xx');
  return next;
}
