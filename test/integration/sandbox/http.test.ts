/** The sandbox over HTTP: the token endpoint, GraphQL auth, error envelopes and faults on demand. */

import { ReportingAuthError, ReportingClient } from '../../../src/reporting/index.js';
import { type RunningSandbox, runSandboxCommand, startSandbox } from '../../../src/sandbox/index.js';
import { mintToken, sandboxClient } from '../../support/sandboxClient.js';

let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ scale: 'small', now: new Date('2026-11-21T05:30:00Z') });
});
afterEach(() => {
  sandbox.resetFaults();
});
afterAll(async () => {
  await sandbox.stop();
});

const QUERY = '{ pivot(from: "2026-11-19", to: "2026-11-20") { totals { impressions } } }';
// biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON bodies
type Json = any;
const post = (url: string, body: string, headers: Record<string, string>): Promise<{ status: number; body: Json }> =>
  fetch(url, { method: 'POST', headers, body }).then(async (r) => ({
    status: r.status,
    body: (await r.json()) as Json,
  }));

describe('POST /v1/oauth/token', () => {
  it('mints a Bearer token valid for 7200 s from a form-encoded client_credentials request', async () => {
    const res = await mintToken(sandbox);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ access_token: expect.any(String), token_type: 'Bearer', expires_in: 7200 });
  });

  it('refuses a JSON body with 400 invalid_request (RFC 6749 §5.2), never cached', async () => {
    const res = await fetch(sandbox.authUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ grant_type: 'client_credentials' }),
    });
    expect(res.status).toBe(400);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(await res.json()).toEqual({
      error: 'invalid_request',
      error_description: 'Invalid request: content must be application/x-www-form-urlencoded',
    });
  });

  it('refuses another grant type (400 unsupported_grant_type) and a wrong secret or client (401 invalid_client)', async () => {
    const form = { 'content-type': 'application/x-www-form-urlencoded' };
    const wrongGrant = await post(
      sandbox.authUrl,
      'grant_type=password&client_id=sandbox&client_secret=sandbox-secret',
      form,
    );
    expect(wrongGrant).toEqual({
      status: 400,
      body: { error: 'unsupported_grant_type', error_description: expect.stringMatching(/must be client_credentials/) },
    });
    const noGrant = await post(sandbox.authUrl, 'client_id=sandbox&client_secret=sandbox-secret', form);
    expect(noGrant).toMatchObject({ status: 400, body: { error: 'invalid_request' } });
    expect(await mintToken(sandbox, 'sandbox', 'nope')).toEqual({
      status: 401,
      body: { error: 'invalid_client', error_description: 'Invalid client credentials' },
    });
    expect((await mintToken(sandbox, 'nobody', 'sandbox-secret')).body).toEqual({
      error: 'invalid_client',
      error_description: 'Invalid client credentials',
    });
    const wrongBasic = await fetch(sandbox.authUrl, {
      method: 'POST',
      headers: { ...form, authorization: `Basic ${Buffer.from('sandbox:nope').toString('base64')}` },
      body: 'grant_type=client_credentials',
    });
    expect(wrongBasic.status).toBe(401);
    expect(wrongBasic.headers.get('www-authenticate')).toMatch(/^Basic /);
  });

  it('is turned by the client into its typed errors: 401 asks an admin to check the credentials', async () => {
    const client = new ReportingClient({
      authUrl: sandbox.authUrl,
      graphqlUrl: sandbox.graphqlUrl,
      clientId: 'sandbox',
      clientSecret: 'wrong-secret',
      now: () => new Date('2026-11-21T05:30:00Z'),
    });
    const error = await client
      .pivot({ from: '2026-11-19', to: '2026-11-20', dimensions: [], metrics: [{ name: 'impressions' }] })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ReportingAuthError);
    expect(error).toMatchObject({
      status: 401,
      retryable: false,
      details: { oauthError: 'invalid_client' },
      message: 'POST /v1/oauth/token answered 401: Invalid client credentials',
      userMessage: expect.stringContaining('REPORTING_CLIENT_SECRET'),
    });
    expect(JSON.stringify(error)).not.toContain('wrong-secret');
  });

  it('accepts client credentials in an HTTP Basic header', async () => {
    const basic = Buffer.from('sandbox:sandbox-secret').toString('base64');
    const res = await post(sandbox.authUrl, 'grant_type=client_credentials', {
      'content-type': 'application/x-www-form-urlencoded',
      authorization: `Basic ${basic}`,
    });
    expect(res.status).toBe(200);
  });

  it('serves several client pairs; deleting one invalidates only its tokens', async () => {
    sandbox.addClient('team-b', 'secret-b');
    const b = await mintToken(sandbox, 'team-b', 'secret-b');
    const client = await sandboxClient(sandbox);
    expect((await client.gql(QUERY, undefined, { token: String(b.body.access_token) })).status).toBe(200);
    sandbox.removeClient('team-b');
    expect((await client.gql(QUERY, undefined, { token: String(b.body.access_token) })).status).toBe(401);
    expect((await client.gql(QUERY)).status).toBe(200);
  });
});

describe('POST /graphql and /v1/graphql', () => {
  it('answers on both paths with a valid token', async () => {
    const client = await sandboxClient(sandbox);
    for (const url of [sandbox.graphqlUrl, `${sandbox.baseUrl}/graphql`]) {
      const res = await client.gql<{ pivot: { totals: { impressions: string } } }>(QUERY, undefined, { url });
      expect(res.status).toBe(200);
      expect(res.body.data?.pivot.totals.impressions).toMatch(/^\d+$/);
    }
  });

  it('answers 401 {"error": …} without an Authorization header, with an unknown token, and with an expired one', async () => {
    const client = await sandboxClient(sandbox);
    expect(await client.gql(QUERY, undefined, { token: null })).toEqual({
      status: 401,
      body: { error: 'Neither Cookie nor Authorization present.' },
    });
    expect(await client.gql(QUERY, undefined, { token: 'not-a-token' })).toEqual({
      status: 401,
      body: { error: 'Invalid access token.' },
    });
    sandbox.setFaults({ tokenTtlSeconds: 1 });
    const short = await mintToken(sandbox);
    expect(short.body.expires_in).toBe(1);
    await new Promise((r) => setTimeout(r, 1100));
    expect(await client.gql(QUERY, undefined, { token: String(short.body.access_token) })).toEqual({
      status: 401,
      body: { error: 'Access token expired.' },
    });
  });

  it('refuses introspection without a token and answers it with one', async () => {
    const client = await sandboxClient(sandbox);
    expect((await client.gql('{ __schema { queryType { name } } }', undefined, { token: null })).status).toBe(401);
    expect(await client.data('{ __schema { queryType { name } mutationType { name } } }')).toEqual({
      __schema: { queryType: { name: 'Query' }, mutationType: { name: 'Mutation' } },
    });
  });

  it('honours operationName and variables, and reports a bad JSON body or a missing query', async () => {
    const client = await sandboxClient(sandbox);
    const body = JSON.stringify({
      query:
        'query A { asyncPivots { id } } query B($from: DateTime!) { pivot(from: $from, to: "2026-11-20") { totals { clicks } } }',
      operationName: 'B',
      variables: { from: '2026-11-19' },
    });
    const headers = { 'content-type': 'application/json', authorization: `Bearer ${client.token}` };
    const res = await post(sandbox.graphqlUrl, body, headers);
    expect(Object.keys(res.body.data.pivot.totals)).toEqual(['clicks']);
    expect((await post(sandbox.graphqlUrl, '{nope', headers)).status).toBe(400);
    expect((await post(sandbox.graphqlUrl, '{"variables":{}}', headers)).body).toEqual({
      errors: [{ message: 'Must provide query string.' }],
    });
  });

  it('answers 404 elsewhere and 405 for GET on the GraphQL path', async () => {
    expect((await fetch(`${sandbox.baseUrl}/nowhere`)).status).toBe(404);
    expect((await fetch(sandbox.graphqlUrl)).status).toBe(405);
  });
});

describe('faults on demand', () => {
  it('fails the next N requests with a 5xx and {"error": …}, then recovers', async () => {
    const client = await sandboxClient(sandbox);
    sandbox.setFaults({ failNextRequests: 2, http5xxStatus: 502 });
    expect((await client.gql(QUERY)).status).toBe(502);
    const second = await client.gql(QUERY);
    expect(second).toEqual({ status: 502, body: { error: 'Service unavailable (sandbox fault)' } });
    expect((await client.gql(QUERY)).status).toBe(200);
  });

  it('answers every request with a 5xx at rate 1 and a GraphQL error at graphqlErrorRate 1', async () => {
    const client = await sandboxClient(sandbox);
    sandbox.setFaults({ http5xxRate: 1 });
    expect((await client.gql(QUERY)).status).toBe(503);
    sandbox.setFaults({ http5xxRate: 0, graphqlErrorRate: 1 });
    expect(await client.gql(QUERY)).toEqual({
      status: 200,
      body: { data: null, errors: [{ message: 'Internal server error (sandbox fault)' }] },
    });
  });

  it('adds latency and can fail the token endpoint too', async () => {
    const client = await sandboxClient(sandbox);
    sandbox.setFaults({ latencyMs: 150 });
    const started = performance.now();
    await client.gql(QUERY);
    expect(performance.now() - started).toBeGreaterThanOrEqual(140);
    sandbox.setFaults({ latencyMs: 0, tokenHttp5xxRate: 1 });
    expect((await mintToken(sandbox)).status).toBe(503);
  });

  it('validates fault settings', () => {
    expect(() => sandbox.setFaults({ http5xxRate: 2 })).toThrow(/between 0 and 1/);
  });
});

describe('pivotbot sandbox (runSandboxCommand)', () => {
  it('prints friendly text and one JSON ready line, serves, and stops when asked', async () => {
    const out: string[] = [];
    let stop = (): void => undefined;
    const until = new Promise<void>((resolve) => {
      stop = resolve;
    });
    let ready: RunningSandbox | undefined;
    const done = runSandboxCommand(
      { port: '0', scale: 'small', seed: '2', clientId: 'cli', clientSecret: 'cli-secret' },
      {
        out: (s) => out.push(s),
        err: () => undefined,
        until,
        onReady: (s) => {
          ready = s;
        },
      },
    );
    while (ready === undefined) await new Promise((r) => setTimeout(r, 20));
    const line = out
      .join('')
      .split('\n')
      .find((l) => l.startsWith('{"ready"'));
    const parsed = JSON.parse(line ?? '{}');
    expect(parsed).toEqual({
      ready: true,
      authUrl: `${ready.baseUrl}/v1/oauth/token`,
      graphqlUrl: `${ready.baseUrl}/v1/graphql`,
      clientId: 'cli',
      clientSecret: 'cli-secret',
    });
    expect(out.join('')).toMatch(/pivotbot sandbox: the Reporting Service on http:\/\/127\.0\.0\.1:\d+/);
    expect((await mintToken(ready)).status).toBe(200);
    stop();
    expect(await done).toBe(0);
  });

  it('names the flag of a bad option', async () => {
    await expect(
      runSandboxCommand({ port: 'abc', scale: 'huge' }, { out: () => undefined, err: () => undefined }),
    ).rejects.toThrow(/--port: "abc" is not a port number[\s\S]*--scale: "huge" is not one of small, medium, large/);
  });
});
