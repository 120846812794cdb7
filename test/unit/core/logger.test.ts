import { Writable } from 'node:stream';
import { createLogger, scrubSecrets } from '../../../src/core/index.js';

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
});
