import { type RunningSandbox, startSandbox } from '../../../src/sandbox/index.js';
import {
  aliasesOf,
  asOfFor,
  changedCampaigns,
  PlantedExplainer,
  putPlants,
  randomPlants,
  type SandboxPlant,
  type SegmentCatalog,
  scorePlant,
  segmentCatalog,
  utcDay,
} from '../../support/plantedCauses.js';

/**
 * Planted causes on the medium sandbox over real HTTP (`PUT /sandbox/plants`, GraphQL pivots),
 * explained as the bot explains them (`explainReport`): a smaller seeded set than bench/explain's.
 * The explained day is the one before the sandbox's "yesterday", against the same weekday a week
 * earlier, so the demo's fixed anomalies (on "yesterday") are in neither day; campaigns that
 * delivered on one day only are left out by the report's filter (see test/support/plantedCauses.ts).
 */
describe('planted causes on the medium sandbox', () => {
  // A pinned clock: the same data, days and plants on every run.
  const now = new Date('2026-11-25T12:00:00Z');
  const day = [utcDay(now, 2), utcDay(now, 1)] as const;
  const asOf = asOfFor(now, 2);
  let sandbox: RunningSandbox;
  let explainer: PlantedExplainer;
  let catalog: SegmentCatalog;
  let excluded: number[];

  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0, scale: 'medium', seed: 1, now });
    explainer = new PlantedExplainer(sandbox);
    excluded = await changedCampaigns(explainer.reporting, [day, [utcDay(now, 9), utcDay(now, 8)]]);
    catalog = await segmentCatalog(explainer.reporting, day, excluded);
  }, 300_000);
  afterAll(async () => {
    await sandbox?.stop();
  });

  /** Plants each in turn, explains its metric (and CPI for installs and spend), describes the misses. */
  async function run(plants: readonly SandboxPlant[], pass: (score: ReturnType<typeof scorePlant>) => boolean) {
    const misses: string[] = [];
    let explained = 0;
    for (const plant of plants) {
      await putPlants(sandbox, [plant]);
      const metrics =
        plant.metric === 'installs' || plant.metric === 'spend' ? [plant.metric, 'installsCpi'] : [plant.metric];
      for (const metric of metrics) {
        const { explanation } = await explainer.explain(metric, asOf, excluded);
        explained++;
        if (!pass(scorePlant(explanation, plant.where, aliasesOf(catalog, plant.where)))) {
          const first = explanation.drivers[0];
          misses.push(
            `${metric}: planted ${JSON.stringify(plant.where)} ${plant.metric} ×${plant.factor} → ${explanation.diffuse ? 'diffuse; ' : ''}${JSON.stringify(first?.where ?? null)}`,
          );
        }
      }
    }
    await putPlants(sandbox, []);
    return { misses, explained };
  }

  it('names a planted one-dimension cause first (at most one explanation in ten missed)', async () => {
    const plants = randomPlants(catalog, { count: 10, seed: 2026, day, sizes: [1] });
    const { misses, explained } = await run(plants, (score) => score.first);
    expect(explained).toBe(14);
    expect(misses.length <= Math.floor(explained / 10) ? [] : misses).toEqual([]);
  }, 120_000);

  it('ranks a planted two-dimension cause within the top three (at most one explanation in five missed)', async () => {
    const plants = randomPlants(catalog, { count: 10, seed: 2027, day, sizes: [2] });
    const { misses, explained } = await run(plants, (score) => score.topThree);
    expect(explained).toBe(14);
    expect(misses.length <= Math.floor(explained / 5) ? [] : misses).toEqual([]);
  }, 120_000);

  it('calls unplanted days diffuse', async () => {
    const named: string[] = [];
    for (const daysAgo of [2, 3, 5]) {
      const days = [
        [utcDay(now, daysAgo), utcDay(now, daysAgo - 1)],
        [utcDay(now, daysAgo + 7), utcDay(now, daysAgo + 6)],
      ] as const;
      const changed = await changedCampaigns(explainer.reporting, days);
      for (const metric of ['installs', 'impressions', 'installsCpi']) {
        const { explanation } = await explainer.explain(metric, asOfFor(now, daysAgo), changed);
        if (!explanation.diffuse)
          named.push(`${days[0][0]} ${metric}: ${JSON.stringify(explanation.drivers[0]?.where)}`);
      }
    }
    expect(named).toEqual([]);
  }, 120_000);
});
