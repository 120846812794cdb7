import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { createLogger } from '../../../src/core/index.js';
import {
  AsyncPivotFailedError,
  type PivotRequest,
  ReportingAuthError,
  ReportingClient,
  type ReportingClientOptions,
  ReportingGraphQLError,
  ReportingHttpError,
  ReportingNetworkError,
  ReportingResponseError,
  ReportingTimeoutError,
} from '../../../src/reporting/index.js';
import { ScriptedServer, sendJson } from '../../support/scriptedServer.js';

const SECRET = 'client-secret-do-not-log';
const request: PivotRequest = {
  from: '2026-11-13',
  to: '2026-11-20',
  dimensions: [{ name: 'countryCode' }],
  metrics: [{ name: 'spend' }, { name: 'impressions' }],
};
const pivotAnswer = {
  data: {
    pivot: {
      results: [
        { countryCode: 'US', spend: 10.5, impressions: '1000' },
        { countryCode: 'BR', spend: 2.25, impressions: '12345678901234567890' },
      ],
      totals: { spend: 12.75, impressions: '2000' },
    },
  },
};

let server: ScriptedServer;
let tokenCounter = 0;

beforeEach(async () => {
  tokenCounter = 0;
  server = await new ScriptedServer().start();
  server.on('/v1/oauth/token', (_req, res) => {
    tokenCounter++;
    sendJson(res, 200, { access_token: `token-${tokenCounter}`, token_type: 'Bearer', expires_in: 7200 });
  });
});
afterEach(async () => {
  await server.stop();
});

function client(overrides: Partial<ReportingClientOptions> = {}): ReportingClient {
  return new ReportingClient({
    authUrl: `${server.baseUrl}/v1/oauth/token`,
    graphqlUrl: `${server.baseUrl}/v1/graphql`,
    clientId: 'client-1',
    clientSecret: SECRET,
    now: () => new Date('2026-11-20T12:00:00Z'),
    sleep: async () => {},
    ...overrides,
  });
}

describe('tokens', () => {
  it('mints with a form-encoded client-credentials request and sends the bearer token', async () => {
    server.on('/v1/graphql', (_req, res) => sendJson(res, 200, pivotAnswer));
    await client().pivot(request);
    const [tokenRequest] = server.requestsTo('/v1/oauth/token');
    expect(tokenRequest?.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(Object.fromEntries(new URLSearchParams(tokenRequest?.body))).toEqual({
      grant_type: 'client_credentials',
      client_id: 'client-1',
      client_secret: SECRET,
    });
    expect(server.requestsTo('/v1/graphql')[0]?.headers.authorization).toBe('Bearer token-1');
  });

  it('caches the token across calls until it is about to expire', async () => {
    let now = Date.parse('2026-11-20T12:00:00Z');
    server.on('/v1/graphql', (_req, res) => sendJson(res, 200, pivotAnswer));
    const c = client();
    (c.tokens as unknown as { now: () => number }).now = () => now;
    await c.pivot(request);
    await c.pivot(request);
    expect(server.requestsTo('/v1/oauth/token')).toHaveLength(1);
    now += (7200 - 299) * 1000; // inside the 300 s renewal margin
    await c.pivot(request);
    expect(server.requestsTo('/v1/oauth/token')).toHaveLength(2);
    expect(server.requestsTo('/v1/graphql')[2]?.headers.authorization).toBe('Bearer token-2');
  });

  it('shares one in-flight token request among concurrent callers', async () => {
    server.on('/v1/oauth/token', async (_req, res) => {
      tokenCounter++;
      await new Promise((r) => setTimeout(r, 50));
      sendJson(res, 200, { access_token: `token-${tokenCounter}`, token_type: 'Bearer', expires_in: 7200 });
    });
    server.on('/v1/graphql', (_req, res) => sendJson(res, 200, pivotAnswer));
    const c = client();
    await Promise.all(Array.from({ length: 50 }, () => c.pivot(request)));
    expect(server.requestsTo('/v1/oauth/token')).toHaveLength(1);
    expect(server.requestsTo('/v1/graphql')).toHaveLength(50);
  });

  it.each([401, 403])('re-mints the token once and retries once when the API answers %s', async (status) => {
    server.on('/v1/graphql', (req, res) => {
      if (req.headers.authorization === 'Bearer token-1') sendJson(res, status, { error: 'token expired' });
      else sendJson(res, 200, pivotAnswer);
    });
    const result = await client().pivot(request);
    expect(result.rows).toHaveLength(2);
    expect(server.requestsTo('/v1/oauth/token')).toHaveLength(2);
    expect(server.requestsTo('/v1/graphql')).toHaveLength(2);
  });

  it('gives up with a typed error when the fresh token is refused too', async () => {
    server.on('/v1/graphql', (_req, res) => sendJson(res, 401, { error: 'Neither Cookie nor Authorization present.' }));
    const error = await client()
      .pivot(request)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ReportingHttpError);
    expect((error as ReportingHttpError).status).toBe(401);
    expect((error as Error).message).toContain('Neither Cookie nor Authorization present.');
    expect(server.requestsTo('/v1/graphql')).toHaveLength(2);
  });

  it.each([
    [401, { error: { message: 'Invalid client credentials' } }, 'Invalid client credentials'],
    [
      400,
      { error: { message: 'Invalid request: content must be application/x-www-form-urlencoded' } },
      'content must be',
    ],
    [401, { error: 'unknown client' }, 'unknown client'],
  ])('turns a token endpoint %i into a typed error with the server message', async (status, body, expected) => {
    server.on('/v1/oauth/token', (_req, res) => sendJson(res, status, body));
    const error = await client()
      .pivot(request)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ReportingAuthError);
    expect((error as Error).message).toContain(expected);
    expect((error as ReportingAuthError).retryable).toBe(false);
    expect((error as Error).message).not.toContain(SECRET);
  });
});

describe('transport', () => {
  it('works with the GraphQL URL at {base}/graphql as well as {base}/v1/graphql', async () => {
    server.on('/graphql', (_req, res) => sendJson(res, 200, pivotAnswer));
    const result = await client({ graphqlUrl: `${server.baseUrl}/graphql` }).pivot(request);
    expect(result.rows[0]).toEqual({ countryCode: 'US', spend: 10.5, impressions: 1000 });
  });

  it('returns rows and totals with Long values exact beyond 2^53', async () => {
    server.on('/v1/graphql', (_req, res) => sendJson(res, 200, pivotAnswer));
    const result = await client().pivot(request);
    expect(result.rows[1]).toEqual({ countryCode: 'BR', spend: 2.25, impressions: '12345678901234567890' });
    expect(result.totals).toEqual({ spend: 12.75, impressions: 2000 });
    expect(result.columns.map((c) => c.key)).toEqual(['countryCode', 'spend', 'impressions']);
  });

  it('retries a query with backoff on 5xx and succeeds', async () => {
    let calls = 0;
    server.on('/v1/graphql', (_req, res) => {
      calls++;
      if (calls <= 2) res.writeHead(503, { 'content-type': 'text/html' }).end('<html>upstream down</html>');
      else sendJson(res, 200, pivotAnswer);
    });
    const delays: number[] = [];
    const result = await client({ sleep: async (ms) => void delays.push(ms), random: () => 0.5 }).pivot(request);
    expect(result.rows).toHaveLength(2);
    expect(calls).toBe(3);
    expect(delays).toEqual([125, 250]);
  });

  it('stops retrying after the policy and reports the status', async () => {
    server.on('/v1/graphql', (_req, res) => sendJson(res, 502, { error: 'bad gateway' }));
    const error = await client({ retry: { retries: 2, baseDelayMs: 1, maxDelayMs: 1 } })
      .pivot(request)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ReportingHttpError);
    expect((error as Error).message).toBe('POST /v1/graphql answered 502: bad gateway');
    expect(server.requestsTo('/v1/graphql')).toHaveLength(3);
  });

  it('never retries createAsyncPivot, which would create a second job', async () => {
    server.on('/v1/graphql', (_req, res) => sendJson(res, 503, { error: 'unavailable' }));
    const error = await client()
      .createAsyncPivot(request)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ReportingHttpError);
    expect(server.requestsTo('/v1/graphql')).toHaveLength(1);
  });

  it('times out a slow answer with a typed error, retrying queries', async () => {
    // Never answered (the socket closes when the test ends): only the client's timeout can end each attempt.
    server.on('/v1/graphql', () => undefined);
    const error = await client({ timeoutMs: 100, retry: { retries: 1, baseDelayMs: 1, maxDelayMs: 1 } })
      .pivot(request)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ReportingTimeoutError);
    expect((error as Error).message).toBe('POST /v1/graphql (pivot) timed out after 100 ms');
    expect(server.requestsTo('/v1/graphql')).toHaveLength(2);
  });

  it('tells an admin to check REPORTING_GRAPHQL_URL when the endpoint answers 404 (a base without /v1)', async () => {
    server.on('/v1/graphql', (_req, res) => sendJson(res, 404, { error: 'Not Found' }));
    const error = await client()
      .pivot(request)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ReportingHttpError);
    expect((error as ReportingHttpError).userMessage).toContain('REPORTING_GRAPHQL_URL');
    expect(server.requestsTo('/v1/graphql')).toHaveLength(1);
  });

  it('retries a GraphQL error the server gives for a failure of its own (HTTP 200, no code), then succeeds', async () => {
    let calls = 0;
    server.on('/v1/graphql', (_req, res) => {
      calls++;
      if (calls === 1) sendJson(res, 200, { data: null, errors: [{ message: 'Internal server error' }] });
      else sendJson(res, 200, pivotAnswer);
    });
    const result = await client().pivot(request);
    expect(result.rows).toHaveLength(2);
    expect(server.requestsTo('/v1/graphql')).toHaveLength(2);
  });

  it('turns a GraphQL validation error into a typed error with the server messages, without retrying', async () => {
    server.on('/v1/graphql', (_req, res) =>
      sendJson(res, 200, { data: null, errors: [{ message: 'Cannot query field "foo" on type "PivotResult".' }] }),
    );
    const error = await client()
      .pivot(request)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ReportingGraphQLError);
    expect((error as ReportingGraphQLError).messages).toEqual(['Cannot query field "foo" on type "PivotResult".']);
    expect(server.requestsTo('/v1/graphql')).toHaveLength(1);
  });

  it.each([
    ['a truncated body', '{"data": {"pivot": {"results": [{"countryCode": "US"'],
    ['an HTML body', '<html><body>Gateway</body></html>'],
    ['an empty body', ''],
  ])('turns %s into a typed error, not a crash', async (_name, body) => {
    server.on('/v1/graphql', (_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(body));
    const error = await client({ retry: { retries: 0, baseDelayMs: 1, maxDelayMs: 1 } })
      .pivot(request)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ReportingResponseError);
  });

  it('rejects a well-formed answer of the wrong shape with a typed error', async () => {
    server.on('/v1/graphql', (_req, res) => sendJson(res, 200, { data: { pivot: { results: 'nope' } } }));
    await expect(client().pivot(request)).rejects.toBeInstanceOf(ReportingResponseError);
  });

  it('reports a refused connection as a network error', async () => {
    const c = client({
      authUrl: 'http://127.0.0.1:1/v1/oauth/token',
      retry: { retries: 0, baseDelayMs: 1, maxDelayMs: 1 },
    });
    await expect(c.pivot(request)).rejects.toBeInstanceOf(ReportingNetworkError);
  });

  it('validates before sending anything', async () => {
    await expect(client().pivot({ ...request, metrics: [{ name: 'instals' }] })).rejects.toThrow(
      'Did you mean "installs"',
    );
    expect(server.requests).toHaveLength(0);
  });

  it('never logs the client secret or the token', async () => {
    const lines: string[] = [];
    const destination = new Writable({
      write: (c, _e, done) => {
        lines.push(String(c));
        done();
      },
    });
    const logger = createLogger({ level: 'debug', destination, secrets: [SECRET] });
    server.on('/v1/graphql', (req, res) => {
      if (req.headers.authorization === 'Bearer token-1') sendJson(res, 401, { error: 'expired' });
      else sendJson(res, 503, { error: 'down' });
    });
    await client({ logger, retry: { retries: 1, baseDelayMs: 1, maxDelayMs: 1 } })
      .pivot(request)
      .catch(() => undefined);
    const text = lines.join('');
    expect(text).toContain('retrying');
    expect(text).not.toContain(SECRET);
    expect(text).not.toContain('token-1');
  });
});

describe('async pivots and postbackShare', () => {
  const job = (status: string, url: string | null = null) => ({
    id: '3a818623-25f1-4b2b-ae07-67d09c173ed6',
    userId: 7,
    status,
    created: '2026-11-20T12:00:00Z',
    lastUpdated: '2026-11-20T12:00:01Z',
    outputType: 'S3',
    url,
    pivotParams: {
      from: '2026-11-13',
      to: '2026-11-20',
      dimensions: ['countryCode'],
      metrics: ['spend', 'impressions'],
    },
  });

  it('polls through every waiting state to READY and streams the CSV', async () => {
    const statuses = ['PENDING', 'QUEUED', 'RUNNING', 'UP_FOR_RETRY', 'RUNNING', 'READY'];
    const csvUrl = `${server.baseUrl}/files/job.csv?expires=1&signature=abc`;
    server.on('/v1/graphql', (req, res) => {
      const body = JSON.parse(req.body) as { query: string };
      if (body.query.startsWith('mutation'))
        return sendJson(res, 200, { data: { createAsyncPivot: { asyncPivot: job('PENDING') } } });
      const status = statuses.shift() ?? 'READY';
      sendJson(res, 200, { data: { asyncPivot: job(status, status === 'READY' ? csvUrl : null) } });
    });
    server.on('/files/job.csv', (req, res) => {
      expect(req.headers.authorization).toBeUndefined();
      res
        .writeHead(200, { 'content-type': 'text/csv' })
        .end('countryCode,spend,impressions\nUS,10.5,1000\n"B,R",2.25,77\n');
    });
    const seen: string[] = [];
    const dir = await mkdtemp(join(tmpdir(), 'pivotbot-csv-'));
    try {
      const { csv } = await client().runAsyncPivot(request, join(dir, 'job.csv'), {
        onStatus: (j) => void seen.push(j.status),
      });
      expect(seen).toEqual(['PENDING', 'QUEUED', 'RUNNING', 'UP_FOR_RETRY', 'RUNNING', 'READY']);
      expect(csv.rows).toBe(2);
      expect(csv.columns).toEqual(['countryCode', 'spend', 'impressions']);
      expect(await readFile(join(dir, 'job.csv'), 'utf8')).toContain('"B,R",2.25,77');
      expect(server.requestsTo('/v1/graphql').filter((r) => r.body.includes('mutation'))).toHaveLength(1);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('raises a typed error when the job ends in FAILED', async () => {
    server.on('/v1/graphql', (_req, res) => sendJson(res, 200, { data: { asyncPivot: job('FAILED') } }));
    await expect(client().waitForAsyncPivot('x')).rejects.toBeInstanceOf(AsyncPivotFailedError);
  });

  /** A clock that only the client's sleeps move (plus `lateMs` each, as a loaded machine would). */
  function steppedClock(lateMs = 0) {
    let t = Date.parse('2026-11-20T12:00:00Z');
    const slept: number[] = [];
    return {
      slept,
      now: () => new Date(t),
      sleep: async (ms: number) => {
        slept.push(ms);
        t += ms + lateMs;
      },
    };
  }

  it('gives up polling after the overall timeout', async () => {
    server.on('/v1/graphql', (_req, res) => sendJson(res, 200, { data: { asyncPivot: job('RUNNING') } }));
    const clock = steppedClock();
    const c = client({ now: clock.now, sleep: clock.sleep, random: () => 0.5 });
    // Minutes of the injected clock, so that no poll gets less than the transport's 60 s.
    const error = await c
      .waitForAsyncPivot('x', { timeoutMs: 180_000, pollMs: 40_000, maxPollMs: 100_000 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ReportingTimeoutError);
    expect((error as Error).message).toBe('waiting for async pivot x (last status RUNNING) timed out after 180000 ms');
    // Polls at 0, 40 and 100 s; the next, 90 s later, would be past the 180 s deadline.
    expect(clock.slept).toEqual([40_000, 60_000]);
    expect(server.requestsTo('/v1/graphql')).toHaveLength(3);
    // A retry would create a second job while the first still runs.
    expect((error as ReportingTimeoutError).retryable).toBe(false);
    expect((error as ReportingTimeoutError).userMessage).toContain('job x');
    expect((error as ReportingTimeoutError).userMessage).toContain('still running after 3 minutes');
  });

  it('ends as the overall timeout, without polling, when a sleep overran the deadline', async () => {
    server.on('/v1/graphql', (_req, res) => sendJson(res, 200, { data: { asyncPivot: job('RUNNING') } }));
    const clock = steppedClock(200_000);
    const c = client({ now: clock.now, sleep: clock.sleep, random: () => 0.5 });
    const error = await c
      .waitForAsyncPivot('x', { timeoutMs: 180_000, pollMs: 40_000, maxPollMs: 100_000 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ReportingTimeoutError);
    expect((error as Error).message).toContain('last status RUNNING');
    expect(server.requestsTo('/v1/graphql')).toHaveLength(1);
  });

  it('ends a poll cut short by the overall deadline as the overall timeout, with the last status', async () => {
    let polls = 0;
    server.on('/v1/graphql', (_req, res) => {
      polls++;
      // The second poll is never answered (the socket closes when the test ends): only its
      // timeout, 20 ms (what is left of the 120 s), can end it. The first poll had the whole 60 s.
      if (polls === 1) sendJson(res, 200, { data: { asyncPivot: job('RUNNING') } });
    });
    const clock = steppedClock();
    const c = client({ now: clock.now, sleep: clock.sleep, random: () => 0.5 });
    const error = await c.waitForAsyncPivot('x', { timeoutMs: 120_000, pollMs: 119_980 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ReportingTimeoutError);
    expect((error as Error).message).toBe('waiting for async pivot x (last status RUNNING) timed out after 120000 ms');
    expect(((error as Error).cause as Error).message).toContain('timed out after 20 ms');
    expect((error as ReportingTimeoutError).retryable).toBe(false);
    // The cut-short poll is not retried (the deadline is spent): a retry's backoff would be a sleep.
    expect(clock.slept).toEqual([119_980]);
  });

  it('polls many jobs with one asyncPivots request', async () => {
    server.on('/v1/graphql', (req, res) => {
      const { variables } = JSON.parse(req.body) as { variables: { pivotIds: string[] } };
      sendJson(res, 200, { data: { asyncPivots: variables.pivotIds.map((id) => ({ ...job('RUNNING'), id })) } });
    });
    const jobs = await client().asyncPivots(['a', 'b', 'c']);
    expect(jobs.map((j) => j.id)).toEqual(['a', 'b', 'c']);
    expect(server.requestsTo('/v1/graphql')).toHaveLength(1);
  });

  it('answers postbackShare distributions', async () => {
    server.on('/v1/graphql', (req, res) => {
      const { variables } = JSON.parse(req.body) as { variables: { filter: unknown } };
      expect(variables.filter).toEqual({ appId: { equals: 42 } });
      sendJson(res, 200, {
        data: {
          postbackShare: {
            results: [
              {
                postbackKey: 'event_name',
                totalCount: '10',
                totalRevenue: 5.5,
                results: [{ value: 'purchase', count: '4', percentage: 40, revenue: 5.5 }],
              },
            ],
          },
        },
      });
    });
    const keys = await client().postbackShare({
      from: '2026-11-13',
      to: '2026-11-20',
      track: 'EVENTS',
      postbackKeys: ['event_name'],
      appId: 42,
    });
    expect(keys).toEqual([
      {
        postbackKey: 'event_name',
        totalCount: 10,
        totalRevenue: 5.5,
        results: [{ value: 'purchase', count: 4, percentage: 40, revenue: 5.5 }],
      },
    ]);
  });
});

describe('CSV download', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'pivotbot-csv-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  const ready = (url: string) => ({ id: 'j', status: 'READY', url }) as never;

  it('streams a large file to disk in chunks and counts its rows', async () => {
    const rows = 300_000;
    server.on('/big.csv', async (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/csv' });
      res.write('countryCode,spend,impressions\n');
      const chunk: string[] = [];
      for (let i = 0; i < rows; i++) {
        chunk.push(`C${i % 250},${(i * 1.25).toFixed(2)},${i}\n`);
        if (chunk.length === 10_000) {
          if (!res.write(chunk.join(''))) await new Promise((r) => res.once('drain', r));
          chunk.length = 0;
        }
      }
      res.end(chunk.join(''));
    });
    const path = join(dir, 'big.csv');
    const csv = await client().downloadAsyncPivotCsv(ready(`${server.baseUrl}/big.csv`), path, request);
    expect(csv.rows).toBe(rows);
    const text = await readFile(path, 'utf8');
    expect(csv.bytes).toBe(Buffer.byteLength(text));
    expect(text.split('\n')[rows]).toBe(`C${(rows - 1) % 250},${((rows - 1) * 1.25).toFixed(2)},${rows - 1}`);
  });

  it('accepts the requested columns in another order (rows are read by name)', async () => {
    server.on('/reordered.csv', (_req, res) => res.writeHead(200).end('spend,impressions,countryCode\n1,2,US\n'));
    const csv = await client().downloadAsyncPivotCsv(
      ready(`${server.baseUrl}/reordered.csv`),
      join(dir, 'reordered.csv'),
      request,
    );
    expect(csv.rows).toBe(1);
  });

  it('rejects a CSV whose header does not match the request and leaves no file', async () => {
    server.on('/bad.csv', (_req, res) => res.writeHead(200).end('country,spend\nUS,1\n'));
    const error = await client()
      .downloadAsyncPivotCsv(ready(`${server.baseUrl}/bad.csv`), join(dir, 'bad.csv'), request)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ReportingResponseError);
    expect((error as Error).message).toContain('does not match the requested columns');
    expect(await readdir(dir)).toEqual([]);
  });

  it('explains an expired or altered signed URL without printing the signature', async () => {
    server.on('/expired.csv', (_req, res) => sendJson(res, 403, { error: 'signature expired' }));
    const error = await client()
      .downloadAsyncPivotCsv(ready(`${server.baseUrl}/expired.csv?expires=1&signature=deadbeef`), join(dir, 'x.csv'))
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ReportingHttpError);
    expect((error as Error).message).toContain('the signed URL has expired or was altered');
    expect((error as Error).message).not.toContain('deadbeef');
  });

  it('asks the job for a new link once when its signed link is refused (a restart hours later)', async () => {
    server.on('/old.csv', (_req, res) => sendJson(res, 403, { error: 'signature expired' }));
    server.on('/new.csv', (_req, res) => res.writeHead(200).end('countryCode,spend,impressions\nUS,1,2\n'));
    server.on('/v1/graphql', (_req, res) =>
      sendJson(res, 200, {
        data: {
          asyncPivot: {
            id: 'j',
            status: 'READY',
            url: `${server.baseUrl}/new.csv`,
            createdAt: '2026-11-20T00:00:00Z',
            pivotParams: null,
          },
        },
      }),
    );
    const csv = await client().downloadAsyncPivotCsv(ready(`${server.baseUrl}/old.csv`), join(dir, 'x.csv'), request);
    expect(csv.rows).toBe(1);
    expect(server.requestsTo('/old.csv')).toHaveLength(1);
    expect(server.requestsTo('/v1/graphql')).toHaveLength(1);
  });

  it('does not send an admin to REPORTING_GRAPHQL_URL for a CSV link that answers 404', async () => {
    server.on('/gone.csv', (_req, res) => sendJson(res, 404, { error: 'NoSuchKey' }));
    const error = await client()
      .downloadAsyncPivotCsv(ready(`${server.baseUrl}/gone.csv`), join(dir, 'gone.csv'))
      .catch((e: unknown) => e);
    expect((error as ReportingHttpError).status).toBe(404);
    expect((error as ReportingHttpError).userMessage).not.toContain('REPORTING_GRAPHQL_URL');
  });

  it('detects a CSV cut off inside a quoted field', async () => {
    server.on('/cut.csv', (_req, res) => res.writeHead(200).end('countryCode,spend,impressions\n"US,1'));
    const error = await client()
      .downloadAsyncPivotCsv(ready(`${server.baseUrl}/cut.csv`), join(dir, 'cut.csv'))
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ReportingResponseError);
    expect(await readdir(dir)).toEqual([]);
  });
});
