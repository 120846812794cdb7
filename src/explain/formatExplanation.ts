import type { Driver, Explanation } from './types.js';
import { describeWhere } from './where.js';

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
    })),
    explored,
    notes,
  };
}

/**
 * A short readable ranking: a headline naming the first driver (none when diffuse), the drivers
 * with their shares (and mix/rate for a ratio), then the notes and the queries used.
 *
 * @example formatExplanation(why) // "installs −16.5 % (139 → 116): countryCode=BR · source=Vungle −38 (72 % of the change)\n…"
 */
export function formatExplanation(explanation: Explanation): string {
  const { metric, current, baseline, change, drivers, diffuse } = explanation;
  const moved = `${metric} ${percent(change, baseline)} (${number(baseline)} → ${number(current)})`;
  const top = drivers[0];
  const lines: string[] = [];
  if (drivers.length === 0) lines.push(moved);
  else if (diffuse) lines.push(`${moved}: diffuse, no small set of segments explains it`);
  else if (top !== undefined)
    lines.push(`${moved}: ${describeWhere(top.where)} ${signed(top.contribution)} (${share(top)} of the change)`);
  if (drivers.length > 0) {
    lines.push(diffuse ? 'Largest pieces (none stands out):' : 'Drivers:');
    for (const [i, d] of drivers.entries()) lines.push(`  ${i + 1}. ${driverLine(d)}`);
  }
  for (const note of explanation.notes) lines.push(`Note: ${note}`);
  const { dimensions, of } = explanation.explored;
  lines.push(
    `${explanation.queries} ${explanation.queries === 1 ? 'query' : 'queries'}, ${dimensions} of ${of} dimensions explored`,
  );
  return `${lines.join('\n')}\n`;
}

function driverLine(d: Driver): string {
  const parts = [`${share(d)} of the change`];
  if (d.mix !== undefined && d.rate !== undefined) parts.push(`mix ${signed(d.mix)}, rate ${signed(d.rate)}`);
  parts.push(`${number(d.baseline)} → ${number(d.current)}`);
  return `${describeWhere(d.where)} ${signed(d.contribution)} (${parts.join('; ')})`;
}

const share = (d: Driver): string => `${Math.round(d.share * 100)} %`;

function percent(change: number, baseline: number): string {
  if (baseline === 0) return change === 0 ? '±0 %' : `${signed(change)} (from 0)`;
  const p = (change / Math.abs(baseline)) * 100;
  return `${p > 0 ? '+' : p < 0 ? '−' : '±'}${Math.abs(p).toFixed(1)} %`;
}

function signed(x: number): string {
  const text = number(Math.abs(x));
  return `${/^[0.,]+$/.test(text) ? '±' : x > 0 ? '+' : '−'}${text}`;
}

/** Plain digits, deterministic whatever the machine's locale: grouping and 0–3 decimals by size. */
function number(x: number): string {
  const abs = Math.abs(x);
  const digits = abs >= 100 ? 0 : abs >= 1 ? 2 : abs === 0 ? 0 : 3;
  const text = abs.toLocaleString('en-US', {
    maximumFractionDigits: digits,
    minimumFractionDigits: 0,
    useGrouping: true,
  });
  return x < 0 ? `−${text}` : text;
}
