import { Writable } from 'node:stream';
import { MessageChannel } from 'node:worker_threads';
import {
  createLogger,
  errorClassName,
  fromWireError,
  PivotbotError,
  toWireError,
  UserInputError,
  type WireError,
} from '../../../src/core/index.js';
import { SlackDeliveryError } from '../../../src/slackapi/index.js';

/** Sends `value` through a real MessagePort (the structured clone a worker's postMessage makes). */
function throughPort<T>(value: T): Promise<T> {
  const { port1, port2 } = new MessageChannel();
  return new Promise<T>((resolve) => {
    port2.once('message', (message: T) => {
      port1.close();
      port2.close();
      resolve(message);
    });
    port1.postMessage(value);
  });
}

function logged() {
  const lines: Array<Record<string, unknown>> = [];
  const destination = new Writable({
    write(chunk, _enc, done) {
      for (const line of String(chunk).trim().split('\n')) lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  return { lines, logger: createLogger({ destination, secrets: ['xoxb-wire-secret'] }) };
}

describe('errors across a thread boundary', () => {
  const cause = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:4010'), { code: 'ECONNREFUSED' });
  const error = new PivotbotError('REPORTING_NETWORK', 'POST /v1/graphql failed: fetch failed', {
    retryable: true,
    cause: new TypeError('fetch failed', { cause }),
    details: { url: '/v1/graphql' },
  });

  it('a bare postMessage keeps only the message: the reason for WireError', async () => {
    const cloned = await throughPort(error);
    expect(cloned.message).toBe(error.message);
    expect((cloned as { code?: unknown }).code).toBeUndefined();
  });

  it('keeps class, message, code, details, stack and the whole cause chain', async () => {
    const wire = await throughPort(toWireError(error));
    expect(wire).toMatchObject({
      name: 'PivotbotError',
      message: 'POST /v1/graphql failed: fetch failed',
      code: 'REPORTING_NETWORK',
      fields: { details: { url: '/v1/graphql' }, retryable: true },
      cause: { name: 'TypeError', message: 'fetch failed', cause: { name: 'Error', code: 'ECONNREFUSED' } },
    });
    expect(wire.stack).toBe(error.stack);

    const revived = fromWireError(wire);
    expect(revived).toBeInstanceOf(Error);
    expect(revived).toMatchObject({ name: 'PivotbotError', message: error.message, code: 'REPORTING_NETWORK' });
    expect(errorClassName(revived)).toBe('PivotbotError');
    expect(revived.stack).toBe(error.stack);
    expect((revived.cause as Error).name).toBe('TypeError');
    expect(((revived.cause as Error).cause as { code?: string }).code).toBe('ECONNREFUSED');
  });

  it('logs a revived error as the sending thread would have: class, code, cause; secrets scrubbed', async () => {
    const original = new SlackDeliveryError('chat.postMessage', 'not_in_channel', {
      cause: new Error('An API error occurred: not_in_channel (token xoxb-wire-secret)'),
    });
    const { lines, logger } = logged();
    logger.error({ err: fromWireError(await throughPort(toWireError(original))) }, 'Slack listener failed');
    logger.error({ err: original }, 'the same, logged where it was thrown');
    const [revived, direct] = lines.map((l) => l.err as Record<string, unknown>);
    expect(revived).toEqual(direct);
    expect(revived).toMatchObject({
      type: 'SlackDeliveryError',
      code: 'SLACK_NOT_IN_CHANNEL',
      slackError: 'not_in_channel',
    });
    expect(revived?.cause).toMatchObject({ message: 'An API error occurred: not_in_channel (token [redacted])' });
    expect(JSON.stringify(lines)).not.toContain('xoxb-wire-secret');
  });

  it('carries what is thrown that is not an Error, and a user error, without losing what it is', () => {
    expect(toWireError('a string')).toEqual({ name: 'NonError', message: 'a string' });
    const wire: WireError = toWireError(new UserInputError('BAD_CHANNEL', '"x" is not a channel'));
    expect(wire).toMatchObject({ name: 'UserInputError', code: 'BAD_CHANNEL' });
  });

  it('cuts a circular cause chain instead of looping', () => {
    const a = new Error('a');
    const b = new Error('b', { cause: a });
    Object.assign(a, { cause: b });
    let depth = 0;
    for (let w: WireError | undefined = toWireError(a); w; w = w.cause) depth++;
    expect(depth).toBeLessThanOrEqual(10);
  });
});
