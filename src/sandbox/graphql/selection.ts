/**
 * Reads what a `pivot` asks for from its selection set: the dimension and metric fields of
 * `results` and the metric fields of `totals`, through aliases, named fragments, inline
 * fragments and @skip/@include, each with its arguments coerced (defaults applied).
 */
import {
  type FieldNode,
  type GraphQLField,
  GraphQLIncludeDirective,
  type GraphQLObjectType,
  type GraphQLResolveInfo,
  GraphQLSkipDirective,
  getArgumentValues,
  getDirectiveValues,
  Kind,
  type SelectionNode,
  type SelectionSetNode,
} from 'graphql';
import type { FieldRequest } from '../sql/compileSql.js';

/** Stable key of a field and its coerced arguments; the row maps are keyed by it. */
export function fieldKey(name: string, args: Readonly<Record<string, unknown>>): string {
  const entries = Object.entries(args)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return entries.length === 0 ? name : `${name}(${JSON.stringify(entries)})`;
}

function included(node: SelectionNode, info: GraphQLResolveInfo): boolean {
  const skip = getDirectiveValues(GraphQLSkipDirective, node, info.variableValues);
  if (skip?.if === true) return false;
  const include = getDirectiveValues(GraphQLIncludeDirective, node, info.variableValues);
  return include?.if !== false;
}

/** Every field node of a selection set, fragments flattened. */
export function collectFields(selectionSet: SelectionSetNode | undefined, info: GraphQLResolveInfo): FieldNode[] {
  const out: FieldNode[] = [];
  const visit = (set: SelectionSetNode | undefined): void => {
    for (const sel of set?.selections ?? []) {
      if (!included(sel, info)) continue;
      if (sel.kind === Kind.FIELD) out.push(sel);
      else if (sel.kind === Kind.INLINE_FRAGMENT) visit(sel.selectionSet);
      else visit(info.fragments[sel.name.value]?.selectionSet);
    }
  };
  visit(selectionSet);
  return out;
}

export interface PivotSelection {
  dimensions: FieldRequest[];
  metrics: FieldRequest[];
}

/** The dimensions (of results) and metrics (of results and totals) a pivot field asks for. */
export function collectPivotSelection(info: GraphQLResolveInfo, dimensionNames: ReadonlySet<string>): PivotSelection {
  const resultType = info.schema.getType('PivotResult') as GraphQLObjectType;
  const fields = resultType.getFields();
  const dimensions = new Map<string, FieldRequest>();
  const metrics = new Map<string, FieldRequest>();
  const pivotFields = info.fieldNodes.flatMap((node) => collectFields(node.selectionSet, info));
  for (const pivotField of pivotFields) {
    const part = pivotField.name.value;
    if (part !== 'results' && part !== 'totals') continue;
    for (const node of collectFields(pivotField.selectionSet, info)) {
      const name = node.name.value;
      const def = fields[name] as GraphQLField<unknown, unknown> | undefined;
      if (def === undefined) continue; // __typename
      const args = getArgumentValues(def, node, info.variableValues);
      const request = { name, args, key: fieldKey(name, args) };
      if (dimensionNames.has(name)) {
        if (part === 'results') dimensions.set(request.key, request);
      } else metrics.set(request.key, request);
    }
  }
  return { dimensions: [...dimensions.values()], metrics: [...metrics.values()] };
}
