import type { Driver, Explanation } from './types.js';
import { describeWhere } from './where.js';
import {
  decimals,
  driverWords,
  leadText,
  offsetText as offsetWords,
  type RatioWords,
  ratioValue,
  ratioWords,
  signedAmount,
} from './words.js';

/**
 * The `--json` shape of the contract: `{metric,current,baseline,change,diffuse,queries,partial,
 * drivers:[{where,current,baseline,contribution,share,mix?,rate?}]}`, then `explored` and `notes`.
 */
export function explanationJson(explanation: Explanation): object {
  const { metric, current, baseline, change, diffuse, queries, partial, drivers, explored, notes } = explanation;
  return {
    metric,
    current,
    baseline,
    change,
    diffuse,
    queries,
    partial,
    drivers: drivers.map((d) => ({
      where: d.where,
      current: d.current,
      baseline: d.baseline,
      contribution: d.contribution,
      share: d.share,
      ...(d.mix === undefined ? {} : { mix: d.mix }),
      ...(d.rate === undefined ? {} : { rate: d.rate }),
      ...(d.standsOut === undefined ? {} : { standsOut: d.standsOut }),
      ...(d.volumeShare === undefined ? {} : { volumeShare: d.volumeShare }),
      ...(d.numerator === undefined ? {} : { numerator: d.numerator }),
      ...(d.elsewhere === undefined ? {} : { elsewhere: d.elsewhere }),
    })),
    ...(explanation.offset ? { offset: true } : {}),
    explored,
    notes,
  };
}

/**
 * A short readable ranking: a headline naming the first driver (none when diffuse) and, for a ratio,
 * its mechanism in words (mix, rate or both); the drivers with their shares; moves that cancel out
 * ("no net change: US +501 offset by BR −500"); then the notes and the queries used.
 *
 * @example formatExplanation(why) // "installs −16.5 % (139 → 116): countryCode=BR · source=Vungle −38 (72 % of the change)\n…"
 */
export function formatExplanation(explanation: Explanation): string {
  const { metric, current, baseline, change, drivers, diffuse } = explanation;
  const ratio = drivers.some((d) => d.mix !== undefined);
  const words = ratio ? ratioWords(metric) : undefined;
  const value = (x: number) => (words === undefined ? number(x) : ratioValue(x, words.unit));
  const moved = `${metric} ${percent(change, baseline)} (${value(baseline)} → ${value(current)})`;
  const top = drivers[0];
  const lines: string[] = [];
  const standing = drivers.filter((d) => d.standsOut !== false);
  if (drivers.length === 0) lines.push(moved);
  else if (explanation.offset === true) lines.push(`${moved}: ${offsetText(drivers, words)}`);
  else if (diffuse) lines.push(`${moved}: diffuse, no small set of segments explains it`);
  else if (top !== undefined) lines.push(`${moved}: ${headline(top, words)}`);
  if (drivers.length > 0) {
    const title =
      explanation.offset === true
        ? 'Moves that cancel out:'
        : !diffuse
          ? 'Drivers:'
          : standing.length === 0
            ? 'Largest pieces (none stands out):'
            : 'Segments that stand out, explaining too little together:';
    lines.push(title);
    for (const [i, d] of drivers.entries())
      lines.push(`  ${i + 1}. ${explanation.offset === true ? offsetLine(d, words) : driverLine(d, words)}`);
  }
  for (const note of explanation.notes) lines.push(`Note: ${note}`);
  const { dimensions, of } = explanation.explored;
  lines.push(
    `${explanation.queries} ${explanation.queries === 1 ? 'query' : 'queries'}, ${dimensions} of ${of} dimensions explored`,
  );
  return `${lines.join('\n')}\n`;
}

/** The first driver: its mechanism leads for a ratio, then its amount and share. */
function headline(d: Driver, words: RatioWords | undefined): string {
  return leadText(describeWhere(d.where), driverWords(d, words, signed));
}

/** A move's amount: a ratio's in its unit. */
function moveAmount(d: Driver, words: RatioWords | undefined): string {
  return words === undefined
    ? signed(d.contribution)
    : signedAmount(d.contribution, decimals(d.contribution), words.unit);
}

/** `no net change: countryCode=US +501 offset by countryCode=BR −500`. */
function offsetText(drivers: readonly Driver[], words: RatioWords | undefined): string {
  return offsetWords(drivers, (d) => `${describeWhere(d.where)} ${moveAmount(d, words)}`);
}

/** A move of an offset: its amount and its own values, no share of a change that is (nearly) none. */
function offsetLine(d: Driver, words: RatioWords | undefined): string {
  const value = (x: number) => (words === undefined ? number(x) : ratioValue(x, words.unit));
  return `${describeWhere(d.where)} ${moveAmount(d, words)} (${value(d.baseline)} → ${value(d.current)})`;
}

function driverLine(d: Driver, words: RatioWords | undefined): string {
  const w = driverWords(d, words, signed);
  if (w.mechanism !== undefined)
    return `${describeWhere(d.where)} ${w.amount} (${w.share} of the change): ${w.mechanism}`;
  const parts = [`${w.share} of the change`];
  if (d.mix !== undefined && d.rate !== undefined) parts.push(`mix ${signed(d.mix)}, rate ${signed(d.rate)}`);
  parts.push(`${number(d.baseline)} → ${number(d.current)}`);
  return `${describeWhere(d.where)} ${w.amount} (${parts.join('; ')})`;
}

function percent(change: number, baseline: number): string {
  if (baseline === 0) return change === 0 ? '±0 %' : `${signed(change)} (from 0)`;
  const p = (change / Math.abs(baseline)) * 100;
  return `${p > 0 ? '+' : p < 0 ? '−' : '±'}${Math.abs(p).toFixed(1)} %`;
}

/** A signed number; ± only for an exact 0 (a small non-zero piece keeps its sign and two significant digits). */
function signed(x: number): string {
  return `${x > 0 ? '+' : x < 0 ? '−' : '±'}${number(Math.abs(x))}`;
}

/** Plain digits, deterministic whatever the machine's locale: grouping, and decimals by size (see decimals). */
function number(x: number): string {
  const text = Math.abs(x).toLocaleString('en-US', {
    maximumFractionDigits: decimals(x),
    minimumFractionDigits: 0,
    useGrouping: true,
  });
  return x < 0 ? `−${text}` : text;
}
