import { didYouMean, PivotbotError, suggest } from '../core/index.js';
import { collectPivotProblems, DIMENSIONS, findDimension, type PivotRequest } from '../reporting/index.js';
import { isTimeZone } from '../time/index.js';
import { compoundOf, ruleChange } from './alertSchema.js';
import { MONTH_PATTERN } from './budgetSchema.js';
import { canonicalMetric } from './canonical.js';
import { type CompiledReport, compileReport } from './compileReport.js';
import { outputKeys, resolveKey } from './outputKeys.js';
import type { ReportDefinition } from './schema.js';
import { asyncable } from './toAsyncRequest.js';

/** One problem of a definition, at a path into the YAML document (`['query', 'metrics', 2]`). */
export interface DefinitionProblem {
  path: ReadonlyArray<string | number>;
  message: string;
  suggestions: readonly string[];
  /** Point at the key itself (a map key that is the mistake), not its value. */
  onKey?: boolean;
}

export interface CheckOptions {
  now: Date;
  defaultTimeZone?: string;
}

/**
 * Checks a schema-valid definition against the catalog and itself: every name exists (with
 * suggestions), the spec's rules hold, time zones and the range resolve, and everything
 * `present` and `alerts` refer to is an output of the query. Returns every problem found.
 *
 * @example checkReport(definition, { now: new Date() }) // [] when the report can run
 */
export function checkReport(definition: ReportDefinition, options: CheckOptions): DefinitionProblem[] {
  const problems: DefinitionProblem[] = [];
  const add = (path: ReadonlyArray<string | number>, message: string, suggestions: readonly string[] = []) =>
    problems.push({ path, message, suggestions });
  const q = definition.query;
  for (const [path, zone] of [
    [['query', 'timezone'], q.timezone],
    [['schedule', 'timezone'], definition.schedule?.timezone],
  ] as const) {
    if (zone !== undefined && !isTimeZone(zone)) add(path, `"${zone}" is not an IANA time zone (like Europe/Berlin).`);
  }
  if (problems.length > 0) return problems;
  if (q.metrics.length === 0 && q.dimensions.length === 0 && !q.postbacks) {
    add(['query'], 'The query needs metrics (or postbacks).');
    return problems;
  }
  let compiled: CompiledReport;
  try {
    compiled = compileReport(definition, options);
  } catch (error) {
    if (error instanceof PivotbotError) {
      add(['query', 'range'], error.message);
      return problems;
    }
    throw error;
  }
  const request = compiled.request;
  if (request) {
    for (const p of collectPivotProblems(request, { now: options.now }).problems) {
      add(yamlPath(p.path, compiled), p.message, p.suggestions);
    }
    if (definition.mode === 'async' && !asyncable(request)) {
      add(['mode'], 'mode async runs plain metric and dimension names: remove the arguments and aliases, or use sync.');
    }
  }
  if (q.postbacks && q.postbacks.appId > 2_147_483_647) add(['query', 'postbacks', 'appId'], 'appId is too large.');
  checkReferences(definition, request, add);
  checkOwners(definition, request, problems);
  checkBudgets(definition, request, problems);
  if (definition.present.onlyWhen && definition.present.compare === 'none') {
    add(
      ['present', 'onlyWhen'],
      'onlyWhen posts when a headline KPI moved against the comparison: set present.compare (previous_period, same_period_last_week or same_period_last_month).',
    );
  } else if (definition.present.onlyWhen && definition.mode === 'async') {
    add(
      ['present', 'onlyWhen'],
      'onlyWhen needs the comparison period, which async reports run without: use sync or auto.',
    );
  }
  definition.alerts.forEach((rule, i) => {
    if (rule.range === undefined) return;
    try {
      compileReport(definition, { ...options, range: rule.range });
    } catch (error) {
      if (!(error instanceof PivotbotError)) throw error;
      add(['alerts', i, 'range'], error.message);
    }
  });
  return problems;
}

type Add = (path: ReadonlyArray<string | number>, message: string, suggestions?: readonly string[]) => void;

function checkReferences(definition: ReportDefinition, request: PivotRequest | undefined, add: Add): void {
  const keys = request ? outputKeys(request) : { metrics: [], dimensions: [] };
  const all = [...keys.metrics, ...keys.dimensions];
  const ref = (path: ReadonlyArray<string | number>, key: string, within: readonly string[], what: string) => {
    if (resolveKey(key, within) !== undefined) return;
    const suggestions = suggest(key, within);
    const known = within.length > 0 ? ` (the query has ${within.join(', ')})` : '';
    add(path, `"${key}" is not a ${what} of this report${known}.${didYouMean(suggestions)}`, suggestions);
  };
  const present = definition.present;
  present.headline?.forEach((key, i) => {
    ref(['present', 'headline', i], key, keys.metrics, 'metric');
  });
  if (present.sort !== undefined) {
    const by = typeof present.sort === 'string' ? present.sort.replace(/^[-+]/, '') : present.sort.by;
    ref(['present', 'sort'], by, all, 'column');
  }
  if (present.chart) {
    ref(['present', 'chart', 'x'], present.chart.x, keys.dimensions, 'dimension');
    present.chart.series.forEach((key, i) => {
      ref(['present', 'chart', 'series', i], key, keys.metrics, 'metric');
    });
    if (present.chart.stackBy !== undefined) {
      ref(['present', 'chart', 'stackBy'], present.chart.stackBy, keys.dimensions, 'dimension');
    }
  }
  if (present.explain) {
    present.explain.dimensions?.forEach((name, i) => {
      if (findDimension(name)) return;
      const suggestions = suggest(
        name,
        DIMENSIONS.map((d) => d.name),
      );
      add(
        ['present', 'explain', 'dimensions', i],
        `unknown dimension "${name}".${didYouMean(suggestions)}`,
        suggestions,
      );
    });
  }
  const ruleIds = new Set<string>();
  definition.alerts.forEach((rule, i) => {
    const base = ['alerts', i];
    // Incidents are keyed by (report, rule id): two rules with one id would share their incidents.
    if (ruleIds.has(rule.id)) add([...base, 'id'], `Another alert of this report is already called "${rule.id}".`);
    ruleIds.add(rule.id);
    const compound = compoundOf(rule);
    // A pacing rule watches spend whatever the query's metrics are (its own request asks for it).
    if (rule.pacing !== undefined) return;
    const watched = compound
      ? compound.conditions.map((c, j) => ({ metric: c.metric, path: [...base, compound.mode, j, 'metric'] }))
      : [{ metric: rule.metric, path: [...base, 'metric'] }];
    for (const { metric, path } of watched) {
      if (typeof metric === 'string') ref(path, metric, keys.metrics, 'metric');
      else {
        const probe: PivotRequest = {
          from: '2000-01-01',
          to: '2000-01-02',
          dimensions: [],
          metrics: [canonicalMetric(metric)],
        };
        for (const p of collectPivotProblems(probe).problems) {
          add([...path, ...segments(p.path).slice(2)], p.message, p.suggestions);
        }
      }
    }
    if (rule.minVolume) ref([...base, 'minVolume', 'metric'], rule.minVolume.metric, keys.metrics, 'metric');
    if (ruleChange(rule) && definition.present.compare === 'none' && definition.mode === 'async') {
      add(
        [...base, compound?.mode ?? 'change'],
        'A percent-change rule needs a comparison period; async reports run without one.',
      );
    }
  });
}

/** Every `owners:` key is a dimension the query groups by, or no entity could ever match it. */
function checkOwners(
  definition: ReportDefinition,
  request: PivotRequest | undefined,
  problems: DefinitionProblem[],
): void {
  const dimensions = request ? outputKeys(request).dimensions.filter((d) => d !== 'date') : [];
  for (const dimension of Object.keys(definition.owners ?? {})) {
    if (resolveKey(dimension, dimensions) !== undefined) continue;
    const suggestions = suggest(dimension, dimensions);
    const known = dimensions.length > 0 ? ` (the query has ${dimensions.join(', ')})` : ' (the query has none)';
    problems.push({
      path: ['owners', dimension],
      message: `"${dimension}" is not a dimension of this report${known}.${didYouMean(suggestions)}`,
      suggestions,
      onKey: true,
    });
  }
}

/**
 * Every `budgets.months` key is a calendar month, the report has a query for the plans to scope,
 * and every pacing rule has plans to pace against.
 */
function checkBudgets(
  definition: ReportDefinition,
  request: PivotRequest | undefined,
  problems: DefinitionProblem[],
): void {
  const budgets = definition.budgets;
  for (const month of Object.keys(budgets?.months ?? {})) {
    if (MONTH_PATTERN.test(month)) continue;
    problems.push({
      path: ['budgets', 'months', month],
      message: `"${month}" is not a calendar month: write it YYYY-MM, like "2026-11".`,
      suggestions: [],
      onKey: true,
    });
  }
  if (budgets && request === undefined) {
    problems.push({
      path: ['budgets'],
      message: "budgets pace the spend of the report's query, and this report has none (postbacks only).",
      suggestions: [],
    });
  }
  definition.alerts.forEach((rule, i) => {
    if (rule.pacing === undefined || budgets !== undefined) return;
    problems.push({
      path: ['alerts', i, 'pacing'],
      message: 'a pacing rule needs the monthly plans: add budgets: { months: { "2026-11": 120000 } } to this report.',
      suggestions: [],
    });
  });
}

/** `metrics[2].args.attrTouch` → `['metrics', 2, 'args', 'attrTouch']`. */
export function segments(path: string): Array<string | number> {
  const out: Array<string | number> = [];
  for (const part of path.split('.')) {
    const match = /^([^[]*)((?:\[\d+\])*)$/.exec(part);
    if (!match) {
      out.push(part);
      continue;
    }
    if (match[1]) out.push(match[1]);
    for (const index of (match[2] ?? '').matchAll(/\[(\d+)\]/g)) out.push(Number(index[1]));
  }
  return out;
}

/** Maps a request path of `collectPivotProblems` to where that value is written in the YAML. */
function yamlPath(path: string, compiled: CompiledReport): Array<string | number> {
  // Argument values are checked under paths like `installs(attrTouch)`.
  const argument = /^(\w+)\((\w+)\)$/.exec(path);
  if (argument) {
    const [, name, arg] = argument;
    const has = (s: { name: string; args?: object }) => s.name === name && arg !== undefined && arg in (s.args ?? {});
    const metric = compiled.request?.metrics.findIndex(has) ?? -1;
    if (metric >= 0) return ['query', 'metrics', metric, 'args', arg ?? ''];
    const dimension = compiled.request?.dimensions.findIndex(has) ?? -1;
    if (dimension >= 0) return yamlPath(`dimensions[${dimension}].args.${arg}`, compiled);
  }
  const [head, ...rest] = segments(path);
  const { filterKeys, cleanupKeys, addedDate } = compiled.source;
  switch (head) {
    case 'metrics':
      return ['query', 'metrics', ...rest];
    case 'dimensions': {
      const [index, ...more] = rest;
      if (typeof index !== 'number') return ['query', 'dimensions'];
      const written = addedDate ? index - 1 : index;
      return written < 0 ? ['query', 'granularity'] : ['query', 'dimensions', written, ...more];
    }
    case 'filter': {
      const [field, ...more] = rest;
      return ['query', 'filter', ...(typeof field === 'string' ? [filterKeys.get(field) ?? field, ...more] : [])];
    }
    case 'cleanup': {
      const [field, ...more] = rest;
      return ['query', 'cleanup', ...(typeof field === 'string' ? [cleanupKeys.get(field) ?? field, ...more] : [])];
    }
    case 'cohortType':
      return ['query', 'cohort', 'type'];
    case 'cohortWindow':
      return ['query', 'cohort', 'window', ...rest];
    case 'quality_type':
      return ['query', 'quality'];
    case 'campaignChannel':
      return ['query', 'channel'];
    case 'context':
      return ['query', 'timezone'];
    case 'options':
      return ['query', 'options', ...rest];
    case 'from':
    case 'to':
      return ['query', 'range'];
    default:
      return ['query'];
  }
}
