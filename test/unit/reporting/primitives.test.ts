import {
  backoffDelay,
  DEFAULT_RETRY_POLICY,
  failureAction,
  parseCsvLine,
  parseDateTimeInput,
  parseJsonLossless,
  ReportingGraphQLError,
  ReportingHttpError,
  ReportingTimeoutError,
} from '../../../src/reporting/index.js';

describe('parseJsonLossless', () => {
  it('keeps integers beyond 2^53 exact as strings and leaves the rest alone', () => {
    const parsed = parseJsonLossless(
      '{"a": 12345678901234567890, "b": 42, "c": "9999999999999999999", "d": 1.5e300, "e": -98765432109876543210}',
    );
    expect(parsed).toEqual({
      a: '12345678901234567890',
      b: 42,
      c: '9999999999999999999',
      d: 1.5e300,
      e: '-98765432109876543210',
    });
  });

  it('is not fooled by digits inside strings with escaped quotes', () => {
    expect(parseJsonLossless('{"s": "x\\" 12345678901234567890 \\"", "n": 9007199254740993}')).toEqual({
      s: 'x" 12345678901234567890 "',
      n: '9007199254740993',
    });
  });

  it('still rejects malformed JSON', () => {
    expect(() => parseJsonLossless('{"data": {"pivot": 12345678901234567890')).toThrow(SyntaxError);
  });
});

describe('retry decisions', () => {
  const never = () => 0.999999;

  it('grows the jitter ceiling exponentially up to the maximum', () => {
    expect(backoffDelay(0, DEFAULT_RETRY_POLICY, never)).toBe(249);
    expect(backoffDelay(2, DEFAULT_RETRY_POLICY, never)).toBe(999);
    expect(backoffDelay(10, DEFAULT_RETRY_POLICY, never)).toBe(4999);
    expect(backoffDelay(3, DEFAULT_RETRY_POLICY, () => 0)).toBe(0);
  });

  it.each([
    ['a 503 on a query', new ReportingHttpError('POST', 'http://x/v1/graphql', 503), true, 0, true],
    ['a timeout on a query', new ReportingTimeoutError('pivot', 10), true, 1, true],
    ['a 503 on createAsyncPivot', new ReportingHttpError('POST', 'http://x/v1/graphql', 503), false, 0, false],
    ['a 400', new ReportingHttpError('POST', 'http://x/v1/graphql', 400), true, 0, false],
    ['a GraphQL error of the server', new ReportingGraphQLError('pivot', ['Internal server error']), true, 0, true],
    [
      'a GraphQL validation error',
      new ReportingGraphQLError('pivot', ['Cannot query field "foo" on type "PivotResult".']),
      true,
      0,
      false,
    ],
    [
      'a GraphQL error on createAsyncPivot',
      new ReportingGraphQLError('createAsyncPivot', ['Internal server error']),
      false,
      0,
      false,
    ],
    ['a 503 after the last retry', new ReportingHttpError('POST', 'http://x/v1/graphql', 503), true, 3, false],
    ['a plain Error', new Error('x'), true, 0, false],
  ])('%s → retry %s', (_name, error, idempotent, attempt, expected) => {
    expect(failureAction(error, attempt, idempotent, DEFAULT_RETRY_POLICY, never).retry).toBe(expected);
  });
});

describe('parseDateTimeInput', () => {
  it.each([
    ['2026-11-20', Date.UTC(2026, 10, 20)],
    ['2026-11-20T09:30:00', Date.UTC(2026, 10, 20, 9, 30)],
    ['2026-11-20T09:30:00Z', Date.UTC(2026, 10, 20, 9, 30)],
    ['2026-11-20T09:30:00-03:00', Date.UTC(2026, 10, 20, 12, 30)],
    ['2026-11-20T09:30:00.250+0530', Date.UTC(2026, 10, 20, 4, 0, 0, 250)],
  ])('reads %s', (text, expected) => {
    expect(parseDateTimeInput(text)).toBe(expected);
  });

  it.each(['2026-13-01', '2026-02-29', 'yesterday', '2026-11-20T25:00:00', ''])('rejects %s', (text) => {
    expect(parseDateTimeInput(text)).toBeUndefined();
  });
});

describe('parseCsvLine', () => {
  it('undoes RFC 4180 quoting', () => {
    expect(parseCsvLine('a,"b,c","d ""q""",')).toEqual(['a', 'b,c', 'd "q"', '']);
  });
});
