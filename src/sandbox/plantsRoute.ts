/**
 * `GET` and `PUT /sandbox/plants`: replace a running sandbox's planted causes from another process
 * (a test that plants random causes one after another, a demo). Same access as `/sandbox/faults`:
 * loopback callers with the client secret as bearer.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ErrorCode, UserInputError } from '../core/index.js';
import { controlPut, type Send } from './controlAccess.js';
import type { PlantsState } from './plantedFacts.js';

export interface PlantsControl {
  /** The bearer a caller must present. */
  clientSecret: string;
  plants(): PlantsState;
  /** Replaces every plant (one or a list; `[]` restores the generated data). */
  replacePlants(value: unknown): Promise<PlantsState>;
}

export const PLANTS_PATH = '/sandbox/plants';
const MAX_BODY = 1024 * 1024;
const EXAMPLE = '{"where":{"countryCode":"BR"},"metric":"installs","factor":0.4,"days":"yesterday"}';

/** Answers a request for `PLANTS_PATH`. */
export async function plantsRoute(
  req: IncomingMessage,
  res: ServerResponse,
  control: PlantsControl,
  send: Send,
): Promise<void> {
  const put = await controlPut(req, res, send, {
    clientSecret: control.clientSecret,
    what: 'Plants',
    current: () => control.plants(),
    maxBody: MAX_BODY,
    example: `a plant such as ${EXAMPLE}, or a list of them`,
  });
  if (put === undefined) return;
  const value = put.value;
  try {
    return send(res, 200, await control.replacePlants(value));
  } catch (error) {
    if (error instanceof UserInputError && error.code === ErrorCode.PlantsInvalid) {
      return send(res, 400, { error: error.message, problems: error.details.problems });
    }
    throw error;
  }
}
