import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type PivotRequest, ReportingClient, ReportingGraphQLError } from '../../../src/reporting/index.js';
import { type RunningSandbox, startSandbox } from '../../../src/sandbox/index.js';

/** Every operation of the spec through the client, against the real sandbox over HTTP. */
describe('ReportingClient against the sandbox', () => {
  let sandbox: RunningSandbox;
  let client: ReportingClient;
  let dir: string;
  const now = new Date();
  const day = (offset: number) =>
    new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + offset)).toISOString().slice(0, 10);
  const week: Pick<PivotRequest, 'from' | 'to'> = { from: day(-7), to: day(0) };

  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0, scale: 'small', now });
    client = new ReportingClient({ ...sandbox, now: () => now });
    dir = await mkdtemp(join(tmpdir(), 'pivotbot-client-'));
  });
  afterAll(async () => {
    await sandbox.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('runs pivot with aliased metric arguments, a granularity and totals equal to the sum of rows', async () => {
    const result = await client.pivot({
      ...week,
      dimensions: [{ name: 'date', args: { granularity: 'DAILY' } }, { name: 'appPlatform' }],
      metrics: [
        { name: 'installs' },
        { name: 'installs', args: { attrTouch: 'CLICK' }, alias: 'clickInstalls' },
        { name: 'spend' },
        { name: 'installsCpi' },
      ],
    });
    expect(result.rows.length).toBe(14);
    const sum = (key: string) => result.rows.reduce((total, row) => total + Number(row[key] ?? 0), 0);
    expect(result.totals?.installs).toBe(sum('installs'));
    expect(Number(result.totals?.clickInstalls)).toBeLessThanOrEqual(Number(result.totals?.installs));
    expect(result.totals?.spend as number).toBeCloseTo(sum('spend'), 6);
  });

  it('works at {base}/graphql as well as {base}/v1/graphql', async () => {
    const other = new ReportingClient({ ...sandbox, graphqlUrl: `${sandbox.baseUrl}/graphql`, now: () => now });
    const result = await other.pivot({ ...week, dimensions: [], metrics: [{ name: 'impressions' }] });
    expect(Number(result.totals?.impressions)).toBeGreaterThan(0);
  });

  it('creates, polls (one and many) and downloads an async pivot', async () => {
    const request: PivotRequest = {
      ...week,
      dimensions: [{ name: 'countryCode' }],
      metrics: [{ name: 'clicks' }, { name: 'spend' }],
    };
    const created = await client.createAsyncPivot(request);
    expect(created.status).toBe('PENDING');
    const again = await client.asyncPivot(created.id);
    expect(again.id).toBe(created.id);
    expect((await client.asyncPivots([created.id])).map((j) => j.id)).toEqual([created.id]);
    expect((await client.asyncPivots()).map((j) => j.id)).toContain(created.id);
    const ready = await client.waitForAsyncPivot(created.id, { pollMs: 20 });
    const csv = await client.downloadAsyncPivotCsv(ready, join(dir, 'job.csv'), request);
    expect(csv.columns).toEqual(['countryCode', 'clicks', 'spend']);
    expect(csv.rows).toBeGreaterThan(0);
  });

  it('reads postback distributions', async () => {
    const keys = await client.postbackShare({
      ...week,
      track: 'INSTALLS',
      postbackKeys: ['conversion_value'],
      appId: 101,
    });
    expect(keys[0]?.postbackKey).toBe('conversion_value');
    const total = (keys[0]?.results ?? []).reduce((sum, r) => sum + Number(r.count ?? 0), 0);
    expect(total).toBe(Number(keys[0]?.totalCount));
  });

  it('surfaces the service refusing an unknown job as a typed GraphQL error', async () => {
    await expect(client.asyncPivot('no-such-job')).rejects.toBeInstanceOf(ReportingGraphQLError);
  });
});
