import { invariant } from '../core/index.js';
import { compareKeys } from './search.js';
import type { GroupQuery, GroupRow, GroupSource, Where } from './types.js';
import { whereKey } from './where.js';

/** Comparisons (see Asker.mayCompare) are asked only below this many queries… */
export const COMPARING_UNTIL = 19;
/** …and no drill at all from this many on, whatever the budget: a few more drills seldom find a cause. */
export const SEARCH_QUERIES = 20;

/** Counts the queries against the budget; asks only what the source allows. */
export class Asker {
  used = 0;
  private readonly asked = new Map<string, readonly GroupRow[]>();
  constructor(
    private readonly source: GroupSource,
    readonly limit: number,
  ) {}

  allows(query: GroupQuery): boolean {
    return this.source.allows(query);
  }

  /** The dimensions that tell apart what the segment's names stand for (GroupSource.splits). */
  splits(where: Where): readonly string[] {
    return this.source.splits?.(where) ?? [];
  }

  get left(): boolean {
    return this.used < this.limit;
  }

  /** Whether the group-by can be answered: allowed, and either asked before or within the budget. */
  canAsk(query: GroupQuery): boolean {
    return this.source.allows(query) && (this.left || this.asked.has(Asker.key(query)));
  }

  /** Whether a drill may be asked: as canAsk, and below SEARCH_QUERIES (or asked before). */
  mayDrill(query: GroupQuery): boolean {
    return this.canAsk(query) && (this.used < SEARCH_QUERIES || this.asked.has(Asker.key(query)));
  }

  /**
   * Whether a comparison may be asked (another dimension's piece once one replaced its parent, a
   * twin's test): only while fewer than COMPARING_UNTIL queries were asked, or asked before.
   */
  mayCompare(query: GroupQuery): boolean {
    return this.used < COMPARING_UNTIL || this.asked.has(Asker.key(query));
  }

  private static key(query: GroupQuery): string {
    return JSON.stringify([query.dimensions, whereKey(query.filter)]);
  }

  /** The group-by's rows; a group-by asked before is answered again without a query. */
  async ask(query: GroupQuery): Promise<readonly GroupRow[]> {
    const key = Asker.key(query);
    const known = this.asked.get(key);
    if (known !== undefined) return known;
    invariant(this.used < this.limit, 'explain asked past its query budget');
    invariant(this.source.allows(query), 'explain asked a query its source refuses');
    this.used++;
    const rows = await this.source.groups(query);
    const answer = [...rows]
      .map((row) => ({ ...row, where: { ...query.filter, ...row.where } }))
      .sort((a, b) => compareKeys(whereKey(a.where), whereKey(b.where)));
    this.asked.set(key, answer);
    return answer;
  }
}
