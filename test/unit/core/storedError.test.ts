import {
  CancelledError,
  INTERNAL_FAILURE_MESSAGE,
  InvariantError,
  isErrorCode,
  PivotbotError,
  storedError,
  UserInputError,
} from '../../../src/core/index.js';
import { ReportingHttpError } from '../../../src/reporting/index.js';
import { StoreWriteFailedError } from '../../../src/store/index.js';

const errno = (code: string, message: string) => Object.assign(new Error(message), { code });

describe('storedError', () => {
  it.each([
    {
      name: "a user's mistake keeps its code and its text",
      error: new UserInputError('REPORT_NOT_FOUND', 'No report named "daly".'),
      stored: { code: 'REPORT_NOT_FOUND', message: 'No report named "daly".' },
    },
    {
      name: 'an explained failure keeps its code and its user text, not its internal message',
      error: new ReportingHttpError('POST', 'http://10.0.0.7/v1/graphql', 503, 'pg: connection refused'),
      stored: {
        code: 'REPORTING_HTTP',
        message: 'The Reporting Service is having trouble right now; try again in a few minutes.',
      },
    },
    {
      name: 'one of ours without user text keeps its code, with the generic text',
      error: new InvariantError('slot 2026-03-29T01:30:00Z has no run'),
      stored: { code: 'INVARIANT', message: INTERNAL_FAILURE_MESSAGE },
    },
    {
      name: 'a shutdown keeps its code',
      error: new CancelledError('digest run'),
      stored: { code: 'CANCELLED', message: 'pivotbot is restarting, so this stopped; run it again in a minute.' },
    },
    {
      name: 'a raw file-system error is INTERNAL: never ENOENT, never its path',
      error: errno('ENOENT', "ENOENT: no such file or directory, open '/srv/pivotbot/out/x.csv'"),
      stored: { code: 'INTERNAL', message: INTERNAL_FAILURE_MESSAGE },
    },
    {
      name: "a raw PostgreSQL error is INTERNAL: never 23505, never the server's text",
      error: errno('23505', 'duplicate key value violates unique constraint "runs_pkey"'),
      stored: { code: 'INTERNAL', message: INTERNAL_FAILURE_MESSAGE },
    },
    {
      name: 'a bug is INTERNAL',
      error: new TypeError("Cannot read properties of undefined (reading 'rows')"),
      stored: { code: 'INTERNAL', message: INTERNAL_FAILURE_MESSAGE },
    },
    {
      name: 'something thrown that is not an Error is INTERNAL',
      error: 'a string',
      stored: { code: 'INTERNAL', message: INTERNAL_FAILURE_MESSAGE },
    },
  ])('$name', ({ error, stored }) => {
    expect(storedError(error)).toEqual(stored);
    expect(isErrorCode(storedError(error).code)).toBe(true);
  });

  it('stores a store failure by its own code and user text, never the state file path', () => {
    const stored = storedError(new StoreWriteFailedError('/var/lib/pivotbot/state.json', errno('ENOSPC', 'disk full')));
    expect(stored.code).toBe('STORE_WRITE_FAILED');
    expect(stored.message).not.toContain('/var/lib');
    expect(stored.message).not.toContain('ENOSPC');
  });

  it('keeps an error that is ours even when its cause is not', () => {
    const error = new PivotbotError('REPORTING_NETWORK', 'fetch failed', {
      cause: errno('ECONNRESET', 'socket hang up'),
    });
    expect(storedError(error).code).toBe('REPORTING_NETWORK');
  });
});
