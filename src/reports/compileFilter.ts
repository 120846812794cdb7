import type { CleanupThresholds, InputValue } from '../reporting/index.js';
import { coerce, findInputField } from './canonical.js';
import type { ReportQuery } from './schema.js';

/**
 * Compiles a definition's `filter` to the spec's Filter: `appId: 101` → `{ appId: { equals: 101 } }`,
 * `countryCode: [US, BR]` → `{ isIn: [...] }`, operators kept; field names and values canonical.
 * `keys` maps each compiled field back to the key as written (for error locations).
 */
export function compileFilter(filter: NonNullable<ReportQuery['filter']>): {
  filter: Record<string, InputValue>;
  keys: Map<string, string>;
} {
  const out: Record<string, InputValue> = {};
  const keys = new Map<string, string>();
  for (const [written, value] of Object.entries(filter)) {
    const field = findInputField('Filter', written);
    const name = field?.name ?? written;
    keys.set(name, written);
    if (!field) {
      out[name] = value as InputValue;
      continue;
    }
    if (field.type === 'Boolean') {
      out[name] = coerce('Boolean', value as InputValue);
      continue;
    }
    const operand = (op: string) => findInputField(field.type, op)?.type ?? 'String';
    if (Array.isArray(value)) out[name] = { isIn: coerce(operand('isIn'), value) };
    else if (value !== null && typeof value === 'object') {
      const ops: Record<string, InputValue> = {};
      for (const [op, v] of Object.entries(value)) if (v !== undefined) ops[op] = coerce(operand(op), v as InputValue);
      out[name] = ops;
    } else out[name] = { equals: coerce(operand('equals'), value) };
  }
  return { filter: out, keys };
}

/** Compiles `cleanup`: canonical metric names; Long thresholds as exact strings, Float ones as numbers. */
export function compileCleanup(cleanup: NonNullable<ReportQuery['cleanup']>): {
  cleanup: Record<string, CleanupThresholds>;
  keys: Map<string, string>;
} {
  const out: Record<string, CleanupThresholds> = {};
  const keys = new Map<string, string>();
  for (const [written, thresholds] of Object.entries(cleanup)) {
    const field = findInputField('Cleanup', written);
    const name = field?.name ?? written;
    keys.set(name, written);
    const long = field?.type === 'LongGenericCleanup';
    const compiled: CleanupThresholds = {};
    for (const [op, v] of Object.entries(thresholds) as Array<[keyof CleanupThresholds, string | number | undefined]>) {
      if (v === undefined) continue;
      compiled[op] = long ? String(v) : typeof v === 'string' ? Number(v) : v;
    }
    out[name] = compiled;
  }
  return { cleanup: out, keys };
}
