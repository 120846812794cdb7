/**
 * The GraphQL schema, built from the catalog so the two can never disagree: every enum, input,
 * output type and operation, PivotResult = every dimension + every metric (with arguments),
 * PivotMetrics and PivotDimensions as interfaces so fragments on them spread inside `results`;
 * plus the deprecated arguments of legacyArguments.ts, which older clients still write.
 */
import {
  type GraphQLArgumentConfig,
  GraphQLBoolean,
  GraphQLEnumType,
  type GraphQLFieldConfigMap,
  type GraphQLFieldResolver,
  GraphQLFloat,
  GraphQLInputObjectType,
  type GraphQLInputType,
  GraphQLInt,
  GraphQLInterfaceType,
  GraphQLList,
  type GraphQLNamedType,
  GraphQLNonNull,
  GraphQLObjectType,
  type GraphQLOutputType,
  GraphQLSchema,
  GraphQLString,
  type GraphQLType,
  isInputType,
  isOutputType,
} from 'graphql';
import {
  type ArgumentDef,
  DIMENSIONS,
  ENUMS,
  getMetricArgument,
  INPUT_TYPES,
  METRICS,
  OPERATIONS,
  OUTPUT_TYPES,
} from '../../reporting/index.js';
import { legacyArgumentsOf } from './legacyArguments.js';
import { DateTimeScalar, LongScalar } from './scalars.js';

// biome-ignore lint/suspicious/noExplicitAny: resolvers receive arbitrary sources and contexts
type Resolver = GraphQLFieldResolver<any, any>;

export interface SchemaResolvers {
  /** One resolver per operation name (pivot, asyncPivot, asyncPivots, postbackShare, createAsyncPivot). */
  operations: Readonly<Record<string, Resolver>>;
  /** Resolves every dimension and metric field of PivotResult / PivotTotals from a computed row. */
  pivotField: Resolver;
}

/** Builds the schema. @example const schema = buildSandboxSchema({ operations, pivotField }); */
export function buildSandboxSchema(resolvers: SchemaResolvers): GraphQLSchema {
  const types = new SchemaTypes();
  addCatalogTypes(types);
  const { pivotResult, pivotTotals } = addPivotTypes(types, resolvers.pivotField);
  return new GraphQLSchema({
    query: new GraphQLObjectType({ name: 'Query', fields: () => operationFields(types, resolvers, 'query') }),
    mutation: new GraphQLObjectType({ name: 'Mutation', fields: () => operationFields(types, resolvers, 'mutation') }),
    types: [pivotResult, pivotTotals],
  });
}

/** The schema's named types so far, and the catalog's type notation (`[PivotResult!]!`) read against them. */
class SchemaTypes {
  private readonly named = new Map<string, GraphQLNamedType>([
    ['String', GraphQLString],
    ['Int', GraphQLInt],
    ['Float', GraphQLFloat],
    ['Boolean', GraphQLBoolean],
    ['Long', LongScalar],
    ['DateTime', DateTimeScalar],
  ]);

  set(name: string, type: GraphQLNamedType): void {
    this.named.set(name, type);
  }

  input(notation: string): GraphQLInputType {
    const type = this.parse(notation);
    if (!isInputType(type)) throw new Error(`schema: ${notation} is not an input type`);
    return type;
  }

  output(notation: string): GraphQLOutputType {
    const type = this.parse(notation);
    if (!isOutputType(type)) throw new Error(`schema: ${notation} is not an output type`);
    return type;
  }

  argument(def: ArgumentDef): GraphQLArgumentConfig {
    return {
      type: this.input(def.type),
      description: def.description,
      ...(def.default === undefined ? {} : { defaultValue: def.default }),
    };
  }

  /** The deprecated arguments (or input fields) the sandbox accepts beyond the catalog. */
  legacy(owner: string): Record<string, GraphQLArgumentConfig> {
    return Object.fromEntries(
      legacyArgumentsOf(owner).map((a) => [
        a.name,
        { type: this.input(a.type), description: a.description, deprecationReason: a.deprecationReason },
      ]),
    );
  }

  private parse(notation: string): GraphQLType {
    const text = notation.trim();
    if (text.endsWith('!')) return new GraphQLNonNull(this.parse(text.slice(0, -1)) as GraphQLNamedType);
    if (text.startsWith('[') && text.endsWith(']')) return new GraphQLList(this.parse(text.slice(1, -1)));
    const type = this.named.get(text);
    if (type === undefined) throw new Error(`schema: unknown type ${text}`);
    return type;
  }
}

/** The catalog's enums, input types and output types, each with its legacy additions. */
function addCatalogTypes(types: SchemaTypes): void {
  for (const e of ENUMS) {
    types.set(
      e.name,
      new GraphQLEnumType({
        name: e.name,
        description: describe(e),
        values: Object.fromEntries(e.values.map((v) => [v, { value: v }])),
      }),
    );
  }
  for (const t of INPUT_TYPES) {
    types.set(
      t.name,
      new GraphQLInputObjectType({
        name: t.name,
        description: describe(t),
        fields: () => ({
          ...Object.fromEntries(
            t.fields.map((f) => [
              f.name,
              {
                type: types.input(f.type),
                ...(f.description === undefined ? {} : { description: f.description }),
                ...(f.default === undefined ? {} : { defaultValue: f.default }),
              },
            ]),
          ),
          ...types.legacy(t.name),
        }),
      }),
    );
  }
  for (const t of OUTPUT_TYPES) {
    types.set(
      t.name,
      new GraphQLObjectType({
        name: t.name,
        description: describe(t),
        fields: () =>
          Object.fromEntries(
            t.fields.map((f) => [
              f.name,
              { type: types.output(f.type), ...(f.description === undefined ? {} : { description: f.description }) },
            ]),
          ),
      }),
    );
  }
}

/** PivotResult = every dimension + every metric; PivotTotals = every metric; Pivot holds both. */
function addPivotTypes(
  types: SchemaTypes,
  pivotField: Resolver,
): { pivotResult: GraphQLObjectType; pivotTotals: GraphQLObjectType } {
  const metricFields = (withResolver: boolean): GraphQLFieldConfigMap<unknown, unknown> =>
    Object.fromEntries(
      METRICS.map((m) => [
        m.name,
        {
          type: types.output(m.type),
          description: m.description,
          args: Object.fromEntries(
            m.args.map((name) => {
              const def = getMetricArgument(name);
              if (def === undefined) throw new Error(`schema: metric ${m.name} names unknown argument ${name}`);
              return [name, types.argument(def)];
            }),
          ),
          ...(withResolver ? { resolve: pivotField } : {}),
        },
      ]),
    );
  const dimensionFields = (withResolver: boolean): GraphQLFieldConfigMap<unknown, unknown> =>
    Object.fromEntries(
      DIMENSIONS.map((d) => [
        d.name,
        {
          type: types.output(d.type),
          description: d.description,
          args: Object.fromEntries(d.args.map((a) => [a.name, types.argument(a)])),
          ...(withResolver ? { resolve: pivotField } : {}),
        },
      ]),
    );

  const pivotMetrics = new GraphQLInterfaceType({
    name: 'PivotMetrics',
    description: 'every metric field, with its arguments; fragments on it may be spread in results and totals',
    fields: () => metricFields(false),
  });
  const pivotDimensions = new GraphQLInterfaceType({
    name: 'PivotDimensions',
    description: 'every dimension field, with its arguments',
    fields: () => dimensionFields(false),
  });
  const pivotResult = new GraphQLObjectType({
    name: 'PivotResult',
    description: 'one result row: every dimension field and every metric field',
    interfaces: [pivotDimensions, pivotMetrics],
    fields: () => ({ ...dimensionFields(true), ...metricFields(true) }),
  });
  const pivotTotals = new GraphQLObjectType({
    name: 'PivotTotals',
    description: 'the metrics aggregated over the whole report (after cleanup)',
    interfaces: [pivotMetrics],
    fields: () => metricFields(true),
  });
  types.set('PivotMetrics', pivotMetrics);
  types.set('PivotDimensions', pivotDimensions);
  types.set('PivotResult', pivotResult);
  types.set('PivotTotals', pivotTotals);
  types.set(
    'Pivot',
    new GraphQLObjectType({
      name: 'Pivot',
      description: 'a synchronous report: result rows and totals',
      fields: () => ({
        results: { type: types.output('[PivotResult!]!') },
        totals: { type: types.output('PivotTotals!') },
      }),
    }),
  );
  return { pivotResult, pivotTotals };
}

/** The catalog's queries or mutations, each with its resolver and legacy arguments. */
function operationFields(
  types: SchemaTypes,
  resolvers: SchemaResolvers,
  kind: 'query' | 'mutation',
): GraphQLFieldConfigMap<unknown, unknown> {
  return Object.fromEntries(
    OPERATIONS.filter((op) => op.kind === kind).map((op) => {
      const resolve = resolvers.operations[op.name];
      if (resolve === undefined) throw new Error(`schema: no resolver for operation ${op.name}`);
      return [
        op.name,
        {
          type: types.output(op.returns),
          description: op.description,
          args: { ...Object.fromEntries(op.args.map((a) => [a.name, types.argument(a)])), ...types.legacy(op.name) },
          resolve,
        },
      ];
    }),
  );
}

/** A type's description for introspection: the catalog's text, and our note where we decided something. */
function describe(item: { description: string; note?: string }): string {
  return item.note === undefined ? item.description : `${item.description}\n\n${item.note}`;
}
