/** Plain-fetch helpers for the sandbox tests: mint a token, post GraphQL, read the body. */
import { type RunningSandbox, startSandbox } from '../../src/sandbox/index.js';

export interface GqlResponse<T = Record<string, unknown>> {
  status: number;
  body: { data?: T | null; errors?: { message: string }[]; error?: unknown };
}

export async function mintToken(sandbox: RunningSandbox, id = sandbox.clientId, secret = sandbox.clientSecret) {
  const res = await fetch(sandbox.authUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'client_credentials', client_id: id, client_secret: secret }),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

/** A client bound to one sandbox and one token. */
export async function sandboxClient(sandbox: RunningSandbox) {
  const { body } = await mintToken(sandbox);
  const token = String(body.access_token);
  async function gql<T = Record<string, unknown>>(
    query: string,
    variables?: Record<string, unknown>,
    options: { url?: string; token?: string | null } = {},
  ): Promise<GqlResponse<T>> {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    const bearer = options.token === undefined ? token : options.token;
    if (bearer !== null) headers.authorization = `Bearer ${bearer}`;
    const res = await fetch(options.url ?? sandbox.graphqlUrl, {
      method: 'POST',
      headers,
      body: JSON.stringify({ query, ...(variables === undefined ? {} : { variables }) }),
    });
    return { status: res.status, body: (await res.json()) as GqlResponse<T>['body'] };
  }
  /** Data of a query that must succeed. */
  async function data<T = Record<string, unknown>>(query: string, variables?: Record<string, unknown>): Promise<T> {
    const res = await gql<T>(query, variables);
    if (res.status !== 200 || res.body.errors !== undefined || res.body.data == null) {
      throw new Error(`query failed (${res.status}): ${JSON.stringify(res.body).slice(0, 600)}`);
    }
    return res.body.data;
  }
  return { token, gql, data };
}

/** YYYY-MM-DD of a UTC day `days` before `now`'s day. */
export function utcDay(now: Date, days: number): string {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() - days))
    .toISOString()
    .slice(0, 10);
}

/** A sandbox started before the tests of a file and stopped after, with a client for it. */
export interface SandboxFixture {
  sandbox: RunningSandbox;
  client: Awaited<ReturnType<typeof sandboxClient>>;
}

/**
 * Starts a sandbox (with `startSandbox` options) before the file's tests and stops it after; the
 * returned object's `sandbox` and `client` are set once `beforeAll` has run.
 *
 * @example const t = useSandbox({ scale: 'small', seed: 3 }); it('…', async () => t.client.query('…'));
 */
export function useSandbox(options: Parameters<typeof startSandbox>[0]): SandboxFixture {
  const fixture = {} as SandboxFixture;
  beforeAll(async () => {
    fixture.sandbox = await startSandbox(options);
    fixture.client = await sandboxClient(fixture.sandbox);
  });
  afterAll(async () => {
    await fixture.sandbox?.stop();
  });
  return fixture;
}
