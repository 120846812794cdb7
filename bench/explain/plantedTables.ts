/** The tables bench/explain prints for planted causes: per draw, and the draws side by side. */
import type { Explanation } from '../../src/explain/index.js';
import type { PlantScore } from '../../test/support/plantedCauses.js';
import { fmt } from '../support/stats.js';

export interface Run {
  size: number;
  planted: string;
  explained: string;
  score: PlantScore;
  queries: number;
  ms: number;
  plant: string;
  got: string;
}

const pct = (n: number, of: number) => (of === 0 ? '—' : `${n} / ${of} (${Math.round((100 * n) / of)} %)`);
const isConversion = (metric: string) => metric === 'ctr' || metric === 'installsCvr';
const isAdditive = (r: Run) => r.explained === r.planted;

/** The per-draw table: every size × explained metric, then totals per size and kind. */
export function tableRows(runs: readonly Run[]): string[] {
  const row = (label: string, rs: readonly Run[]) =>
    `| ${label} | ${rs.length} | ${pct(rs.filter((r) => r.score.first).length, rs.length)} | ${pct(rs.filter((r) => r.score.topThree).length, rs.length)} | ${pct(rs.filter((r) => r.score.firstRelated).length, rs.length)} | ${pct(rs.filter((r) => r.score.diffuse).length, rs.length)} | ${fmt(rs.reduce((a, r) => a + r.queries, 0) / Math.max(1, rs.length))} / ${Math.max(0, ...rs.map((r) => r.queries))} |`;
  const lines = [
    '| plant (dimensions × explained metric ← planted) | n | planted segment first (not diffuse) | within the top three | first contains it or is contained in it | diffuse | queries mean / max |',
    '|---|---|---|---|---|---|---|',
  ];
  const pairs = [...new Set(runs.map((r) => `${r.explained}←${r.planted}`))];
  for (const size of [1, 2, 3]) {
    for (const pair of pairs) {
      const rs = runs.filter((r) => r.size === size && `${r.explained}←${r.planted}` === pair);
      const [explained, planted] = pair.split('←') as [string, string];
      if (rs.length > 0)
        lines.push(row(`${size} dim · ${explained === planted ? explained : `${explained} ← ${planted}`}`, rs));
    }
  }
  for (const size of [1, 2, 3]) {
    const of = runs.filter((r) => r.size === size);
    lines.push(row(`**${size} dim, additive**`, of.filter(isAdditive)));
    lines.push(
      row(
        `**${size} dim, CPI**`,
        of.filter((r) => r.explained === 'installsCpi'),
      ),
    );
    lines.push(
      row(
        `**${size} dim, CTR/CVR**`,
        of.filter((r) => isConversion(r.explained)),
      ),
    );
    lines.push(row(`**${size} dim, all**`, of));
  }
  lines.push(row('**all plants**', runs));
  return lines;
}

/** The goals of issue 33, one row each, a column per draw (and the unplanted days once). */
export function summaryRows(
  runsByDraw: ReadonlyMap<string, readonly Run[]>,
  noise: readonly { metric: string; explanation: Explanation }[],
): string[] {
  const draws = [...runsByDraw.keys()];
  const cell = (rs: readonly Run[]) => pct(rs.filter((r) => r.score.first).length, rs.length);
  const goals: [string, (r: Run) => boolean][] = [
    ['one dimension, first and not diffuse (goal ≥ 95 %)', (r) => r.size === 1],
    ['two dimensions (goal ≥ 90 %)', (r) => r.size === 2],
    ['three dimensions, CPI (goal ≥ 75 %)', (r) => r.size === 3 && r.explained === 'installsCpi'],
    ['three dimensions, all', (r) => r.size === 3],
    ['CTR/CVR plants, all sizes (goal ≥ 90 %)', (r) => isConversion(r.explained)],
    ['CTR/CVR plants, one and two dimensions', (r) => isConversion(r.explained) && r.size < 3],
    ['all plants', () => true],
  ];
  const lines = [
    `| measure | ${draws.map((d) => `draw "${d}"`).join(' | ')} |`,
    `|---|${draws.map(() => '---|').join('')}`,
  ];
  for (const [label, test] of goals)
    lines.push(`| ${label} | ${draws.map((d) => cell((runsByDraw.get(d) ?? []).filter(test))).join(' | ')} |`);
  const queries = (rs: readonly Run[]) =>
    `${fmt(rs.reduce((a, r) => a + r.queries, 0) / Math.max(1, rs.length))} / ${Math.max(0, ...rs.map((r) => r.queries))}`;
  lines.push(`| queries mean / max | ${draws.map((d) => queries(runsByDraw.get(d) ?? [])).join(' | ')} |`);
  lines.push('', '| unplanted (no plant) | n | diffuse (goal ≥ 95 %) | queries mean / max |', '|---|---|---|---|');
  for (const metric of [...new Set(noise.map((n) => n.metric)), 'all']) {
    const ns = noise.filter((n) => metric === 'all' || n.metric === metric);
    const qs = ns.map((n) => n.explanation.queries);
    lines.push(
      `| ${metric} | ${ns.length} | ${pct(ns.filter((n) => n.explanation.diffuse).length, ns.length)} | ${fmt(qs.reduce((a, b) => a + b, 0) / Math.max(1, ns.length))} / ${Math.max(0, ...qs)} |`,
    );
  }
  return lines;
}
