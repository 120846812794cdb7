/**
 * The sandbox's share of bench/explain: planted causes on `medium`, explained through the
 * Reporting Service exactly as the bot does (`explainReport`, default candidates and budget), and
 * how often the planted segment comes first; unplanted days, and how often they come out diffuse;
 * queries per explanation; latency of a one-day CPI explanation.
 *
 * Plants come from one or more draws (see `PlantDraw`): today's sampler (`randomPlants`: segments
 * holding ≥ 3 % of the metric, factor 0–0.6 or 1.6–3) and, when present, a second sampler drawn
 * uniformly over every candidate dimension. Each draw gets its own table, then a summary puts the
 * draws side by side.
 *
 * The explained day is the one before the sandbox's "yesterday" (see test/support/plantedCauses.ts:
 * the demo's fixed anomalies act on "yesterday"), against the same weekday a week earlier.
 * Flags: --plants=N (default 225 per draw), --seed=S (default 7), --noise-days=N (default 14),
 * --now=<ISO instant> (default 2026-11-25T12:00:00Z: the data is generated relative to it).
 */
import type { Explanation } from '../../src/explain/index.js';
import { startSandbox } from '../../src/sandbox/index.js';
import {
  aliasesOf,
  asOfFor,
  changedCampaigns,
  eligibleSegments,
  PLANTED_METRICS,
  PlantedExplainer,
  putPlants,
  scorePlant,
  segmentCatalog,
  UNPLANTED_METRICS,
  utcDay,
} from '../../test/support/plantedCauses.js';
import { fmt, quantile } from '../support/stats.js';
import type { PlantDraw } from './draws.js';
import { type Run, summaryRows, tableRows } from './plantedTables.js';

const flag = (args: readonly string[], name: string, fallback: number) =>
  Number(args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback);
const firstDriver = (e: Explanation) =>
  e.drivers[0] === undefined
    ? '(none)'
    : `${Object.entries(e.drivers[0].where)
        .map(([k, v]) => `${k}=${v}`)
        .join(' · ')} ${Math.round(100 * e.drivers[0].share)} %`;

export async function runPlantedCauses(args: readonly string[], draws: readonly PlantDraw[]): Promise<void> {
  const count = flag(args, 'plants', 225);
  const seed = flag(args, 'seed', 7);
  const noiseDays = flag(args, 'noise-days', 14);
  // A pinned clock (the data is generated relative to it): the same data, days and plants every run.
  const now = new Date(args.find((a) => a.startsWith('--now='))?.slice(6) ?? '2026-11-25T12:00:00Z');
  if (Number.isNaN(now.getTime())) throw new Error('bench/explain: --now must be an ISO date-time');
  const started = performance.now();
  const sandbox = await startSandbox({ port: 0, scale: 'medium', seed: 1, now });
  console.log(
    `\nPlanted causes: medium sandbox (${sandbox.generation.factRows.toLocaleString('en-US')} fact rows, started in ${fmt((performance.now() - started) / 1000)} s)`,
  );
  try {
    const explainer = new PlantedExplainer(sandbox);
    const day = [utcDay(now, 2), utcDay(now, 1)] as const;
    const asOf = asOfFor(now, 2);
    const week = (daysAgo: number) =>
      [
        [utcDay(now, daysAgo), utcDay(now, daysAgo - 1)],
        [utcDay(now, daysAgo + 7), utcDay(now, daysAgo + 6)],
      ] as const;
    const excluded = await changedCampaigns(explainer.reporting, week(2));
    const catalog = await segmentCatalog(explainer.reporting, day, excluded);
    console.log(`explained day ${day[0]} vs ${utcDay(now, 9)} (same weekday); plants: ${count} per draw, seed ${seed}`);
    console.log(`campaigns left out (delivered on one day of the two only): ${excluded.join(', ') || 'none'}`);
    for (const size of [1, 2, 3])
      console.log(
        `  eligible ${size}-dimension segments (today's draw): ${PLANTED_METRICS.map((m) => `${m} ${eligibleSegments(catalog, size, m).length}`).join(', ')}`,
      );
    const baselineDay = [utcDay(now, 9), utcDay(now, 8)] as const;
    const context = { sandbox, client: explainer.reporting, catalog, day, baselineDay, excluded, count, seed };
    const drawn = [];
    for (const draw of draws) drawn.push({ draw, trials: await draw.trials(context) });

    // Unplanted: each day's metrics against the same weekday a week earlier, no plant in force.
    await putPlants(sandbox, []);
    const noise: { metric: string; day: string; explanation: Explanation; ms: number }[] = [];
    for (let daysAgo = 2; daysAgo < 2 + noiseDays; daysAgo++) {
      const changed = await changedCampaigns(explainer.reporting, week(daysAgo));
      for (const metric of UNPLANTED_METRICS) {
        const { explanation, ms } = await explainer.explain(metric, asOfFor(now, daysAgo), changed);
        noise.push({ metric, day: utcDay(now, daysAgo), explanation, ms });
      }
    }

    const runsByDraw = new Map<string, Run[]>();
    for (const { draw, trials } of drawn) {
      const runs: Run[] = [];
      for (const { plant, explain, named } of trials) {
        await putPlants(sandbox, [plant]);
        for (const metric of explain) {
          const { explanation, ms } = await explainer.explain(metric, asOf, excluded);
          runs.push({
            size: Object.keys(plant.where).length,
            planted: plant.metric,
            explained: metric,
            score: scorePlant(explanation, named, aliasesOf(catalog, named)),
            queries: explanation.queries,
            ms,
            plant: `${JSON.stringify(plant.where)} ${plant.metric} ×${plant.factor}`,
            got: `${explanation.diffuse ? 'diffuse; ' : ''}${firstDriver(explanation)} (change ${fmt((100 * explanation.change) / (explanation.baseline || 1))} %)`,
          });
        }
      }
      await putPlants(sandbox, []);
      runsByDraw.set(draw.name, runs);
      console.log(`\n#### Draw "${draw.name}": ${draw.describe}; ${trials.length} plants, ${runs.length} explanations`);
      for (const line of tableRows(runs)) console.log(line);
    }

    console.log('\n#### Summary, the draws side by side');
    for (const line of summaryRows(runsByDraw, noise)) console.log(line);

    const all = [
      ...[...runsByDraw.values()].flat().map((r) => ({ metric: r.explained, ms: r.ms, queries: r.queries })),
      ...noise.map((n) => ({ metric: n.metric, ms: n.ms, queries: n.explanation.queries })),
    ];
    const queries = all.map((a) => a.queries);
    console.log(
      `\nqueries per explanation (all ${all.length}): mean ${fmt(queries.reduce((a, b) => a + b, 0) / queries.length)}, max ${Math.max(...queries)} (budget 24)`,
    );
    for (const [label, samples] of [
      ['one-day CPI explanation', all.filter((a) => a.metric === 'installsCpi').map((a) => a.ms)],
      ['one-day additive explanation', all.filter((a) => !/Cpi|ctr|Cvr/.test(a.metric)).map((a) => a.ms)],
    ] as const)
      console.log(
        `latency, ${label} (n ${samples.length}): p50 ${fmt(quantile(samples, 0.5))} ms, p95 ${fmt(quantile(samples, 0.95))} ms, max ${fmt(Math.max(...samples))} ms`,
      );

    for (const [name, runs] of runsByDraw) {
      const misses = runs.filter((r) => !r.score.first);
      if (misses.length > 0) console.log(`\nplants not named first (draw "${name}"):`);
      for (const m of misses) console.log(`  ${m.size} dim ${m.explained}: planted ${m.plant} → ${m.got}`);
    }
    const named = noise.filter((n) => !n.explanation.diffuse);
    if (named.length > 0) console.log('\nunplanted explanations that named a driver:');
    for (const n of named)
      console.log(
        `  ${n.day} ${n.metric}: ${firstDriver(n.explanation)} (change ${fmt((100 * n.explanation.change) / (n.explanation.baseline || 1))} %)`,
      );
  } finally {
    await sandbox.stop();
  }
}
