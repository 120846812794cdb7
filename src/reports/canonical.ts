/**
 * Maps names and enum values as people type them (any case) to the catalog's spelling, so
 * `INSTALLSCPI`, `attrtouch=click` and `date:daily` all compile to the names the service knows.
 * Unknown names are returned unchanged: validation then reports them with suggestions.
 */
import {
  findDimension,
  findMetric,
  findMetricArgument,
  getDimension,
  getEnum,
  getInputType,
  type InputValue,
} from '../reporting/index.js';
import type { FieldSpec } from './schema.js';

/** The enum value of `type` matching `value` ignoring case (`'click'` → `'CLICK'` for AttrTouch). */
export function canonicalEnumValue(type: string, value: InputValue): InputValue {
  const def = getEnum(type.replace(/[![\]]/g, ''));
  if (!def || typeof value !== 'string') return value;
  return def.values.find((v) => v.toLowerCase() === value.toLowerCase()) ?? value;
}

/** A field of an input type (`Filter`, `Cleanup`) by name, ignoring case. */
export function findInputField(typeName: string, name: string): { name: string; type: string } | undefined {
  const lower = name.toLowerCase();
  return getInputType(typeName)?.fields.find((f) => f.name.toLowerCase() === lower);
}

/** Input-type field names, for suggestions. */
export function inputFieldNames(typeName: string): string[] {
  return getInputType(typeName)?.fields.map((f) => f.name) ?? [];
}

export interface Selection {
  name: string;
  args?: Record<string, InputValue>;
  alias?: string;
}

/** A metric as written in a definition, with its name, argument names and enum values canonical. */
export function canonicalMetric(field: FieldSpec): Selection {
  const spec = typeof field === 'string' ? { name: field } : field;
  const name = findMetric(spec.name)?.name ?? spec.name;
  const out: Selection = { name };
  if (spec.args && Object.keys(spec.args).length > 0) {
    const args: Record<string, InputValue> = {};
    for (const [arg, value] of Object.entries(spec.args)) {
      const def = findMetricArgument(arg);
      args[def?.name ?? arg] = def ? coerce(def.type, value as InputValue) : (value as InputValue);
    }
    out.args = args;
  }
  if (spec.as !== undefined) out.alias = spec.as;
  return out;
}

/** A dimension as written, canonical; `date:daily` is accepted as a short form of `date(granularity: DAILY)`. */
export function canonicalDimension(field: FieldSpec): Selection {
  let spec = typeof field === 'string' ? { name: field } : field;
  if (typeof field === 'string' && /^date:\w+$/i.test(field)) {
    spec = { name: 'date', args: { granularity: field.slice(5) } };
  }
  const def = findDimension(spec.name);
  const out: Selection = { name: def?.name ?? spec.name };
  if (spec.args && Object.keys(spec.args).length > 0) {
    const args: Record<string, InputValue> = {};
    for (const [arg, value] of Object.entries(spec.args)) {
      const argDef = def?.args.find((a) => a.name.toLowerCase() === arg.toLowerCase());
      args[argDef?.name ?? arg] = argDef ? coerce(argDef.type, value as InputValue) : (value as InputValue);
    }
    out.args = args;
  }
  if (spec.as !== undefined) out.alias = spec.as;
  return out;
}

/** Coerces a typed value to a GraphQL type: enum case, numeric text for Int, true/false text for Boolean. */
export function coerce(type: string, value: InputValue): InputValue {
  const bare = type.replace(/!$/, '');
  if (bare.startsWith('[') && Array.isArray(value)) {
    const inner = bare.slice(1, -1);
    return value.map((v) => coerce(inner, v));
  }
  if ((bare === 'Int' || bare === 'Float') && typeof value === 'string' && /^-?\d+(\.\d+)?$/.test(value)) {
    return Number(value);
  }
  if (bare === 'Boolean' && typeof value === 'string' && /^(true|false)$/i.test(value)) {
    return value.toLowerCase() === 'true';
  }
  if (bare === 'String' && (typeof value === 'number' || typeof value === 'boolean')) return String(value);
  return canonicalEnumValue(bare, value);
}

/** True when the dimension is a time bucket (joins across periods align it by position). */
export function isTimeDimension(name: string): boolean {
  return getDimension(name)?.kind === 'time';
}
