/** Faults from outside the sandbox's process: `PUT /sandbox/faults` and `pivotbot sandbox --faults`. */
import { type ChildProcess, spawn } from 'node:child_process';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createInterface } from 'node:readline';
import { Readable } from 'node:stream';
import { main } from '../../../src/cli/main.js';
import { faultsRoute, isLoopback } from '../../../src/sandbox/faultsRoute.js';
import { DEFAULT_FAULTS, type RunningSandbox, startSandbox } from '../../../src/sandbox/index.js';
import { botEnv } from '../../support/botEnv.js';

const QUERY = '{ pivot(from: "2026-11-19", to: "2026-11-20") { totals { impressions } } }';

/** What a caller of the running sandbox needs, whether it runs here or in another process. */
interface Endpoints {
  baseUrl: string;
  authUrl: string;
  graphqlUrl: string;
  clientId: string;
  clientSecret: string;
}

function faultsApi(sandbox: Endpoints) {
  const url = `${sandbox.baseUrl}/sandbox/faults`;
  const request = async (method: string, options: { body?: string; bearer?: string | null | undefined } = {}) => {
    const bearer = options.bearer === undefined ? sandbox.clientSecret : options.bearer;
    const res = await fetch(url, {
      method,
      headers: {
        'content-type': 'application/json',
        ...(bearer === null ? {} : { authorization: `Bearer ${bearer}` }),
      },
      ...(options.body === undefined ? {} : { body: options.body }),
    });
    return { status: res.status, headers: res.headers, body: (await res.json()) as Record<string, unknown> };
  };
  return {
    get: (bearer?: string | null) => request('GET', { bearer }),
    put: (body: unknown, bearer?: string | null) =>
      request('PUT', { body: typeof body === 'string' ? body : JSON.stringify(body), bearer }),
    request,
  };
}

/** One GraphQL request with a fresh token; resolves to its HTTP status. */
async function pivotStatus(sandbox: Endpoints): Promise<number> {
  const token = await fetch(sandbox.authUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: sandbox.clientId,
      client_secret: sandbox.clientSecret,
    }),
  }).then(async (r) => String(((await r.json()) as { access_token: string }).access_token));
  const res = await fetch(sandbox.graphqlUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ query: QUERY }),
  });
  await res.body?.cancel();
  return res.status;
}

describe('PUT /sandbox/faults on a running sandbox', () => {
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

  it('replaces the faults in force, and GET returns them', async () => {
    const api = faultsApi(sandbox);
    expect(await api.get()).toMatchObject({ status: 200, body: DEFAULT_FAULTS });
    sandbox.setFaults({ latencyMs: 5 });
    const put = await api.put({ http5xxRate: 1, http5xxStatus: 502 });
    // Replaced, not merged: latencyMs is back to its default.
    expect(put).toMatchObject({ status: 200, body: { ...DEFAULT_FAULTS, http5xxRate: 1, http5xxStatus: 502 } });
    expect(sandbox.faults()).toEqual(put.body);
    expect(await pivotStatus(sandbox)).toBe(502);
    expect((await api.put({})).body).toEqual(DEFAULT_FAULTS);
    expect(await pivotStatus(sandbox)).toBe(200);
  });

  it('answers 401 without the client secret as bearer, and changes nothing', async () => {
    const api = faultsApi(sandbox);
    const missing = await api.put({ http5xxRate: 1 }, null);
    expect(missing.status).toBe(401);
    expect(missing.headers.get('www-authenticate')).toBe('Bearer');
    expect(missing.body.error).toMatch(/Authorization: Bearer <secret>/);
    expect((await api.put({ http5xxRate: 1 }, 'not-the-secret')).status).toBe(401);
    expect((await api.get('sandbox')).status).toBe(401);
    expect(JSON.stringify(missing.body)).not.toContain(sandbox.clientSecret);
    expect(sandbox.faults()).toEqual(DEFAULT_FAULTS);
  });

  it.each([
    ['{"http5xxRate": 0.5', /Request body must be JSON/],
    [[1, 2], /expected a JSON object of fault knobs/],
    [{ http5xxrate: 0.5 }, /unknown fault "http5xxrate"\. Did you mean "http5xxRate"/],
    [{ nonsense: 1 }, /unknown fault "nonsense"\. Known faults: latencyMs, /],
    [{ latencyMs: '200' }, /faults\.latencyMs must be a number, not "200"/],
    [{ graphqlErrorRate: 2, http5xxStatus: 404 }, /graphqlErrorRate must be between 0 and 1; .*5xx/],
    [{ failNextRequests: 1.5 }, /failNextRequests must be a whole number/],
  ])('answers 400 with what is wrong for %j', async (body, message) => {
    const res = await faultsApi(sandbox).put(body);
    expect(res.status).toBe(400);
    expect(String(res.body.error)).toMatch(message);
    expect(sandbox.faults()).toEqual(DEFAULT_FAULTS);
  });

  it('answers 405 to other methods', async () => {
    const res = await faultsApi(sandbox).request('POST', { body: '{}' });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET, PUT');
  });

  it('answers 403 to a caller that is not on this machine, even with the secret', async () => {
    const req = Object.assign(Readable.from([Buffer.from('{"http5xxRate":1}')]), {
      method: 'PUT',
      headers: { authorization: `Bearer ${sandbox.clientSecret}` },
      socket: { remoteAddress: '192.168.1.20' },
    }) as unknown as IncomingMessage;
    const answers: Array<{ status: number; body: unknown }> = [];
    const send = (_res: ServerResponse, status: number, body: unknown) => {
      answers.push({ status, body });
    };
    await faultsRoute(req, {} as ServerResponse, { ...controlOf(sandbox) }, send);
    expect(answers).toEqual([{ status: 403, body: { error: expect.stringMatching(/loopback/) } }]);
    expect(sandbox.faults()).toEqual(DEFAULT_FAULTS);
  });

  it.each([
    ['127.0.0.1', true],
    ['127.12.0.3', true],
    ['::1', true],
    ['::ffff:127.0.0.1', true],
    ['10.0.0.1', false],
    ['::ffff:192.168.1.2', false],
    ['fe80::1', false],
    [undefined, false],
  ])('counts %s as loopback: %s', (address, expected) => {
    expect(isLoopback(address)).toBe(expected);
  });
});

function controlOf(sandbox: RunningSandbox) {
  return { clientSecret: sandbox.clientSecret, faults: sandbox.faults, replaceFaults: sandbox.replaceFaults };
}

describe('pivotbot sandbox --faults', () => {
  it('refuses bad fault JSON or an unknown knob with a suggestion, before starting anything', async () => {
    let err = '';
    const io = {
      out: () => {},
      err: (s: string) => {
        err += s;
      },
      env: {},
    };
    expect(await main(['node', 'pivotbot', 'sandbox', '--port', '0', '--faults', '{"latency": 5}'], io)).not.toBe(0);
    expect(err).toContain('--faults: unknown fault "latency". Did you mean "latencyMs"?');
    err = '';
    expect(await main(['node', 'pivotbot', 'sandbox', '--port', '0', '--faults', '{nope'], io)).not.toBe(0);
    expect(err).toMatch(/--faults: not valid JSON \(.*\); for example/);
  });

  /** The built CLI in its own process, as a user (or another test suite) starts it. */
  describe('in a separate process', () => {
    let child: ChildProcess;
    let sandbox: Endpoints;
    let exited: Promise<number | null>;

    beforeAll(async () => {
      child = spawn(
        process.execPath,
        ['bin/pivotbot.js', 'sandbox', '--port', '0', '--seed', '3', '--faults', '{"failNextRequests":2}'],
        { env: botEnv(), stdio: ['ignore', 'pipe', 'pipe'] },
      );
      exited = new Promise((resolve) => child.once('exit', (code) => resolve(code)));
      let stderr = '';
      child.stderr?.on('data', (c: Buffer) => {
        stderr += c.toString('utf8');
      });
      for await (const line of createInterface({ input: child.stdout as NodeJS.ReadableStream })) {
        if (line.startsWith('{"ready":true')) {
          const ready = JSON.parse(line) as Endpoints & { authUrl: string };
          sandbox = { ...ready, baseUrl: new URL(ready.authUrl).origin };
          break;
        }
      }
      if (!sandbox) throw new Error(`the sandbox did not start: ${stderr}`);
    }, 60_000);

    afterAll(async () => {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    });

    it('starts with the faults of the flag, takes new ones over HTTP, recovers, and stops on SIGTERM', async () => {
      const api = faultsApi(sandbox);
      expect((await api.get()).body).toMatchObject({ failNextRequests: 2 });
      expect(await pivotStatus(sandbox)).toBe(503);
      expect(await pivotStatus(sandbox)).toBe(503);
      expect(await pivotStatus(sandbox)).toBe(200);
      expect((await api.put({ http5xxRate: 1 })).status).toBe(200);
      expect(await pivotStatus(sandbox)).toBe(503);
      expect((await api.put({})).body).toEqual(DEFAULT_FAULTS);
      expect(await pivotStatus(sandbox)).toBe(200);
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
    }, 30_000);
  });
});
