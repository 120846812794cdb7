import { PivotbotError } from '../../../src/core/index.js';
import {
  dataWaitAction,
  parseRunKey,
  planCatchUp,
  retryAction,
  runKey,
  type ScheduleSpec,
} from '../../../src/scheduler/index.js';
import { durationMs } from '../../../src/time/index.js';

const HOUR = 3_600_000;
const spec = (over: Partial<ScheduleSpec> = {}): ScheduleSpec => ({
  id: 'report:daily:C1:0 9 * * *@UTC',
  report: 'daily',
  channel: 'C1',
  source: 'report',
  timezone: 'UTC',
  cron: '0 9 * * *',
  catchUp: 6 * HOUR,
  retry: { attempts: 3, backoffMs: 120_000 },
  ...over,
});
const at = (iso: string) => new Date(iso);
const isoOf = (d: Date) => d.toISOString();

describe('runKey', () => {
  it.each([
    ['daily-kpi', 'C0123', '2026-11-23T12:00:00Z', 'digest:daily-kpi:C0123:2026-11-23T12:00:00.000Z'],
    ['weekly', '#ua-daily', '2026-03-08T07:30:00Z', 'digest:weekly:#ua-daily:2026-03-08T07:30:00.000Z'],
  ])('%s → %s', (report, channel, slot, key) => {
    expect(runKey(report, channel, at(slot))).toBe(key);
    expect(parseRunKey(key)).toEqual({ report, channel, slot: at(slot) });
  });

  it('reads no other kind of key', () => {
    expect(parseRunKey('manual:daily:123')).toBeUndefined();
  });
});

describe('planCatchUp', () => {
  it.each<[string, Partial<ScheduleSpec>, string, string, string[], string[]]>([
    ['nothing missed', {}, '2026-11-23T09:00:00Z', '2026-11-23T10:00:00Z', [], []],
    ['a slot just due is on time', {}, '2026-11-22T09:00:00Z', '2026-11-23T09:00:30Z', ['09:00 on time'], []],
    [
      'a slot missed by 47 minutes is posted late',
      {},
      '2026-11-22T09:00:00Z',
      '2026-11-23T09:47:00Z',
      ['09:00 late'],
      [],
    ],
    [
      'a slot older than the window is skipped, a newer one posted',
      { cron: '0 */4 * * *' },
      '2026-11-23T00:00:00Z',
      '2026-11-23T09:00:00Z',
      ['04:00 late', '08:00 late'],
      [],
    ],
    [
      'beyond 6h: skipped with the reason',
      {},
      '2026-11-22T09:00:00Z',
      '2026-11-23T16:00:00Z',
      [],
      ['09:00 missed by 7h while pivotbot was not running, beyond the 6h catch-up window'],
    ],
    [
      'catchUp none skips every missed slot',
      { catchUp: null },
      '2026-11-22T09:00:00Z',
      '2026-11-23T09:05:00Z',
      [],
      ['09:00 missed by 5m while pivotbot was not running; catch-up is off'],
    ],
    [
      'catchUp none still posts a slot that is on time',
      { catchUp: null },
      '2026-11-22T09:00:00Z',
      '2026-11-23T09:00:10Z',
      ['09:00 on time'],
      [],
    ],
    [
      'a custom 1h window',
      { cron: '*/30 * * * *', catchUp: HOUR },
      '2026-11-23T07:00:00Z',
      '2026-11-23T08:45:00Z',
      ['08:00 late', '08:30 late'],
      ['07:30 missed by 1h 15m while pivotbot was not running, beyond the 1h catch-up window'],
    ],
    [
      'since is exclusive: the last fire is not posted again',
      {},
      '2026-11-23T09:00:00Z',
      '2026-11-23T09:00:20Z',
      [],
      [],
    ],
  ])('%s', (_name, over, since, now, due, skipped) => {
    const plan = planCatchUp(spec(over), at(since), at(now));
    const hm = (d: Date) => isoOf(d).slice(11, 16);
    expect(plan.due.map((d) => `${hm(d.slot)} ${d.late ? 'late' : 'on time'}`)).toEqual(due);
    expect(plan.skipped.map((s) => `${hm(s.slot)} ${s.reason}`)).toEqual(skipped);
    expect(plan.omitted).toBe(0);
  });

  it('posts at most maxLate missed slots, the latest, and skips the rest saying why', () => {
    const plan = planCatchUp(spec({ cron: '* * * * *' }), at('2026-11-23T08:00:00Z'), at('2026-11-23T08:30:30Z'), {
      maxLate: 3,
    });
    expect(plan.due.map((d) => isoOf(d.slot).slice(11, 16))).toEqual(['08:27', '08:28', '08:29', '08:30']);
    expect(plan.due.map((d) => d.late)).toEqual([true, true, true, false]);
    expect(plan.skipped).toHaveLength(26);
    expect(plan.skipped[0]?.reason).toBe('29 slots were missed; only the latest 3 are posted');
  });

  it('itemizes at most maxSkipped slots and counts the others, also beyond the lookback', () => {
    const plan = planCatchUp(
      spec({ cron: '0 * * * *', catchUp: null }),
      at('2026-11-01T00:00:00Z'),
      at('2026-11-23T00:30:00Z'),
      {
        maxSkipped: 5,
        lookbackMs: 2 * 24 * HOUR,
      },
    );
    expect(plan.skipped.map((s) => isoOf(s.slot))).toEqual([
      '2026-11-22T20:00:00.000Z',
      '2026-11-22T21:00:00.000Z',
      '2026-11-22T22:00:00.000Z',
      '2026-11-22T23:00:00.000Z',
      '2026-11-23T00:00:00.000Z',
    ]);
    expect(plan.omitted + plan.skipped.length).toBe(22 * 24);
  });

  it('never posts the past of a schedule first seen now (since = now)', () => {
    const now = at('2026-11-23T12:00:00Z');
    expect(planCatchUp(spec({ cron: '* * * * *' }), now, now)).toEqual({ due: [], skipped: [], omitted: 0 });
  });
});

describe('retryAction', () => {
  const retry = { attempts: 3, backoffMs: 120_000 };
  const transient = new PivotbotError('REPORTING_HTTP', 'POST /v1/graphql answered 503', { retryable: true });
  const permanent = new PivotbotError('REPORT_NOT_FOUND', 'no report "x"', { retryable: false });
  it.each<[string, unknown, number, ReturnType<typeof retryAction>]>([
    ['a retryable error on try 1 retries after the backoff', transient, 1, { action: 'retry', delayMs: 120_000 }],
    ['a retryable error on try 2 retries', transient, 2, { action: 'retry', delayMs: 120_000 }],
    ['the last attempt gives up', transient, 3, { action: 'give-up', reason: '3 attempt(s) failed' }],
    [
      'a non-retryable error gives up at once',
      permanent,
      1,
      { action: 'give-up', reason: 'REPORT_NOT_FOUND cannot succeed by trying again' },
    ],
    ['an unknown error retries', new TypeError('boom'), 1, { action: 'retry', delayMs: 120_000 }],
  ])('%s', (_name, error, attempt, expected) => {
    expect(retryAction(error, attempt, retry)).toEqual(expected);
  });

  it('with one attempt never retries', () => {
    expect(retryAction(transient, 1, { attempts: 1, backoffMs: 0 }).action).toBe('give-up');
  });
});

describe('durationMs', () => {
  it.each([
    ['90s', 90_000],
    ['2m', 120_000],
    ['6h', 6 * HOUR],
    ['1d', 24 * HOUR],
  ])('%s', (text, ms) => {
    expect(durationMs(text)).toBe(ms);
  });
  it('rejects what it cannot read', () => {
    expect(() => durationMs('6 hours')).toThrow('"6 hours" is not a duration like 90s, 30m, 6h or 1d.');
  });
});

describe('dataWaitAction', () => {
  const rule = { metric: 'impressions', minShare: 0.5, waitMs: 2 * HOUR };
  it.each<[string, number, number | undefined, number, ReturnType<typeof dataWaitAction>]>([
    ['enough data: post', 60, 100, 0, { action: 'post', complete: true }],
    ['exactly the share: post', 50, 100, 0, { action: 'post', complete: true }],
    ['too little: check again in 15 minutes', 40, 100, 0, { action: 'wait', waitMs: 900_000, share: 0.4 }],
    ['the last wait is shorter', 40, 100, 2 * HOUR - 300_000, { action: 'wait', waitMs: 300_000, share: 0.4 }],
    ['waited long enough: post, marked incomplete', 40, 100, 2 * HOUR, { action: 'post', complete: false, share: 0.4 }],
    ['no baseline to compare with: post', 0, undefined, 0, { action: 'post', complete: true }],
    ['a zero baseline: post', 0, 0, 0, { action: 'post', complete: true }],
  ])('%s', (_name, value, baseline, waitedMs, expected) => {
    expect(dataWaitAction({ value, baseline, waitedMs }, rule)).toEqual(expected);
  });
});
