import { didYouMean, suggest } from '../core/index.js';
import {
  DIMENSION_RULES,
  DIMENSIONS,
  findDimension,
  findMetric,
  getDimension,
  getMetric,
  getMetricArgument,
  LIMITS,
  METRICS,
  OPERATIONS,
} from './catalog/index.js';
import { checkValue, type Problem, parseDateTimeInput } from './checkValue.js';
import { PivotValidationError } from './errors.js';
import type { InputValue, PivotRequest } from './request.js';

export interface ValidateOptions {
  /** The clock, for the age limits (hourly data, siteBundle). */
  now?: Date;
  /** `async` jobs take plain dimension and metric names: no arguments, no aliases. */
  mode?: 'sync' | 'async';
}

export interface Validation {
  problems: Problem[];
  /** Not errors, but worth showing: e.g. siteBundle is null for data older than three months. */
  warnings: string[];
}

const IDENTIFIER = /^[_A-Za-z][_0-9A-Za-z]*$/;
const DAY_MS = 86_400_000;

/**
 * Checks a request against the catalog and the spec's rules; throws the first problem as a
 * `PivotValidationError` (with "Did you mean …?") and returns the warnings.
 *
 * @example const { warnings } = validatePivot(request, { now: new Date() });
 */
export function validatePivot(request: PivotRequest, options: ValidateOptions = {}): { warnings: string[] } {
  const { problems, warnings } = collectPivotProblems(request, options);
  const first = problems[0];
  if (first) throw new PivotValidationError(first.path, first.message, first.suggestions);
  return { warnings };
}

/** Every problem of a request (for callers that report them all, like `pivotbot validate`). */
export function collectPivotProblems(request: PivotRequest, options: ValidateOptions = {}): Validation {
  const problems: Problem[] = [];
  const warnings: string[] = [];
  const now = options.now ?? new Date();
  const async = options.mode === 'async';

  if (request.dimensions.length === 0 && request.metrics.length === 0) {
    problems.push({ path: 'metrics', message: 'Choose at least one metric or dimension.', suggestions: [] });
  }
  checkDimensions(request, async, problems);
  checkMetrics(request, async, problems);
  checkOutputKeys(request, problems);
  checkDimensionRules(request, problems);
  checkCtv(request, problems);
  checkPivotArguments(request, problems);
  checkRange(request, now, problems, warnings);
  return { problems, warnings };
}

function checkDimensions(request: PivotRequest, async: boolean, problems: Problem[]): void {
  request.dimensions.forEach((dimension, i) => {
    const path = `dimensions[${i}]`;
    const def = getDimension(dimension.name);
    if (!def) {
      const exact = findDimension(dimension.name);
      const suggestions = exact
        ? [exact.name]
        : suggest(
            dimension.name,
            DIMENSIONS.map((d) => d.name),
          );
      problems.push({ path, message: `Unknown dimension "${dimension.name}".${didYouMean(suggestions)}`, suggestions });
      return;
    }
    if (async && (dimension.alias !== undefined || Object.keys(dimension.args ?? {}).length > 0)) {
      problems.push({
        path,
        message: `Async pivots take plain dimension names; "${dimension.name}" cannot carry arguments or an alias there. Run it synchronously.`,
        suggestions: [],
      });
    }
    for (const [arg, value] of Object.entries(dimension.args ?? {})) {
      const argDef = def.args.find((a) => a.name === arg);
      if (!argDef) {
        const allowed = def.args.map((a) => a.name);
        const suggestions = suggest(arg, allowed);
        problems.push({
          path: `${path}.args.${arg}`,
          message: `Dimension "${def.name}" takes ${allowed.length > 0 ? `only ${allowed.join(', ')}` : 'no arguments'}, not "${arg}".${didYouMean(suggestions)}`,
          suggestions,
        });
        continue;
      }
      problems.push(...checkValue(value, argDef.type, `${def.name}(${arg})`));
    }
  });
}

function checkMetrics(request: PivotRequest, async: boolean, problems: Problem[]): void {
  request.metrics.forEach((metric, i) => {
    const path = `metrics[${i}]`;
    const def = getMetric(metric.name);
    if (!def) {
      const exact = findMetric(metric.name);
      const suggestions = exact
        ? [exact.name]
        : suggest(
            metric.name,
            METRICS.map((m) => m.name),
          );
      problems.push({ path, message: `Unknown metric "${metric.name}".${didYouMean(suggestions)}`, suggestions });
      return;
    }
    if (async && (metric.alias !== undefined || Object.keys(metric.args ?? {}).length > 0)) {
      problems.push({
        path,
        message: `Async pivots take plain metric names; "${metric.alias ?? metric.name}" carries arguments or an alias. Run it synchronously.`,
        suggestions: [],
      });
    }
    for (const [arg, value] of Object.entries(metric.args ?? {})) {
      const argDef = getMetricArgument(arg);
      if (!argDef || !def.args.includes(arg)) {
        const suggestions = suggest(arg, def.args);
        const accepts = def.args.length > 0 ? `it accepts ${def.args.join(', ')}` : 'it takes no arguments';
        problems.push({
          path: `${path}.args.${arg}`,
          message: `Metric "${def.name}" does not accept "${arg}"; ${accepts}.${didYouMean(suggestions)}`,
          suggestions,
        });
        continue;
      }
      problems.push(...checkValue(value as InputValue, argDef.type, `${def.name}(${arg})`));
    }
  });
}

function checkOutputKeys(request: PivotRequest, problems: Problem[]): void {
  const seen = new Map<string, string>();
  const fields = [
    ...request.dimensions.map((d, i) => ({ ...d, path: `dimensions[${i}]` })),
    ...request.metrics.map((m, i) => ({ ...m, path: `metrics[${i}]` })),
  ];
  for (const field of fields) {
    if (field.alias !== undefined && !IDENTIFIER.test(field.alias)) {
      problems.push({
        path: `${field.path}.alias`,
        message: `Alias "${field.alias}" must start with a letter or _ and hold only letters, digits and _.`,
        suggestions: [],
      });
      continue;
    }
    const key = field.alias ?? field.name;
    const previous = seen.get(key);
    if (previous !== undefined) {
      problems.push({
        path: field.path,
        message: `"${key}" appears twice (${previous} and ${field.path}); give one of them an alias.`,
        suggestions: [],
      });
    }
    seen.set(key, field.path);
  }
}

function checkDimensionRules(request: PivotRequest, problems: Problem[]): void {
  const names = new Set(request.dimensions.map((d) => d.name));
  for (const rule of DIMENSION_RULES) {
    const left = rule.left.filter((n) => names.has(n));
    const right = rule.right.filter((n) => names.has(n));
    if (left.length > 0 && right.length > 0) {
      problems.push({
        path: 'dimensions',
        message: `${left.join(', ')} cannot be queried together with ${right.join(', ')}: ${rule.message}`,
        suggestions: [],
      });
    }
  }
}

/** True when connected-TV data is appended: campaignChannel supersedes appendCtvData. */
export function usesCtv(request: Pick<PivotRequest, 'appendCtvData' | 'campaignChannel'>): boolean {
  if (request.campaignChannel !== undefined) return request.campaignChannel !== 'MOBILE';
  return request.appendCtvData === true;
}

function checkCtv(request: PivotRequest, problems: Problem[]): void {
  const ctv = usesCtv(request);
  request.dimensions.forEach((dimension, i) => {
    const def = getDimension(dimension.name);
    if (!def) return;
    if (def.ctvOnly && !ctv) {
      problems.push({
        path: `dimensions[${i}]`,
        message: `"${def.name}" applies only when connected-TV data is appended; set campaignChannel to CTV or ALL (or appendCtvData).`,
        suggestions: [],
      });
    }
    if (ctv && def.ctvReplacement !== undefined) {
      problems.push({
        path: `dimensions[${i}]`,
        message: `With connected-TV data, use "${def.ctvReplacement}" instead of the integer id "${def.name}".`,
        suggestions: [def.ctvReplacement],
      });
    }
  });
}

function checkPivotArguments(request: PivotRequest, problems: Problem[]): void {
  const op = OPERATIONS.find((o) => o.name === 'pivot');
  if (!op) return;
  const typeOf = (name: string) => op.args.find((a) => a.name === name)?.type ?? 'String';
  const checks: Array<[string, unknown]> = [
    ['filter', request.filter],
    ['cleanup', request.cleanup],
    ['cohortType', request.cohortType],
    ['cohortWindow', request.cohortWindow],
    ['context', request.context],
    ['quality_type', request.qualityType],
    ['options', request.options],
    ['campaignChannel', request.campaignChannel],
  ];
  for (const [name, value] of checks) {
    if (value !== undefined) problems.push(...checkValue(toInput(value), typeOf(name).replace(/!$/, ''), name));
  }
  if (request.cohortWindow !== undefined && request.cohortType === undefined) {
    problems.push({
      path: 'cohortWindow',
      message: 'cohortWindow is used only with a cohortType (INSTALL, TOUCH or ATTRIBUTION).',
      suggestions: [],
    });
  }
}

function checkRange(request: PivotRequest, now: Date, problems: Problem[], warnings: string[]): void {
  const zone = request.context?.sqlTimeZone ?? 'UTC';
  const from = parseDateTimeInput(request.from, offsetMinutes(zone, request.from));
  const to = parseDateTimeInput(request.to, offsetMinutes(zone, request.to));
  if (from === undefined) problems.push(...checkValue(request.from, 'DateTime!', 'from'));
  if (to === undefined) problems.push(...checkValue(request.to, 'DateTime!', 'to'));
  if (from === undefined || to === undefined) return;
  if (from >= to) {
    problems.push({
      path: 'to',
      message: `The range is empty: from (${request.from}) must be before to (${request.to}); to is exclusive.`,
      suggestions: [],
    });
    return;
  }
  const hourly = request.dimensions.some((d) => d.name === 'date' && d.args?.granularity === 'HOURLY');
  const hourlyFloor = now.getTime() - LIMITS.hourlyMaxAgeDays * DAY_MS;
  if (hourly && from < hourlyFloor) {
    problems.push({
      path: 'from',
      message: `Hourly granularity is only available for the last ${LIMITS.hourlyMaxAgeDays} days; ${request.from} is older. Use DAILY, or start on ${new Date(hourlyFloor).toISOString().slice(0, 10)} or later.`,
      suggestions: [],
    });
  }
  const bundleFloor = new Date(now);
  bundleFloor.setUTCMonth(bundleFloor.getUTCMonth() - LIMITS.siteBundleMaxAgeMonths);
  if (request.dimensions.some((d) => d.name === 'siteBundle') && from < bundleFloor.getTime()) {
    warnings.push(
      `siteBundle is only kept for the last ${LIMITS.siteBundleMaxAgeMonths} months; rows before ${bundleFloor.toISOString().slice(0, 10)} have it empty.`,
    );
  }
}

/** The UTC offset (minutes) of `zone` around the given local date-time, for inputs without a zone. */
export function offsetMinutes(zone: string, localText: string): number {
  const approx = parseDateTimeInput(localText);
  if (approx === undefined) return 0;
  try {
    const parts = offsetFormat(zone).formatToParts(new Date(approx));
    const name = parts.find((p) => p.type === 'timeZoneName')?.value ?? 'GMT';
    const match = /GMT([+-])(\d{2}):?(\d{2})?/.exec(name);
    if (!match) return 0;
    return (match[1] === '-' ? -1 : 1) * (Number(match[2]) * 60 + Number(match[3] ?? 0));
  } catch {
    return 0;
  }
}

const offsetFormats = new Map<string, Intl.DateTimeFormat>();

/** One formatter per zone: building an Intl.DateTimeFormat costs far more than using one. */
function offsetFormat(zone: string): Intl.DateTimeFormat {
  let format = offsetFormats.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'longOffset' });
    offsetFormats.set(zone, format);
  }
  return format;
}

function toInput(value: unknown): InputValue {
  return value as InputValue;
}
