import { didYouMean, suggest } from '../core/index.js';
import { getEnum, getInputType, LIMITS } from './catalog/index.js';
import type { InputValue } from './request.js';

/** One thing wrong with a request, where it is, and what the person may have meant. */
export interface Problem {
  path: string;
  message: string;
  suggestions: readonly string[];
}

/**
 * Checks a JSON input value against a GraphQL type written in catalog notation (`Int`,
 * `AttrTouch!`, `[String!]`, `Filter`…): scalars, Int range, enum values, input-object fields (with
 * suggestions for unknown ones) and lists. Returns every problem found.
 *
 * @example checkValue({ countryCode: { isIn: ['US'] } }, 'Filter', 'filter') // []
 */
export function checkValue(value: InputValue | undefined, type: string, path: string): Problem[] {
  const nonNull = type.endsWith('!');
  const bare = nonNull ? type.slice(0, -1) : type;
  if (value === undefined || value === null) {
    return nonNull ? [problem(path, `${path} is required (${type})`)] : [];
  }
  if (bare.startsWith('[')) {
    const inner = bare.slice(1, -1);
    const items = Array.isArray(value) ? (value as readonly InputValue[]) : [value];
    return items.flatMap((item, i) => checkValue(item, inner, `${path}[${i}]`));
  }
  switch (bare) {
    case 'String':
      return typeof value === 'string' ? [] : [problem(path, `${path} must be text, got ${show(value)}`)];
    case 'Boolean':
      return typeof value === 'boolean' ? [] : [problem(path, `${path} must be true or false, got ${show(value)}`)];
    case 'Int':
      return checkInt(value, path);
    case 'Long':
      return isLong(value) ? [] : [problem(path, `${path} must be a whole number, got ${show(value)}`)];
    case 'Float':
      return typeof value === 'number' && Number.isFinite(value)
        ? []
        : [problem(path, `${path} must be a number, got ${show(value)}`)];
    case 'DateTime':
      return typeof value === 'string' && parseDateTimeInput(value) !== undefined
        ? []
        : [
            problem(
              path,
              `${path} must be an ISO 8601 date or date-time (2026-11-20, 2026-11-20T09:00:00, 2026-11-20T09:00:00-03:00), got ${show(value)}`,
            ),
          ];
    default:
      return checkNamed(value, bare, path);
  }
}

function checkNamed(value: InputValue, typeName: string, path: string): Problem[] {
  const enumDef = getEnum(typeName);
  if (enumDef) {
    if (typeof value === 'string' && enumDef.values.includes(value)) return [];
    const text = typeof value === 'string' ? value : show(value);
    const suggestions = suggest(text, enumDef.values);
    const exact = enumDef.values.find((v) => v.toLowerCase() === text.toLowerCase());
    return [
      problem(
        path,
        `${path}: "${text}" is not a ${typeName} (one of ${enumDef.values.join(', ')}).${didYouMean(exact ? [exact] : suggestions)}`,
        exact ? [exact] : suggestions,
      ),
    ];
  }
  const inputType = getInputType(typeName);
  if (!inputType) return [problem(path, `${path}: the catalog has no type ${typeName}`)];
  if (typeof value !== 'object' || Array.isArray(value) || typeof value === 'bigint') {
    return [problem(path, `${path} must be an object with fields ${inputType.fields.map((f) => f.name).join(', ')}`)];
  }
  const record = value as Readonly<Record<string, InputValue>>;
  const problems: Problem[] = [];
  const names = inputType.fields.map((f) => f.name);
  for (const key of Object.keys(record)) {
    if (!names.includes(key)) {
      const suggestions = suggest(key, names);
      problems.push(
        problem(
          `${path}.${key}`,
          `${path}: unknown field "${key}" of ${typeName}.${didYouMean(suggestions)}`,
          suggestions,
        ),
      );
    }
  }
  for (const field of inputType.fields) {
    const fieldValue = record[field.name];
    if (fieldValue === undefined && field.default !== undefined) continue;
    problems.push(...checkValue(fieldValue, field.type, `${path}.${field.name}`));
  }
  return problems;
}

function checkInt(value: InputValue, path: string): Problem[] {
  if (typeof value !== 'number' || !Number.isInteger(value)) {
    return [problem(path, `${path} must be a whole number, got ${show(value)}`)];
  }
  if (value < LIMITS.intMin || value > LIMITS.intMax) {
    return [problem(path, `${path}: ${value} is outside the Int range (${LIMITS.intMin} to ${LIMITS.intMax})`)];
  }
  return [];
}

function isLong(value: InputValue): boolean {
  if (typeof value === 'bigint') return true;
  if (typeof value === 'number') return Number.isSafeInteger(value);
  return typeof value === 'string' && /^-?\d+$/.test(value);
}

/**
 * Parses the spec's DateTime input forms to epoch milliseconds: a date (`2026-11-20`), a date-time
 * without zone (read in `zoneOffsetMinutes`, UTC by default), or a date-time with offset or Z.
 */
export function parseDateTimeInput(text: string, zoneOffsetMinutes = 0): number | undefined {
  const match = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?)?$/.exec(
    text,
  );
  if (!match) return undefined;
  const [, y, mo, d, h = '0', mi = '0', s = '0', frac, zone] = match;
  const ms = frac ? Math.round(Number(`0${frac}`) * 1000) : 0;
  const local = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s), ms);
  const check = new Date(local);
  if (
    check.getUTCFullYear() !== Number(y) ||
    check.getUTCMonth() !== Number(mo) - 1 ||
    check.getUTCDate() !== Number(d)
  ) {
    return undefined;
  }
  if (Number(h) > 23 || Number(mi) > 59 || Number(s) > 59) return undefined;
  if (zone === undefined) return local - zoneOffsetMinutes * 60_000;
  if (zone === 'Z') return local;
  const sign = zone.startsWith('-') ? -1 : 1;
  const digits = zone.slice(1).replace(':', '');
  const offset = sign * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2)));
  return local - offset * 60_000;
}

function problem(path: string, message: string, suggestions: readonly string[] = []): Problem {
  return { path, message, suggestions };
}

function show(value: InputValue): string {
  if (typeof value === 'bigint') return value.toString();
  return JSON.stringify(value) ?? String(value);
}
