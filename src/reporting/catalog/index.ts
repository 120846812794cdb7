// The catalog: every dimension, metric, argument, enum, type, operation, rule and limit of the Reporting Service spec, as data.
import { DIMENSIONS } from './dimensions.js';
import { ENUMS } from './enums.js';
import { INPUT_TYPES } from './inputTypes.js';
import { METRIC_ARGUMENTS } from './metricArguments.js';
import { METRICS } from './metrics.js';
import type { ArgumentDef, DimensionDef, EnumDef, InputTypeDef, MetricDef } from './types.js';

export { DIMENSIONS } from './dimensions.js';
export { ENUMS } from './enums.js';
export { INPUT_TYPES } from './inputTypes.js';
export { METRIC_ARGUMENTS } from './metricArguments.js';
export { METRICS } from './metrics.js';
export { OPERATIONS } from './operations.js';
export { OUTPUT_TYPES } from './outputTypes.js';
export { DIMENSION_RULES, LIMITS } from './rules.js';
export { SCALARS } from './scalars.js';
export * from './types.js';

function exactIndex<T extends { name: string }>(items: readonly T[]): ReadonlyMap<string, T> {
  return new Map(items.map((item) => [item.name, item]));
}

function foldedIndex<T extends { name: string }>(items: readonly T[]): ReadonlyMap<string, T> {
  return new Map(items.map((item) => [item.name.toLowerCase(), item]));
}

const dimensionsByName = exactIndex(DIMENSIONS);
const metricsByName = exactIndex(METRICS);
const argumentsByName = exactIndex(METRIC_ARGUMENTS);
const enumsByName = exactIndex(ENUMS);
const inputTypesByName = exactIndex(INPUT_TYPES);
const dimensionsFolded = foldedIndex(DIMENSIONS);
const metricsFolded = foldedIndex(METRICS);
const argumentsFolded = foldedIndex(METRIC_ARGUMENTS);

/** The dimension with exactly this name: `getDimension('countryCode')`. */
export function getDimension(name: string): DimensionDef | undefined {
  return dimensionsByName.get(name);
}

/** The metric with exactly this name: `getMetric('installsCpi')`. */
export function getMetric(name: string): MetricDef | undefined {
  return metricsByName.get(name);
}

/** The metric argument with exactly this name: `getMetricArgument('attrTouch')`. */
export function getMetricArgument(name: string): ArgumentDef | undefined {
  return argumentsByName.get(name);
}

/** The enum with exactly this name: `getEnum('Granularity')`. */
export function getEnum(name: string): EnumDef | undefined {
  return enumsByName.get(name);
}

/** The input type with exactly this name: `getInputType('Filter')`. */
export function getInputType(name: string): InputTypeDef | undefined {
  return inputTypesByName.get(name);
}

/** The dimension whose name matches ignoring case, for what people type: `findDimension('countrycode')`. */
export function findDimension(name: string): DimensionDef | undefined {
  return dimensionsFolded.get(name.toLowerCase());
}

/** The metric whose name matches ignoring case: `findMetric('INSTALLSCPI')`. */
export function findMetric(name: string): MetricDef | undefined {
  return metricsFolded.get(name.toLowerCase());
}

/** The metric argument whose name matches ignoring case: `findMetricArgument('attrtouch')`. */
export function findMetricArgument(name: string): ArgumentDef | undefined {
  return argumentsFolded.get(name.toLowerCase());
}
