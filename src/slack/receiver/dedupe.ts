/**
 * Keys recorded by every replica on one database (the PostgreSQL store's `leases.firstSeen`): the
 * authority on repeats when several processes receive Slack's requests.
 */
export interface SharedKeys {
  /** True for the first process to record `key` within `ttlMs`. */
  firstSeen(key: string, ttlMs: number): Promise<boolean>;
}

/**
 * Remembers keys for a while: a Slack request delivered twice (a retry with X-Slack-Retry-Num,
 * a double click) is recognised by its trigger id and handled once. In this process by default;
 * with `shared` (several replicas), a key this process has not seen is also checked in the
 * database, since Slack's retry may land on another replica than the first delivery.
 */
export class RecentKeys {
  private readonly seen = new Map<string, number>();

  constructor(
    private readonly ttlMs = 15 * 60_000,
    private readonly max = 10_000,
    private readonly now: () => number = Date.now,
    private readonly shared?: SharedKeys,
  ) {}

  /** True when `key` was seen within the TTL by this process; records it otherwise. */
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

  /**
   * True when `key` was seen within the TTL by this process or, with `shared`, by any replica.
   * When the database does not answer, only this process's memory decides: the request is
   * handled, and a report run is still claimed once in the store under its trigger id.
   */
  async seenBefore(key: string): Promise<boolean> {
    if (this.checkAndRemember(key)) return true;
    if (this.shared === undefined) return false;
    try {
      return !(await this.shared.firstSeen(key, this.ttlMs));
    } catch {
      return false;
    }
  }
}
