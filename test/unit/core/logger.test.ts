import { Writable } from 'node:stream';
import { createLogger, PivotbotError, scrubSecrets, UserInputError } from '../../../src/core/index.js';

function capture(): { stream: Writable; lines: () => string } {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk, _enc, done) {
      chunks.push(String(chunk));
      done();
    },
  });
  return { stream, lines: () => chunks.join('') };
}

interface SerializedError {
  stack?: string;
  cause?: SerializedError;
  [field: string]: unknown;
}

describe('createLogger', () => {
  it('writes structured JSON lines', () => {
    const out = capture();
    const log = createLogger({ destination: out.stream });
    log.info({ report: 'daily' }, 'ran');
    const line = JSON.parse(out.lines().trim()) as Record<string, unknown>;
    expect(line).toMatchObject({ msg: 'ran', report: 'daily', name: 'pivotbot' });
  });

  it('redacts secret keys and scrubs registered secret values anywhere', () => {
    const out = capture();
    const log = createLogger({ destination: out.stream, secrets: ['s3cr3t-value'] });
    log.info({ clientSecret: 'plain', headers: { authorization: 'Bearer abc' } }, 'token s3cr3t-value used');
    log.error({ err: new Error('failed with s3cr3t-value') }, 'boom');
    log.warn({ nested: { note: 'x s3cr3t-value y' } }, 'nested');
    const text = out.lines();
    expect(text).not.toContain('s3cr3t-value');
    expect(text).not.toContain('plain');
    expect(text).not.toContain('Bearer abc');
    expect(text).toContain('[redacted]');
  });

  it('scrubs secrets inside arrays and errors', () => {
    const scrubbed = scrubSecrets(['a-secret-b', { e: new Error('a-secret') }], ['a-secret']) as unknown[];
    expect(JSON.stringify(scrubbed)).not.toContain('a-secret');
  });

  it('keeps the class, code, details, Dates and cause chain while scrubbing secrets', () => {
    const out = capture();
    const secret = 'xoxb-very-secret-token';
    const log = createLogger({ destination: out.stream, secrets: [secret] });
    const root = new Error(`socket closed while sending ${secret}`);
    const middle = new PivotbotError('REPORTING_HTTP', 'POST /v1/graphql answered 503', {
      cause: root,
      retryable: true,
      details: { status: 503, at: new Date('2026-03-01T09:00:00Z'), header: `Bearer ${secret}` },
    });
    const top = new UserInputError('REPORT_NOT_FOUND', 'no report "daily"', { cause: middle, suggestions: ['daly'] });
    log.error({ err: top, request: { nested: { deeper: [`x ${secret} y`] } } }, 'run failed');
    const text = out.lines();
    expect(text).not.toContain(secret);
    const line = JSON.parse(text.trim()) as { err: SerializedError; request: unknown; msg: string };
    expect(line.msg).toBe('run failed');
    expect(line.err).toMatchObject({ type: 'UserInputError', code: 'REPORT_NOT_FOUND', suggestions: ['daly'] });
    expect(line.err.stack).toContain('UserInputError');
    expect(line.err.cause).toMatchObject({
      type: 'PivotbotError',
      code: 'REPORTING_HTTP',
      retryable: true,
      details: { status: 503, at: '2026-03-01T09:00:00.000Z', header: 'Bearer [redacted]' },
    });
    expect(line.err.cause?.cause).toMatchObject({ type: 'Error', message: 'socket closed while sending [redacted]' });
    expect(line.request).toEqual({ nested: { deeper: ['x [redacted] y'] } });
  });

  it('logs an Error passed alone with its message as msg and its fields kept', () => {
    const out = capture();
    const log = createLogger({ destination: out.stream, secrets: ['abcd-1234'] });
    log.error(new PivotbotError('STORE_WRITE_FAILED', 'could not write abcd-1234.json'));
    const line = JSON.parse(out.lines().trim()) as { err: Record<string, unknown>; msg: string };
    expect(line.msg).toBe('could not write [redacted].json');
    expect(line.err).toMatchObject({ type: 'PivotbotError', code: 'STORE_WRITE_FAILED' });
  });

  it('serialises an Error under any key, not only err, and scrubs child bindings', () => {
    const out = capture();
    const log = createLogger({ destination: out.stream, secrets: ['hunter22'] }).child({ run: 'key hunter22' });
    log.warn({ failure: new PivotbotError('INTERNAL', 'bad hunter22') }, 'w');
    const text = out.lines();
    expect(text).not.toContain('hunter22');
    expect(JSON.parse(text.trim())).toMatchObject({
      run: 'key [redacted]',
      failure: { type: 'PivotbotError', code: 'INTERNAL' },
    });
  });
});

describe('createLogger on a failing sink', () => {
  it('never throws when the sink throws, and stops writing to it', () => {
    let writes = 0;
    const sink = new Writable({
      write(_chunk, _enc, done) {
        done();
      },
    });
    sink.write = () => {
      writes += 1;
      throw Object.assign(new Error('write EPIPE'), { code: 'EPIPE' });
    };
    const log = createLogger({ destination: sink });
    expect(() => log.fatal('first')).not.toThrow();
    expect(() => log.info('second')).not.toThrow();
    expect(writes).toBe(1);
  });

  it("takes the sink's asynchronous error (EPIPE) instead of leaving it unhandled, and writes no more", async () => {
    let writes = 0;
    const sink = new Writable({
      write(_chunk, _enc, done) {
        writes += 1;
        done(Object.assign(new Error('write EPIPE'), { code: 'EPIPE' }));
      },
    });
    const log = createLogger({ destination: sink, secrets: ['s3cr3t-value'] });
    log.info('one');
    // Unhandled, the stream's 'error' event would throw here (an uncaught exception in a process).
    await new Promise((resolve) => setImmediate(resolve));
    log.info('two');
    log.fatal('three');
    await new Promise((resolve) => setImmediate(resolve));
    expect(writes).toBe(1);
    expect(sink.listenerCount('error')).toBe(1);
    // Another logger on the same sink shares what is known of it (and adds no listener).
    createLogger({ destination: sink }).info('four');
    expect(writes).toBe(1);
    expect(sink.listenerCount('error')).toBe(1);
  });
});
