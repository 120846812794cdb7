import { didYouMean, ErrorCode, suggest, UserInputError } from '../../core/index.js';
import type { GroupQuery, GroupRow, GroupSource, Measure } from '../types.js';

const ADDITIVE = ['current', 'baseline'] as const;
const RATIO = ['current_num', 'current_den', 'baseline_num', 'baseline_den'] as const;

/** A leaf table read from CSV records: one row per leaf, its dimension values and both periods. */
export interface LeafTable {
  readonly kind: 'additive' | 'ratio';
  readonly dimensions: readonly string[];
  /** Numeric columns left out of the default dimensions (pick them with `dimensions`). */
  readonly ignored: readonly string[];
  readonly leaves: readonly Leaf[];
  /** What the parts are, when the caller said (`--counts`, `--amounts`): for ExplainRequest.noise. */
  readonly noise?: { readonly num?: 'count' | 'amount'; readonly den?: 'count' | 'amount' };
}

export interface Leaf {
  /** One value per `LeafTable.dimensions`, in that order. */
  readonly values: readonly string[];
  readonly current: Measure;
  readonly baseline: Measure;
}

/** A part of the measures: a ratio's numerator or denominator (an additive metric's value is `num`). */
export type MeasurePart = 'num' | 'den';

export interface LeafTableOptions {
  /** Dimension columns to use; default every column that is not a measure and not all numbers. */
  readonly dimensions?: readonly string[];
  /** Parts that are counts (installs, clicks…): whole numbers, never negative; they get a noise model. */
  readonly counts?: readonly MeasurePart[];
  /** Parts that are amounts of money (spend): never negative; they get a noise model. */
  readonly amounts?: readonly MeasurePart[];
  /** How errors name the file, e.g. `exports/leaves.csv`. */
  readonly name?: string;
}

/**
 * Reads CSV records (header first) into a leaf table: dimension columns, then `current,baseline`
 * (additive) or `current_num,current_den,baseline_num,baseline_den` (ratio). Errors name the row
 * (the header is row 1) and the column.
 *
 * @example parseLeafTable(parseCsv(text), { dimensions: ['countryCode', 'source'], name: 'leaves.csv' })
 */
export function parseLeafTable(records: readonly (readonly string[])[], options: LeafTableOptions = {}): LeafTable {
  const name = options.name ?? 'the leaf CSV';
  const fail = (message: string) => new UserInputError(ErrorCode.LeavesCsvInvalid, `${name}: ${message}`);
  const header = (records[0] ?? []).map((h) => h.trim());
  if (header.length === 0 || (header.length === 1 && header[0] === '')) throw fail('is empty; expected a header row.');
  const duplicate = header.find((h, i) => header.indexOf(h) !== i);
  if (duplicate !== undefined) throw fail(`row 1: column "${duplicate}" appears twice.`);
  // A segment is a plain object keyed by column names: this one would set its prototype instead.
  if (header.includes('__proto__')) throw fail('row 1: a column cannot be named "__proto__"; rename it.');
  const kind = measureKind(header, fail);
  const measures: readonly string[] = kind === 'ratio' ? RATIO : ADDITIVE;
  const rows = records
    .map((record, i) => ({ record, row: i + 1 }))
    .slice(1)
    .filter(({ record }) => !(record.length === 1 && (record[0] ?? '').trim() === ''));
  if (rows.length === 0) throw fail('has a header but no leaf rows.');
  for (const { record, row } of rows) {
    if (record.length !== header.length)
      throw fail(`row ${row} has ${record.length} fields; the header has ${header.length}.`);
  }
  const others = header.filter((h) => !measures.includes(h));
  const numeric = others.filter((h) => {
    const at = header.indexOf(h);
    return rows.every(({ record }) => isNumber(record[at] ?? ''));
  });
  const dimensions = options.dimensions ?? others.filter((h) => !numeric.includes(h));
  for (const dimension of dimensions) {
    if (measures.includes(dimension)) throw fail(`"${dimension}" is a measure column, not a dimension.`);
    if (!others.includes(dimension))
      throw fail(`no column "${dimension}".${didYouMean(suggest(dimension, others))} Columns: ${header.join(', ')}.`);
  }
  if (dimensions.length === 0)
    throw fail('has no dimension columns (text columns besides the measures); name some with --dimensions.');
  const dimensionAt = dimensions.map((d) => header.indexOf(d));
  const measureAt = measures.map((m) => header.indexOf(m));
  const kinds = partKinds(kind, options, fail);
  const leaves = rows.map(({ record, row }): Leaf => {
    const [a, b, c, d] = measureAt.map((at, i) => {
      const text = (record[at] ?? '').trim();
      const column = header[at] as string;
      if (!isNumber(text)) throw fail(`row ${row}, column ${column}: "${text}" is not a decimal number.`);
      const value = Number(text);
      checkMeasure(value, kinds[measurePart(kind, i)], kind === 'ratio' && i % 2 === 1, (why) =>
        fail(`row ${row}, column ${column}: ${text} ${why}.`),
      );
      return value;
    }) as [number, number, number?, number?];
    const values = dimensionAt.map((at) => record[at] ?? '');
    return kind === 'ratio'
      ? { values, current: { num: a, den: b }, baseline: { num: c ?? 0, den: d ?? 0 } }
      : { values, current: { num: a }, baseline: { num: b } };
  });
  const noise = { ...(kinds.num ? { num: kinds.num } : {}), ...(kinds.den ? { den: kinds.den } : {}) };
  return {
    kind,
    dimensions,
    ignored: numeric.filter((h) => !dimensions.includes(h)),
    leaves,
    ...(Object.keys(noise).length > 0 ? { noise } : {}),
  };
}

/** Which part the i-th measure column is: additive current,baseline are num; ratio columns alternate num, den. */
const measurePart = (kind: 'additive' | 'ratio', i: number): MeasurePart =>
  kind === 'ratio' && i % 2 === 1 ? 'den' : 'num';

/** The parts' kinds from the options; a part cannot be both, and an additive metric has no den. */
function partKinds(
  kind: 'additive' | 'ratio',
  options: LeafTableOptions,
  fail: (m: string) => Error,
): Partial<Record<MeasurePart, 'count' | 'amount'>> {
  const out: Partial<Record<MeasurePart, 'count' | 'amount'>> = {};
  for (const [list, what] of [
    [options.counts ?? [], 'count'],
    [options.amounts ?? [], 'amount'],
  ] as const) {
    for (const part of list) {
      if (part === 'den' && kind === 'additive') throw fail('an additive metric has no den part; use num.');
      if (out[part] !== undefined && out[part] !== what)
        throw fail(`the ${part} part cannot be both counts and amounts.`);
      out[part] = what;
    }
  }
  return out;
}

/** Refuses a measure value its part cannot hold: negative counts, amounts or denominators, fractional counts. */
function checkMeasure(
  value: number,
  kind: 'count' | 'amount' | undefined,
  denominator: boolean,
  fail: (why: string) => Error,
): void {
  if (value < 0 && (kind !== undefined || denominator))
    throw fail(
      kind === 'count'
        ? 'is negative; a count cannot be'
        : kind === 'amount'
          ? 'is negative; an amount cannot be'
          : "is negative; a ratio's denominator (installs, clicks, impressions, spend) cannot be",
    );
  if (kind === 'count' && !Number.isInteger(value)) throw fail('is not a whole number; a count must be');
}

function measureKind(header: readonly string[], fail: (m: string) => Error): 'additive' | 'ratio' {
  const hasRatio = RATIO.filter((c) => header.includes(c));
  const hasAdditive = ADDITIVE.filter((c) => header.includes(c));
  if (hasRatio.length === RATIO.length && hasAdditive.length === 0) return 'ratio';
  if (hasAdditive.length === ADDITIVE.length && hasRatio.length === 0) return 'additive';
  if (hasRatio.length > 0 && hasAdditive.length > 0)
    throw fail('row 1: has both current,baseline and *_num/*_den columns; keep one set.');
  if (hasRatio.length > 0)
    throw fail(
      `row 1: a ratio needs ${RATIO.join(',')}; missing ${RATIO.filter((c) => !header.includes(c)).join(', ')}.`,
    );
  if (hasAdditive.length > 0)
    throw fail(
      `row 1: an additive metric needs current,baseline; missing ${ADDITIVE.filter((c) => !header.includes(c)).join(', ')}.`,
    );
  throw fail(`row 1: needs columns current,baseline (additive) or ${RATIO.join(',')} (ratio).`);
}

/** Plain decimal notation only (`12`, `-3.5`, `.5`, `1e3`): `0x10`, `0b1`, `Infinity` and `1_000` are refused. */
const DECIMAL = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;
const isNumber = (text: string): boolean => DECIMAL.test(text.trim()) && Number.isFinite(Number(text.trim()));

/**
 * A `GroupSource` over a leaf table: each group-by aggregates the leaves (one pass, a Map keyed by
 * the grouped values). Every group-by over its own dimensions is allowed.
 */
export function leafCsvSource(table: LeafTable): GroupSource {
  const index = new Map(table.dimensions.map((d, i) => [d, i]));
  const known = (query: GroupQuery) =>
    query.dimensions.every((d) => index.has(d)) && Object.keys(query.filter).every((d) => index.has(d));
  const ratio = table.kind === 'ratio';
  return {
    dimensions: table.dimensions,
    allows: known,
    async groups(query) {
      if (!known(query))
        throw new UserInputError(
          ErrorCode.LeavesDimensionUnknown,
          `leaf CSV: no dimension in ${JSON.stringify(query)}.`,
        );
      const by = query.dimensions.map((d) => index.get(d) as number);
      const filter = Object.entries(query.filter).map(([d, v]) => [index.get(d) as number, v] as const);
      const groups = new Map<string, { values: string[]; n0: number; n1: number; d0: number; d1: number }>();
      for (const leaf of table.leaves) {
        if (!filter.every(([at, v]) => leaf.values[at] === v)) continue;
        const values = by.map((at) => leaf.values[at] as string);
        const key = values.join('\u0000');
        let group = groups.get(key);
        if (group === undefined) {
          group = { values, n0: 0, n1: 0, d0: 0, d1: 0 };
          groups.set(key, group);
        }
        group.n0 += leaf.baseline.num;
        group.n1 += leaf.current.num;
        group.d0 += leaf.baseline.den ?? 0;
        group.d1 += leaf.current.den ?? 0;
      }
      return [...groups.values()].map(
        (g): GroupRow => ({
          where: Object.fromEntries(query.dimensions.map((d, i) => [d, g.values[i] as string])),
          current: ratio ? { num: g.n1, den: g.d1 } : { num: g.n1 },
          baseline: ratio ? { num: g.n0, den: g.d0 } : { num: g.n0 },
        }),
      );
    },
  };
}
