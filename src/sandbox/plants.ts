/**
 * Planted causes: "multiply this metric on the facts of this segment over these days", so tests
 * and the demo can plant a cause and check that the explanation engine finds it. This file reads
 * and checks plants (pure); `plantedFacts.ts` applies them to the fact table.
 *
 * @example checkPlants({ where: { countryCode: 'BR' }, metric: 'installs', factor: 0.4, days: 'yesterday' })
 */
import { didYouMean, suggest } from '../core/index.js';
import { DIMENSIONS } from '../reporting/index.js';
import { DIMENSION_COLUMNS } from './sql/dimensionSql.js';

/** The metrics a plant can multiply (additive ones: the ratios follow from them). */
export const PLANT_METRICS = ['installs', 'spend', 'clicks', 'impressions', 'events'] as const;
export type PlantMetric = (typeof PLANT_METRICS)[number];

/** A plant as `--plant`, `PUT /sandbox/plants` and `startSandbox({ plants })` take it. */
export interface Plant {
  /** Dimension name → value, as the API names and returns them (`{"countryCode":"BR","campaignId":"1001"}`). */
  where: Readonly<Record<string, string>>;
  metric: PlantMetric;
  /** ≥ 0: 0.4 leaves 40 %, 0 removes the metric, 2 doubles it. */
  factor: number;
  /** `yesterday` (UTC, the data's) or UTC days `[from, to)`, `YYYY-MM-DD`. */
  days: 'yesterday' | readonly [string, string];
}

/** What a caller may send: like `Plant`, with numbers or booleans allowed as dimension values. */
export type PlantInput = Omit<Plant, 'where'> & { where: Readonly<Record<string, string | number | boolean>> };

/** The days that hold data, for checking `days`: UTC dates, `end` exclusive. */
export interface DataSpan {
  /** The data's today (UTC): "yesterday" is the day before. */
  today: string;
  first: string;
  end: string;
}

/** Largest factor: keeps every integer fact within its column's range. */
export const MAX_FACTOR = 1000;
/** Plants in force at once. */
export const MAX_PLANTS = 1000;

/** Dimensions a plant can select on: every dimension a fact row determines (time ones are `days`). */
export const PLANT_DIMENSIONS: readonly string[] = DIMENSIONS.map((d) => d.name).filter(
  (name) => DIMENSION_COLUMNS[name] !== undefined || name === 'siteBundle',
);
const NOT_PLANTABLE: Readonly<Record<string, string>> = {
  date: 'the days of a plant are its "days"',
  dateToStr: 'the days of a plant are its "days"',
  dayOfWeek: 'the days of a plant are its "days"',
  timeOfDay: 'a plant covers whole days',
  goalType: 'it depends on the quality type queried; use campaignGoalType or campaignContractualGoalType',
  adUrl: 'use adId',
};
const PLANT_KEYS = ['where', 'metric', 'factor', 'days'] as const;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

function isDate(text: string): boolean {
  const m = DATE.exec(text);
  if (m === null) return false;
  const d = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === text;
}

function addDays(day: string, days: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

/** The UTC days `[from, to)` a plant covers. @example plantDays(plant, '2026-11-21') // ['2026-11-20', '2026-11-21'] */
export function plantDays(plant: Plant, today: string): readonly [string, string] {
  return plant.days === 'yesterday' ? [addDays(today, -1), today] : plant.days;
}

function unknownName(kind: string, name: string, known: readonly string[]): string {
  return `unknown ${kind} "${name}".${didYouMean(suggest(name, known)) || ` Known ${kind}s: ${known.join(', ')}.`}`;
}

function checkWhere(value: unknown, at: string, problems: string[]): Record<string, string> {
  const where: Record<string, string> = {};
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    problems.push(`${at}.where must be an object of dimension values, e.g. {"countryCode":"BR"}`);
    return where;
  }
  for (const [name, raw] of Object.entries(value)) {
    if (!PLANT_DIMENSIONS.includes(name)) {
      const reason = NOT_PLANTABLE[name];
      problems.push(
        reason === undefined
          ? `${at}.where: unknown dimension "${name}".${didYouMean(suggest(name, PLANT_DIMENSIONS)) || ' Use a dimension name of the API, such as countryCode, source or campaignId.'}`
          : `${at}.where: "${name}" cannot be planted on: ${reason}`,
      );
      continue;
    }
    if (typeof raw === 'string' || typeof raw === 'boolean' || (typeof raw === 'number' && Number.isFinite(raw))) {
      where[name] = String(raw);
    } else {
      problems.push(`${at}.where.${name} must be a string or a number, not ${JSON.stringify(raw) ?? 'undefined'}`);
    }
  }
  return where;
}

function checkDays(value: unknown, at: string, span: DataSpan | undefined, problems: string[]): Plant['days'] {
  if (value === 'yesterday') return 'yesterday';
  if (typeof value === 'string') {
    problems.push(
      `${at}.days: "${value}" is not "yesterday" or ["<from>", "<to>"].${didYouMean(suggest(value, ['yesterday']))}`,
    );
    return 'yesterday';
  }
  if (!Array.isArray(value) || value.length !== 2 || !value.every((d) => typeof d === 'string')) {
    problems.push(
      `${at}.days must be "yesterday" or two UTC dates ["<from>", "<to>") such as ["2026-11-14", "2026-11-21"]`,
    );
    return 'yesterday';
  }
  const [from, to] = value as [string, string];
  const bad = [from, to].filter((d) => !isDate(d));
  if (bad.length > 0) {
    problems.push(
      `${at}.days: ${bad.map((d) => JSON.stringify(d)).join(' and ')} ${bad.length === 1 ? 'is not a date' : 'are not dates'} (YYYY-MM-DD)`,
    );
    return 'yesterday';
  }
  if (from >= to) {
    problems.push(`${at}.days: "${from}" must be before "${to}" (the range is [from, to): to is excluded)`);
    return 'yesterday';
  }
  if (span !== undefined && (to <= span.first || from >= span.end)) {
    problems.push(
      `${at}.days: ["${from}", "${to}") holds no data; the data covers ${span.first} to ${addDays(span.end, -1)}`,
    );
  }
  return [from, to];
}

function checkPlant(value: unknown, at: string, span: DataSpan | undefined, problems: string[]): Plant | null {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    problems.push(`${at} must be an object: {"where":{…},"metric":"installs","factor":0.4,"days":"yesterday"}`);
    return null;
  }
  const record = value as Record<string, unknown>;
  const before = problems.length;
  for (const key of Object.keys(record)) {
    if (!(PLANT_KEYS as readonly string[]).includes(key))
      problems.push(`${at}: ${unknownName('field', key, PLANT_KEYS)}`);
  }
  for (const key of PLANT_KEYS) {
    if (record[key] === undefined) problems.push(`${at}.${key} is missing`);
  }
  const where = record.where === undefined ? {} : checkWhere(record.where, at, problems);
  const metric = record.metric;
  if (metric !== undefined && !(typeof metric === 'string' && (PLANT_METRICS as readonly string[]).includes(metric))) {
    problems.push(
      typeof metric === 'string'
        ? `${at}.metric: ${unknownName('metric', metric, PLANT_METRICS)}`
        : `${at}.metric must be one of ${PLANT_METRICS.join(', ')}`,
    );
  }
  const factor = record.factor;
  if (
    factor !== undefined &&
    !(typeof factor === 'number' && Number.isFinite(factor) && factor >= 0 && factor <= MAX_FACTOR)
  ) {
    problems.push(
      `${at}.factor must be a number from 0 to ${MAX_FACTOR} (0.4 leaves 40 %), not ${JSON.stringify(factor)}`,
    );
  }
  const days = record.days === undefined ? 'yesterday' : checkDays(record.days, at, span, problems);
  if (problems.length > before) return null;
  return { where, metric: metric as PlantMetric, factor: factor as number, days };
}

/**
 * Reads one plant or a list of them from outside (the `--plant` flag, a `PUT /sandbox/plants` body).
 * Every problem is listed and names its field (`plants[1].metric: unknown metric "instals". Did you
 * mean "installs"?`). With `span`, days that hold no data are a problem too.
 */
export function checkPlants(value: unknown, span?: DataSpan): { plants: Plant[]; problems: string[] } {
  const problems: string[] = [];
  const list = Array.isArray(value) ? value : [value];
  const at = (i: number) => (Array.isArray(value) ? `plants[${i}]` : 'plant');
  if (list.length > MAX_PLANTS) return { plants: [], problems: [`at most ${MAX_PLANTS} plants, not ${list.length}`] };
  const plants: Plant[] = [];
  list.forEach((item, i) => {
    const plant = checkPlant(item, at(i), span, problems);
    if (plant !== null) plants.push(plant);
  });
  return problems.length > 0 ? { plants: [], problems } : { plants, problems };
}

/** Parses `--plant` JSON text; see `checkPlants`. */
export function parsePlantsJson(text: string, span?: DataSpan): { plants: Plant[]; problems: string[] } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return {
      plants: [],
      problems: [
        `not valid JSON (${reason}); for example '{"where":{"countryCode":"BR"},"metric":"installs","factor":0.4,"days":"yesterday"}'`,
      ],
    };
  }
  return checkPlants(value, span);
}

/** One line for people: `installs ×0.4 where countryCode=BR, yesterday`. */
export function describePlant(plant: Plant, today?: string): string {
  const where = Object.entries(plant.where).map(([k, v]) => `${k}=${v}`);
  const [from, to] = plantDays(plant, today ?? '1970-01-02');
  const days =
    plant.days === 'yesterday'
      ? `yesterday${today === undefined ? '' : ` (${from})`}`
      : addDays(to, -1) === from
        ? from
        : `${from} to ${addDays(to, -1)}`;
  return `${plant.metric} ×${plant.factor} where ${where.length === 0 ? 'every segment' : where.join(', ')}, ${days}`;
}
