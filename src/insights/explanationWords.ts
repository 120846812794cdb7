/**
 * An explanation in the explanation engine's words, as the plain text Slack's messages print (the
 * thread's ranking, a digest's "because" line, an incident's reply): render may not read the
 * engine, so the words are made here with the engine's own helpers (`src/explain/words.ts`), and
 * the CLI and Slack say the same mechanism ("more of the installs came from BR (10 % → 35 %), …").
 */
import {
  type Driver,
  diffuseText,
  driverWords,
  type Explanation,
  leadText,
  offsetText,
  ratioWords,
  restatesVerdict,
  valueText,
  type Where,
} from '../explain/index.js';
import type { ExplanationWords, FormatUnit } from '../render/index.js';
import { signedValue } from '../render/index.js';
import { humanize } from '../reports/index.js';

export interface WordsOptions {
  /** The catalog's metric (`installsCpi`), not its alias: a ratio's words (CPI, installs, $) come from it. */
  readonly metric: string;
  /** The KPI's unit: an additive metric's amounts are written in it (`+$1.2K`, `−415`). */
  readonly unit: FormatUnit;
  /** A dimension's label (`countryCode` → `Country code`); default the name humanized. */
  readonly labelOf?: (dimension: string) => string;
}

/**
 * `Country code BR · Source (empty)`: a segment as a person reads it, dimensions in the engine's
 * order (the one it found first, then the ones it drilled into).
 */
export function segmentName(where: Where, labelOf: (dimension: string) => string = humanize): string {
  const parts = Object.entries(where).map(([dimension, value]) => `${labelOf(dimension)} ${valueText(value)}`);
  return parts.length > 0 ? parts.join(' · ') : 'everything';
}

/**
 * The words of an explanation for Slack: per driver its segment, amount, share, mechanism (a
 * ratio's) and the lead it gives the KPI's line; the offset sentence; the diffuse sentence; the
 * engine's notes but those that only restate the verdict those sentences say.
 *
 * @example explanationWords(why, { metric: 'installsCpi', unit: 'currency' }).drivers[0]?.lead // 'more of the installs came from BR (10 % → 35 %), where CPI is $10 against $3.4 elsewhere (+$1.49, 90 % of the change)'
 */
export function explanationWords(explanation: Explanation, options: WordsOptions): ExplanationWords {
  const ratio = explanation.drivers.some((d) => d.mix !== undefined);
  const words = ratio ? ratioWords(options.metric) : undefined;
  const amount = (x: number) => signedValue(x, options.unit);
  const segment = (d: Driver) => segmentName(d.where, options.labelOf);
  const drivers = explanation.drivers.map((d) => {
    const w = driverWords(d, words, amount);
    const name = segment(d);
    return {
      segment: name,
      amount: w.amount,
      share: w.share,
      ...(w.mechanism === undefined ? {} : { mechanism: w.mechanism }),
      lead: leadText(name, w),
    };
  });
  return {
    drivers,
    ...(explanation.offset === true
      ? { offset: offsetText(explanation.drivers, (d) => `${segment(d)} ${driverWords(d, words, amount).amount}`) }
      : {}),
    ...(explanation.diffuse ? { diffuse: diffuseText(explanation.drivers) } : {}),
    notes: explanation.notes.filter((note) => !restatesVerdict(note)),
  };
}
