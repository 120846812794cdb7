import { type QuietFacts, quietDecision, quietSettings } from '../../../src/insights/index.js';
import type { ReportDefinition, ReportView } from '../../../src/reports/index.js';

const delta = (percent: number | null, absolute: number | null = 1) => ({ previous: 100, absolute, percent });
const view = (
  totals: Record<string, ReturnType<typeof delta>> | undefined,
  current: { totals?: Record<string, number | null>; rows?: number } = {},
): QuietFacts['view'] => ({
  headline: ['spend', 'installs'],
  rows: Array.from({ length: current.rows ?? 3 }, () => ({})),
  ...(current.totals === undefined && current.rows === 0
    ? {}
    : { totals: current.totals ?? { spend: 100, installs: 10 } }),
  columns: [
    { key: 'spend', label: 'Spend' },
    { key: 'installs', label: 'Installs' },
  ] as unknown as ReportView['columns'],
  ...(totals
    ? {
        comparison: {
          kind: 'same_period_last_week',
          label: 'vs same day last week (Thu 12 Nov 2026)',
          range: { from: '', to: '', label: '', timezone: 'UTC' },
          totals,
          rows: [],
          previousRows: [],
        },
      }
    : {}),
});
const LAST = new Date('2026-11-19T09:00:00Z');
const settings = { moved: 0.1, incidents: true, allQuiet: 'mon' };
const quiet =
  'quiet: no headline KPI moved 10 % or more vs same day last week, and no incident opened since the last post';

describe('quietDecision', () => {
  it.each<[string, Partial<Record<keyof QuietFacts, unknown>>, ReturnType<typeof quietDecision>]>([
    ['nothing moved on a Tuesday: skipped', {}, { post: false, reason: quiet, allQuiet: false }],
    [
      'nothing moved on the all-quiet day: the note',
      { weekday: 'mon' },
      { post: false, reason: quiet, allQuiet: true },
    ],
    [
      'the all-quiet day, its note already posted today',
      { weekday: 'mon', notedToday: true },
      { post: false, reason: quiet, allQuiet: false },
    ],
    [
      'a KPI moved past the threshold',
      { view: view({ spend: delta(0.04), installs: delta(-0.12) }) },
      { post: true, why: 'moved: Installs −12 %' },
    ],
    [
      'exactly at the threshold moves',
      { view: view({ spend: delta(0.1), installs: delta(0) }) },
      { post: true, why: 'moved: Spend +10 %' },
    ],
    [
      'a rise from 0',
      { view: view({ spend: delta(null, 40), installs: delta(0) }) },
      { post: true, why: 'moved: Spend from 0' },
    ],
    [
      '0 before and after is quiet',
      { view: view({ spend: delta(null, 0), installs: delta(0) }) },
      { post: false, reason: quiet, allQuiet: false },
    ],
    [
      'an incident opened since the last post',
      { openedSince: [{ rule: 'cpi-too-high', entity: 'appPlatform=IOS' }] },
      { post: true, why: '1 incident(s) opened since the last post' },
    ],
    [
      'incidents off: an incident does not count',
      { settings: { moved: 0.1, incidents: false }, openedSince: [{ rule: 'r', entity: 'e' }] },
      {
        post: false,
        reason: 'quiet: no headline KPI moved 10 % or more vs same day last week',
        allQuiet: false,
      },
    ],
    [
      'its own threshold',
      { settings: { moved: 0.25, incidents: true }, view: view({ spend: delta(0.2), installs: delta(0) }) },
      {
        post: false,
        reason:
          'quiet: no headline KPI moved 25 % or more vs same day last week, and no incident opened since the last post',
        allQuiet: false,
      },
    ],
    [
      'a day with no rows: nothing to compare is news, not quiet',
      { view: view({ spend: delta(null, null), installs: delta(null, null) }, { rows: 0 }) },
      {
        post: true,
        why: 'no value: Spend, Installs',
        missing: [
          'Spend: no value. The Reporting Service returned no rows for this period.',
          'Installs: no value. The Reporting Service returned no rows for this period.',
        ],
      },
    ],
    [
      'a NULL total (a CPI whose installs fell to 0) moved',
      { view: view({ spend: delta(0.01), installs: delta(null, null) }, { totals: { spend: 100, installs: null } }) },
      {
        post: true,
        why: 'no value: Installs',
        missing: ['Installs: no value for this period (no data, or a rate whose base fell to 0).'],
      },
    ],
    ['the first post of a schedule', { lastPostAt: undefined }, { post: true, why: 'the first post of this schedule' }],
    [
      'no comparison: cannot tell, so it posts',
      { view: view(undefined) },
      { post: true, why: 'no comparison to tell what moved' },
    ],
  ])('%s', (_name, over, expected) => {
    const facts: QuietFacts = {
      view: view({ spend: delta(0.03), installs: delta(-0.05) }),
      settings,
      lastPostAt: LAST,
      openedSince: [],
      weekday: 'tue',
      ...over,
    } as QuietFacts;
    if ('lastPostAt' in over && over.lastPostAt === undefined) delete facts.lastPostAt;
    expect(quietDecision(facts)).toEqual(expected);
  });
});

describe('quietSettings', () => {
  const definition = (present: object) =>
    ({ present: { compare: 'same_period_last_week', ...present } }) as ReportDefinition;
  it.each<[string, object, ReturnType<typeof quietSettings>]>([
    ['no onlyWhen: always posts', {}, undefined],
    ['defaults: 10 %, incidents, no note', { onlyWhen: {} }, { moved: 0.1, incidents: true }],
    ['explain’s threshold', { onlyWhen: {}, explain: { threshold: 0.2 } }, { moved: 0.2, incidents: true }],
    [
      'its own threshold and day',
      { onlyWhen: { moved: 0.3, incidents: false, allQuiet: 'fri' } },
      { moved: 0.3, incidents: false, allQuiet: 'fri' },
    ],
  ])('%s', (_name, present, expected) => {
    expect(quietSettings(definition(present))).toEqual(expected);
  });
});
