/**
 * The plant draws bench/explain compares side by side: today's sampler (randomPlants, from
 * test/support/plantedCauses.ts) and the uniform one (uniformDraw.ts, written without reading the
 * engine). A draw gives trials: a plant, the metrics to explain with it in force, and the segment
 * a driver must name (the engine names campaigns and apps, the uniform draw plants them by id).
 */
import type { Where } from '../../src/explain/index.js';
import type { ReportingClient } from '../../src/reporting/index.js';
import type { RunningSandbox } from '../../src/sandbox/index.js';
import {
  EXPLAINED_FOR,
  MIN_PLANTED_MOVE,
  MIN_SEGMENT_SHARE,
  randomPlants,
  type SandboxPlant,
  type SegmentCatalog,
} from '../../test/support/plantedCauses.js';
import { drawUniformPlants } from './uniformDraw.js';

export interface Trial {
  readonly plant: SandboxPlant;
  /** Catalog metrics explained with the plant in force. */
  readonly explain: readonly string[];
  /** The segment as the engine names it (campaign and app by name). */
  readonly named: Where;
}

export interface DrawContext {
  readonly sandbox: RunningSandbox;
  readonly client: ReportingClient;
  readonly catalog: SegmentCatalog;
  readonly day: readonly [string, string];
  readonly baselineDay: readonly [string, string];
  /** Campaigns the explained report leaves out (a plant on one of them is not drawn). */
  readonly excluded: readonly number[];
  readonly count: number;
  readonly seed: number;
}

export interface PlantDraw {
  readonly name: string;
  readonly describe: string;
  trials(context: DrawContext): Promise<readonly Trial[]>;
}

/** Today's sampler: segments holding ≥ 3 % of the metric, factor 0–0.6 or 1.6–3; sizes 1, 2, 3 in turn. */
export const TODAYS_DRAW: PlantDraw = {
  name: 'today',
  describe: `randomPlants: segments with ≥ ${MIN_SEGMENT_SHARE * 100} % of the metric whose plant moves the whole ≥ ${MIN_PLANTED_MOVE * 100} %, factor 0–0.6 or 1.6–3, sizes 1, 2, 3 in turn`,
  async trials({ catalog, count, seed, day }) {
    return randomPlants(catalog, { count, seed, day }).map((plant) => ({
      plant,
      explain: EXPLAINED_FOR[plant.metric],
      named: plant.where,
    }));
  },
};

/** The uniform sampler (uniformDraw.ts): every candidate dimension alike, ×0.3 or ×2.5, sizes 1–3. */
export const UNIFORM_DRAW: PlantDraw = {
  name: 'uniform',
  describe:
    'uniformDraw: dimensions uniform over the eight candidates (appPlatform included), ×0.3 or ×2.5, segments holding 60–140 % of the change, sizes 1, 2, 3',
  async trials({ sandbox, client, day, baselineDay, excluded, count, seed }) {
    const plants = await drawUniformPlants({
      graphqlUrl: sandbox.graphqlUrl,
      authUrl: sandbox.authUrl,
      clientId: sandbox.clientId,
      clientSecret: sandbox.clientSecret,
      day,
      baselineDay,
      count,
      seed,
      sizes: [1, 2, 3],
    });
    const names = await idNames(client, day);
    return plants
      .filter((p) => p.where.campaignId === undefined || !excluded.includes(Number(p.where.campaignId)))
      .map((p) => ({
        plant: { where: p.where, metric: p.metric, factor: p.factor, days: p.days },
        explain: [p.explain],
        named: Object.fromEntries(
          Object.entries(p.where).flatMap(([d, v]) =>
            d === 'campaignId'
              ? [['campaign', names.campaign.get(v) ?? v]]
              : d === 'appId'
                ? (names.app.get(v) ?? [['app', v]])
                : [[d, v]],
          ),
        ),
      }));
  },
};

/**
 * Campaign names by id, and apps as the engine can name them by id: `app=Merge Kingdom`, with its
 * platform when several apps share the name, and its bundle when several share the name on one
 * platform too (on `medium` 80 apps share 20 names: two advertisers' apps, each an iOS and an
 * Android app, under one name), from one pivot of the day each.
 */
async function idNames(client: ReportingClient, day: readonly [string, string]) {
  const rows = async (dimensions: string[]) =>
    (
      await client.pivot({
        from: day[0],
        to: day[1],
        dimensions: dimensions.map((name) => ({ name })),
        metrics: [{ name: 'impressions' }],
        context: { sqlTimeZone: 'UTC' },
        options: { removeZeroRows: false },
        totals: false,
      })
    ).rows;
  const campaign = new Map(
    (await rows(['campaignId', 'campaign'])).map((r) => [String(r.campaignId), String(r.campaign)]),
  );
  const apps = await rows(['appId', 'app', 'appPlatform', 'appBundle']);
  const sharing = (name: string, platform?: string) =>
    new Set(
      apps
        .filter((r) => String(r.app) === name && (platform === undefined || String(r.appPlatform) === platform))
        .map((r) => String(r.appId)),
    ).size;
  const app = new Map(
    apps.map((r) => {
      const name = String(r.app);
      const platform = String(r.appPlatform);
      const where =
        sharing(name) > 1
          ? [
              ['app', name],
              ['appPlatform', platform],
            ]
          : [['app', name]];
      if (sharing(name, platform) > 1) where.push(['appBundle', String(r.appBundle)]);
      return [String(r.appId), where];
    }),
  );
  return { campaign, app };
}
