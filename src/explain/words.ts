/**
 * Explanations in the trade's words: a ratio driver says its mechanism ("more of the installs
 * came from BR (10 % → 35 %), where CPI is $10 against $3.4 elsewhere" for mix, "BR's CPI rose
 * $10 → $20" for rate, both when both matter), with the parts rounded so that they add up on screen.
 */
import { getMetric } from '../reporting/index.js';
import { metricParts } from './metricParts.js';
import type { Driver } from './types.js';
import { valuesOf } from './where.js';

/** How a ratio metric is named in a sentence. */
export interface RatioWords {
  /** `CPI` */
  readonly name: string;
  /** What the denominator counts: `installs`. */
  readonly volume: string;
  /** Whether the denominator is counted (fewer installs) or measured (less spend). */
  readonly countable: boolean;
  /** How a value of the ratio is written: `$3.4`, `2.1 %`. */
  readonly unit: 'currency' | 'percent' | 'plain';
  /** What the numerator is: `spend`. */
  readonly numerator: string;
}

const NAMES: Readonly<Record<string, string>> = {
  installsCpi: 'CPI',
  cpc: 'CPC',
  cpm: 'CPM',
  ctr: 'CTR',
  installsCvr: 'CVR',
  eventsCpa: 'CPA',
  eventsRoas: 'ROAS',
  installsIti: 'IPM',
  eventsRate: 'event rate',
  absoluteCpx: 'CPX',
  keyMetricVtaShare: 'VTA share',
  vtaShare: 'VTA share',
  eventsIte: 'events per mille',
};
const AMOUNTS = new Set(['spend', 'billableSpend', 'eventValue']);

/** The words for a ratio metric of the catalog; a metric of another name (a CSV's) gets plain words. */
export function ratioWords(metric: string): RatioWords {
  let volume = 'volume';
  let numerator = 'value';
  try {
    const parts = metricParts(metric);
    if (parts.kind === 'ratio') {
      volume = parts.den.name;
      numerator = parts.num.name;
    }
  } catch {
    // Not a catalog metric: plain words.
  }
  const unit = getMetric(metric)?.unit;
  return {
    name: NAMES[metric] ?? metric,
    volume,
    countable: !AMOUNTS.has(volume),
    numerator,
    unit: unit === 'currency' ? 'currency' : unit === 'ratio' ? 'percent' : 'plain',
  };
}

/** A driver's parts as shown: contribution, mix and rate rounded alike, rate = contribution − mix on screen. */
export function shownParts(d: Driver): { contribution: number; mix: number; rate: number; digits: number } {
  const digits = decimals(d.contribution);
  const round = (x: number) => Math.round(x * 10 ** digits) / 10 ** digits;
  const contribution = round(d.contribution);
  const mix = round(d.mix ?? 0);
  return { contribution, mix, rate: round(contribution - mix), digits };
}

/** A part matters when it is at least this share of the driver's mix and rate together (and shows as non-zero). */
export const PART_MATTERS = 0.2;

/**
 * The mechanism of a ratio driver in words, or undefined when it has none (an additive driver):
 * mix, rate, or both (the larger first, each with its amount).
 */
export function mechanism(d: Driver, words: RatioWords): { text: string; amounts: boolean } | undefined {
  if (d.mix === undefined || d.rate === undefined || d.volumeShare === undefined || d.elsewhere === undefined)
    return undefined;
  const shown = shownParts(d);
  const size = Math.abs(d.mix) + Math.abs(d.rate);
  const matters = (part: number, rounded: number) => size > 0 && Math.abs(part) >= PART_MATTERS * size && rounded !== 0;
  const mixMatters = matters(d.mix, shown.mix);
  const rateMatters = matters(d.rate, shown.rate);
  const label = valuesOf(d.where);
  const value = (x: number) => ratioValue(x, words.unit);
  const w = d.volumeShare;
  // No volume in either period (spend and no installs): no ratio of its own to speak of.
  if (w.baseline === 0 && w.current === 0 && d.numerator !== undefined)
    return {
      text: `${label} has no ${words.volume} in either period, yet its ${words.numerator} went ${numeratorValue(d.numerator.baseline, words)} → ${numeratorValue(d.numerator.current, words)}`,
      amounts: false,
    };
  const more = w.current >= w.baseline ? 'more' : words.countable ? 'fewer' : 'less';
  const own = d.baseline !== 0 || w.baseline === 0 ? d.baseline : d.current;
  const mix = `${more} of the ${words.volume} came from ${label} (${percentText(w.baseline)} → ${percentText(w.current)}), where ${words.name} is ${value(own)} against ${value(d.elsewhere.baseline || d.elsewhere.current)} elsewhere`;
  const rate = `${label}'s ${words.name} ${d.current >= d.baseline ? 'rose' : 'fell'} ${value(d.baseline)} → ${value(d.current)}`;
  const amount = (x: number) => signedAmount(x, shown.digits, words.unit);
  if (mixMatters && rateMatters) {
    const parts = [
      { text: rate, part: shown.rate },
      { text: mix, part: shown.mix },
    ].sort((a, b) => Math.abs(b.part) - Math.abs(a.part));
    // Opposite parts read "though": the smaller one held the driver back.
    const joint = Math.sign(shown.mix) === Math.sign(shown.rate) ? ' and ' : ', though ';
    return { text: parts.map((p) => `${p.text} (${amount(p.part)})`).join(joint), amounts: true };
  }
  return { text: mixMatters ? mix : rate, amounts: false };
}

/** A driver in words, plain text for any front end: the CLI's lines and Slack's ranking say the same. */
export interface DriverWords {
  /** Its contribution, signed: a ratio's rounded with its parts (`+$1.49`), else as `amount` writes it. */
  readonly amount: string;
  /** Its share of the change: `90 %`, `<1 %`. */
  readonly share: string;
  /** A ratio driver's mechanism (see `mechanism`); none for an additive one. */
  readonly mechanism?: string;
  /** Whether the mechanism carries each part's amount (both mix and rate matter). */
  readonly partAmounts: boolean;
}

/**
 * A driver's words: `amount` writes a contribution that has no mechanism (an additive metric's, in
 * the caller's unit); a ratio's is written at the decimals its parts are rounded to.
 *
 * @example driverWords(br, ratioWords('installsCpi'), signed).mechanism // 'more of the installs came from BR (10 % → 35 %), where CPI is $10 against $3.4 elsewhere'
 */
export function driverWords(d: Driver, words: RatioWords | undefined, amount: (x: number) => string): DriverWords {
  const share = percentText(d.share);
  const how = words === undefined ? undefined : mechanism(d, words);
  if (how === undefined || words === undefined) return { amount: amount(d.contribution), share, partAmounts: false };
  const total = signedAmount(shownParts(d).contribution, decimals(d.contribution), words.unit);
  return { amount: total, share, mechanism: how.text, partAmounts: how.amounts };
}

/**
 * What follows the metric's move when `segment` leads: a ratio's mechanism first, then the amount
 * and share (after a colon when the mechanism already carries its parts' amounts).
 *
 * @example leadText('countryCode=BR', words) // 'more of the installs came from BR (10 % → 35 %), … (+$1.49, 90 % of the change)'
 */
export function leadText(segment: string, w: DriverWords): string {
  if (w.mechanism === undefined) return `${segment} ${w.amount} (${w.share} of the change)`;
  return w.partAmounts
    ? `${w.mechanism}: ${w.amount}, ${w.share} of the change`
    : `${w.mechanism} (${w.amount}, ${w.share} of the change)`;
}

/**
 * Moves that cancel out, the one that pushed up first: `no net change: US +501 offset by BR −500`
 * (`name` writes a move: its segment and amount).
 */
export function offsetText<D extends Pick<Driver, 'contribution'>>(
  drivers: readonly D[],
  name: (d: D) => string,
): string {
  const [up, down] = [...drivers].sort((x, y) => y.contribution - x.contribution);
  if (up === undefined || down === undefined) return 'no net change';
  return `no net change: ${name(up)} offset by ${name(down)}`;
}

/**
 * A diffuse change in words, before its pieces are listed: "largest pieces" only when none of them
 * stands out; when some do, they explain too little together.
 */
export function diffuseText(drivers: readonly Pick<Driver, 'standsOut'>[]): string {
  if (drivers.length === 0) return 'diffuse — no segment stands out';
  return drivers.some((d) => d.standsOut !== false)
    ? 'diffuse — the segments that stand out explain too little together'
    : 'diffuse — no segment stands out; largest pieces';
}

/**
 * Whether a note of the engine only restates its verdict (`diffuse: …`, `no net change: …`, written
 * by `explain`): a front end that says the verdict in these words leaves such a note out.
 */
export function restatesVerdict(note: string): boolean {
  return note.startsWith('diffuse: ') || note.startsWith('no net change: ');
}

/** The numerator's own value: `$5,000` of spend, `1,200` clicks. */
function numeratorValue(x: number, words: RatioWords): string {
  return `${AMOUNTS.has(words.numerator) ? '$' : ''}${plain(x)}`;
}

/** A signed amount of the ratio at `digits` decimals: `+$1.49`, `−0.5 %` (a percentage of a ratio in points). */
export function signedAmount(x: number, digits: number, unit: RatioWords['unit']): string {
  const sign = x > 0 ? '+' : x < 0 ? '−' : '±';
  const abs = Math.abs(x);
  if (unit === 'percent') return `${sign}${fixed(abs * 100, Math.max(0, digits - 2))} pts`;
  return `${sign}${unit === 'currency' ? '$' : ''}${fixed(abs, digits)}`;
}

/** A value of the ratio: `$3.4`, `2.1 %`, `0.84`. */
export function ratioValue(x: number, unit: RatioWords['unit']): string {
  if (unit === 'percent') return `${plain(x * 100)} %`;
  const text = plain(Math.abs(x));
  return `${x < 0 ? '−' : ''}${unit === 'currency' ? '$' : ''}${text}`;
}

/** A share as a whole percentage; a small non-zero one is `<1 %`, never `0 %`. */
export function percentText(share: number): string {
  const p = Math.round(share * 100);
  if (p === 0 && share !== 0) return share > 0 ? '<1 %' : '>−1 %';
  return `${p} %`;
}

/** Decimals to show a number at: 0 from 100, 2 from 1, else enough for two significant digits. */
export function decimals(x: number): number {
  const abs = Math.abs(x);
  if (abs >= 100) return 0;
  if (abs >= 1) return 2;
  if (abs === 0) return 0;
  return Math.min(12, Math.max(3, 1 - Math.floor(Math.log10(abs))));
}

/** Plain digits at `digits` decimals, trailing zeros dropped, grouping, whatever the machine's locale. */
function fixed(x: number, digits: number): string {
  return x.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: 0, useGrouping: true });
}

/** A number at the decimals its size calls for (see decimals). */
export function plain(x: number): string {
  return fixed(x, decimals(x));
}
