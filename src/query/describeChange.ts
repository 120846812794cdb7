import type { AdhocAst, FieldAst } from './ast.js';
import { compareWords, rangeText } from './describeUnderstood.js';
import { conditionText, formatQuery, havingText, rangeWords } from './formatQuery.js';

/**
 * What a follow-up changed, short, in the catalog's names: "by source (was countryCode)", "added
 * installs", "where appPlatform = IOS (was none)", "range last 30 days (was yesterday)". Both ASTs
 * are canonical (`adhocAstOf`).
 *
 * @example describeChange(before, after) // 'by source (was countryCode); range last 30 days (was yesterday)'
 */
export function describeChange(before: AdhocAst, after: AdhocAst): string {
  const parts = [
    listChange('', before.metrics, after.metrics),
    listChange('by ', before.dimensions, after.dimensions),
    change('range ', rangeOf(before), rangeOf(after)),
    change('where ', whereOf(before), whereOf(after), 'no filter'),
    change('having ', havingOf(before), havingOf(after), 'no threshold'),
    change('', rowsOf(before), rowsOf(after), 'every row'),
    change('', compareOf(before), compareOf(after), 'no comparison'),
    change('channel ', before.channel?.value ?? '', after.channel?.value ?? '', 'channel mobile'),
    change('tz ', before.timezone?.value ?? '', after.timezone?.value ?? '', 'the default zone'),
    change('', before.mode ?? '', after.mode ?? '', 'auto mode'),
  ].filter((p) => p !== '');
  return parts.join('; ');
}

function fieldText(f: FieldAst): string {
  return formatQuery({ kind: 'adhoc', metrics: [f], dimensions: [], where: [], having: [], csv: false });
}

/** "added installs", "dropped spend", "installs (was spend)"; `by ` before dimensions. */
function listChange(label: string, before: readonly FieldAst[], after: readonly FieldAst[]): string {
  const was = before.map(fieldText);
  const now = after.map(fieldText);
  if (was.join(', ') === now.join(', ')) return '';
  const added = now.filter((f) => !was.includes(f));
  const dropped = was.filter((f) => !now.includes(f));
  if (dropped.length === 0 && was.every((f, i) => now[i] === f)) return `added ${label}${added.join(', ')}`;
  if (added.length === 0 && now.every((f) => was.includes(f))) return `dropped ${label}${dropped.join(', ')}`;
  const none = label === '' ? 'none' : 'no breakdown';
  return `${label}${now.join(', ') || none} (was ${was.join(', ') || none})`.replace(
    /^by no breakdown/,
    'no breakdown',
  );
}

function change(label: string, before: string, after: string, none = 'none'): string {
  if (before === after) return '';
  const now = after === '' ? none : `${label}${after}`;
  return `${now} (was ${before === '' ? 'none' : before})`;
}

function rangeOf(q: AdhocAst): string {
  const r = q.range?.value;
  if (r === undefined) return '';
  return typeof r === 'string' && /^(since:|days:|~)/.test(r) ? rangeWords(r) : rangeText(r);
}

function whereOf(q: AdhocAst): string {
  return q.where.map(conditionText).join(' and ');
}

function havingOf(q: AdhocAst): string {
  return q.having.map(havingText).join(' and ');
}

function rowsOf(q: AdhocAst): string {
  const sort = q.sort ? `${q.sort.key.value} ${q.sort.desc === false ? 'asc' : 'desc'}` : '';
  if (q.top) return `top ${q.top.value}${sort ? ` by ${sort}` : ''}`;
  return sort ? `sort by ${sort}` : '';
}

function compareOf(q: AdhocAst): string {
  if (!q.compare) return '';
  return compareWords(q.compare.value);
}
