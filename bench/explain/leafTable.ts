/**
 * The leaf-CSV source's share of bench/explain: time per explanation on a 20,000-leaf table (parse
 * the CSV once, then explain), and how often planted causes come first on synthetic leaf tables.
 */

import { explain, leafCsvSource, parseLeafTable, type Where } from '../../src/explain/index.js';
import { parseCsv } from '../../src/reporting/index.js';
import { leafCsv, random, syntheticLeaves } from '../../test/support/leafTables.js';
import { fmt, median, quantile } from '../support/stats.js';

const countries = Array.from({ length: 25 }, (_, i) => `C${String(i).padStart(2, '0')}`);
const BIG = {
  countryCode: countries,
  platform: ['ios', 'android'],
  source: ['Vungle', 'AppLovin', 'Unity', 'ironSource', 'Meta', 'Google', 'TikTok', 'Moloco'],
  campaign: Array.from({ length: 50 }, (_, i) => `camp${i}`),
};

export async function runLeafTable(): Promise<void> {
  for (const kind of ['additive', 'ratio'] as const) {
    const table = syntheticLeaves({
      dimensions: BIG,
      kind,
      seed: 42,
      noise: 0.05,
      plants: [{ where: { countryCode: 'C03', source: 'Unity' }, factor: 0.5, on: kind === 'ratio' ? 'den' : 'num' }],
    });
    const csv = leafCsv(table);
    const parseMs: number[] = [];
    const explainMs: number[] = [];
    let queries = 0;
    let first = '';
    for (let round = 0; round < 12; round++) {
      const t0 = performance.now();
      const parsed = parseLeafTable(parseCsv(csv));
      const t1 = performance.now();
      const why = await explain({ metric: 'm', kind }, leafCsvSource(parsed));
      const t2 = performance.now();
      if (round >= 2) {
        parseMs.push(t1 - t0);
        explainMs.push(t2 - t1);
      }
      queries = why.queries;
      first = JSON.stringify(why.drivers[0]?.where);
    }
    console.log(
      `${kind}, ${table.leaves.length.toLocaleString('en-US')} leaves (${(csv.length / 1024 / 1024).toFixed(1)} MiB CSV): parse median ${fmt(median(parseMs))} ms; explain median ${fmt(median(explainMs))} ms, p95 ${fmt(quantile(explainMs, 0.95))} ms; ${queries} queries; first driver ${first}`,
    );
  }
  await accuracy();
}

/** Random plants on a 480-leaf table: share found first and within the top three, per kind. */
async function accuracy(): Promise<void> {
  const dims = {
    countryCode: ['US', 'BR', 'DE', 'JP', 'IN', 'FR', 'GB', 'MX'],
    platform: ['ios', 'android'],
    source: ['Vungle', 'AppLovin', 'Unity', 'ironSource', 'Meta'],
    campaign: ['c1', 'c2', 'c3', 'c4', 'c5', 'c6'],
  } as const;
  const names = Object.keys(dims) as (keyof typeof dims)[];
  const rand = random(2026);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)] as T;
  console.log(
    'planted causes, 60 per kind, on 480-leaf tables (5 % noise per leaf; factor 0.3–0.7 or 1.4–2.0; half additive, half ratio with the factor on num or den):',
  );
  for (const depth of [0, 1, 2, 3]) {
    let firstHits = 0;
    let topThree = 0;
    let diffuse = 0;
    const runs = 60;
    for (let i = 0; i < runs; i++) {
      const chosen = [...names]
        .sort(() => rand() - 0.5)
        .slice(0, depth)
        .sort((a, b) => names.indexOf(a) - names.indexOf(b));
      const where: Where = Object.fromEntries(chosen.map((d) => [d, pick(dims[d])]));
      const kind = rand() < 0.5 ? 'additive' : 'ratio';
      const factor = rand() < 0.5 ? 0.3 + rand() * 0.4 : 1.4 + rand() * 0.6;
      const table = syntheticLeaves({
        dimensions: dims,
        kind,
        seed: 1000 + i + depth * 100,
        noise: 0.05,
        plants: depth === 0 ? [] : [{ where, factor, on: kind === 'ratio' && rand() < 0.5 ? 'den' : 'num' }],
      });
      const why = await explain({ metric: 'm', kind }, leafCsvSource(table));
      const key = JSON.stringify(where);
      const rank = why.drivers.findIndex((d) => JSON.stringify(d.where) === key);
      if (rank === 0 && !why.diffuse) firstHits++;
      if (rank >= 0 && rank < 3) topThree++;
      if (why.diffuse) diffuse++;
    }
    const label = depth === 0 ? 'no plant (noise only)' : `${depth}-dimension plants`;
    console.log(
      depth === 0
        ? `${label}: diffuse in ${diffuse}/${runs}`
        : `${label}: first ${firstHits}/${runs} (${Math.round((100 * firstHits) / runs)} %), top three ${topThree}/${runs}, diffuse ${diffuse}/${runs}`,
    );
  }
}
