import { didYouMean, ErrorCode, suggest, UserInputError } from '../core/index.js';
import { findMetric, getMetric, type InputValue, METRICS, type MetricSelection } from '../reporting/index.js';
import type { ExplainRequest } from './types.js';

export type MetricArgs = Readonly<Record<string, InputValue>>;

/** An additive catalog metric with its arguments, e.g. `{ name: 'installs', args: { attrTouch: 'CLICK' } }`. */
export interface MetricPart {
  readonly name: string;
  readonly args: MetricArgs;
}

/**
 * How a catalog metric is computed from additive parts: a sum (`num` only), or `scale · Σnum / Σden`.
 * Slicing a ratio filters both parts; per-segment ratios are never added up.
 */
export type MetricParts =
  | { readonly metric: string; readonly kind: 'additive'; readonly num: MetricPart }
  | {
      readonly metric: string;
      readonly kind: 'ratio';
      readonly num: MetricPart;
      readonly den: MetricPart;
      readonly scale: number;
    };

/** Why a metric cannot be explained by segments. */
export type NotExplainableReason = 'unknown-metric' | 'unique-count' | 'no-parts' | 'not-a-sum' | 'bad-argument';

/** A metric whose change cannot be split into segments (or that does not exist), with the reason in words. */
export class MetricNotExplainableError extends UserInputError {
  readonly metric: string;
  readonly reason: NotExplainableReason;

  constructor(metric: string, reason: NotExplainableReason, message: string, suggestions: readonly string[] = []) {
    super(ErrorCode.MetricNotExplainable, message, { suggestions, details: { metric, reason } });
    this.metric = metric;
    this.reason = reason;
  }
}

type Split = (args: MetricArgs) => { num: MetricPart; den: MetricPart };

/** One decision per catalog metric: a sum, a ratio of sums, or not explainable (and why). */
export type MetricDecision =
  | { readonly kind: 'additive' }
  | { readonly kind: 'ratio'; readonly split: Split; readonly scale: number }
  | { readonly kind: 'unexplainable'; readonly reason: NotExplainableReason; readonly why: string };

const ADDITIVE: MetricDecision = { kind: 'additive' };
const part = (name: string, args: MetricArgs = {}): MetricPart => ({ name, args });
const only = (args: MetricArgs, names: readonly string[]): MetricArgs =>
  Object.fromEntries(Object.entries(args).filter(([k]) => names.includes(k)));
const isSet = (value: InputValue | undefined) => value !== undefined && value !== null && value !== 'ALL';
const INSTALL_ARGS: readonly string[] = getMetric('installs')?.args ?? [];

/** `scale · Σnum / Σden`; `split` gives each part the arguments it takes (a metric without arguments: none). */
function ratioOf(split: Split, scale = 1): MetricDecision {
  return { kind: 'ratio', scale, split };
}

/** A ratio of two parts without arguments (cpc, cpm, ctr…: the metric takes none). */
function plainRatio(num: string, den: string, scale = 1): MetricDecision {
  return ratioOf(() => ({ num: part(num), den: part(den) }), scale);
}

function unexplainable(reason: NotExplainableReason, why: string): MetricDecision {
  return { kind: 'unexplainable', reason, why };
}

const UNIQUE =
  'it counts unique devices, and a device seen in two segments is counted once in the total, so segments do not add up to it';

/**
 * The decision for every catalog metric, checked against the sandbox's SQL (src/sandbox/sql/metricSql.ts)
 * and docs/reporting-service.md. A catalog metric missing here fails its test: decide before adding one.
 */
export const METRIC_DECISIONS: Readonly<Record<string, MetricDecision>> = {
  impressions: ADDITIVE,
  clicks: ADDITIVE,
  eviews: ADDITIVE,
  eclicks: ADDITIVE,
  cpc: plainRatio('spend', 'clicks'),
  cpm: plainRatio('spend', 'impressions', 1000),
  ctr: plainRatio('clicks', 'impressions'),
  spend: ADDITIVE,
  uniqueImpressions: unexplainable('unique-count', UNIQUE),
  uniqueClicks: unexplainable('unique-count', UNIQUE),
  simps: ADDITIVE,
  sourceViewa: unexplainable(
    'no-parts',
    'viewability is a share of measured impressions, and the Reporting Service does not give the viewable and measured counts it is made of',
  ),
  goalDistancePerc: unexplainable(
    'no-parts',
    'it is a distance from each campaign’s goal, and the goal spend it compares with is not a metric the Reporting Service gives',
  ),
  bucket: unexplainable('not-a-sum', 'it is a quality label (a bucket number), not a sum or a ratio of sums'),
  // Always the attributed key metric (the spec), so keyMetric takes no arguments here.
  absoluteCpx: plainRatio('spend', 'keyMetric'),
  keyMetricVtaShare: plainRatio('keyMetricVtaImp', 'keyMetricVtaTotal'),
  keyMetric: ADDITIVE,
  keyMetricVtaImp: ADDITIVE,
  keyMetricVtaTotal: ADDITIVE,
  uniqueEvents: unexplainable('unique-count', UNIQUE),
  events: ADDITIVE,
  billableSpend: ADDITIVE,
  eventValue: ADDITIVE,
  eventsCpa: ratioOf((args) => ({ num: part('spend'), den: part('events', args) })),
  eventsRoas: ratioOf((args) => ({ num: part('eventValue', args), den: part('spend') })),
  eventsIte: ratioOf((args) => ({ num: part('events', args), den: part('impressions') }), 1000),
  // The sandbox's denominator keeps only the arguments `installs` accepts (no eventId).
  eventsRate: ratioOf((args) => ({ num: part('events', args), den: part('installs', only(args, INSTALL_ARGS)) })),
  installs: ADDITIVE,
  installsCpi: ratioOf((args) => ({ num: part('spend'), den: part('installs', args) })),
  // Installs forced to CLICK touch (the spec), over all clicks.
  installsCvr: ratioOf((args) => ({ num: part('installs', { ...args, attrTouch: 'CLICK' }), den: part('clicks') })),
  installsIti: ratioOf((args) => ({ num: part('installs', args), den: part('impressions') }), 1000),
  uniqueEventsCpa: unexplainable('unique-count', `its denominator, unique events, ${UNIQUE}`),
  // Impression-touch attributions over all touches: installs, or the events of eventId when it is given.
  vtaShare: ratioOf((args) => {
    const base = isSet(args.eventId) ? part('events', args) : part('installs', only(args, INSTALL_ARGS));
    return { num: part(base.name, { ...base.args, attrTouch: 'IMP' }), den: base };
  }),
};

/**
 * The additive parts a catalog metric is computed from, with its arguments passed to the parts that
 * take them; throws `MetricNotExplainableError` (reason in words) for unique counts, labels and
 * metrics whose parts the API does not give.
 *
 * @example metricParts('installsCpi') // { metric: 'installsCpi', kind: 'ratio', num: { name: 'spend', args: {} }, den: { name: 'installs', args: {} }, scale: 1 }
 * @example metricParts({ name: 'installs', args: { attrTouch: 'CLICK' } }) // { kind: 'additive', num: { name: 'installs', args: { attrTouch: 'CLICK' } }, … }
 */
export function metricParts(metric: string | Pick<MetricSelection, 'name' | 'args'>): MetricParts {
  const name = typeof metric === 'string' ? metric : metric.name;
  const args: MetricArgs = typeof metric === 'string' ? {} : (metric.args ?? {});
  const def = getMetric(name);
  const decision = METRIC_DECISIONS[name];
  if (!def || !decision) {
    const exact = findMetric(name);
    const suggestions = exact
      ? [exact.name]
      : suggest(
          name,
          METRICS.map((m) => m.name),
        );
    throw new MetricNotExplainableError(
      name,
      'unknown-metric',
      `Unknown metric "${name}".${didYouMean(suggestions)}`,
      suggestions,
    );
  }
  const unaccepted = Object.keys(args).filter((a) => !def.args.includes(a));
  if (unaccepted.length > 0) {
    const accepts = def.args.length > 0 ? `it accepts ${def.args.join(', ')}` : 'it takes no arguments';
    throw new MetricNotExplainableError(
      name,
      'bad-argument',
      `Metric "${name}" does not accept ${unaccepted.join(', ')}; ${accepts}.`,
    );
  }
  if (decision.kind === 'unexplainable') {
    throw new MetricNotExplainableError(
      name,
      decision.reason,
      `${name} cannot be explained by segments: ${decision.why}.`,
    );
  }
  if (decision.kind === 'additive') return { metric: name, kind: 'additive', num: part(name, args) };
  return { metric: name, kind: 'ratio', ...decision.split(args), scale: decision.scale };
}

/** What the engine needs to know of the parts: `{ metric, kind, scale }` for an `ExplainRequest`. */
export function explainKind(parts: MetricParts): Pick<ExplainRequest, 'metric' | 'kind' | 'scale'> {
  return parts.kind === 'ratio'
    ? { metric: parts.metric, kind: 'ratio', scale: parts.scale }
    : { metric: parts.metric, kind: 'additive' };
}
