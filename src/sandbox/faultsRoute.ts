/**
 * `GET` and `PUT /sandbox/faults`: change a running sandbox's faults from another process (a test,
 * a demo), so failure and recovery can be shown against a sandbox started with `pivotbot sandbox`.
 * Loopback callers only, and the bearer must be the sandbox's client secret: whoever may mint
 * tokens may also break them on purpose, nobody else.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { checkFaultsUpdate, type Faults } from './faults.js';

export interface FaultsControl {
  /** The bearer a caller must present. */
  clientSecret: string;
  faults(): Faults;
  /** Replaces every fault: knobs left out go back to their defaults. */
  replaceFaults(update: Partial<Faults>): Faults;
}

export const FAULTS_PATH = '/sandbox/faults';
const MAX_BODY = 64 * 1024;

/** True for 127.0.0.0/8 and ::1, also as IPv4-mapped IPv6. */
export function isLoopback(address: string | undefined): boolean {
  if (address === undefined) return false;
  return address === '::1' || /^(::ffff:)?127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/i.test(address);
}

function sameSecret(given: string, expected: string): boolean {
  const digest = (text: string) => createHash('sha256').update(text).digest();
  return timingSafeEqual(digest(given), digest(expected));
}

type Send = (res: ServerResponse, status: number, body: unknown, headers?: Record<string, string>) => void;

/** Answers a request for `FAULTS_PATH`. */
export async function faultsRoute(
  req: IncomingMessage,
  res: ServerResponse,
  control: FaultsControl,
  send: Send,
): Promise<void> {
  if (!isLoopback(req.socket.remoteAddress)) {
    req.resume();
    return send(res, 403, { error: 'Faults can only be changed from this machine (loopback).' });
  }
  const bearer = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '')?.[1];
  if (bearer === undefined || !sameSecret(bearer, control.clientSecret)) {
    req.resume();
    return send(
      res,
      401,
      { error: 'Send the sandbox client secret as "Authorization: Bearer <secret>".' },
      { 'www-authenticate': 'Bearer' },
    );
  }
  if (req.method === 'GET') return send(res, 200, control.faults());
  if (req.method !== 'PUT') {
    req.resume();
    return send(res, 405, { error: 'Use GET or PUT' }, { allow: 'GET, PUT' });
  }
  const text = await readText(req);
  if (text === undefined) return send(res, 413, { error: `Request body too large (over ${MAX_BODY} bytes)` });
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return send(res, 400, { error: 'Request body must be JSON: an object of fault knobs such as {"http5xxRate":0.5}' });
  }
  const { update, problems } = checkFaultsUpdate(value);
  if (problems.length > 0) return send(res, 400, { error: problems.join('; ') });
  return send(res, 200, control.replaceFaults(update));
}

/** The body as text, or undefined when it is larger than the limit. */
async function readText(req: IncomingMessage): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY) return undefined;
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}
