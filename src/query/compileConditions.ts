/** Compiles the typed values of a query: enum values, `where` conditions and `having` thresholds. */
import { didYouMean, suggest } from '../core/index.js';
import { getEnum, type InputValue } from '../reporting/index.js';
import { findInputField, inputFieldNames, type ReportDefinition } from '../reports/index.js';
import type { AdhocAst, ConditionAst, Located } from './ast.js';
import { countryCodeOf } from './countries.js';
import type { GlossaryIndex } from './GlossaryIndex.js';
import { ID_FILTERS } from './glossary.js';
import { QueryError } from './QueryError.js';

export function checkEnum(type: string, value: Located<string | number | boolean>): string | number | boolean {
  const def = getEnum(type.replace(/[![\]]/g, ''));
  if (!def) return value.value;
  const found = def.values.find((v) => v.toLowerCase() === String(value.value).toLowerCase());
  if (found) return found;
  const suggestions = suggest(String(value.value), def.values);
  throw QueryError.at(
    value,
    `"${value.value}" is not a ${def.name}; use one of ${def.values.join(', ')}.${didYouMean(suggestions)}`,
    suggestions,
  );
}

export function filterOf(ast: AdhocAst, glossary: GlossaryIndex): Record<string, InputValue> {
  const filter: Record<string, Record<string, InputValue> | InputValue> = {};
  for (const cond of ast.where) {
    const field = findInputField('Filter', filterFieldOf(cond, glossary));
    if (!field) {
      const names = inputFieldNames('Filter');
      const suggestions = suggest(cond.field.value, names);
      throw QueryError.at(
        cond.field,
        `Cannot filter on "${cond.field.value}".${didYouMean(suggestions)} Filters: ${names.join(', ')}.`,
        suggestions,
      );
    }
    const operandType = field.type === 'Boolean' ? 'Boolean' : (findInputField(field.type, 'equals')?.type ?? 'String');
    const values = cond.values.map((v) => (field.name === 'countryCode' ? country(v) : operand(operandType, v)));
    if (field.type === 'Boolean') {
      if (cond.op !== '=' || values.length !== 1) throw QueryError.at(cond, `${field.name} takes = true or = false.`);
      filter[field.name] = values[0] as InputValue;
      continue;
    }
    const existing = (filter[field.name] ?? {}) as Record<string, InputValue>;
    const op = { '=': 'equals', '!=': 'notEquals', in: 'isIn', 'not in': 'isNotIn' }[cond.op];
    if (existing[op] !== undefined) throw QueryError.at(cond, `${field.name} is already filtered with ${cond.op}.`);
    if ((cond.op === 'in' || cond.op === 'not in') && !findInputField(field.type, 'isIn')) {
      throw QueryError.at(cond, `${field.name} takes only = and !=.`);
    }
    filter[field.name] = {
      ...existing,
      [op]: op === 'equals' || op === 'notEquals' ? (values[0] as InputValue) : values,
    };
  }
  return filter as Record<string, InputValue>;
}

/**
 * The Filter field of a condition: its name, or what a glossary word means ("country" →
 * countryCode; "campaign" → campaignId when the values are ids, as names are not filter fields).
 */
function filterFieldOf(cond: ConditionAst, glossary: GlossaryIndex): string {
  const written = cond.field.value;
  if (findInputField('Filter', written)) return written;
  const numeric = cond.values.every((v) => typeof v.value === 'number');
  const means = glossary.lookup(written)?.means;
  const idField = ID_FILTERS[written.toLowerCase().replace(/\s+/g, '')];
  if (numeric && idField) return idField;
  if (means?.kind !== 'dimension') return written;
  if (numeric && means.idFilter) return means.idFilter;
  return means.dimension;
}

/** A country as typed ("Brazil", "br", "US") as its ISO2 code. */
function country(value: Located<string | number | boolean>): string {
  const code = countryCodeOf(String(value.value));
  if (!code)
    throw QueryError.at(value, `"${value.value}" is not a country; write its ISO2 code (BR) or its name (Brazil).`);
  return code;
}

function operand(type: string, value: Located<string | number | boolean>): InputValue {
  if (type === 'Int') {
    if (typeof value.value !== 'number' || !Number.isInteger(value.value) || Math.abs(value.value) > 2_147_483_647)
      throw QueryError.at(value, `Expected a whole number (an id), not "${value.value}".`);
    return value.value;
  }
  if (type === 'Boolean') {
    const text = String(value.value).toLowerCase();
    if (text !== 'true' && text !== 'false') throw QueryError.at(value, 'Expected true or false.');
    return text === 'true';
  }
  if (type === 'String') return String(value.value);
  return checkEnum(type, value);
}

export function cleanupOf(ast: AdhocAst): NonNullable<ReportDefinition['query']['cleanup']> {
  const cleanup: Record<string, Record<string, number | string>> = {};
  const ops = { '>': 'greaterThan', '>=': 'greaterOrEqualThan', '<': 'lowerThan', '<=': 'lowerOrEqualThan' } as const;
  for (const h of ast.having) {
    const field = findInputField('Cleanup', h.metric.value);
    if (!field) {
      const names = inputFieldNames('Cleanup');
      const suggestions = suggest(h.metric.value, names);
      throw QueryError.at(
        h.metric,
        `"having" works on ${names.join(', ')}, not "${h.metric.value}".${didYouMean(suggestions)}`,
        suggestions,
      );
    }
    if (field.type === 'LongGenericCleanup' && !Number.isSafeInteger(h.value.value))
      throw QueryError.at(h.value, `${field.name} is a count; compare it with a whole number.`);
    cleanup[field.name] = { ...cleanup[field.name], [ops[h.op]]: h.value.value };
  }
  return cleanup;
}
