/** Readable messages for zod issues in report definitions, and the keys each object allows. */
import type { z } from 'zod';
import { didYouMean, suggest } from '../core/index.js';

const FIELD = ['name', 'args', 'as'];
const CONDITION = ['metric', 'above', 'below', 'equals', 'change', 'recovery'];
const KEYS: Record<string, readonly string[]> = {
  '': [
    'title',
    'description',
    'owner',
    'query',
    'present',
    'mode',
    'schedule',
    'deliver',
    'alerts',
    'owners',
    'budgets',
  ],
  budgets: ['currency', 'months'],
  query: [
    'dimensions',
    'metrics',
    'filter',
    'cleanup',
    'range',
    'timezone',
    'granularity',
    'cohort',
    'quality',
    'channel',
    'options',
    'postbacks',
  ],
  'query.dimensions.*': FIELD,
  'query.metrics.*': FIELD,
  'query.filter.*': ['equals', 'notEquals', 'isIn', 'isNotIn'],
  'query.cleanup.*': ['greaterThan', 'greaterOrEqualThan', 'lowerThan', 'lowerOrEqualThan'],
  'query.range': ['from', 'to'],
  'query.cohort': ['type', 'window'],
  'query.cohort.window': ['amount', 'period'],
  'query.options': ['removeZeroRows', 'priority'],
  'query.postbacks': ['appId', 'keys', 'track', 'includeRevenue', 'revenueKey', 'organic'],
  present: ['headline', 'compare', 'explain', 'onlyWhen', 'sort', 'top', 'chart'],
  'present.onlyWhen': ['moved', 'incidents', 'allQuiet'],
  'present.sort': ['by', 'order'],
  'present.chart': ['type', 'x', 'series', 'stackBy', 'title'],
  schedule: ['cron', 'at', 'days', 'timezone', 'catchUp', 'retry', 'waitForData'],
  'schedule.retry': ['attempts', 'backoff'],
  'schedule.waitForData': ['metric', 'minShare', 'wait'],
  deliver: ['channels', 'csv'],
  'alerts.*': [
    'id',
    'name',
    'metric',
    'above',
    'below',
    'equals',
    'change',
    'anomaly',
    'all',
    'any',
    'pacing',
    'on',
    'range',
    'minVolume',
    'recovery',
    'consecutive',
    'renotify',
    'mentions',
    'severity',
    'check',
  ],
  'alerts.*.metric': FIELD,
  'alerts.*.change': ['vs', 'above', 'below'],
  'alerts.*.anomaly': ['baseline', 'weeks', 'sensitivity', 'direction'],
  'alerts.*.check': ['cron', 'timezone'],
  'alerts.*.pacing': ['tolerance', 'recovery'],
  'alerts.*.minVolume': ['metric', 'value'],
  'alerts.*.all.*': CONDITION,
  'alerts.*.any.*': CONDITION,
  'alerts.*.all.*.metric': FIELD,
  'alerts.*.any.*.metric': FIELD,
  'alerts.*.all.*.change': ['vs', 'above', 'below'],
  'alerts.*.any.*.change': ['vs', 'above', 'below'],
};

/** Messages for values that matched none of a union's shapes, by path pattern. */
const UNION_HINTS: Record<string, string> = {
  'query.dimensions.*': 'must be a dimension name, or { name, args, as }',
  'query.metrics.*': 'must be a metric name, or { name, args, as }',
  'alerts.*.metric': 'must be a metric name, or { name, args, as }',
  'alerts.*.change': 'must be { vs: previous_period | same_period_last_week, above: 30%, below: -20% }',
  'alerts.*.recovery': 'must be a number (for above/below) or a percentage like 15% (for change)',
  'alerts.*.all.*.metric': 'must be a metric name, or { name, args, as }',
  'alerts.*.any.*.metric': 'must be a metric name, or { name, args, as }',
  'alerts.*.all.*.change': 'must be { vs: previous_period | same_period_last_week, above: 30%, below: -20% }',
  'alerts.*.any.*.change': 'must be { vs: previous_period | same_period_last_week, above: 30%, below: -20% }',
  'alerts.*.all.*.recovery': 'must be a number (for above/below) or a percentage like 15% (for change)',
  'alerts.*.any.*.recovery': 'must be a number (for above/below) or a percentage like 15% (for change)',
  'query.filter.*': 'must be a value, a list of values, or { equals | notEquals | isIn | isNotIn }',
  'query.range': 'must be a range (yesterday, last_7_days, 2026-11-01..2026-11-08) or { from, to }',
  'present.sort': 'must be a column key (prefix - for descending) or { by, order }',
  'schedule.days': 'must be daily, weekdays, weekends or a list of mon, tue, wed, thu, fri, sat, sun',
  'schedule.catchUp': 'must be a duration like 6h or 30m, or none',
};

function pattern(path: ReadonlyArray<PropertyKey>): string {
  const parts = path.map((p) => (typeof p === 'number' ? '*' : String(p)));
  // Filter and cleanup keys are field names chosen by the author.
  if ((parts[0] === 'query' && parts[1] === 'filter') || parts[1] === 'cleanup') {
    if (parts.length >= 3) parts[2] = '*';
  }
  return parts.join('.');
}

/** The keys allowed in the object at `path` (for "unknown field" suggestions). */
export function knownKeys(path: ReadonlyArray<PropertyKey>): readonly string[] {
  return KEYS[pattern(path)] ?? [];
}

/** A readable message (with suggestions for enums) for one zod issue. */
export function issueMessage(issue: z.core.$ZodIssue, value: unknown): { message: string; suggestions: string[] } {
  const shown = JSON.stringify(value) ?? String(value);
  switch (issue.code) {
    case 'invalid_value': {
      const allowed = issue.values.map(String);
      const suggestions = typeof value === 'string' ? suggest(value, allowed) : [];
      return {
        message: `${shown} is not allowed; use one of ${allowed.join(', ')}.${didYouMean(suggestions)}`,
        suggestions,
      };
    }
    case 'invalid_union':
      return { message: `${shown} ${UNION_HINTS[pattern(issue.path)] ?? 'has the wrong shape'}`, suggestions: [] };
    case 'invalid_type':
      return { message: `must be ${article(issue.expected)}, got ${kindOf(value)} ${shown}`, suggestions: [] };
    case 'too_small':
      return {
        message:
          issue.origin === 'array' ? `needs at least ${String(issue.minimum)} item(s)` : `${shown}: ${issue.message}`,
        suggestions: [],
      };
    case 'custom':
      return { message: issue.message, suggestions: [] };
    default:
      return { message: `${shown}: ${issue.message}`, suggestions: [] };
  }
}

function article(type: string): string {
  if (type === 'object') return 'a mapping (key: value)';
  if (type === 'array') return 'a list';
  return /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`;
}

function kindOf(value: unknown): string {
  if (Array.isArray(value)) return 'a list';
  if (value === null) return 'null';
  if (typeof value === 'object') return 'a mapping';
  return `a ${typeof value}`;
}
