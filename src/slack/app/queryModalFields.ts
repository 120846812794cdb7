/**
 * What the query builder's fields say: their block ids, the query line they make, their problems
 * and the compiled verdict of a submission, read back from a view's state and metadata. Pure.
 * The view itself is `queryModal.ts`.
 */
import { compileQuery, countryCodeOf, QueryError, type QueryOptions } from '../../query/index.js';
import { fitText, SLACK_LIMITS } from '../../render/index.js';

export const QUERY_MODAL_CALLBACK = 'pivot_query_modal';
/** Every input of the modal dispatches its changes with an action id starting so (`MODAL_ACTION_PATTERN`). */
export const QUERY_MODAL_ACTION_PREFIX = 'pivot_qm_';

/** Block ids: the keys of the view's state and of the errors a submission answers with. */
export const QUERY_BLOCKS = {
  metrics: 'qm_metrics',
  dimensions: 'qm_dimensions',
  range: 'qm_range',
  country: 'qm_country',
  app: 'qm_app',
  campaign: 'qm_campaign',
  top: 'qm_top',
  compare: 'qm_compare',
  line: 'qm_line',
} as const;

/** What the modal's fields hold. */
export interface QueryModalFields {
  metrics: string[];
  dimensions: string[];
  range: string;
  country: string;
  app: string;
  campaign: string;
  top: string;
  compare: 'none' | 'previous' | 'last_week';
}

export const EMPTY_FIELDS: QueryModalFields = {
  metrics: [],
  dimensions: [],
  range: 'yesterday',
  country: '',
  app: '',
  campaign: '',
  top: '',
  compare: 'none',
};

/** The ranges offered: relative ones only, so a query saved from the modal keeps moving with time. */
export const MODAL_RANGES: ReadonlyArray<readonly [query: string, label: string]> = [
  ['yesterday', 'Yesterday'],
  ['today', 'Today so far'],
  ['last 24 hours', 'Last 24 hours'],
  ['last 7 days', 'Last 7 days (L7D)'],
  ['last 14 days', 'Last 14 days'],
  ['last 30 days', 'Last 30 days (L30D)'],
  ['last 90 days', 'Last 90 days'],
  ['this week', 'This week (WTD)'],
  ['last week', 'Last week'],
  ['month to date', 'This month (MTD)'],
  ['last month', 'Last month'],
];

export const COMPARISONS: ReadonlyArray<readonly [QueryModalFields['compare'], string, string]> = [
  ['none', 'No comparison', ''],
  ['previous', 'vs previous period', 'vs previous period'],
  ['last_week', 'vs same period last week (WoW)', 'vs last week'],
];

/** Splits a filter input: commas, "and" or spaces between values. */
function listOf(text: string): string[] {
  return text
    .split(/\s*(?:,|;|\band\b)\s*/i)
    .flatMap((part) => (/^[\d\s]+$/.test(part) ? part.split(/\s+/) : [part]))
    .map((part) => part.trim())
    .filter((part) => part !== '');
}

/** The problems of the filter and top inputs, by block id (Slack shows each under its input). */
export function fieldProblems(fields: QueryModalFields): Record<string, string> {
  const problems: Record<string, string> = {};
  if (fields.metrics.length === 0) problems[QUERY_BLOCKS.metrics] = 'Pick at least one metric.';
  const unknown = listOf(fields.country).filter((c) => countryCodeOf(c) === undefined);
  if (unknown.length > 0) {
    problems[QUERY_BLOCKS.country] = fitText(
      `Not a country: ${unknown.join(', ')}. Write codes or names: US, BR or Brazil.`,
      SLACK_LIMITS.inputError,
    );
  }
  for (const [key, what] of [
    ['app', 'app ids'],
    ['campaign', 'campaign ids'],
  ] as const) {
    const bad = listOf(fields[key]).filter((v) => !/^\d{1,10}$/.test(v) || Number(v) > 2_147_483_647);
    if (bad.length > 0)
      problems[QUERY_BLOCKS[key]] = fitText(
        `Not ${what}: ${bad.join(', ')}. Write numbers: 101, 102.`,
        SLACK_LIMITS.inputError,
      );
  }
  if (fields.top.trim() !== '' && !/^\s*([1-9]\d{0,3})\s*$/.test(fields.top)) {
    problems[QUERY_BLOCKS.top] = 'Top N is a whole number from 1 to 9999, or empty for every row.';
  }
  return problems;
}

function condition(field: string, values: readonly string[]): string | undefined {
  if (values.length === 0) return undefined;
  return values.length === 1 ? `${field} = ${values[0]}` : `${field} in (${values.join(', ')})`;
}

/**
 * The query line the fields stand for, in the query language's own names: what the modal shows
 * and what a submission runs. Inputs that are not valid yet are left out (their errors say why).
 *
 * @example queryLine({ ...EMPTY_FIELDS, metrics: ['spend'], dimensions: ['countryCode'], country: 'US, Brazil' })
 * // 'spend by countryCode yesterday where countryCode in (US, BR)'
 */
export function queryLine(fields: QueryModalFields): string {
  return queryLineParts(fields)
    .map((p) => p.text)
    .join(' ');
}

/** The query line's parts, each with the block whose field wrote it (where its errors are shown). */
function queryLineParts(fields: QueryModalFields): Array<{ block: string; text: string }> {
  const problems = fieldProblems(fields);
  const parts: Array<{ block: string; text: string }> = [
    { block: QUERY_BLOCKS.metrics, text: fields.metrics.length > 0 ? fields.metrics.join(', ') : '…' },
  ];
  if (fields.dimensions.length > 0)
    parts.push({ block: QUERY_BLOCKS.dimensions, text: `by ${fields.dimensions.join(', ')}` });
  parts.push({ block: QUERY_BLOCKS.range, text: fields.range || 'yesterday' });
  const conditions = [
    problems[QUERY_BLOCKS.country]
      ? undefined
      : condition(
          'countryCode',
          listOf(fields.country).map((c) => countryCodeOf(c) as string),
        ),
    problems[QUERY_BLOCKS.app] ? undefined : condition('appId', listOf(fields.app)),
    problems[QUERY_BLOCKS.campaign] ? undefined : condition('campaignId', listOf(fields.campaign)),
  ].filter((c): c is string => c !== undefined);
  if (conditions.length > 0) parts.push({ block: QUERY_BLOCKS.country, text: `where ${conditions.join(' and ')}` });
  if (fields.top.trim() !== '' && !problems[QUERY_BLOCKS.top])
    parts.push({ block: QUERY_BLOCKS.top, text: `top ${fields.top.trim()}` });
  const compare = COMPARISONS.find(([value]) => value === fields.compare)?.[2];
  if (compare) parts.push({ block: QUERY_BLOCKS.compare, text: compare });
  return parts;
}

/** A submission's verdict: the query to run, or the errors to show, keyed by block id. */
export type ModalVerdict = { ok: true; query: string } | { ok: false; errors: Record<string, string> };

/**
 * Checks a submission: every input, then the whole line through the query compiler (the spec's
 * rules, e.g. dimensions that cannot go together), whose error is shown under the metrics.
 *
 * @example validateQueryModal(fields, { now: new Date(), defaultTimeZone: 'UTC' })
 */
export function validateQueryModal(fields: QueryModalFields, options: QueryOptions): ModalVerdict {
  const problems = fieldProblems(fields);
  if (Object.keys(problems).length > 0) return { ok: false, errors: problems };
  const query = queryLine(fields);
  try {
    compileQuery(query, options);
  } catch (error) {
    if (!(error instanceof QueryError)) throw error;
    return { ok: false, errors: { [blockOfError(error, fields)]: fitText(error.message, SLACK_LIMITS.inputError) } };
  }
  return { ok: true, query };
}

/**
 * Where a compile error is shown: under the field that wrote the words it points at (a range too
 * old for hourly rows under the range), else under the dimensions when it names a chosen one,
 * else under the metrics.
 */
function blockOfError(error: QueryError, fields: QueryModalFields): string {
  let at = 0;
  for (const part of queryLineParts(fields)) {
    if (error.position >= at && error.position < at + part.text.length && part.block !== QUERY_BLOCKS.metrics)
      return part.block;
    at += part.text.length + 1;
  }
  return fields.dimensions.some((d) => error.message.includes(d.split(':')[0] as string))
    ? QUERY_BLOCKS.dimensions
    : QUERY_BLOCKS.metrics;
}

/** The fields out of a view's `state.values` (Slack's shape: block id → action id → element state). */
export function fieldsFromState(values: unknown): QueryModalFields {
  const state = (values ?? {}) as Record<string, Record<string, ElementState>>;
  const element = (block: string): ElementState | undefined => {
    const actions = state[block];
    return actions ? Object.values(actions)[0] : undefined;
  };
  const selected = (block: string) => (element(block)?.selected_options ?? []).map((o) => o.value);
  const single = (block: string) => element(block)?.selected_option?.value;
  const text = (block: string) => element(block)?.value ?? '';
  const compare = single(QUERY_BLOCKS.compare);
  return {
    metrics: selected(QUERY_BLOCKS.metrics),
    dimensions: selected(QUERY_BLOCKS.dimensions),
    range: single(QUERY_BLOCKS.range) ?? EMPTY_FIELDS.range,
    country: text(QUERY_BLOCKS.country),
    app: text(QUERY_BLOCKS.app),
    campaign: text(QUERY_BLOCKS.campaign),
    top: text(QUERY_BLOCKS.top),
    compare: compare === 'previous' || compare === 'last_week' ? compare : 'none',
  };
}

interface ElementState {
  selected_options?: Array<{ value: string }>;
  selected_option?: { value: string } | null;
  value?: string | null;
}

/** What the modal carries from open to submit: the channel its result goes to. */
export interface QueryModalMetadata {
  channel: string;
  /**
   * The `/pivot` command's response_url: a submission has none of its own, and `chat.postEphemeral`
   * fails in a channel the bot is not in, so private answers (queued, failed) go here.
   */
  responseUrl?: string;
}

export function parseModalMetadata(raw: string | undefined): QueryModalMetadata | undefined {
  try {
    const value = JSON.parse(raw ?? '') as { channel?: unknown; responseUrl?: unknown };
    if (typeof value.channel !== 'string' || value.channel === '') return undefined;
    return {
      channel: value.channel,
      ...(typeof value.responseUrl === 'string' && value.responseUrl !== '' ? { responseUrl: value.responseUrl } : {}),
    };
  } catch {
    return undefined;
  }
}
