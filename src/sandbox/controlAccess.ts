/**
 * Who may use the sandbox's control routes (`/sandbox/faults`, `/sandbox/plants`): loopback callers
 * that present the client secret as bearer. Whoever may mint tokens may also break the service or
 * plant causes on purpose, nobody else.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

export type Send = (res: ServerResponse, status: number, body: unknown, headers?: Record<string, string>) => void;

/** True for 127.0.0.0/8 and ::1, also as IPv4-mapped IPv6. */
export function isLoopback(address: string | undefined): boolean {
  if (address === undefined) return false;
  return address === '::1' || /^(::ffff:)?127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/i.test(address);
}

function sameSecret(given: string, expected: string): boolean {
  const digest = (text: string) => createHash('sha256').update(text).digest();
  return timingSafeEqual(digest(given), digest(expected));
}

/**
 * Answers 403 (not loopback) or 401 (no or wrong bearer) and returns false, or returns true when
 * the caller may go on. `what` completes "… can only be changed from this machine".
 */
export function admitControlCaller(
  req: IncomingMessage,
  res: ServerResponse,
  clientSecret: string,
  what: string,
  send: Send,
): boolean {
  if (!isLoopback(req.socket.remoteAddress)) {
    req.resume();
    send(res, 403, { error: `${what} can only be changed from this machine (loopback).` });
    return false;
  }
  const bearer = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '')?.[1];
  if (bearer === undefined || !sameSecret(bearer, clientSecret)) {
    req.resume();
    send(
      res,
      401,
      { error: 'Send the sandbox client secret as "Authorization: Bearer <secret>".' },
      { 'www-authenticate': 'Bearer' },
    );
    return false;
  }
  return true;
}

/** The body as text, or undefined when it is larger than `limit` bytes. */
export async function readText(req: IncomingMessage, limit: number): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > limit) return undefined;
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * The shared front of a control route: admits the caller, answers GET with `current()`, refuses
 * other methods than PUT, and reads the PUT's JSON body. Resolves to `{ value }` for the route to
 * apply, or undefined when an answer was already sent (refused, GET, too large, not JSON).
 */
export async function controlPut(
  req: IncomingMessage,
  res: ServerResponse,
  send: Send,
  route: { clientSecret: string; what: string; current: () => unknown; maxBody: number; example: string },
): Promise<{ value: unknown } | undefined> {
  if (!admitControlCaller(req, res, route.clientSecret, route.what, send)) return undefined;
  if (req.method === 'GET') {
    send(res, 200, route.current());
    return undefined;
  }
  if (req.method !== 'PUT') {
    req.resume();
    send(res, 405, { error: 'Use GET or PUT' }, { allow: 'GET, PUT' });
    return undefined;
  }
  const text = await readText(req, route.maxBody);
  if (text === undefined) {
    send(res, 413, { error: `Request body too large (over ${route.maxBody} bytes)` });
    return undefined;
  }
  try {
    return { value: JSON.parse(text) as unknown };
  } catch {
    send(res, 400, { error: `Request body must be JSON: ${route.example}` });
    return undefined;
  }
}
