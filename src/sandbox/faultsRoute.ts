/**
 * `GET` and `PUT /sandbox/faults`: change a running sandbox's faults from another process (a test,
 * a demo), so failure and recovery can be shown against a sandbox started with `pivotbot sandbox`.
 * Loopback callers only, and the bearer must be the sandbox's client secret: whoever may mint
 * tokens may also break them on purpose, nobody else.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { controlPut, type Send } from './controlAccess.js';
import { checkFaultsUpdate, type Faults } from './faults.js';

export { isLoopback } from './controlAccess.js';

export interface FaultsControl {
  /** The bearer a caller must present. */
  clientSecret: string;
  faults(): Faults;
  /** Replaces every fault: knobs left out go back to their defaults. */
  replaceFaults(update: Partial<Faults>): Faults;
}

export const FAULTS_PATH = '/sandbox/faults';
const MAX_BODY = 64 * 1024;

/** Answers a request for `FAULTS_PATH`. */
export async function faultsRoute(
  req: IncomingMessage,
  res: ServerResponse,
  control: FaultsControl,
  send: Send,
): Promise<void> {
  const put = await controlPut(req, res, send, {
    clientSecret: control.clientSecret,
    what: 'Faults',
    current: () => control.faults(),
    maxBody: MAX_BODY,
    example: 'an object of fault knobs such as {"http5xxRate":0.5}',
  });
  if (put === undefined) return;
  const value = put.value;
  const { update, problems } = checkFaultsUpdate(value);
  if (problems.length > 0) return send(res, 400, { error: problems.join('; ') });
  return send(res, 200, control.replaceFaults(update));
}
