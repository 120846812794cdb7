import { CancelledError } from '../../../src/core/index.js';
import { type PivotRequest, ReportingClient, type ReportingClientOptions } from '../../../src/reporting/index.js';
import { reportSchema, runReport } from '../../../src/reports/index.js';
import { ScriptedServer, sendJson } from '../../support/scriptedServer.js';

/** Shutdown does not wait: every wait of the client ends promptly, as CancelledError, when its signal aborts. */
const request: PivotRequest = {
  from: '2026-11-13',
  to: '2026-11-20',
  dimensions: [{ name: 'countryCode' }],
  metrics: [{ name: 'spend' }],
};

let server: ScriptedServer;
beforeEach(async () => {
  server = await new ScriptedServer().start();
  server.on('/v1/oauth/token', (_req, res) =>
    sendJson(res, 200, { access_token: 'token-1', token_type: 'Bearer', expires_in: 7200 }),
  );
});
afterEach(async () => {
  await server.stop();
});

/** The client with its real (default) sleep. */
function client(overrides: Partial<ReportingClientOptions> = {}): ReportingClient {
  return new ReportingClient({
    authUrl: `${server.baseUrl}/v1/oauth/token`,
    graphqlUrl: `${server.baseUrl}/v1/graphql`,
    clientId: 'client-1',
    clientSecret: 'secret-1',
    now: () => new Date('2026-11-20T12:00:00Z'),
    ...overrides,
  });
}

/** Aborts once the GraphQL endpoint has seen `requests` requests. */
function abortAfter(requests: number): AbortController {
  const controller = new AbortController();
  const check = setInterval(() => {
    if (server.requestsTo('/v1/graphql').length >= requests) {
      clearInterval(check);
      controller.abort();
    }
  }, 5);
  controller.signal.addEventListener('abort', () => clearInterval(check));
  return controller;
}

async function timed<T>(work: Promise<T>): Promise<{ error: unknown; ms: number }> {
  const started = Date.now();
  const error = await work.then(
    () => undefined,
    (e: unknown) => e,
  );
  return { error, ms: Date.now() - started };
}

describe('cancelling the Reporting client', () => {
  it('ends a poll interval of waitForAsyncPivot at once', async () => {
    server.on('/v1/graphql', (_req, res) =>
      sendJson(res, 200, {
        data: {
          asyncPivot: {
            id: 'job-1',
            userId: 7,
            status: 'RUNNING',
            created: '2026-11-20T12:00:00Z',
            lastUpdated: '2026-11-20T12:00:01Z',
            outputType: 'S3',
            url: null,
            pivotParams: { from: '2026-11-13', to: '2026-11-20', dimensions: ['countryCode'], metrics: ['spend'] },
          },
        },
      }),
    );
    const controller = abortAfter(1);
    const { error, ms } = await timed(
      client().waitForAsyncPivot('job-1', { pollMs: 60_000, maxPollMs: 60_000, signal: controller.signal }),
    );
    expect(error).toBeInstanceOf(CancelledError);
    expect(ms).toBeLessThan(2_000);
    expect(server.requestsTo('/v1/graphql')).toHaveLength(1);
  });

  it('ends a retry backoff at once', async () => {
    server.on('/v1/graphql', (_req, res) => sendJson(res, 503, { error: 'unavailable' }));
    const controller = abortAfter(1);
    const { error, ms } = await timed(
      client({ retry: { retries: 3, baseDelayMs: 60_000, maxDelayMs: 60_000 }, random: () => 0.99 }).pivot(request, {
        signal: controller.signal,
      }),
    );
    expect(error).toBeInstanceOf(CancelledError);
    expect(ms).toBeLessThan(2_000);
    expect(server.requestsTo('/v1/graphql')).toHaveLength(1);
  });

  it('ends a request in flight as cancelled, not as a timeout (no async fallback on shutdown)', async () => {
    server.on('/v1/graphql', async (_req, res) => {
      await new Promise((r) => setTimeout(r, 5_000));
      if (!res.destroyed) sendJson(res, 200, { data: { pivot: { results: [], totals: {} } } });
    });
    const controller = abortAfter(1);
    const { error, ms } = await timed(client().pivot(request, { signal: controller.signal }));
    expect(error).toBeInstanceOf(CancelledError);
    expect(ms).toBeLessThan(2_000);
  });

  it('stops waiting for a slow token request at once', async () => {
    server.on('/v1/oauth/token', async (_req, res) => {
      await new Promise((r) => setTimeout(r, 5_000));
      if (!res.destroyed) sendJson(res, 200, { access_token: 'late', token_type: 'Bearer', expires_in: 7200 });
    });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const { error, ms } = await timed(client().pivot(request, { signal: controller.signal }));
    expect(error).toBeInstanceOf(CancelledError);
    expect(ms).toBeLessThan(2_000);
    expect(server.requestsTo('/v1/graphql')).toHaveLength(0);
  });

  it('sends nothing more when the signal has already aborted', async () => {
    server.on('/v1/graphql', (_req, res) => sendJson(res, 503, { error: 'unavailable' }));
    const controller = new AbortController();
    controller.abort();
    const { error } = await timed(client().pivot(request, { signal: controller.signal }));
    expect(error).toBeInstanceOf(CancelledError);
    expect(server.requestsTo('/v1/graphql')).toHaveLength(0);
  });

  it('cancels an auto-mode report on shutdown without falling back to an async job', async () => {
    server.on('/v1/graphql', async (_req, res) => {
      await new Promise((r) => setTimeout(r, 5_000));
      if (!res.destroyed) sendJson(res, 200, { data: { pivot: { results: [], totals: {} } } });
    });
    const shutdown = abortAfter(1);
    const definition = reportSchema.parse({
      title: 'By country',
      query: { dimensions: ['countryCode'], metrics: ['spend'], range: 'yesterday' },
      mode: 'auto',
    });
    const { error, ms } = await timed(
      runReport(
        { id: 'by-country', definition },
        {
          client: client(),
          now: () => new Date('2026-11-20T12:00:00Z'),
          signal: shutdown.signal,
          syncTimeoutMs: 60_000,
        },
      ),
    );
    expect(error).toBeInstanceOf(CancelledError);
    expect(ms).toBeLessThan(2_000);
    const sent = server.requestsTo('/v1/graphql').map((r) => r.body);
    expect(sent.some((body) => body.includes('createAsyncPivot'))).toBe(false);
  });
});
