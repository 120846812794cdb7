/**
 * The sandbox's share of bench/explain: planted causes on `medium`, explained through the
 * Reporting Service exactly as the bot does (`explainReport`, default candidates and budget), and
 * how often the planted segment comes first; unplanted days, and how often they come out diffuse;
 * queries per explanation; latency of a one-day CPI explanation.
 *
 * The explained day is the one before the sandbox's "yesterday" (see test/support/plantedCauses.ts:
 * the demo's fixed anomalies act on "yesterday"), against the same weekday a week earlier.
 * Flags: --plants=N (default 225), --seed=S (default 7), --noise-days=N (default 14),
 * --now=<ISO instant> (default 2026-11-25T12:00:00Z: the data is generated relative to it).
 */
import type { Explanation } from '../../src/explain/index.js';
import { startSandbox } from '../../src/sandbox/index.js';
import {
  aliasesOf,
  asOfFor,
  changedCampaigns,
  eligibleSegments,
  MIN_PLANTED_MOVE,
  MIN_SEGMENT_SHARE,
  PLANTED_METRICS,
  PlantedExplainer,
  type PlantScore,
  putPlants,
  randomPlants,
  scorePlant,
  segmentCatalog,
  utcDay,
} from '../../test/support/plantedCauses.js';
import { fmt, quantile } from '../support/stats.js';

interface Run {
  size: number;
  planted: string;
  explained: string;
  score: PlantScore;
  queries: number;
  ms: number;
  plant: string;
  got: string;
}

const flag = (args: readonly string[], name: string, fallback: number) =>
  Number(args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback);
const pct = (n: number, of: number) => (of === 0 ? '—' : `${n} / ${of} (${Math.round((100 * n) / of)} %)`);
const firstDriver = (e: Explanation) =>
  e.drivers[0] === undefined
    ? '(none)'
    : `${Object.entries(e.drivers[0].where)
        .map(([k, v]) => `${k}=${v}`)
        .join(' · ')} ${Math.round(100 * e.drivers[0].share)} %`;

export async function runPlantedCauses(args: readonly string[]): Promise<void> {
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
    console.log(
      `explained day ${day[0]} vs ${utcDay(now, 9)} (same weekday); plants: ${count}, seed ${seed}, factor 0–0.6 or 1.6–3, segments with ≥ ${MIN_SEGMENT_SHARE * 100} % of the metric whose plant moves the whole ≥ ${MIN_PLANTED_MOVE * 100} %`,
    );
    console.log(`campaigns left out (delivered on one day of the two only): ${excluded.join(', ') || 'none'}`);
    for (const size of [1, 2, 3])
      console.log(
        `  eligible ${size}-dimension segments: ${PLANTED_METRICS.map((m) => `${m} ${eligibleSegments(catalog, size, m).length}`).join(', ')}`,
      );

    const plants = randomPlants(catalog, { count, seed, day });
    // Unplanted: each day's metrics against the same weekday a week earlier, no plant in force.
    await putPlants(sandbox, []);
    const noise: { metric: string; day: string; explanation: Explanation; ms: number }[] = [];
    for (let daysAgo = 2; daysAgo < 2 + noiseDays; daysAgo++) {
      const changed = await changedCampaigns(explainer.reporting, week(daysAgo));
      for (const metric of [...PLANTED_METRICS, 'installsCpi']) {
        const { explanation, ms } = await explainer.explain(metric, asOfFor(now, daysAgo), changed);
        noise.push({ metric, day: utcDay(now, daysAgo), explanation, ms });
      }
    }

    const runs: Run[] = [];
    for (const plant of plants) {
      await putPlants(sandbox, [plant]);
      const explained =
        plant.metric === 'installs' || plant.metric === 'spend' ? [plant.metric, 'installsCpi'] : [plant.metric];
      for (const metric of explained) {
        const { explanation, ms } = await explainer.explain(metric, asOf, excluded);
        runs.push({
          size: Object.keys(plant.where).length,
          planted: plant.metric,
          explained: metric,
          score: scorePlant(explanation, plant.where, aliasesOf(catalog, plant.where)),
          queries: explanation.queries,
          ms,
          plant: `${JSON.stringify(plant.where)} ${plant.metric} ×${plant.factor}`,
          got: `${explanation.diffuse ? 'diffuse; ' : ''}${firstDriver(explanation)} (change ${fmt((100 * explanation.change) / (explanation.baseline || 1))} %)`,
        });
      }
    }
    await putPlants(sandbox, []);

    const row = (label: string, rs: readonly Run[]) =>
      `| ${label} | ${rs.length} | ${pct(rs.filter((r) => r.score.first).length, rs.length)} | ${pct(rs.filter((r) => r.score.topThree).length, rs.length)} | ${pct(rs.filter((r) => r.score.firstRelated).length, rs.length)} | ${pct(rs.filter((r) => r.score.diffuse).length, rs.length)} | ${fmt(rs.reduce((a, r) => a + r.queries, 0) / Math.max(1, rs.length))} / ${Math.max(...rs.map((r) => r.queries))} |`;
    console.log(
      '\n| plant (dimensions × explained metric ← planted) | n | planted segment first (not diffuse) | within the top three | first contains it or is contained in it | diffuse | queries mean / max |',
    );
    console.log('|---|---|---|---|---|---|---|');
    for (const size of [1, 2, 3]) {
      for (const planted of PLANTED_METRICS) {
        for (const explained of [planted, 'installsCpi']) {
          const rs = runs.filter((r) => r.size === size && r.planted === planted && r.explained === explained);
          if (rs.length > 0)
            console.log(row(`${size} dim · ${explained === planted ? explained : `${explained} ← ${planted}`}`, rs));
        }
      }
    }
    for (const size of [1, 2, 3]) {
      const of = runs.filter((r) => r.size === size);
      console.log(
        row(
          `**${size} dim, additive**`,
          of.filter((r) => r.explained === r.planted),
        ),
      );
      console.log(
        row(
          `**${size} dim, CPI**`,
          of.filter((r) => r.explained !== r.planted),
        ),
      );
      console.log(row(`**${size} dim, all**`, of));
    }
    console.log(row('**all plants**', runs));

    console.log('\n| unplanted (no plant) | n | diffuse | queries mean / max |');
    console.log('|---|---|---|---|');
    for (const metric of [...PLANTED_METRICS, 'installsCpi', 'all']) {
      const ns = noise.filter((n) => metric === 'all' || n.metric === metric);
      const qs = ns.map((n) => n.explanation.queries);
      console.log(
        `| ${metric} | ${ns.length} | ${pct(ns.filter((n) => n.explanation.diffuse).length, ns.length)} | ${fmt(qs.reduce((a, b) => a + b, 0) / ns.length)} / ${Math.max(...qs)} |`,
      );
    }

    const all = [
      ...runs.map((r) => ({ metric: r.explained, ms: r.ms, queries: r.queries })),
      ...noise.map((n) => ({ metric: n.metric, ms: n.ms, queries: n.explanation.queries })),
    ];
    const queries = all.map((a) => a.queries);
    console.log(
      `\nqueries per explanation (all ${all.length}): mean ${fmt(queries.reduce((a, b) => a + b, 0) / queries.length)}, max ${Math.max(...queries)} (budget 24)`,
    );
    for (const [label, samples] of [
      ['one-day CPI explanation', all.filter((a) => a.metric === 'installsCpi').map((a) => a.ms)],
      ['one-day additive explanation', all.filter((a) => a.metric !== 'installsCpi').map((a) => a.ms)],
    ] as const)
      console.log(
        `latency, ${label} (n ${samples.length}): p50 ${fmt(quantile(samples, 0.5))} ms, p95 ${fmt(quantile(samples, 0.95))} ms, max ${fmt(Math.max(...samples))} ms`,
      );

    const misses = runs.filter((r) => !r.score.first && r.size < 3);
    if (misses.length > 0) console.log('\none- and two-dimension plants not named first:');
    for (const m of misses) console.log(`  ${m.explained}: planted ${m.plant} → ${m.got}`);
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
