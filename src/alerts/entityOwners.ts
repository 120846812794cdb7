/**
 * Who owns an incident's entity: the owner ids the report's `owners:` map gives the values of
 * the entity's dimensions. Pure, so the parent message and the tests read the same answer.
 */
import type { ReportOwners } from '../reports/index.js';
import { TOTAL_KEY } from './observeEntities.js';

/**
 * The owner ids of the entity `entityKey` (`campaign=1001|countryCode=BR`), in the order the map
 * lists its dimensions, without repeats and without ids already in `exclude` (the rule's own
 * mentions). Dimension names ignore case; values match as the report shows them. The totals row
 * and unmapped entities have no owner.
 *
 * @example entityOwners({ campaign: { '1001': ['U024BE7LH'] } }, 'campaign=1001|countryCode=BR') // ['U024BE7LH']
 */
export function entityOwners(
  owners: ReportOwners | undefined,
  entityKey: string,
  exclude: readonly string[] = [],
): string[] {
  if (owners === undefined || entityKey === TOTAL_KEY) return [];
  const values = entityValues(entityKey);
  const seen = new Set(exclude.map(bareId));
  const out: string[] = [];
  for (const [dimension, byValue] of Object.entries(owners)) {
    const value = values.get(dimension.toLowerCase());
    if (value === undefined || !Object.hasOwn(byValue, value)) continue;
    for (const id of byValue[value] ?? []) {
      if (seen.has(bareId(id))) continue;
      seen.add(bareId(id));
      out.push(id);
    }
  }
  return out;
}

/**
 * `campaign=1001|countryCode=BR` → { campaign → 1001, countrycode → BR }. A value may itself hold
 * `|` or `=` (a site bundle rarely does): a part without `=` belongs to the value before it.
 */
function entityValues(entityKey: string): Map<string, string> {
  const out = new Map<string, string>();
  let last: string | undefined;
  for (const part of entityKey.split('|')) {
    const at = part.indexOf('=');
    if (at > 0 && /^\w+$/.test(part.slice(0, at))) {
      last = part.slice(0, at).toLowerCase();
      out.set(last, part.slice(at + 1));
    } else if (last !== undefined) out.set(last, `${out.get(last)}|${part}`);
  }
  return out;
}

/** `<@U1>` and `U1` are the same person; `<!subteam^S1>` and `S1` the same group. */
function bareId(id: string): string {
  return id.replace(/^<@|^<!subteam\^|>$/g, '');
}
