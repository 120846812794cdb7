import { dataCheckPlan, incompleteDataNotice, sumBySpan } from '../../../src/delivery/dataReadiness.js';
import { parseReportText, type ReportDefinition } from '../../../src/reports/index.js';
import { dataWaitAction } from '../../../src/scheduler/index.js';

const slot = new Date('2026-11-20T09:00:00Z'); // a Friday
const rule = { metric: 'impressions', minShare: 0.5, waitMs: 7_200_000 };

function definition(query: string): ReportDefinition {
  const text = `title: Daily\nquery:\n${query
    .split('\n')
    .map((l) => `  ${l}`)
    .join('\n')}\n`;
  const { report, problems } = parseReportText(text, { file: 'reports/x.yaml', id: 'x', now: slot });
  if (!report) throw new Error(JSON.stringify(problems));
  return report.definition;
}

describe('dataCheckPlan', () => {
  const at = (range: string, now = slot) =>
    dataCheckPlan(definition(`dimensions: [countryCode]\nmetrics: [spend, impressions]\nrange: ${range}`), rule, {
      asOf: slot,
      now,
      defaultTimeZone: 'UTC',
    });

  it.each([
    ['yesterday, checked at the slot', 'yesterday', slot, ['2026-11-19', '2026-11-12']],
    ['today, checked at the slot', 'today', slot, ['2026-11-20', '2026-11-13']],
    ['last_7_days ends at midnight: its last day may be short', 'last_7_days', slot, ['2026-11-13', '2026-11-06']],
    [
      'yesterday, checked 11 h after the slot',
      'yesterday',
      new Date('2026-11-20T20:00:00Z'),
      ['2026-11-19', '2026-11-12'],
    ],
  ])('checks %s against the same weekdays a week earlier', (_name, range, now, [from, baselineFrom]) => {
    const plan = at(range, now);
    expect(plan?.range.from.slice(0, 10)).toBe(from);
    expect(plan?.baselineRange.from.slice(0, 10)).toBe(baselineFrom);
    // One pivot: the metric by day, from the baseline's start to the range's end.
    expect(plan?.request.from).toBe(plan?.baselineRange.from);
    expect(plan?.request.to).toBe(plan?.range.to);
    expect(plan?.request.dimensions).toEqual([{ name: 'date', args: { granularity: 'DAILY' } }]);
    expect(plan?.request.metrics).toEqual([{ name: 'impressions' }]);
  });

  it('asks by hour for an hour range', () => {
    expect(at('last_24_hours')?.request.dimensions).toEqual([{ name: 'date', args: { granularity: 'HOURLY' } }]);
  });

  it.each([
    ['last_week (ended days ago)', 'last_week', slot],
    ['yesterday, checked a whole day after it ended', 'yesterday', new Date('2026-11-21T00:00:00Z')],
  ])('has nothing to wait for: %s', (_name, range, now) => {
    expect(at(range, now)).toBeUndefined();
  });

  it("keeps the report's filter and its own selection of the metric", () => {
    const plan = dataCheckPlan(
      definition('metrics: [spend, { name: impressions, as: imps }]\nfilter: { countryCode: [US] }\nrange: yesterday'),
      rule,
      { asOf: slot, now: slot, defaultTimeZone: 'UTC' },
    );
    expect(plan?.metricKey).toBe('imps');
    expect(plan?.request.metrics).toEqual([{ name: 'impressions', alias: 'imps' }]);
    expect(plan?.request.filter).toBeDefined();
  });
});

describe('sumBySpan', () => {
  const plan = dataCheckPlan(
    definition('metrics: [impressions]\nrange: last_7_days\ntimezone: America/Sao_Paulo'),
    rule,
    {
      asOf: slot,
      now: slot,
      defaultTimeZone: 'UTC',
    },
  );
  const day = (date: string, impressions: unknown) => ({ date: `${date}T00:00:00-03:00`, impressions });

  it("sums the range and the week-earlier span from one answer by day, on the report zone's days", () => {
    // last_7_days as of Fri 20 Nov (Sao Paulo): 13-19 Nov; a week earlier: 6-12 Nov.
    const rows = [
      day('2026-11-05', 1000), // before both
      day('2026-11-06', 10),
      day('2026-11-12', 20),
      day('2026-11-13', 1),
      day('2026-11-19', 2),
      day('2026-11-20', 1000), // today: after the range
    ];
    expect(sumBySpan(rows as never, plan as never)).toEqual({ value: 3, baseline: 30 });
  });

  it.each([
    ['a Long as a string', [day('2026-11-13', '12345678901')], 12345678901],
    ['a null', [day('2026-11-13', null)], 0],
    ['a row without a date', [{ impressions: 5 }], 0],
    ['no rows at all', [], 0],
  ])('reads %s', (_name, rows, expected) => {
    expect(sumBySpan(rows as never, plan as never).value).toBe(expected);
  });
});

describe('waiting for data, from the measured numbers to the notice', () => {
  it.each([
    ['complete: posts now', { value: 60, baseline: 100, waitedMs: 0 }, { action: 'post', complete: true }],
    [
      'short: checks again in 15 min',
      { value: 30, baseline: 100, waitedMs: 0 },
      { action: 'wait', waitMs: 900_000, share: 0.3 },
    ],
    [
      'short with 5 min left: waits 5 min',
      { value: 30, baseline: 100, waitedMs: 6_900_000 },
      { action: 'wait', waitMs: 300_000, share: 0.3 },
    ],
    [
      'short and the wait spent: posts, incomplete',
      { value: 30, baseline: 100, waitedMs: 7_200_000 },
      { action: 'post', complete: false, share: 0.3 },
    ],
    ['no baseline: posts', { value: 30, baseline: 0, waitedMs: 0 }, { action: 'post', complete: true }],
  ])('%s', (_name, observed, expected) => {
    expect(dataWaitAction(observed, rule)).toEqual(expected);
  });

  it('says what is short, by how much, against what, after how long', () => {
    const plan = dataCheckPlan(definition('metrics: [impressions]\nrange: yesterday'), rule, {
      asOf: slot,
      now: slot,
      defaultTimeZone: 'UTC',
    });
    expect(incompleteDataNotice(plan as never, 0.312, 7_200_000)).toBe(
      'Data may be incomplete: impressions is 31% of the same period last week (Thu 12 Nov 2026) after waiting 2h for it.',
    );
  });
});
