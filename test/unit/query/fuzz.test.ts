import fc from 'fast-check';
import { UserInputError } from '../../../src/core/index.js';
import { compileQuery, QueryError } from '../../../src/query/index.js';
import { randomQueryText, VALID_QUERIES } from '../../support/queryFuzz.js';

const now = new Date('2026-11-20T12:00:00Z');

describe('the query language under random input', () => {
  it.each(VALID_QUERIES)('starts from a valid query: %j', (text) => {
    expect(() => compileQuery(text, { now })).not.toThrow();
  });

  it('never throws anything but a typed user error, and never hangs', () => {
    // A hang (backtracking) fails by the test's timeout; how long the slowest random input takes
    // is a figure of bench/query, not a bound here.
    fc.assert(
      fc.property(randomQueryText, (text) => {
        try {
          compileQuery(text, { now });
        } catch (error) {
          if (!(error instanceof UserInputError)) throw error;
          if (!(error instanceof QueryError)) throw new Error(`not a QueryError: ${String(error)}`);
          if (error.position < 0 || error.position > text.length) throw new Error(`bad position ${error.position}`);
        }
      }),
      { numRuns: 10_000, seed: 20261120 },
    );
    // A bound for a hang, generous for a busy machine (the file took 63 s at load 12 on 2 cores).
  }, 300_000);
});
