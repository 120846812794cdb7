/**
 * Paces Web API calls to Slack's documented limits: one token bucket per method (workspace-wide)
 * and, for chat.postMessage, one per channel. Callers wait in two lanes: `interactive` (answers to
 * a person) is always served before `scheduled` (digests, alerts), and scheduled work may not take
 * the last `reserveShare` of a method's burst, so a 9:00 burst of digests leaves room for `/pivot`
 * answers instead of queueing them behind it. Bursts included, a bucket never grants more than its
 * per-window count in one window, as Slack counts per minute. A 429 empties the bucket until
 * Slack's Retry-After.
 */
import { ErrorCode, PivotbotError } from '../core/index.js';
import { limitFor, type RateLimitSettings, SLACK_RATE_SETTINGS } from './rateLimits.js';

export type Lane = 'interactive' | 'scheduled';

/** Time for the pacer; tests pass a fake one. */
export interface PacerClock {
  now(): number;
  /** Calls `fn` after `ms`; returns a function that cancels it. */
  setTimer(fn: () => void, ms: number): () => void;
}

export const systemPacerClock: PacerClock = {
  now: () => Date.now(),
  setTimer(fn, ms) {
    const timer = setTimeout(fn, ms);
    return () => clearTimeout(timer);
  },
};

const PACING_CODES = {
  aborted: ErrorCode.SlackPacingAborted,
  timeout: ErrorCode.SlackPacingTimeout,
  queue_full: ErrorCode.SlackPacingQueueFull,
} as const;

/** A call could not get its turn: cancelled, waited too long, or too many calls already waiting. */
export class PacingError extends PivotbotError {
  readonly reason: 'aborted' | 'timeout' | 'queue_full';

  constructor(method: string, reason: PacingError['reason'], detail: string) {
    super(PACING_CODES[reason], `Slack ${method} was not sent: ${detail}`, {
      userMessage: 'Slack is rate-limiting pivotbot right now; try again in a minute.',
      retryable: reason !== 'aborted',
      details: { method, reason },
    });
    this.reason = reason;
  }
}

export interface AcquireOptions {
  /** chat.postMessage's channel, for its per-channel budget. */
  channel?: string | undefined;
  lane?: Lane;
  signal?: AbortSignal | undefined;
  /** Rejects with `PacingError('timeout')` when the turn has not come by then (default: no limit). */
  maxWaitMs?: number | undefined;
}

export interface PacerOptions {
  clock?: PacerClock;
  /** Calls allowed to wait at once; more are refused with `PacingError('queue_full')`. */
  maxQueued?: number;
  /** Share of each method's burst kept for the interactive lane (default 0.2). */
  reserveShare?: number;
}

interface Bucket {
  capacity: number;
  /** Tokens per ms. */
  rate: number;
  /** Tokens as of `updatedAt`, which lies in the future while a 429's Retry-After runs. */
  tokens: number;
  updatedAt: number;
  /** Part of the method's burst that scheduled calls leave alone. */
  reserve: number;
  /** At most this many calls in any window, bursts included: Slack counts per minute. */
  perWindow: number;
  /** When the calls of the last window (plus a guard) were granted, oldest first. */
  granted: number[];
}

interface Waiter {
  method: string;
  keys: string[];
  lane: Lane;
  enqueuedAt: number;
  deadline: number;
  resolve: (waitedMs: number) => void;
  reject: (error: Error) => void;
  unlisten: () => void;
}

const EPSILON = 1e-9;
/** Idle, full per-channel buckets are forgotten once there are more than this many. */
const CHANNEL_BUCKETS_KEPT = 1000;

/**
 * The pacer one gateway (and its lanes) share.
 *
 * @example const waited = await pacer.acquire('chat.postMessage', { channel: 'C1', lane: 'scheduled', signal });
 */
export class RatePacer {
  private readonly buckets = new Map<string, Bucket>();
  private readonly waiters: Waiter[] = [];
  private readonly clock: PacerClock;
  private readonly maxQueued: number;
  private readonly reserveShare: number;
  private cancelTimer: (() => void) | undefined;
  private timerAt = Number.POSITIVE_INFINITY;

  constructor(
    private readonly settings: RateLimitSettings = SLACK_RATE_SETTINGS,
    options: PacerOptions = {},
  ) {
    this.clock = options.clock ?? systemPacerClock;
    this.maxQueued = options.maxQueued ?? 10_000;
    this.reserveShare = options.reserveShare ?? 0.2;
  }

  /** The pacer's clock, so callers measure their deadlines on the same time. */
  now(): number {
    return this.clock.now();
  }

  /** Calls waiting for their turn. */
  get queued(): number {
    return this.waiters.length;
  }

  /** Resolves, with the ms waited, when `method` may be called. */
  acquire(method: string, options: AcquireOptions = {}): Promise<number> {
    const { signal } = options;
    if (signal?.aborted) return Promise.reject(new PacingError(method, 'aborted', 'the caller cancelled it'));
    if (this.waiters.length >= this.maxQueued) {
      return Promise.reject(
        new PacingError(method, 'queue_full', `${this.waiters.length} calls are already waiting for Slack`),
      );
    }
    const now = this.clock.now();
    return new Promise<number>((resolve, reject) => {
      const waiter: Waiter = {
        method,
        keys: this.keysFor(method, options.channel),
        lane: options.lane ?? 'interactive',
        enqueuedAt: now,
        deadline: now + (options.maxWaitMs ?? Number.POSITIVE_INFINITY),
        resolve,
        reject,
        unlisten: () => {},
      };
      if (signal) {
        const onAbort = () => this.drop(waiter, new PacingError(method, 'aborted', 'the caller cancelled it'));
        signal.addEventListener('abort', onAbort, { once: true });
        waiter.unlisten = () => signal.removeEventListener('abort', onAbort);
      }
      // Interactive waiters go before every scheduled one; each lane is first come, first served.
      const index =
        waiter.lane === 'interactive' ? this.waiters.findIndex((w) => w.lane === 'scheduled') : this.waiters.length;
      this.waiters.splice(index < 0 ? this.waiters.length : index, 0, waiter);
      this.pump();
    });
  }

  /** Slack answered 429: nothing more for this method (and channel) until `retryAfterMs` from now. */
  penalize(method: string, channel: string | undefined, retryAfterMs: number): void {
    const until = this.clock.now() + Math.max(0, retryAfterMs);
    // A 429 of chat.postMessage with a channel is that channel's limit; Slack does not say which,
    // so both budgets wait: the cost is at most one Retry-After for other channels.
    for (const key of this.keysFor(method, channel)) {
      const bucket = this.bucket(key);
      if (bucket.updatedAt < until) {
        // One call goes as soon as Retry-After has passed; the rest follow at the normal rate.
        bucket.tokens = 1;
        bucket.updatedAt = until;
      }
    }
    this.pump();
  }

  /** Rejects every waiting call (shutdown). */
  close(): void {
    for (const waiter of [...this.waiters]) {
      this.drop(waiter, new PacingError(waiter.method, 'aborted', 'pivotbot is shutting down'));
    }
  }

  private keysFor(method: string, channel: string | undefined): string[] {
    const keys = [`m:${method}`];
    if (channel && limitFor(method, this.settings).perChannel) keys.push(`c:${method}:${channel}`);
    return keys;
  }

  private bucket(key: string): Bucket {
    let bucket = this.buckets.get(key);
    if (!bucket) {
      const [kind, method = ''] = key.split(':');
      const limit = limitFor(method, this.settings);
      const budget = kind === 'c' && limit.perChannel ? limit.perChannel : limit;
      const capacity = Math.max(1, budget.burst);
      bucket = {
        capacity,
        rate: budget.perWindow / this.settings.windowMs,
        tokens: capacity,
        updatedAt: this.clock.now(),
        reserve: kind === 'm' ? Math.floor(capacity * this.reserveShare) : 0,
        perWindow: Math.max(1, budget.perWindow),
        granted: [],
      };
      this.buckets.set(key, bucket);
    }
    return bucket;
  }

  /** Ms until `bucket` allows a call that leaves `reserve` tokens and window places untouched (0: now). */
  private timeUntil(bucket: Bucket, reserve: number, now: number): number {
    const need = 1 + reserve;
    if (bucket.updatedAt <= now) {
      bucket.tokens = Math.min(bucket.capacity, bucket.tokens + (now - bucket.updatedAt) * bucket.rate);
      bucket.updatedAt = now;
    }
    const start = bucket.updatedAt - now;
    const forTokens = bucket.tokens + EPSILON >= need ? start : start + (need - bucket.tokens) / bucket.rate;
    // A burst on top of the steady rate could put more than the window's count in one window;
    // the guard covers the time a request takes to reach Slack, so Slack's window agrees.
    const span = this.settings.windowMs + Math.min(1000, this.settings.windowMs * 0.05);
    while (bucket.granted.length > 0 && (bucket.granted[0] ?? 0) <= now - span) bucket.granted.shift();
    const overflow = bucket.granted.length - Math.max(1, bucket.perWindow - reserve);
    const forWindow = overflow < 0 ? 0 : (bucket.granted[overflow] ?? now) + span - now;
    return Math.max(forTokens, forWindow);
  }

  private drop(waiter: Waiter, error: Error): void {
    const index = this.waiters.indexOf(waiter);
    if (index < 0) return;
    this.waiters.splice(index, 1);
    waiter.unlisten();
    waiter.reject(error);
    this.pump();
  }

  /** Grants every waiter whose buckets allow it, in lane order, and sets one timer for the next. */
  private pump(): void {
    const now = this.clock.now();
    // Keys an earlier waiter is still waiting on: later waiters may not overtake it there.
    const held = new Set<string>();
    let next = Number.POSITIVE_INFINITY;
    for (const waiter of [...this.waiters]) {
      if (now >= waiter.deadline) {
        this.remove(waiter);
        waiter.reject(
          new PacingError(waiter.method, 'timeout', `waited ${now - waiter.enqueuedAt} ms for Slack's rate limit`),
        );
        continue;
      }
      if (waiter.keys.some((key) => held.has(key))) {
        next = Math.min(next, waiter.deadline);
        continue;
      }
      let readyIn = 0;
      for (const key of waiter.keys) {
        const bucket = this.bucket(key);
        const wait = this.timeUntil(bucket, waiter.lane === 'scheduled' ? bucket.reserve : 0, now);
        if (wait > 0) {
          held.add(key);
          readyIn = Math.max(readyIn, wait);
        }
      }
      if (readyIn > 0) {
        next = Math.min(next, now + readyIn, waiter.deadline);
        continue;
      }
      for (const key of waiter.keys) {
        const bucket = this.bucket(key);
        bucket.tokens -= 1;
        bucket.granted.push(now);
      }
      this.remove(waiter);
      waiter.resolve(now - waiter.enqueuedAt);
    }
    this.forgetIdleChannels(now);
    this.schedule(next, now);
  }

  private remove(waiter: Waiter): void {
    const index = this.waiters.indexOf(waiter);
    if (index >= 0) this.waiters.splice(index, 1);
    waiter.unlisten();
  }

  private schedule(at: number, now: number): void {
    if (at === this.timerAt) return;
    this.cancelTimer?.();
    this.cancelTimer = undefined;
    this.timerAt = at;
    if (at === Number.POSITIVE_INFINITY) return;
    this.cancelTimer = this.clock.setTimer(
      () => {
        this.cancelTimer = undefined;
        this.timerAt = Number.POSITIVE_INFINITY;
        this.pump();
      },
      Math.max(1, Math.ceil(at - now)),
    );
  }

  private forgetIdleChannels(now: number): void {
    if (this.buckets.size <= CHANNEL_BUCKETS_KEPT) return;
    const busy = new Set(this.waiters.flatMap((w) => w.keys));
    for (const [key, bucket] of this.buckets) {
      if (!key.startsWith('c:') || busy.has(key)) continue;
      if (this.timeUntil(bucket, bucket.capacity - 1, now) === 0 && bucket.granted.length === 0)
        this.buckets.delete(key);
    }
  }
}
