/**
 * The Reporting Service's official Python client (jampp/reporting-api-client 0.3.0) runs unmodified
 * against the sandbox (issue 25). Its Python dependencies (gql, requests-oauthlib) cannot be installed here, so each test
 * sends over real HTTP exactly what that client sends (its README example, its `pivot()` helper's
 * query, its OAuth request, its gql body) and checks what the client depends on. Every test names
 * the client as the reason the behaviour must stay.
 */

import { useSandbox } from '../../support/sandboxClient.js';
import { parseCsv } from '../../support/sandboxCsv.js';

// The README queries July 2022: with the data's "now" just after, its example runs as written.
const t = useSandbox({ scale: 'small', seed: 25, now: new Date('2022-07-04T12:00:00Z'), faults: { asyncStepMs: 30 } });

const README_QUERY = `{
        pivot(from: "2022-07-01", to: "2022-07-02", granularity: DAILY) {
            results {
                clicks
            }
        }
    }`;

type Row = Record<string, string | number | null>;
interface PivotData {
  pivot: { results: Row[] };
}
interface Job {
  id: string;
  status: string;
  url: string | null;
  pivotParams: Record<string, unknown>;
}
const JOB_FIELDS = 'id status url pivotParams { from to dimensions metrics granularity context }';

const sqlOne = async (query: string): Promise<string> =>
  String(Object.values((await t.sandbox.sql(query))[0] ?? {})[0] ?? 0);
const clicksBetween = (from: string, to: string, extra = ''): Promise<string> =>
  sqlOne(
    `SELECT COALESCE(sum(clicks), 0)::BIGINT FROM facts f WHERE channel = 0 AND ts >= TIMESTAMPTZ '${from}' AND ts < TIMESTAMPTZ '${to}' ${extra}`,
  );

/** POSTs a GraphQL body the way gql's RequestsHTTPTransport does (JSON, bearer token). */
async function postGql(body: Record<string, unknown>, token = t.client.token) {
  const res = await fetch(t.sandbox.graphqlUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify(body),
  });
  // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON bodies
  return { status: res.status, body: (await res.json()) as any };
}

async function createJob(input: string): Promise<Job> {
  const data = await t.client.data<{ createAsyncPivot: { asyncPivot: Job } }>(
    `mutation { createAsyncPivot(Input: ${input}) { asyncPivot { ${JOB_FIELDS} } } }`,
  );
  return data.createAsyncPivot.asyncPivot;
}

/** Polls (bounded) until the job is READY or FAILED. */
async function finished(id: string): Promise<Job> {
  for (let i = 0; i < 500; i++) {
    const { asyncPivot } = await t.client.data<{ asyncPivot: Job }>(
      `{ asyncPivot(pivotId: "${id}") { ${JOB_FIELDS} } }`,
    );
    if (asyncPivot.status === 'READY' || asyncPivot.status === 'FAILED') return asyncPivot;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`async pivot ${id} did not finish`);
}

describe('the official Python client (jampp/reporting-api-client) against the sandbox', () => {
  it('runs its README example, pivot(…, granularity: DAILY), as written and gets rows', async () => {
    const res = await postGql({ query: README_QUERY });
    expect(res.status).toBe(200);
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.pivot.results).toEqual([
      { clicks: await clicksBetween('2022-07-01 00:00:00+00', '2022-07-02 00:00:00+00') },
    ]);
    expect(Number(res.body.data.pivot.results[0].clicks)).toBeGreaterThan(0);
  });

  it('takes pivot(granularity:) as the bucket of date fields that give none; date(granularity:) still wins', async () => {
    const daily = await t.client.data<PivotData>(
      '{ pivot(from: "2022-07-01", to: "2022-07-04", granularity: DAILY) { results { date clicks } } }',
    );
    expect(daily.pivot.results.map((r) => r.date)).toEqual([
      '2022-07-01T00:00:00+00:00',
      '2022-07-02T00:00:00+00:00',
      '2022-07-03T00:00:00+00:00',
    ]);
    for (const [i, r] of daily.pivot.results.entries()) {
      const day = `2022-07-0${i + 1}`;
      expect([day, r.clicks]).toEqual([
        day,
        await clicksBetween(`${day} 00:00:00+00`, `2022-07-0${i + 2} 00:00:00+00`),
      ]);
    }
    const weekly = await t.client.data<PivotData>(`{ pivot(from: "2022-06-20", to: "2022-07-04", granularity: WEEKLY) {
      results { date byDay: date(granularity: DAILY) dateToStr(formatString: "yyyy-MM-dd") } } }`);
    expect([...new Set(weekly.pivot.results.map((r) => r.date))]).toEqual([
      '2022-06-20T00:00:00+00:00',
      '2022-06-27T00:00:00+00:00',
    ]);
    expect(new Set(weekly.pivot.results.map((r) => r.byDay)).size).toBe(14);
    expect([...new Set(weekly.pivot.results.map((r) => r.dateToStr))]).toEqual(['2022-06-20', '2022-06-27']);
  });

  it("runs its pivot() helper's query: local isoformat dates, filter, context, cleanup, cohort and granularity", async () => {
    // What ReportingAPIClient.pivot(from_=datetime(2022, 6, 27), to_=datetime(2022, 7, 4), metrics=["clicks",
    // "installs"], dimensions=["date", "app"], granularity="DAILY", filter_=…, context=…, cohort_type="TOUCH",
    // cohort_window=timedelta(hours=10), cleanup={"clicks": {"greaterThan": 1}}) writes.
    const query =
      '{ pivot(from: "2022-06-27T00:00:00", to: "2022-07-04T00:00:00", granularity: DAILY, ' +
      'filter: { campaignId: { isIn: [1001, 1002, 1003] } }, context: { sqlTimeZone: "America/Buenos_Aires" }, ' +
      'cleanup: { clicks: { greaterThan: 1 } }, cohortType: TOUCH, cohortWindow: { period: HOURS, amount: 10 }) ' +
      '{ results { date, app, clicks, installs } } }';
    const res = await postGql({ query });
    expect(res.body.errors).toBeUndefined();
    const rows: Row[] = res.body.data.pivot.results;
    expect(rows.length).toBeGreaterThan(0);
    const days = [...new Set(rows.map((r) => r.date))].sort();
    expect(days).toEqual([27, 28, 29, 30, 31, 32, 33].map((d) => isoDay(d)));
    for (const r of rows) expect(Number(r.clicks)).toBeGreaterThan(1);
  });

  it('shows granularity on pivot and on CreateAsyncPivotInput as deprecated, with a reason', async () => {
    const data = await t.client.data<{
      query: { fields: { name: string; args: { name: string; isDeprecated: boolean; deprecationReason: string }[] }[] };
      input: { inputFields: { name: string; isDeprecated: boolean }[] };
    }>(`{ query: __type(name: "Query") { fields { name args(includeDeprecated: true) { name isDeprecated deprecationReason } } }
      input: __type(name: "CreateAsyncPivotInput") { inputFields(includeDeprecated: true) { name isDeprecated } } }`);
    const pivot = data.query.fields.find((f) => f.name === 'pivot');
    expect(pivot?.args.find((a) => a.name === 'granularity')).toEqual({
      name: 'granularity',
      isDeprecated: true,
      deprecationReason: expect.stringContaining('date(granularity: …)'),
    });
    expect(pivot?.args.filter((a) => a.isDeprecated).map((a) => a.name)).toEqual(['granularity']);
    expect(data.input.inputFields.filter((f) => f.isDeprecated).map((f) => f.name)).toEqual(['granularity']);
  });

  it('echoes an async job’s granularity in pivotParams and buckets its CSV by it', async () => {
    const job = await createJob(
      '{ from: "2022-06-20T00:00:00", to: "2022-07-04T00:00:00", granularity: WEEKLY, dimensions: ["date"], metrics: ["clicks"] }',
    );
    expect(job.pivotParams).toMatchObject({ granularity: 'WEEKLY', dimensions: ['date'], metrics: ['clicks'] });
    const done = await finished(job.id);
    expect(done.status).toBe('READY');
    const csv = parseCsv(await (await fetch(done.url as string)).text());
    const sync = await t.client.data<PivotData>(
      '{ pivot(from: "2022-06-20", to: "2022-07-04") { results { date(granularity: WEEKLY) clicks } } }',
    );
    expect(csv).toEqual([['date', 'clicks'], ...sync.pivot.results.map((r) => [String(r.date), String(r.clicks)])]);
    expect(csv.slice(1).map((r) => r[0])).toEqual(['2022-06-20T00:00:00+00:00', '2022-06-27T00:00:00+00:00']);
    const plain = await createJob(
      '{ from: "2022-07-01", to: "2022-07-02", dimensions: ["date"], metrics: ["clicks"] }',
    );
    expect(plain.pivotParams.granularity).toBe('DAILY');
  });

  it('returns pivotParams.from and to as ISO 8601 with an offset, like result dates, not as sent', async () => {
    const cases: [string, string, string][] = [
      ['from: "2022-07-01", to: "2022-07-02"', '2022-07-01T00:00:00+00:00', '2022-07-02T00:00:00+00:00'],
      [
        'from: "2022-07-01T00:00:00", to: "2022-07-02T00:00:00", context: { sqlTimeZone: "America/Buenos_Aires" }',
        '2022-07-01T00:00:00-03:00',
        '2022-07-02T00:00:00-03:00',
      ],
      [
        'from: "2022-07-01T12:00:00+02:00", to: "2022-07-02T00:00:00Z", context: { sqlTimeZone: "Asia/Kolkata" }',
        '2022-07-01T15:30:00+05:30',
        '2022-07-02T05:30:00+05:30',
      ],
    ];
    const ids: string[] = [];
    for (const [args, from, to] of cases) {
      const job = await createJob(`{ ${args}, metrics: ["clicks"] }`);
      expect([args, job.pivotParams.from, job.pivotParams.to]).toEqual([args, from, to]);
      ids.push(job.id);
    }
    const listed = await t.client.data<{ asyncPivots: Job[] }>(
      `{ asyncPivots(pivotIds: ${JSON.stringify(ids)}) { ${JOB_FIELDS} } }`,
    );
    expect(listed.asyncPivots.map((j) => [j.pivotParams.from, j.pivotParams.to])).toEqual(
      cases.map(([, from, to]) => [from, to]),
    );
  });

  it('gets a token with client credentials in HTTP Basic and only grant_type in the body, as requests-oauthlib sends it', async () => {
    // Python requests' HTTPBasicAuth does not URL-encode the pair, so a raw "%" or ":" must still work.
    t.sandbox.addClient('python-client', 'p%41ss:w+rd');
    for (const [id, secret] of [
      [t.sandbox.clientId, t.sandbox.clientSecret],
      ['python-client', 'p%41ss:w+rd'],
    ] as const) {
      const res = await fetch(t.sandbox.authUrl, {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded;charset=UTF-8',
          accept: 'application/json',
          authorization: `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`,
        },
        body: 'grant_type=client_credentials',
      });
      expect([id, res.status]).toEqual([id, 200]);
      const grant = (await res.json()) as { access_token: string; token_type: string; expires_in: number };
      expect(grant).toMatchObject({ token_type: 'Bearer', expires_in: 7200 });
      const readme = await postGql({ query: README_QUERY }, grant.access_token);
      expect(readme.status).toBe(200);
      expect(readme.body.data.pivot.results).toHaveLength(1);
    }
    t.sandbox.removeClient('python-client');
  });

  it('honours the variables and operationName keys of the GraphQL body (gql sends both)', async () => {
    const query = `query Everything { pivot(from: "2022-07-01", to: "2022-07-02") { results { clicks } } }
      query ForCampaign($from: DateTime!, $to: DateTime!, $filter: Filter) {
        pivot(from: $from, to: $to, granularity: DAILY, filter: $filter) { results { campaignId clicks } } }`;
    const res = await postGql({
      query,
      operationName: 'ForCampaign',
      variables: { from: '2022-07-01', to: '2022-07-02', filter: { campaignId: { equals: 1001 } } },
    });
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.pivot.results).toEqual([
      {
        campaignId: 1001,
        clicks: await clicksBetween('2022-07-01 00:00:00+00', '2022-07-02 00:00:00+00', 'AND campaign_id = 1001'),
      },
    ]);
    const other = await postGql({ query, operationName: 'Everything' });
    expect(Object.keys(other.body.data.pivot.results[0])).toEqual(['clicks']);
    const ambiguous = await postGql({ query });
    expect(ambiguous.body.errors?.[0]?.message).toMatch(/operation name/i);
  });

  it('takes Long cleanup thresholds as integer literals and numbers as well as strings (greaterThan: 1)', async () => {
    const byCampaign = (cleanup: string, variables?: Record<string, unknown>) =>
      postGql({
        query: `query${cleanup.includes('$t') ? '($t: Long)' : ''} { pivot(from: "2022-07-01", to: "2022-07-02", cleanup: ${cleanup}) { results { campaignId clicks } } }`,
        ...(variables === undefined ? {} : { variables }),
      });
    const all: Row[] = (await byCampaign('null')).body.data.pivot.results;
    const sorted = all.map((r) => Number(r.clicks)).sort((a, b) => a - b);
    const threshold = sorted[Math.floor(sorted.length / 2)] ?? 0;
    const expected = all.filter((r) => Number(r.clicks) > threshold);
    expect(expected.length).toBeGreaterThan(0);
    expect(expected.length).toBeLessThan(all.length);
    for (const [cleanup, variables] of [
      [`{ clicks: { greaterThan: ${threshold} } }`, undefined],
      [`{ clicks: { greaterThan: "${threshold}" } }`, undefined],
      ['{ clicks: { greaterThan: $t } }', { t: threshold }],
      ['{ clicks: { greaterThan: $t } }', { t: String(threshold) }],
    ] as const) {
      const res = await byCampaign(cleanup, variables);
      expect([cleanup, variables, res.body.errors]).toEqual([cleanup, variables, undefined]);
      expect(res.body.data.pivot.results).toEqual(expected);
    }
    const one = await byCampaign('{ clicks: { greaterThan: 1 } }');
    expect(one.body.data.pivot.results).toEqual(all.filter((r) => Number(r.clicks) > 1));
  });
});

/** Local midnight in Buenos Aires (UTC−3, no DST) of June `day` 2022, days past 30 running into July. */
function isoDay(day: number): string {
  const date = day <= 30 ? `2022-06-${String(day)}` : `2022-07-0${String(day - 30)}`;
  return `${date}T00:00:00-03:00`;
}
