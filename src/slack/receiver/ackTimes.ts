import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * How long the receiver took to acknowledge Slack: from a request's headers arriving to its
 * response being written, for the last `size` requests to `/slack/events`. `/healthz` reports it,
 * so an operator (and bench/slack) sees the bot's side of ack latency, without the network's or
 * the client's.
 */
export class AckTimes {
  readonly #times: number[] = [];
  #next = 0;
  #count = 0;

  constructor(private readonly size = 1_000) {}

  record(ms: number): void {
    this.#times[this.#next] = ms;
    this.#next = (this.#next + 1) % this.size;
    this.#count++;
  }

  /** Percentiles over the window, in ms rounded to 0.1, and how many requests were ever timed. */
  summary(): { count: number; p50Ms: number; p99Ms: number; maxMs: number } | { count: 0 } {
    if (this.#times.length === 0) return { count: 0 };
    const sorted = [...this.#times].sort((a, b) => a - b);
    const at = (q: number) => round(sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] as number);
    return { count: this.#count, p50Ms: at(0.5), p99Ms: at(0.99), maxMs: round(sorted[sorted.length - 1] as number) };
  }
}

function round(ms: number): number {
  return Math.round(ms * 10) / 10;
}

/** The kinds of Slack request acknowledged (the label of the bot's ack-latency histogram). */
export type AckKind = 'command' | 'action' | 'view_submission' | 'event' | 'other';

/**
 * The request `/slack/events` is handling: set when it arrives, its kind filled in by Bolt's global
 * middleware once the body is read, and read when its response is written.
 */
export const ackRequests = new AsyncLocalStorage<{ kind: AckKind }>();

/**
 * What kind of Slack request a body is, for the ack metrics.
 *
 * @example ackKindOf({ command: '/pivot', text: 'spend' }); // 'command'
 */
export function ackKindOf(body: unknown): AckKind {
  if (typeof body !== 'object' || body === null) return 'other';
  const { command, type } = body as { command?: unknown; type?: unknown };
  if (typeof command === 'string') return 'command';
  if (type === 'block_actions') return 'action';
  if (type === 'view_submission') return 'view_submission';
  if (type === 'event_callback') return 'event';
  return 'other';
}
