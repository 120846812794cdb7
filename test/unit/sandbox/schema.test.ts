import { type GraphQLEnumType, type GraphQLInputObjectType, type GraphQLObjectType, getNamedType } from 'graphql';
import {
  DIMENSIONS,
  ENUMS,
  getMetricArgument,
  INPUT_TYPES,
  METRICS,
  OPERATIONS,
  OUTPUT_TYPES,
} from '../../../src/reporting/catalog/index.js';
import { LEGACY_ARGUMENTS, legacyArgumentsOf } from '../../../src/sandbox/graphql/legacyArguments.js';
import { buildSandboxSchema } from '../../../src/sandbox/graphql/schema.js';
import { LONG_METRICS, SUPPORTED_METRICS } from '../../../src/sandbox/sql/metricSql.js';

const noop = () => null;
const schema = buildSandboxSchema({
  operations: Object.fromEntries(OPERATIONS.map((op) => [op.name, noop])),
  pivotField: noop,
});

describe('the sandbox schema is the catalog', () => {
  const result = schema.getType('PivotResult') as GraphQLObjectType;
  const totals = schema.getType('PivotTotals') as GraphQLObjectType;

  it('puts every dimension and metric on PivotResult, and every metric on PivotTotals and PivotMetrics', () => {
    const names = Object.keys(result.getFields());
    expect(names).toEqual([...DIMENSIONS.map((d) => d.name), ...METRICS.map((m) => m.name)]);
    expect(Object.keys(totals.getFields())).toEqual(METRICS.map((m) => m.name));
    expect(result.getInterfaces().map((i) => i.name)).toEqual(['PivotDimensions', 'PivotMetrics']);
  });

  it('gives every field its catalog type, arguments and defaults', () => {
    for (const d of DIMENSIONS) {
      const f = result.getFields()[d.name];
      expect(String(f?.type)).toBe(d.type);
      expect(f?.args.map((a) => `${a.name}:${String(a.type)}`)).toEqual(d.args.map((a) => `${a.name}:${a.type}`));
    }
    for (const m of METRICS) {
      const f = result.getFields()[m.name];
      expect(String(f?.type)).toBe(m.type);
      expect(f?.args.map((a) => a.name)).toEqual(m.args);
      for (const a of f?.args ?? []) {
        const def = getMetricArgument(a.name);
        expect(String(a.type)).toBe(def?.type);
        expect(a.defaultValue).toEqual(def?.default);
      }
    }
  });

  it('has every enum, input and output type with its fields', () => {
    for (const e of ENUMS) {
      expect((schema.getType(e.name) as GraphQLEnumType).getValues().map((v) => v.name)).toEqual(e.values);
    }
    for (const t of INPUT_TYPES) {
      const fields = (schema.getType(t.name) as GraphQLInputObjectType).getFields();
      expect(Object.values(fields).map((f) => `${f.name}:${String(f.type)}`)).toEqual(
        [...t.fields, ...legacyArgumentsOf(t.name)].map((f) => `${f.name}:${f.type}`),
      );
    }
    for (const t of OUTPUT_TYPES) {
      const fields = (schema.getType(t.name) as GraphQLObjectType).getFields();
      expect(Object.values(fields).map((f) => `${f.name}:${String(f.type)}`)).toEqual(
        t.fields.map((f) => `${f.name}:${f.type}`),
      );
    }
  });

  it('has every operation with its arguments and defaults', () => {
    for (const op of OPERATIONS) {
      const root = op.kind === 'query' ? schema.getQueryType() : schema.getMutationType();
      const f = root?.getFields()[op.name];
      expect(String(f?.type)).toBe(op.returns);
      expect(f?.args.map((a) => [a.name, String(a.type), a.defaultValue])).toEqual([
        ...op.args.map((a) => [a.name, a.type, a.default]),
        ...legacyArgumentsOf(op.name).map((a) => [a.name, a.type, undefined]),
      ]);
      expect(getNamedType(f?.type)).toBeDefined();
    }
  });

  it('adds only deprecated arguments beyond the catalog, each with its reason (the official Python client writes pivot(granularity:))', () => {
    const pivot = schema.getQueryType()?.getFields().pivot;
    expect(pivot?.args.find((a) => a.name === 'granularity')?.deprecationReason).toMatch(/date\(granularity: …\)/);
    const input = schema.getType('CreateAsyncPivotInput') as GraphQLInputObjectType;
    expect(input.getFields().granularity?.deprecationReason).toMatch(/older form/);
    expect(LEGACY_ARGUMENTS.map((a) => `${a.owner}.${a.name}`)).toEqual([
      'pivot.granularity',
      'CreateAsyncPivotInput.granularity',
    ]);
  });

  it('computes every metric of the catalog, Long ones as whole numbers', () => {
    expect([...SUPPORTED_METRICS].sort()).toEqual(METRICS.map((m) => m.name).sort());
    expect([...LONG_METRICS].sort()).toEqual(
      METRICS.filter((m) => m.type === 'Long')
        .map((m) => m.name)
        .sort(),
    );
  });
});
