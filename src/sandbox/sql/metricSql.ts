/**
 * How each metric is computed: aggregate "components" over the fact table (with the metric's
 * arguments as FILTER clauses), combined into the metric's value. Ratios divide safely: a zero
 * denominator gives NULL (or 0 for the spec's non-null Float! metrics), never NaN or Infinity.
 */
import { getMetric } from '../../reporting/index.js';
import type { JoinName } from './joins.js';
import type { SqlParams } from './SqlParams.js';

export type Args = Readonly<Record<string, unknown>>;
export type QualityType = 'op' | 'contr' | 'contr_comp';

export interface MetricContext {
  /** Registers an aggregate over `f` and returns the column alias holding it. */
  component(aggregate: string, type: 'BIGINT' | 'DOUBLE'): string;
  needJoin(join: JoinName): void;
  qualityType: QualityType;
  /** Condition conversion rows must meet under the request's cohort window, or null. */
  cohortWindow: string | null;
  /** Where the request's argument values (event ids, windows) are bound. */
  params: SqlParams;
}

const TOUCH: Readonly<Record<string, number>> = { CLICK: 1, IMP: 2, EVIEW: 3, ECLICK: 4 };
const SOURCE: Readonly<Record<string, number>> = { MMP: 1, SKAD: 2 };
const TECHNIQUE: Readonly<Record<string, number>> = { DETERMINISTIC: 1, PROB: 2 };
const SKAN_FLAG: Readonly<Record<string, number>> = { MMP_AND_SKAD: 1, SKAD_ONLY: 2 };

const isSet = (v: unknown): boolean => v !== undefined && v !== null && v !== 'ALL';

function code(table: Readonly<Record<string, number>>, value: unknown): number {
  const found = table[String(value)];
  if (found === undefined) throw new Error(`unknown enum value ${String(value)}`);
  return found;
}

function intArg(value: unknown): number {
  if (typeof value !== 'number' || !Number.isInteger(value)) throw new Error(`expected an Int, got ${String(value)}`);
  return value;
}

/** Conditions on conversion rows for the attribution arguments a metric accepts. */
function attributionConditions(ctx: MetricContext, args: Args, options: { withEventId: boolean }): string[] {
  const conds: string[] = [];
  if (isSet(args.attrSource)) conds.push(`f.attr_src = ${code(SOURCE, args.attrSource)}`);
  if (isSet(args.attrTouch)) conds.push(`f.touch = ${code(TOUCH, args.attrTouch)}`);
  if (isSet(args.attrTechnique)) conds.push(`f.technique = ${code(TECHNIQUE, args.attrTechnique)}`);
  if (isSet(args.skadAttributionFlag)) conds.push(`f.skan_flag = ${code(SKAN_FLAG, args.skadAttributionFlag)}`);
  if (options.withEventId && isSet(args.eventId)) conds.push(`f.event_id = ${ctx.params.ref(intArg(args.eventId))}`);
  if (isSet(args.vtaWindow))
    conds.push(`NOT COALESCE(f.touch IN (2, 3) AND f.h_touch > ${ctx.params.ref(intArg(args.vtaWindow))}, false)`);
  if (isSet(args.ctaWindow))
    conds.push(`NOT COALESCE(f.touch IN (1, 4) AND f.h_touch > ${ctx.params.ref(intArg(args.ctaWindow))}, false)`);
  if (args.hasCv === true) conds.push('f.attr_src = 2 AND f.has_cv');
  if (args.reinstall === true) conds.push('f.attr_src = 2 AND f.reinstall');
  return conds;
}

function filterClause(conds: readonly string[]): string {
  return conds.length === 0 ? '' : ` FILTER (WHERE ${conds.map((c) => `(${c})`).join(' AND ')})`;
}

/** Installs (kind 1) or events (kind 2), attributed (not assisted), with the given arguments. */
function conversions(ctx: MetricContext, kind: 1 | 2, args: Args, column = 'f.cnt'): string {
  const conds = [
    `f.kind = ${kind}`,
    'NOT f.assisted',
    ...attributionConditions(ctx, args, { withEventId: kind === 2 }),
  ];
  if (ctx.cohortWindow !== null) conds.push(ctx.cohortWindow);
  const type = column === 'f.revenue' ? 'DOUBLE' : 'BIGINT';
  return ctx.component(`COALESCE(SUM(${column})${filterClause(conds)}, 0)::${type}`, type);
}

function delivery(ctx: MetricContext, column: string, type: 'BIGINT' | 'DOUBLE' = 'BIGINT'): string {
  return ctx.component(`COALESCE(SUM(f.${column}), 0)::${type}`, type);
}

const ratio = (num: string, den: string, scale = 1): string =>
  `(${num}::DOUBLE / NULLIF(${den}, 0)${scale === 1 ? '' : ` * ${scale}`})`;

/** Goal type, goal event and goal value columns for the request's quality type. */
function goalColumns(ctx: MetricContext): { type: string; event: string; value: string; sourceOk: string } {
  ctx.needJoin('c');
  if (ctx.qualityType === 'op') {
    return { type: 'c.goal_type', event: 'c.goal_event_id', value: 'c.goal_value', sourceOk: 'true' };
  }
  const sourceOk =
    ctx.qualityType === 'contr'
      ? `(f.kind = 0 OR f.attr_src = CASE c.contr_source WHEN 'MMP' THEN 1 ELSE 2 END)`
      : 'true';
  return { type: 'c.contr_goal_type', event: 'c.contr_goal_event_id', value: 'c.contr_goal_value', sourceOk };
}

/** The key metric's value of one fact row: clicks for CPC, installs for CPI, goal events for CPA, their value for ROAS. */
function keyValue(goal: { type: string; event: string }): string {
  return `CASE WHEN f.kind = 0 THEN CASE WHEN ${goal.type} = 'CPC' THEN f.clicks END
    WHEN f.kind = 1 THEN CASE WHEN ${goal.type} = 'CPI' THEN f.cnt END
    ELSE CASE WHEN ${goal.type} = 'CPA' AND f.event_id = ${goal.event} THEN f.cnt
      WHEN ${goal.type} = 'ROAS' AND f.event_id = ${goal.event} THEN f.revenue END END`;
}

/** Conditions of the key metric: touch and windows apply to conversions; delivery clicks count as CLICK touches. */
function keyConditions(ctx: MetricContext, args: Args, sourceOk: string): string[] {
  const assisted = args.assisted === true;
  const conds = [assisted ? 'f.kind > 0 AND f.assisted' : '(f.kind = 0 OR NOT f.assisted)', sourceOk];
  if (isSet(args.attrTouch)) {
    const touch = code(TOUCH, args.attrTouch);
    conds.push(touch === 1 ? '(f.kind = 0 OR f.touch = 1)' : `f.touch = ${touch}`);
  }
  if (isSet(args.vtaWindow))
    conds.push(`NOT COALESCE(f.touch IN (2, 3) AND f.h_touch > ${ctx.params.ref(intArg(args.vtaWindow))}, false)`);
  if (isSet(args.ctaWindow))
    conds.push(`NOT COALESCE(f.touch IN (1, 4) AND f.h_touch > ${ctx.params.ref(intArg(args.ctaWindow))}, false)`);
  if (ctx.cohortWindow !== null) conds.push(`(f.kind = 0 OR ${ctx.cohortWindow})`);
  return conds;
}

function keyMetric(ctx: MetricContext, args: Args): string {
  const goal = goalColumns(ctx);
  const agg = `SUM(${keyValue(goal)})${filterClause(keyConditions(ctx, args, goal.sourceOk))}`;
  return args.assisted === true
    ? ctx.component(`${agg}::DOUBLE`, 'DOUBLE')
    : ctx.component(`COALESCE(${agg}, 0)::DOUBLE`, 'DOUBLE');
}

/** Spend that would exactly meet the goal: key × goal cost (or value ÷ goal ROAS). */
function goalSpend(ctx: MetricContext): string {
  const goal = goalColumns(ctx);
  const unit = `CASE WHEN ${goal.type} = 'ROAS' THEN 1.0 / NULLIF(${goal.value}, 0) ELSE ${goal.value} END`;
  const agg = `SUM((${keyValue(goal)}) * ${unit})${filterClause(keyConditions(ctx, {}, goal.sourceOk))}`;
  return ctx.component(`COALESCE(${agg}, 0)::DOUBLE`, 'DOUBLE');
}

/** What `installs` accepts (the catalog's per-metric table): a ratio's install denominator keeps only these. */
const INSTALL_ARGS: readonly string[] = getMetric('installs')?.args ?? [];

function only(args: Args, names: readonly string[]): Args {
  return Object.fromEntries(Object.entries(args).filter(([k]) => names.includes(k)));
}

type Builder = (ctx: MetricContext, args: Args) => string;

const spend = (ctx: MetricContext): string => delivery(ctx, 'spend', 'DOUBLE');

function goalDistance(ctx: MetricContext): string {
  const gs = goalSpend(ctx);
  return `((${spend(ctx)} - ${gs}) / NULLIF(${gs}, 0) * 100)`;
}

const BUILDERS: Readonly<Record<string, Builder>> = {
  impressions: (ctx) => delivery(ctx, 'impressions'),
  clicks: (ctx) => delivery(ctx, 'clicks'),
  eviews: (ctx) => delivery(ctx, 'eviews'),
  eclicks: (ctx) => delivery(ctx, 'eclicks'),
  cpc: (ctx) => ratio(spend(ctx), delivery(ctx, 'clicks')),
  cpm: (ctx) => ratio(spend(ctx), delivery(ctx, 'impressions'), 1000),
  ctr: (ctx) => ratio(delivery(ctx, 'clicks'), delivery(ctx, 'impressions')),
  spend,
  uniqueImpressions: (ctx) => delivery(ctx, 'uniq_imps'),
  uniqueClicks: (ctx) => delivery(ctx, 'uniq_clicks'),
  simps: (ctx) => delivery(ctx, 'simps'),
  sourceViewa: (ctx) => ratio(delivery(ctx, 'viewable'), delivery(ctx, 'impressions')),
  goalDistancePerc: (ctx) => `COALESCE(${goalDistance(ctx)}, 0)`,
  bucket: (ctx) => {
    const d = goalDistance(ctx);
    return `(CASE WHEN ${d} IS NULL THEN 0 WHEN ${d} <= -10 THEN 1 WHEN ${d} <= 10 THEN 2 WHEN ${d} <= 30 THEN 3 ELSE 4 END)::DOUBLE`;
  },
  absoluteCpx: (ctx) => `COALESCE(${ratio(spend(ctx), keyMetric(ctx, {}))}, 0)`,
  keyMetricVtaShare: (ctx) => `COALESCE(${ratio(keyMetric(ctx, { attrTouch: 'IMP' }), keyMetric(ctx, {}))}, 0)`,
  keyMetric: (ctx, args) => keyMetric(ctx, args),
  keyMetricVtaImp: (ctx) => keyMetric(ctx, { attrTouch: 'IMP' }),
  keyMetricVtaTotal: (ctx) => keyMetric(ctx, {}),
  uniqueEvents: (ctx, args) => conversions(ctx, 2, only(args, ['eventId']), 'f.uniq'),
  events: (ctx, args) => conversions(ctx, 2, args),
  billableSpend: (ctx, args) => {
    ctx.needJoin('c');
    const value = `CASE WHEN c.goal_type = 'CPI' AND f.kind = 1 THEN f.cnt * c.goal_value
      WHEN c.goal_type = 'CPA' AND f.kind = 2 AND f.event_id = c.goal_event_id THEN f.cnt * c.goal_value END`;
    const conds = [
      'f.kind > 0 AND NOT f.assisted',
      ...attributionConditions(ctx, only(args, ['attrTouch']), { withEventId: false }),
    ];
    if (ctx.cohortWindow !== null) conds.push(ctx.cohortWindow);
    return ctx.component(`COALESCE(SUM(${value})${filterClause(conds)}, 0)::DOUBLE`, 'DOUBLE');
  },
  eventValue: (ctx, args) => conversions(ctx, 2, args, 'f.revenue'),
  eventsCpa: (ctx, args) => ratio(spend(ctx), conversions(ctx, 2, args)),
  eventsRoas: (ctx, args) => ratio(conversions(ctx, 2, args, 'f.revenue'), spend(ctx)),
  eventsIte: (ctx, args) => ratio(conversions(ctx, 2, args), delivery(ctx, 'impressions'), 1000),
  eventsRate: (ctx, args) => ratio(conversions(ctx, 2, args), conversions(ctx, 1, only(args, INSTALL_ARGS))),
  installs: (ctx, args) => conversions(ctx, 1, args),
  installsCpi: (ctx, args) => ratio(spend(ctx), conversions(ctx, 1, args)),
  installsCvr: (ctx, args) => ratio(conversions(ctx, 1, { ...args, attrTouch: 'CLICK' }), delivery(ctx, 'clicks')),
  installsIti: (ctx, args) => ratio(conversions(ctx, 1, args), delivery(ctx, 'impressions'), 1000),
  uniqueEventsCpa: (ctx, args) => ratio(spend(ctx), conversions(ctx, 2, only(args, ['eventId']), 'f.uniq')),
  vtaShare: (ctx, args) => {
    const kind = isSet(args.eventId) ? 2 : 1;
    return ratio(conversions(ctx, kind, { ...args, attrTouch: 'IMP' }), conversions(ctx, kind, args));
  },
};

/** Metrics the sandbox can compute (the conformance test checks this equals the catalog's list). */
export const SUPPORTED_METRICS: readonly string[] = Object.keys(BUILDERS);

/** Metrics whose GraphQL type is Long: their values are cast to BIGINT and serialized as strings. */
export const LONG_METRICS = new Set([
  'impressions',
  'clicks',
  'eviews',
  'eclicks',
  'uniqueImpressions',
  'uniqueClicks',
  'simps',
  'uniqueEvents',
  'events',
  'installs',
]);

/** The metric's value as SQL over component aliases. @example metricSql('installsCpi', { attrTouch: 'CLICK' }, ctx) */
export function metricSql(name: string, args: Args, ctx: MetricContext): string {
  const build = BUILDERS[name];
  if (build === undefined) throw new Error(`unknown metric ${name}`);
  return build(ctx, args);
}
