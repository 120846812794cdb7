import { nextWakeAt, type ScheduleSpec, scheduleAction, vanishedSchedules } from '../../../src/scheduler/index.js';

const HOUR = 3_600_000;
const hourly: ScheduleSpec = {
  id: 'report:daily:C1:0 * * * *@UTC',
  report: 'daily',
  channel: 'C1',
  source: 'report',
  timezone: 'UTC',
  cron: '0 * * * *',
  catchUp: 6 * HOUR,
  retry: { attempts: 3, backoffMs: 120_000 },
};

describe('scheduleAction: what a schedule needs at a wake-up', () => {
  it.each([
    ['never seen before', undefined, '2026-11-23T09:00:10Z', 'first-sight'],
    ['its slot has just come', '2026-11-23T08:00:00.000Z', '2026-11-23T09:00:10Z', 'lane'],
    ['slots missed within catch-up', '2026-11-23T05:00:00.000Z', '2026-11-23T09:30:00Z', 'lane'],
    ['slots missed beyond catch-up (to record as skipped)', '2026-11-20T09:00:00.000Z', '2026-11-23T09:30:00Z', 'lane'],
    ['no slot since its last fire', '2026-11-23T09:00:00.000Z', '2026-11-23T09:59:59Z', 'nothing'],
  ] as const)('%s: %s', (_what, lastFire, now, expected) => {
    expect(scheduleAction(hourly, lastFire, new Date(now))).toBe(expected);
  });

  it('does not see a slot before its instant', () => {
    expect(scheduleAction(hourly, '2026-11-23T09:00:00.000Z', new Date('2026-11-23T09:59:59.999Z'))).toBe('nothing');
    expect(scheduleAction(hourly, '2026-11-23T09:00:00.000Z', new Date('2026-11-23T10:00:00.000Z'))).toBe('lane');
  });
});

describe('vanishedSchedules: which bookkeeping to forget', () => {
  const listed = [{ id: 'report:daily:C1:09:00@UTC' }, { id: 'subscription:s1:10:00@UTC' }];

  it.each([
    ['a report schedule whose timing changed', 'report:daily:C1:08:00@UTC', true],
    ['a subscription whose timing changed', 'subscription:s1:11:00@UTC', true],
    ['a removed subscription', 'subscription:s2:10:00@UTC', true],
    ['a report that disappeared (a briefly broken file catches up once fixed)', 'report:weekly:C1:09:00@UTC', false],
    ['a report channel no longer listed', 'report:daily:C2:09:00@UTC', false],
    ['a schedule still listed', 'report:daily:C1:09:00@UTC', false],
    ['a subscription still listed', 'subscription:s1:10:00@UTC', false],
  ] as const)('%s: forgotten %s', (_what, stored, forgotten) => {
    expect(vanishedSchedules(listed, [stored])).toEqual(forgotten ? [stored] : []);
  });

  it('forgets nothing when nothing is stored', () => {
    expect(vanishedSchedules(listed, [])).toEqual([]);
  });
});

describe('nextWakeAt: when the one timer fires', () => {
  it.each([
    ['the earliest next fire', [5_000, 90_000], 5_000],
    ['at most maxWakeMs away', [90_000], 31_000],
    ['maxWakeMs when no schedule has a next fire', [undefined, undefined], 31_000],
    ['maxWakeMs with no schedule', [], 31_000],
    ['a fire exactly at the bound', [31_000], 31_000],
  ] as const)('%s', (_what, fires, expected) => {
    expect(nextWakeAt(1_000, 30_000, fires)).toBe(expected);
  });
});
