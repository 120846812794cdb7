/**
 * The catalog against the spec: the markdown tables of docs/spec/reporting-service-interface.md are
 * parsed at test time, so a change to either side that breaks the match fails here.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import {
  DIMENSION_RULES,
  DIMENSIONS,
  ENUMS,
  getEnum,
  getInputType,
  getMetric,
  getMetricArgument,
  INPUT_TYPES,
  type InputFieldDef,
  LIMITS,
  METRICS,
  OPERATIONS,
  OUTPUT_TYPES,
  SCALARS,
} from '../../../src/reporting/catalog/index.js';

const SPEC_PATH = fileURLToPath(new URL('../../../docs/spec/reporting-service-interface.md', import.meta.url));
const spec = readFileSync(SPEC_PATH, 'utf8');
const lines = spec.split('\n');

function lineIndex(prefix: string, from = 0): number {
  const index = lines.findIndex((line, i) => i >= from && line.startsWith(prefix));
  if (index < 0) throw new Error(`spec has no line starting with ${JSON.stringify(prefix)}`);
  return index;
}

function lineStarting(prefix: string): string {
  return lines[lineIndex(prefix)] ?? '';
}

/** The first line (1-based) of every table the tests below compared with the catalog. */
const checkedTables = new Set<number>();

/** The body rows (header and separator dropped) of the first table after the line starting with `prefix`. */
function tableAfter(prefix: string): string[][] {
  let i = lineIndex(prefix) + 1;
  while (!lines[i]?.startsWith('|')) i += 1;
  checkedTables.add(i + 1);
  const rows: string[][] = [];
  for (; lines[i]?.startsWith('|'); i += 1) {
    rows.push(
      (lines[i] ?? '')
        .split('|')
        .slice(1, -1)
        .map((cell) => cell.trim()),
    );
  }
  return rows.slice(2);
}

function list(cell: string): string[] {
  return cell.split(',').map((item) => item.trim());
}

/** A Default cell as GraphQL would apply it; undefined when the spec gives none. */
function parseDefault(cell: string): string | boolean | null | undefined {
  const value = (cell.split(';')[0] ?? '').trim().replaceAll('`', '');
  if (value === '' || value === 'none' || value === 'none given') return undefined;
  if (value === 'null') return null;
  if (value === 'true' || value === 'false') return value === 'true';
  return value;
}

function backticked(text: string): string[] {
  return [...text.matchAll(/`([^`]+)`/g)].map((match) => match[1] ?? '');
}

function fieldTypes(fields: readonly InputFieldDef[]): [string, string][] {
  return fields.map((field) => [field.name, field.type]);
}

function defaultOf(item: { default?: unknown }): unknown {
  return 'default' in item ? item.default : undefined;
}

describe('the catalog matches the spec', () => {
  it('has every dimension row exactly once, in order, with the same type and arguments', () => {
    const rows = tableAfter('#### Dimension fields');
    expect(rows).toHaveLength(75);
    expect(DIMENSIONS).toHaveLength(75);
    expect(DIMENSIONS.map((d) => d.name)).toEqual(rows.map(([name]) => name));
    for (const [name, type, meaning = ''] of rows) {
      const dimension = DIMENSIONS.find((d) => d.name === name);
      expect([name, dimension?.type]).toEqual([name, type]);
      const args = [...meaning.matchAll(/argument `(\w+)` (\S+)/g)].map((m) => [m[1], m[2]]);
      expect([name, dimension?.args.map((a) => [a.name, a.type])]).toEqual([name, args]);
    }
  });

  it('has every metric row exactly once, in order, with the same type', () => {
    const rows = tableAfter('#### Metric fields');
    expect(rows).toHaveLength(33);
    expect(METRICS).toHaveLength(33);
    expect(METRICS.map((m) => [m.name, m.type])).toEqual(rows.map(([name, type]) => [name, type]));
  });

  it('gives each metric exactly the arguments of the per-metric table, and none to the others', () => {
    const accepted = new Map<string, string[]>();
    for (const [metrics = '', args = ''] of tableAfter('Arguments accepted per metric')) {
      for (const name of list(metrics)) accepted.set(name, list(args));
    }
    const noArgs = list(/^Metrics not listed \(([^)]*)\)/.exec(lineStarting('Metrics not listed'))?.[1] ?? '');
    expect(noArgs.length + accepted.size).toBe(METRICS.length);
    for (const name of noArgs) expect([name, getMetric(name)?.args]).toEqual([name, []]);
    for (const [name, args] of accepted) expect([name, getMetric(name)?.args]).toEqual([name, args]);
  });

  it('has every metric argument with its type and default', () => {
    const rows = tableAfter('Metric arguments:');
    expect(rows.map(([name]) => getMetricArgument(name ?? '')?.name)).toEqual(rows.map(([name]) => name));
    for (const [name = '', type, defaultCell = ''] of rows) {
      const arg = getMetricArgument(name);
      expect([name, arg?.type]).toEqual([name, type]);
      if (defaultCell === 'none given') {
        // The spec gives no default: ours is a decision, and must say why.
        expect([name, arg?.provenance, Boolean(arg?.note)]).toEqual([name, 'decided', true]);
      } else {
        expect([name, arg && defaultOf(arg)]).toEqual([name, parseDefault(defaultCell)]);
      }
    }
  });

  it('has every enum of the Enumerations table with every value the spec names', () => {
    const rows = tableAfter('### Enumerations');
    expect(ENUMS.map((e) => e.name)).toEqual(rows.map(([cell = '']) => cell.split(' ')[0]));
    for (const [cell = '', valuesCell = ''] of rows) {
      const name = cell.split(' ')[0] ?? '';
      const listed = (valuesCell.replace(/\([^)]*\)/g, '').split(/[;.]/)[0] ?? '')
        .split(',')
        .map((v) => v.trim())
        .filter((v) => /^[A-Z][A-Z0-9_]*$/.test(v));
      const named = [...listed, ...backticked(valuesCell)];
      const def = getEnum(name);
      expect(named.length).toBeGreaterThan(0);
      expect(def?.values).toEqual(expect.arrayContaining(named));
      if (valuesCell.includes('not shown')) {
        expect([name, def?.provenance, Boolean(def?.note)]).toEqual([name, 'decided', true]);
      } else if (def?.provenance === 'spec') {
        expect([name, def.values]).toEqual([name, named]);
      }
    }
    expect(getEnum('Granularity')?.values).toContain('HOURLY');
  });

  it('has every Filter field with its filter type, and every filter shape', () => {
    const expected = tableAfter('**Filter**').flatMap(([names = '', type]) => list(names).map((n) => [n, type]));
    expect(fieldTypes(getInputType('Filter')?.fields ?? [])).toEqual(expected);
    for (const [typeName = '', shape = ''] of tableAfter('Filter shapes')) {
      const def = getInputType(typeName);
      if (shape.includes('not shown')) {
        expect([typeName, def?.provenance, Boolean(def?.note)]).toEqual([typeName, 'decided', true]);
        expect(def?.fields.map((f) => f.name)).toEqual(['equals', 'notEquals', 'isIn', 'isNotIn']);
        continue;
      }
      const fields = shape.split(';').flatMap((part) => {
        const grouped = /^(.+) \((.+)\)$/.exec(part.trim());
        if (grouped) return list(grouped[1] ?? '').map((n) => [n, grouped[2]]);
        const [n, t] = part.trim().split(' ');
        return [[n, t]];
      });
      expect([typeName, fieldTypes(def?.fields ?? [])]).toEqual([typeName, fields]);
    }
  });

  it('has every Cleanup field and both cleanup shapes', () => {
    const expected = tableAfter('**Cleanup**').flatMap(([names = '', type]) => list(names).map((n) => [n, type]));
    expect(fieldTypes(getInputType('Cleanup')?.fields ?? [])).toEqual(expected);
    const prose =
      /type (\w+), written as strings\): ([\w, ]+)\. FloatGenericCleanup has the same four fields with type (\w+)/.exec(
        lineStarting('LongGenericCleanup fields'),
      );
    const names = list(prose?.[2] ?? '');
    expect(names).toHaveLength(4);
    expect(fieldTypes(getInputType('LongGenericCleanup')?.fields ?? [])).toEqual(names.map((n) => [n, prose?.[1]]));
    expect(fieldTypes(getInputType('FloatGenericCleanup')?.fields ?? [])).toEqual(names.map((n) => [n, prose?.[3]]));
  });

  it('has CohortWindow, Context, Options and CreateAsyncPivotInput as the spec gives them', () => {
    const cohort = /`(\w+)` (\S+) and `(\w+)` (\S+)\./.exec(lineStarting('**CohortWindow**'));
    expect(fieldTypes(getInputType('CohortWindow')?.fields ?? [])).toEqual([
      [cohort?.[1], cohort?.[2]],
      [cohort?.[3], cohort?.[4]],
    ]);
    const context = tableAfter('**Context**').map(([name, type]) => [name, type]);
    expect(fieldTypes(getInputType('Context')?.fields ?? [])).toEqual(context);
    const options = /`(\w+)` (\S+), default (\w+)/.exec(lineStarting('**Options**'));
    const removeZeroRows = getInputType('Options')?.fields[0];
    expect([removeZeroRows?.name, removeZeroRows?.type, removeZeroRows?.default]).toEqual([
      options?.[1],
      options?.[2],
      parseDefault(options?.[3] ?? ''),
    ]);
    const rows = tableAfter('**CreateAsyncPivotInput**');
    const input = getInputType('CreateAsyncPivotInput')?.fields ?? [];
    expect(input.map((f) => [f.name, f.type, defaultOf(f)])).toEqual(
      rows.map(([name, type, , defaultCell = '']) => [name, type, parseDefault(defaultCell)]),
    );
  });

  it('has the output types with the spec fields and types', () => {
    const output = (name: string) => OUTPUT_TYPES.find((t) => t.name === name)?.fields ?? [];
    for (const name of ['AsyncPivot', 'PivotParams']) {
      const rows = tableAfter(`**${name}**`).flatMap(([names = '', type]) => list(names).map((n) => [n, type]));
      expect([name, fieldTypes(output(name))]).toEqual([name, rows]);
    }
    const response = backticked(lineStarting('**CreateAsyncPivotResponse**'))[0];
    expect(fieldTypes(output('CreateAsyncPivotResponse'))).toEqual([[response, 'AsyncPivot!']]);
    const postback = lineStarting('**PostbackShare**');
    expect(fieldTypes(output('PostbackShare'))).toEqual([['results', '[PostbackShareResults]']]);
    const resultsFields = backticked(postback.slice(postback.indexOf('Each PostbackShareResults')));
    expect(output('PostbackShareResults').map((f) => f.name)).toEqual(resultsFields);
  });

  it('has every operation with its return type and every argument with its type and default', () => {
    for (const op of OPERATIONS) {
      const heading = lineIndex(`### ${op.kind === 'query' ? 'Query' : 'Mutation'} \`${op.name}\``);
      const section = lines.slice(heading + 1, lineIndex('##', heading + 1)).join('\n');
      expect([op.name, /Returns `([^`]+)`/.exec(section)?.[1]]).toEqual([op.name, op.returns]);
      const actual = op.args.map((a) => [a.name, a.type, defaultOf(a)]);
      const single = /Argument: `(\w+)` ([^\s,]+)(?:, default (\w+))?/.exec(section);
      if (single) {
        expect([op.name, actual]).toEqual([op.name, [[single[1], single[2], parseDefault(single[3] ?? '')]]]);
        continue;
      }
      const rows = tableAfter(`### Query \`${op.name}\``);
      const expected = rows.map(([name, type, required, defaultCell = '']) => {
        expect([name, required]).toEqual([name, type?.endsWith('!') && defaultCell === '' ? 'yes' : 'no']);
        return [name, type, parseDefault(defaultCell)];
      });
      expect([op.name, actual]).toEqual([op.name, expected]);
    }
    expect(OPERATIONS.map((o) => `${o.kind} ${o.name}`).sort()).toEqual(
      lines
        .filter((l) => /^### (Query|Mutation) `/.test(l))
        .map((l) => l.replace(/^### (\w+) `(\w+)`$/, (_, k, n) => `${k.toLowerCase()} ${n}`))
        .sort(),
    );
  });

  it('has the scalars, the dimension exclusion rule and the limits of the spec', () => {
    expect(SCALARS).toEqual(tableAfter('### Scalars').map(([name, description]) => ({ name, description })));
    const names = backticked(lineStarting('1. `siteName`'));
    expect(DIMENSION_RULES.map((r) => [r.left, r.right])).toEqual([[names.slice(0, 2), names.slice(2)]]);
    const limits = new Map(tableAfter('## Limits').map(([limit = '', rule = '']) => [limit, rule]));
    expect(String(LIMITS.hourlyMaxAgeDays)).toBe(/last (\d+) days/.exec(limits.get('Hourly granularity') ?? '')?.[1]);
    expect(String(LIMITS.siteBundleMaxAgeMonths)).toBe(/last (\d+) months/.exec(limits.get('siteBundle') ?? '')?.[1]);
    expect(limits.get('Int range')).toBe('-(2^31) to 2^31 - 1');
    expect([LIMITS.intMin, LIMITS.intMax]).toEqual([-(2 ** 31), 2 ** 31 - 1]);
    expect(`${LIMITS.uniqueCountError * 100}%`).toBe(/about (\d+%)/.exec(limits.get('Unique counts') ?? '')?.[1]);
  });
});

describe('the catalog covers each spec table with no extra entries', () => {
  it('lists exactly the input types and output types the spec describes', () => {
    expect(INPUT_TYPES.map((t) => t.name)).toEqual([
      'Filter',
      'IntGenericFilter',
      'StrGenericFilter',
      'PlatformGenericFilter',
      'CampaignTrackerTypeGenericFilter',
      'CampaignTypeGenericFilter',
      'GroupExperimentFilter',
      'GroupTypeFilter',
      'StatusGenericFilter',
      'Cleanup',
      'LongGenericCleanup',
      'FloatGenericCleanup',
      'CohortWindow',
      'Context',
      'Options',
      'CreateAsyncPivotInput',
    ]);
    for (const name of [...INPUT_TYPES, ...OUTPUT_TYPES].map((t) => t.name)) expect(spec).toContain(name);
  });
});

/**
 * Runs last (jest runs a file's tests in order): a table added to the spec, or a test above that
 * stops reading one, fails here instead of leaving part of the spec unchecked. Run the whole file.
 */
describe('the spec in docs/spec', () => {
  it('moves async pivots only between states of the AsyncPivotStatus enum', () => {
    const states = new Set(getEnum('AsyncPivotStatus')?.values);
    const table = tableAfter('## States and transitions');
    expect(table.length).toBeGreaterThan(0);
    for (const [state = '', , , next = ''] of table) {
      if (state !== '(none)') expect(states).toContain(state);
      expect(states).toContain(next);
    }
  });

  it('has every one of its tables compared with the catalog above', () => {
    const tables = lines.flatMap((line, i) => (line.startsWith('|') && !lines[i - 1]?.startsWith('|') ? [i + 1] : []));
    expect(tables.length).toBeGreaterThan(10);
    // The token endpoint is the token client's contract, not the catalog's: test/integration/reporting/client.test.ts
    // and test/integration/sandbox/http.test.ts exercise it over HTTP.
    const elsewhere = new Set([lineIndex('### Token endpoint') + 3]);
    const unchecked = tables
      .filter((line) => !checkedTables.has(line) && !elsewhere.has(line))
      .map(
        (line) => `line ${line}: ${lines.slice(0, line - 1).findLast((l) => l.trim() !== '' && !l.startsWith('|'))}`,
      );
    expect(unchecked).toEqual([]);
  });
});
