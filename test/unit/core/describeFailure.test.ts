import { Writable } from 'node:stream';
import {
  createLogger,
  describeFailure,
  INTERNAL_FAILURE_MESSAGE,
  InvariantError,
  PivotbotError,
  UserInputError,
  userMessageOf,
} from '../../../src/core/index.js';
import { ReportingGraphQLError, ReportingHttpError } from '../../../src/reporting/index.js';
import { StoreClosedError } from '../../../src/store/index.js';

function logged() {
  const lines: Array<Record<string, unknown>> = [];
  const destination = new Writable({
    write(chunk, _enc, done) {
      for (const line of String(chunk).trim().split('\n')) lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  return { lines, logger: createLogger({ destination, level: 'debug' }) };
}

const duckdb = 'Binder Error: Referenced column "x" not found in FROM clause! Candidate bindings: "pivot_rows.spend"';

describe('describeFailure', () => {
  it.each([
    {
      name: "a user's mistake is told as is, without a reference",
      error: new UserInputError('REPORT_NOT_FOUND', 'No report "daly".', { suggestions: ['daily'] }),
      text: 'No report "daly".',
      level: 30,
      ref: false,
    },
    {
      name: 'an explained failure shows its user text and a reference',
      error: new ReportingHttpError('POST', 'http://x/v1/graphql', 503, 'upstream exploded at /srv/db'),
      text: 'The Reporting Service is having trouble right now; try again in a few minutes (ref 00c0de).',
      level: 40,
      ref: true,
    },
    {
      name: "the server's GraphQL text (DuckDB's in the sandbox) stays in the log",
      error: new ReportingGraphQLError('pivot', [duckdb]),
      text: "The Reporting Service could not answer this pivot; the details are in pivotbot's log (ref 00c0de).",
      level: 40,
      ref: true,
    },
    {
      name: 'a store error without user text shows the generic text, never its path',
      error: new StoreClosedError('/var/lib/pivotbot/state.json'),
      text: `${INTERNAL_FAILURE_MESSAGE.slice(0, -1)} (ref 00c0de). It has been logged; if it keeps happening, give an admin this reference.`,
      level: 50,
      ref: true,
    },
    {
      name: 'a bug (not a PivotbotError) shows the generic text',
      error: new TypeError("Cannot read properties of undefined (reading 'rows')"),
      text: `${INTERNAL_FAILURE_MESSAGE.slice(0, -1)} (ref 00c0de). It has been logged; if it keeps happening, give an admin this reference.`,
      level: 50,
      ref: true,
    },
    {
      name: 'an invariant shows the generic text',
      error: new InvariantError('rows and columns disagree'),
      text: `${INTERNAL_FAILURE_MESSAGE.slice(0, -1)} (ref 00c0de). It has been logged; if it keeps happening, give an admin this reference.`,
      level: 50,
      ref: true,
    },
  ])('$name', ({ error, text, level, ref }) => {
    const log = logged();
    const failure = describeFailure(error, {
      logger: log.logger,
      what: 'command failed',
      context: { userId: 'U1' },
      newRef: () => '00c0de',
    });
    expect(failure.text).toBe(text);
    expect(log.lines).toHaveLength(1);
    expect(log.lines[0]).toMatchObject({ level, userId: 'U1' });
    if (ref) {
      expect(failure.ref).toBe('00c0de');
      // The log line has what the user does not see: the whole error and the same reference.
      expect(log.lines[0]).toMatchObject({ ref: '00c0de', err: { message: error.message } });
    } else {
      expect(failure.ref).toBeUndefined();
      expect(JSON.stringify(failure)).not.toContain('ref ');
    }
    expect(failure.text).not.toContain(duckdb);
    expect(failure.text).not.toContain('/var/lib');
    expect(failure.text).not.toContain('/srv/db');
  });

  it('makes a new 6-hex-digit reference each time by default', () => {
    const log = logged();
    const a = describeFailure(new Error('a'), { logger: log.logger, what: 'x' }).ref;
    const b = describeFailure(new Error('b'), { logger: log.logger, what: 'x' }).ref;
    expect(a).toMatch(/^[0-9a-f]{6}$/);
    expect(b).toMatch(/^[0-9a-f]{6}$/);
    expect(a).not.toBe(b);
  });
});

describe('userMessage', () => {
  it('is the generic text unless written for users, and a UserInputError message is written for users', () => {
    expect(new PivotbotError('INTERNAL', 'wrote /etc/secret.json').userMessage).toBe(INTERNAL_FAILURE_MESSAGE);
    expect(new PivotbotError('INTERNAL', 'internal', { userMessage: 'Try later.' })).toMatchObject({
      userMessage: 'Try later.',
      explained: true,
    });
    expect(new UserInputError('REPORT_NOT_FOUND', 'No report "x".').userMessage).toBe('No report "x".');
    expect(userMessageOf(new RangeError('internal'))).toBe(INTERNAL_FAILURE_MESSAGE);
    expect(userMessageOf(new StoreClosedError('/data/x.json'))).toBe(INTERNAL_FAILURE_MESSAGE);
  });
});
