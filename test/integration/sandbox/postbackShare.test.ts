/** postbackShare: value distributions of direct columns and map keys, checked against SQL. */
import { type RunningSandbox, startSandbox } from '../../../src/sandbox/index.js';
import { sandboxClient } from '../../support/sandboxClient.js';

let sandbox: RunningSandbox;
let client: Awaited<ReturnType<typeof sandboxClient>>;
beforeAll(async () => {
  sandbox = await startSandbox({ scale: 'small', now: new Date('2026-11-21T05:30:00Z') });
  client = await sandboxClient(sandbox);
});
afterAll(async () => {
  await sandbox.stop();
});

interface Share {
  postbackShare: {
    results: {
      postbackKey: string;
      totalCount: string;
      totalRevenue: number | null;
      results: { value: string | null; count: string; percentage: number; revenue: number | null }[];
    }[];
  };
}
const FIELDS = 'results { postbackKey totalCount totalRevenue results { value count percentage revenue } }';

it('distributes a direct column and a map key, with percentages summing to 100', async () => {
  const data = await client.data<Share>(`{ postbackShare(from: "2026-11-01", to: "2026-11-21", track: EVENTS,
    postbackKeys: ["event_name", "content_type"], filter: { appId: { equals: 101 } }) { ${FIELDS} } }`);
  const [names, content] = data.postbackShare.results;
  expect(names?.postbackKey).toBe('event_name');
  expect(names?.results.map((r) => r.value).sort()).toEqual([
    'add_to_cart',
    'level_up',
    'purchase',
    'registration',
    'tutorial_complete',
  ]);
  const [expected] =
    await sandbox.sql(`SELECT count(*)::BIGINT AS n FROM postbacks WHERE app_id = 101 AND track = 'EVENTS'
    AND NOT organic AND ts >= TIMESTAMPTZ '2026-11-01 00:00:00+00' AND ts < TIMESTAMPTZ '2026-11-21 00:00:00+00'`);
  expect(names?.totalCount).toBe(String(expected?.n));
  expect(names?.results.reduce((s, r) => s + r.percentage, 0)).toBeCloseTo(100, 6);
  expect(names?.totalRevenue).toBeNull();
  expect(content?.results.map((r) => r.value)).toContain(null);
  expect(content?.results.map((r) => r.value)).toContain('coins');
});

it('adds revenue per value when asked, from agg_value_usd by default', async () => {
  const data =
    await client.data<Share>(`{ postbackShare(from: "2026-11-01", to: "2026-11-21", track: EVENTS, includeRevenue: true,
    postbackKeys: ["currency"], filter: { appId: { equals: 101 } }) { ${FIELDS} } }`);
  const currency = data.postbackShare.results[0];
  const [expected] =
    await sandbox.sql(`SELECT round(sum(agg_value_usd), 6) AS r FROM postbacks WHERE app_id = 101 AND track = 'EVENTS'
    AND NOT organic AND ts >= TIMESTAMPTZ '2026-11-01 00:00:00+00' AND ts < TIMESTAMPTZ '2026-11-21 00:00:00+00'`);
  expect(currency?.totalRevenue).toBeCloseTo(Number(expected?.r), 6);
  expect(currency?.results.find((r) => r.value === 'USD')?.revenue).toBeGreaterThan(0);
});

it('sums revenue from a map key given as revenueKey', async () => {
  const data =
    await client.data<Share>(`{ postbackShare(from: "2026-11-01", to: "2026-11-21", track: EVENTS, includeRevenue: true,
    revenueKey: "level", postbackKeys: ["event_name"], filter: { appId: { equals: 101 } }) { ${FIELDS} } }`);
  const byName = new Map(data.postbackShare.results[0]?.results.map((r) => [r.value, r.revenue]));
  expect(byName.get('level_up')).toBeGreaterThan(0);
  expect(byName.get('purchase')).toBe(0);
});

it('reads organic and install postbacks separately', async () => {
  const q = (
    organic: boolean,
    track: string,
  ) => `{ postbackShare(from: "2026-11-01", to: "2026-11-21", track: ${track}, organic: ${organic},
    postbackKeys: ["media_source"], filter: { appId: { equals: 101 } }) { ${FIELDS} } }`;
  const organic = await client.data<Share>(q(true, 'INSTALLS'));
  expect(organic.postbackShare.results[0]?.results.map((r) => r.value)).toEqual(['organic']);
  const paid = await client.data<Share>(q(false, 'INSTALLS'));
  expect(paid.postbackShare.results[0]?.results.map((r) => r.value)).not.toContain('organic');
});

it('requires filter.appId.equals', async () => {
  const res = await client.gql(
    `{ postbackShare(from: "2026-11-01", to: "2026-11-21", track: EVENTS, postbackKeys: ["event_name"]) { results { postbackKey } } }`,
  );
  expect(res.body.errors?.[0]?.message).toMatch(/filter must include appId with equals/);
});
