/**
 * Remembers keys for a while: a Slack request delivered twice (a retry with X-Slack-Retry-Num,
 * a double click) is recognised by its trigger id and handled once.
 */
export class RecentKeys {
  private readonly seen = new Map<string, number>();

  constructor(
    private readonly ttlMs = 15 * 60_000,
    private readonly max = 10_000,
    private readonly now: () => number = Date.now,
  ) {}

  /** True when `key` was seen within the TTL; records it otherwise. */
  checkAndRemember(key: string): boolean {
    const at = this.now();
    const previous = this.seen.get(key);
    if (previous !== undefined && at - previous < this.ttlMs) return true;
    this.seen.set(key, at);
    if (this.seen.size > this.max) {
      for (const [k, t] of this.seen) {
        if (at - t >= this.ttlMs || this.seen.size > this.max) this.seen.delete(k);
        else break;
      }
    }
    return false;
  }
}
