import { CancelledError } from '../../../src/core/index.js';
import { type PivotRequest, ReportingClient, type ReportingClientOptions } from '../../../src/reporting/index.js';
import { reportSchema, runReport } from '../../../src/reports/index.js';
import { ScriptedServer, sendJson } from '../../support/scriptedServer.js';

/**
 * Shutdown does not wait: every wait of the client ends, as CancelledError, when its signal
 * aborts. Each wait here is longer than the test may run (a poll interval or backoff of ten
 * minutes, a server that answers only after the test): only the abort can end it.
 */
const request: PivotRequest = {
  from: '2026-11-13',
  to: '2026-11-20',
  dimensions: [{ name: 'countryCode' }],
  metrics: [{ name: 'spend' }],
};

/** Ten minutes: longer than any test here may run. */
const FOREVER_MS = 600_000;

let server: ScriptedServer;
/** Lets the held answers go (after the test, so that the server can stop). */
let release: () => void = () => undefined;
/** Whether the server has answered a held request. */
let answered = false;
/** For a handler: waits until the test is over, then says so. */
async function heldUntilTheEnd(): Promise<void> {
  await new Promise<void>((resolve) => {
    const previous = release;
    release = () => {
      previous();
      resolve();
    };
  });
  answered = true;
}

beforeEach(async () => {
  answered = false;
  release = () => undefined;
  server = await new ScriptedServer().start();
  server.on('/v1/oauth/token', (_req, res) =>
    sendJson(res, 200, { access_token: 'token-1', token_type: 'Bearer', expires_in: 7200 }),
  );
});
afterEach(async () => {
  release();
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

/** Aborts once `path` (the GraphQL endpoint unless told) has seen `requests` requests. */
function abortAfter(requests: number, path = '/v1/graphql'): AbortController {
  const controller = new AbortController();
  const check = setInterval(() => {
    if (server.requestsTo(path).length >= requests) {
      clearInterval(check);
      controller.abort();
    }
  }, 5);
  controller.signal.addEventListener('abort', () => clearInterval(check));
  return controller;
}

/** What `work` failed with (undefined when it succeeded), and whether a held answer had gone out by then. */
async function settled<T>(work: Promise<T>): Promise<{ error: unknown; afterAnswer: boolean }> {
  const error = await work.then(
    () => undefined,
    (e: unknown) => e,
  );
  return { error, afterAnswer: answered };
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
    const { error } = await settled(
      client().waitForAsyncPivot('job-1', { pollMs: FOREVER_MS, maxPollMs: FOREVER_MS, signal: controller.signal }),
    );
    expect(error).toBeInstanceOf(CancelledError);
    expect(server.requestsTo('/v1/graphql')).toHaveLength(1);
  });

  it('ends a retry backoff at once', async () => {
    server.on('/v1/graphql', (_req, res) => sendJson(res, 503, { error: 'unavailable' }));
    const controller = abortAfter(1);
    const { error } = await settled(
      client({ retry: { retries: 3, baseDelayMs: FOREVER_MS, maxDelayMs: FOREVER_MS }, random: () => 0.99 }).pivot(
        request,
        { signal: controller.signal },
      ),
    );
    expect(error).toBeInstanceOf(CancelledError);
    expect(server.requestsTo('/v1/graphql')).toHaveLength(1);
  });

  it('ends a request in flight as cancelled, not as a timeout (no async fallback on shutdown)', async () => {
    server.on('/v1/graphql', async (_req, res) => {
      await heldUntilTheEnd();
      if (!res.destroyed) sendJson(res, 200, { data: { pivot: { results: [], totals: {} } } });
    });
    const controller = abortAfter(1);
    const { error, afterAnswer } = await settled(client().pivot(request, { signal: controller.signal }));
    expect(error).toBeInstanceOf(CancelledError);
    expect(afterAnswer).toBe(false);
  });

  it('stops waiting for a slow token request at once', async () => {
    server.on('/v1/oauth/token', async (_req, res) => {
      await heldUntilTheEnd();
      if (!res.destroyed) sendJson(res, 200, { access_token: 'late', token_type: 'Bearer', expires_in: 7200 });
    });
    const controller = abortAfter(1, '/v1/oauth/token');
    const { error, afterAnswer } = await settled(client().pivot(request, { signal: controller.signal }));
    expect(error).toBeInstanceOf(CancelledError);
    expect(afterAnswer).toBe(false);
    expect(server.requestsTo('/v1/graphql')).toHaveLength(0);
  });

  it('sends nothing more when the signal has already aborted', async () => {
    server.on('/v1/graphql', (_req, res) => sendJson(res, 503, { error: 'unavailable' }));
    const controller = new AbortController();
    controller.abort();
    const { error } = await settled(client().pivot(request, { signal: controller.signal }));
    expect(error).toBeInstanceOf(CancelledError);
    expect(server.requestsTo('/v1/graphql')).toHaveLength(0);
  });

  it('cancels an auto-mode report on shutdown without falling back to an async job', async () => {
    server.on('/v1/graphql', async (_req, res) => {
      await heldUntilTheEnd();
      if (!res.destroyed) sendJson(res, 200, { data: { pivot: { results: [], totals: {} } } });
    });
    const shutdown = abortAfter(1);
    const definition = reportSchema.parse({
      title: 'By country',
      query: { dimensions: ['countryCode'], metrics: ['spend'], range: 'yesterday' },
      mode: 'auto',
    });
    const { error, afterAnswer } = await settled(
      runReport(
        { id: 'by-country', definition },
        {
          client: client(),
          now: () => new Date('2026-11-20T12:00:00Z'),
          signal: shutdown.signal,
          syncTimeoutMs: FOREVER_MS,
        },
      ),
    );
    expect(error).toBeInstanceOf(CancelledError);
    expect(afterAnswer).toBe(false);
    const sent = server.requestsTo('/v1/graphql').map((r) => r.body);
    expect(sent.some((body) => body.includes('createAsyncPivot'))).toBe(false);
  });
});
