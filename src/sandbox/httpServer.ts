/**
 * The sandbox's HTTP surface on node:http: the form-encoded token endpoint, the GraphQL endpoint
 * (`/graphql` and `/v1/graphql`, bearer token required), signed CSV downloads and the controls
 * (`/sandbox/faults`, faultsRoute.ts; `/sandbox/plants`, plantsRoute.ts). Error bodies
 * follow the real service: `{"error":{"message":…}}` from auth, `{"error":"…"}` from the API.
 */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { execute, type GraphQLSchema, parse, validate } from 'graphql';
import type { Logger } from '../core/index.js';
import type { AsyncJobRunner } from './asyncJobs.js';
import type { Faults } from './faults.js';
import { FAULTS_PATH, type FaultsControl, faultsRoute } from './faultsRoute.js';
import { PLANTS_PATH, type PlantsControl, plantsRoute } from './plantsRoute.js';
import type { UrlSigner } from './signedUrl.js';
import { answerTokenRequest, type TokenService } from './tokenService.js';

export interface HttpDeps {
  schema: GraphQLSchema;
  tokens: TokenService;
  signer: UrlSigner;
  jobs: AsyncJobRunner;
  faults: () => Faults;
  /** Spends one of `failNextRequests`; true when this request must fail. */
  takeForcedFailure: () => boolean;
  random: () => number;
  log: Logger;
  /** Serves `GET`/`PUT /sandbox/faults` when given. */
  control?: FaultsControl;
  /** Serves `GET`/`PUT /sandbox/plants` when given. */
  plants?: PlantsControl;
}

const MAX_BODY = 1024 * 1024;

class HttpProblem extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {
    super(`HTTP ${status}`);
  }
}

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': String(Buffer.byteLength(text)),
    ...headers,
  });
  res.end(text);
}

async function readBody(req: IncomingMessage, authStyle: boolean): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY) {
      throw new HttpProblem(
        413,
        authStyle
          ? { error: 'invalid_request', error_description: 'Request body too large' }
          : { error: 'Request body too large' },
      );
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

async function tokenEndpoint(req: IncomingMessage, res: ServerResponse, deps: HttpDeps): Promise<void> {
  const faults = deps.faults();
  if (faults.latencyMs > 0) await sleep(faults.latencyMs);
  if (deps.random() < faults.tokenHttp5xxRate) {
    send(res, 503, { error: 'temporarily_unavailable', error_description: 'Service unavailable (sandbox fault)' });
    return;
  }
  const body = await readBody(req, true);
  const answer = answerTokenRequest(
    { contentType: req.headers['content-type'], body, authorization: req.headers.authorization },
    deps.tokens,
    faults.tokenTtlSeconds,
  );
  send(res, answer.status, answer.body, answer.headers);
}

async function graphqlEndpoint(req: IncomingMessage, res: ServerResponse, deps: HttpDeps): Promise<void> {
  const header = req.headers.authorization;
  if (header === undefined || header === '') {
    await readBody(req, false);
    send(res, 401, { error: 'Neither Cookie nor Authorization present.' });
    return;
  }
  const bearer = /^Bearer\s+(\S+)$/i.exec(header);
  const caller = bearer === null ? null : deps.tokens.verify(bearer[1] ?? '');
  const body = await readBody(req, false);
  if (caller === null) {
    send(res, 401, { error: 'Invalid access token.' });
    return;
  }
  if (caller === 'expired') {
    send(res, 401, { error: 'Access token expired.' });
    return;
  }
  const faults = deps.faults();
  if (faults.latencyMs > 0) await sleep(faults.latencyMs);
  if (deps.takeForcedFailure() || deps.random() < faults.http5xxRate) {
    send(res, faults.http5xxStatus, { error: 'Service unavailable (sandbox fault)' });
    return;
  }
  let payload: { query?: unknown; variables?: unknown; operationName?: unknown };
  try {
    payload = JSON.parse(body) as typeof payload;
  } catch {
    send(res, 400, { error: 'Request body must be JSON: {"query": "...", "variables": {...}}' });
    return;
  }
  if (payload === null || typeof payload !== 'object' || typeof payload.query !== 'string') {
    send(res, 400, { errors: [{ message: 'Must provide query string.' }] });
    return;
  }
  if (deps.random() < faults.graphqlErrorRate) {
    send(res, 200, { data: null, errors: [{ message: 'Internal server error (sandbox fault)' }] });
    return;
  }
  let document: ReturnType<typeof parse>;
  try {
    document = parse(payload.query);
  } catch (error) {
    send(res, 200, { errors: [{ message: error instanceof Error ? error.message : String(error) }] });
    return;
  }
  const errors = validate(deps.schema, document);
  if (errors.length > 0) {
    send(res, 200, { errors: errors.map((e) => e.toJSON()) });
    return;
  }
  const variables =
    payload.variables !== null && typeof payload.variables === 'object'
      ? (payload.variables as Record<string, unknown>)
      : undefined;
  const result = await execute({
    schema: deps.schema,
    document,
    contextValue: { caller },
    ...(variables === undefined ? {} : { variableValues: variables }),
    ...(typeof payload.operationName === 'string' ? { operationName: payload.operationName } : {}),
  });
  send(res, 200, result);
}

async function fileEndpoint(url: URL, res: ServerResponse, deps: HttpDeps): Promise<void> {
  const check = deps.signer.check(url.pathname, url.searchParams.get('expires'), url.searchParams.get('signature'));
  if (check !== 'ok') {
    send(res, 403, { error: check === 'expired' ? 'Signed URL expired.' : 'Signature does not match.' });
    return;
  }
  const id = /^\/v1\/files\/([0-9a-f-]{36})\.csv$/.exec(url.pathname)?.[1];
  const file = id === undefined ? null : deps.jobs.fileOf(id);
  if (file === null) {
    send(res, 404, { error: 'File not found.' });
    return;
  }
  const size = (await stat(file)).size;
  res.writeHead(200, {
    'content-type': 'text/csv; charset=utf-8',
    'content-length': String(size),
    'content-disposition': `attachment; filename="${id}.csv"`,
  });
  createReadStream(file).pipe(res);
}

/** The request handler. @example createServer(createHttpHandler(deps)).listen(0, '127.0.0.1') */
export function createHttpHandler(deps: HttpDeps): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const route = async (): Promise<void> => {
      if (url.pathname === '/v1/oauth/token') {
        if (req.method !== 'POST') {
          return send(res, 405, { error: 'invalid_request', error_description: 'Use POST' }, { allow: 'POST' });
        }
        return tokenEndpoint(req, res, deps);
      }
      if (url.pathname === '/graphql' || url.pathname === '/v1/graphql') {
        if (req.method !== 'POST') return send(res, 405, { error: 'Use POST' }, { allow: 'POST' });
        return graphqlEndpoint(req, res, deps);
      }
      if (url.pathname.startsWith('/v1/files/') && req.method === 'GET') return fileEndpoint(url, res, deps);
      if (url.pathname === '/health') return send(res, 200, { ok: true });
      if (url.pathname === FAULTS_PATH && deps.control) return faultsRoute(req, res, deps.control, send);
      if (url.pathname === PLANTS_PATH && deps.plants) return plantsRoute(req, res, deps.plants, send);
      return send(res, 404, { error: 'Not found.' });
    };
    route().catch((error: unknown) => {
      if (error instanceof HttpProblem) {
        if (!res.headersSent) send(res, error.status, error.body);
        return;
      }
      deps.log.error({ err: error }, 'sandbox request failed');
      if (!res.headersSent) send(res, 500, { error: 'Internal server error.' });
      else res.destroy();
    });
  };
}
