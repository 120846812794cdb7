/** Async pivots: the state machine, the signed CSV, per-user listing and async faults. */

import { type RunningSandbox, startSandbox } from '../../../src/sandbox/index.js';
import { eventually } from '../../support/eventually.js';
import { mintToken, sandboxClient } from '../../support/sandboxClient.js';
import { parseCsv } from '../../support/sandboxCsv.js';

let sandbox: RunningSandbox;
let client: Awaited<ReturnType<typeof sandboxClient>>;
beforeAll(async () => {
  sandbox = await startSandbox({ scale: 'small', now: new Date('2026-11-21T05:30:00Z'), faults: { asyncStepMs: 30 } });
  client = await sandboxClient(sandbox);
});
afterEach(() => {
  sandbox.setFaults({ asyncFailureRate: 0, asyncRetryRate: 0, urlTtlSeconds: 3600 });
});
afterAll(async () => {
  await sandbox.stop();
});

interface Job {
  id: string;
  userId: number;
  status: string;
  url: string | null;
  created: string;
  lastUpdated: string;
  outputType: string;
  pivotParams: Record<string, unknown>;
}
const JOB_FIELDS =
  'id userId status url created lastUpdated outputType pivotParams { from to options dimensions metrics cleanup granularity filter cohortType cohortWindow context }';

async function create(input: string, c = client): Promise<Job> {
  const data = await c.data<{ createAsyncPivot: { asyncPivot: Job } }>(
    `mutation { createAsyncPivot(Input: ${input}) { asyncPivot { ${JOB_FIELDS} } } }`,
  );
  return data.createAsyncPivot.asyncPivot;
}

/**
 * Polls until a terminal status (as a client would, however long a busy machine makes it take);
 * returns the job and every status it had, from the sandbox's own record (a poll can miss a state
 * that lasts one step).
 */
async function poll(id: string): Promise<{ job: Job; seen: string[] }> {
  let job: Job | undefined;
  await eventually(`async pivot ${id} to finish`, async () => {
    const { asyncPivot } = await client.data<{ asyncPivot: Job }>(`{ asyncPivot(pivotId: "${id}") { ${JOB_FIELDS} } }`);
    job = asyncPivot;
    return asyncPivot.status === 'READY' || asyncPivot.status === 'FAILED';
  });
  const seen = [...(sandbox.asyncHistory(id) ?? [])].filter((s, i, all) => s !== all[i - 1]);
  return { job: job as Job, seen };
}

const INPUT = `{ from: "2026-11-13", to: "2026-11-20", dimensions: ["date", "countryCode", "campaign"], metrics: ["impressions", "installs", "spend"],
  filter: { appPlatform: { equals: IOS } }, cleanup: { impressions: { greaterThan: "10" } }, context: { sqlTimeZone: "UTC" } }`;

describe('createAsyncPivot', () => {
  it('goes PENDING → QUEUED → RUNNING → READY and serves a CSV equal to the synchronous pivot', async () => {
    const created = await create(INPUT);
    expect(created).toMatchObject({ status: 'PENDING', url: null, outputType: 'S3' });
    expect(created.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(created.created).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}\+00:00$/);
    expect(created.pivotParams).toEqual({
      from: '2026-11-13T00:00:00+00:00',
      to: '2026-11-20T00:00:00+00:00',
      options: null,
      dimensions: ['date', 'countryCode', 'campaign'],
      metrics: ['impressions', 'installs', 'spend'],
      cleanup: '{"impressions":{"greaterThan":"10"}}',
      granularity: 'DAILY',
      filter: '{"appPlatform":{"equals":"IOS"}}',
      cohortType: null,
      cohortWindow: null,
      context: '{"sqlTimeZone":"UTC"}',
    });
    const { job, seen } = await poll(created.id);
    const order = ['PENDING', 'QUEUED', 'RUNNING', 'READY'];
    expect(seen.map((s) => order.indexOf(s))).toEqual([...seen.map((s) => order.indexOf(s))].sort());
    expect(seen.at(-1)).toBe('READY');
    expect(seen.length).toBeGreaterThanOrEqual(3);
    expect(job.url).toMatch(
      new RegExp(`^${sandbox.baseUrl}/v1/files/${job.id}\\.csv\\?expires=\\d+&signature=[0-9a-f]{64}$`),
    );

    const res = await fetch(job.url as string);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/csv/);
    const rows = parseCsv(await res.text());
    expect(rows[0]).toEqual(['date', 'countryCode', 'campaign', 'impressions', 'installs', 'spend']);
    const sync = await client.data<{
      pivot: { results: Record<string, unknown>[] };
    }>(`{ pivot(from: "2026-11-13", to: "2026-11-20",
      filter: { appPlatform: { equals: IOS } }, cleanup: { impressions: { greaterThan: "10" } }) {
      results { date(granularity: DAILY) countryCode campaign impressions installs spend } } }`);
    expect(rows.slice(1)).toEqual(
      sync.pivot.results.map((r) =>
        [r.date, r.countryCode, r.campaign, r.impressions, r.installs, r.spend].map(String),
      ),
    );
  });

  it('refuses an altered or expired URL with 403', async () => {
    const { job } = await poll((await create('{ from: "2026-11-19", to: "2026-11-20", metrics: ["spend"] }')).id);
    const url = job.url as string;
    const tampered = url.replace(/signature=([0-9a-f])/, (_m, c: string) => `signature=${c === '0' ? '1' : '0'}`);
    expect((await fetch(tampered)).status).toBe(403);
    expect((await fetch(url.replace(/expires=(\d+)/, (_m, e: string) => `expires=${Number(e) + 60}`))).status).toBe(
      403,
    );
    expect((await fetch(url.split('?')[0] as string)).status).toBe(403);
    sandbox.setFaults({ urlTtlSeconds: 0 });
    const { asyncPivot } = await client.data<{ asyncPivot: Job }>(`{ asyncPivot(pivotId: "${job.id}") { url } }`);
    const expired = await fetch(asyncPivot.url as string);
    expect(expired.status).toBe(403);
    expect(await expired.json()).toEqual({ error: 'Signed URL expired.' });
  });

  it('echoes every input field in pivotParams and runs cohorts, quality and options', async () => {
    const created =
      await create(`{ from: "2026-11-10", to: "2026-11-20", dimensions: ["goalType"], metrics: ["keyMetric", "events"],
      options: { removeZeroRows: true }, cohortType: INSTALL, cohortWindow: { amount: 2, period: DAYS }, quality_type: contr,
      context: { priority: 5, sqlTimeZone: "America/Sao_Paulo" } }`);
    expect(created.pivotParams).toMatchObject({
      options: '{"removeZeroRows":true}',
      cohortType: 'INSTALL',
      cohortWindow: '{"amount":2,"period":"DAYS"}',
      context: '{"priority":5,"sqlTimeZone":"America/Sao_Paulo"}',
      granularity: null,
      from: '2026-11-10T00:00:00-03:00',
      to: '2026-11-20T00:00:00-03:00',
    });
    const { job } = await poll(created.id);
    expect(job.status).toBe('READY');
    const rows = parseCsv(await (await fetch(job.url as string)).text());
    expect(rows[0]).toEqual(['goalType', 'keyMetric', 'events']);
    expect(rows.length).toBeGreaterThan(1);
  });

  it('names an unknown dimension or metric with a suggestion', async () => {
    const res = await client.gql(
      'mutation { createAsyncPivot(Input: { from: "2026-11-19", to: "2026-11-20", metrics: ["instals"] }) { asyncPivot { id } } }',
    );
    expect(res.body.errors?.[0]?.message).toBe('Unknown metric "instals". Did you mean "installs"?');
  });
});

describe('asyncPivot and asyncPivots', () => {
  it('answers a GraphQL error for an unknown id', async () => {
    const res = await client.gql('{ asyncPivot(pivotId: "00000000-0000-0000-0000-000000000000") { id } }');
    expect(res.body.errors?.[0]?.message).toBe('Async pivot "00000000-0000-0000-0000-000000000000" not found.');
  });

  it("lists only the caller's jobs, with the caller's userId", async () => {
    const userB = sandbox.addClient('async-b', 'secret-b');
    const tokenB = String((await mintToken(sandbox, 'async-b', 'secret-b')).body.access_token);
    const jobB = await create('{ from: "2026-11-19", to: "2026-11-20", metrics: ["clicks"] }', {
      ...client,
      data: async <T>(q: string) => {
        const r = await client.gql<T>(q, undefined, { token: tokenB });
        return r.body.data as T;
      },
    });
    expect(jobB.userId).toBe(userB);
    const mine = await client.data<{ asyncPivots: Job[] }>('{ asyncPivots { id userId } }');
    expect(mine.asyncPivots.length).toBeGreaterThan(0);
    expect(mine.asyncPivots.map((j) => j.id)).not.toContain(jobB.id);
    expect(new Set(mine.asyncPivots.map((j) => j.userId)).size).toBe(1);
    const theirs = await client.gql<{ asyncPivots: Job[] }>('{ asyncPivots { id } }', undefined, { token: tokenB });
    expect(theirs.body.data?.asyncPivots.map((j) => j.id)).toEqual([jobB.id]);
    const byId = await client.gql(`{ asyncPivots(pivotIds: ["${jobB.id}"]) { id } }`);
    expect(byId.body.errors?.[0]?.message).toMatch(/not found/);
  });
});

describe('async faults', () => {
  it('ends FAILED at asyncFailureRate 1, with no URL', async () => {
    sandbox.setFaults({ asyncFailureRate: 1 });
    const { job, seen } = await poll((await create('{ from: "2026-11-19", to: "2026-11-20", metrics: ["spend"] }')).id);
    expect(job).toMatchObject({ status: 'FAILED', url: null });
    expect(seen.at(-1)).toBe('FAILED');
  });

  it('goes UP_FOR_RETRY once at asyncRetryRate 1, then on to READY', async () => {
    sandbox.setFaults({ asyncRetryRate: 1 });
    const { job, seen } = await poll((await create('{ from: "2026-11-19", to: "2026-11-20", metrics: ["spend"] }')).id);
    expect(job.status).toBe('READY');
    expect(seen).toContain('UP_FOR_RETRY');
    expect(seen.indexOf('UP_FOR_RETRY')).toBeLessThan(seen.lastIndexOf('RUNNING'));
  });
});
