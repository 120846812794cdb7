/**
 * The chart of a newly opened threshold incident: one extra request at open time (the rule's own,
 * by day over the recent days), the entity's values from it, and a parent that says "chart
 * unavailable" when that request fails.
 */
import { entitySeries, runRuleEvaluation, trendRequest } from '../../../src/alerts/index.js';
import { silentLogger } from '../../../src/core/index.js';
import { deliverTransitions, type RuleThreads } from '../../../src/delivery/index.js';
import type { SlackMessage } from '../../../src/render/index.js';
import type { PivotRequest, PivotResponse } from '../../../src/reporting/index.js';
import { type LoadedReport, parseReportText, reportSchema } from '../../../src/reports/index.js';
import { SlackDeliveryError, type SlackGateway } from '../../../src/slackapi/index.js';
import { type AlertIncident, createMemoryStore } from '../../../src/store/index.js';
import { cpi, view } from './alertFixtures.js';

const NOW = new Date('2026-11-21T05:30:00Z');

describe('trendRequest', () => {
  const definition = (on: 'entity' | 'total', extra: Record<string, unknown> = {}) =>
    reportSchema.parse({
      title: 'CPI by country',
      query: {
        dimensions: ['countryCode'],
        metrics: ['installs', 'installsCpi'],
        range: 'yesterday',
        timezone: 'America/Sao_Paulo',
        ...extra,
      },
      alerts: [{ id: 'a', metric: 'installsCpi', above: 6, on }],
    });

  it('asks for the rule’s request by day over the 14 days up to the end of the evaluated range', () => {
    const def = definition('entity');
    const { from, to, request } = trendRequest({ definition: def }, def.alerts[0] as never, { now: NOW });
    expect([from, to]).toEqual(['2026-11-07T00:00:00-03:00', '2026-11-21T00:00:00-03:00']);
    expect(request.dimensions).toEqual([{ name: 'date', args: { granularity: 'DAILY' } }, { name: 'countryCode' }]);
    expect(request.metrics.map((m) => m.name)).toEqual(['installs', 'installsCpi']);
    expect([request.from, request.to, request.totals]).toEqual([from, to, false]);
  });

  it.each([
    ['a rule on the totals', ['date'], definition('total')],
    ['a report by hour', ['date', 'countryCode'], definition('entity', { granularity: 'hourly' })],
  ])('%s: by day, dimensions %j', (_name, names, def) => {
    const { request } = trendRequest({ definition: def }, def.alerts[0] as never, { now: NOW, days: 7 });
    expect(request.dimensions.map((d) => d.name)).toEqual(names);
    expect(request.dimensions[0]?.args).toEqual({ granularity: 'DAILY' });
    expect(request.from).toBe('2026-11-14T00:00:00-03:00');
  });
});

describe('entitySeries', () => {
  it('keys rows by entity as the evaluation does, oldest first, leaving out empty values', () => {
    const rule = reportSchema.parse({
      title: 'x',
      query: { metrics: ['installsCpi'], range: 'yesterday' },
      alerts: [{ id: 'a', metric: 'installsCpi', above: 6 }],
    }).alerts[0] as never;
    const series = entitySeries(rule, view(cpi({ BR: 9 })), [
      { date: '2026-11-20', countryCode: 'BR', installsCpi: 9 },
      { date: '2026-11-19', countryCode: 'BR', installsCpi: 4 },
      { date: '2026-11-19', countryCode: 'US', installsCpi: null },
      { date: '2026-11-20', countryCode: 'US', installsCpi: 2 },
    ]);
    expect(Object.fromEntries(series)).toEqual({
      'countryCode=BR': [
        { at: '2026-11-19', value: 4 },
        { at: '2026-11-20', value: 9 },
      ],
      'countryCode=US': [{ at: '2026-11-20', value: 2 }],
    });
  });
});

const parsed = parseReportText(
  'title: Platforms\nquery:\n  dimensions: [appPlatform]\n  metrics: [spend]\n  range: yesterday\n  timezone: UTC\ndeliver:\n  channels: [C0ALERTS1]\nalerts:\n  - id: spend-high\n    metric: spend\n    above: 10\n',
  { file: 'reports/platforms.yaml', id: 'platforms', now: NOW },
);
const report = parsed.report as LoadedReport;
const rule = report.definition.alerts[0] as RuleThreads['rule'];

/** A Reporting Service with two platforms: by day for trend requests, else one row each. */
function fakePivot(options: { failTrend?: boolean } = {}) {
  const requests: PivotRequest[] = [];
  const pivot = async (request: PivotRequest): Promise<PivotResponse> => {
    requests.push(request);
    const byDay = request.dimensions[0]?.name === 'date';
    if (byDay && options.failTrend) throw new Error('Reporting Service timed out');
    const rows = byDay
      ? ['2026-11-18', '2026-11-19', '2026-11-20'].flatMap((date, i) => [
          { date, appPlatform: 'IOS', spend: 5 + i * 5 },
          { date, appPlatform: 'ANDROID', spend: 1 },
        ])
      : [
          { appPlatform: 'IOS', spend: 15 },
          { appPlatform: 'ANDROID', spend: 1 },
        ];
    const columns = [
      ...(byDay ? [{ key: 'date', kind: 'dimension', name: 'date', args: { granularity: 'DAILY' } }] : []),
      { key: 'appPlatform', kind: 'dimension', name: 'appPlatform', args: {} },
      { key: 'spend', kind: 'metric', name: 'spend', args: {} },
    ];
    return { columns, rows, warnings: [] } as PivotResponse;
  };
  return { pivot, requests };
}

describe('runRuleEvaluation with trendDays', () => {
  const evaluate = (pivot: (r: PivotRequest) => Promise<PivotResponse>, incidents: AlertIncident[] = []) =>
    runRuleEvaluation({
      report,
      rule,
      pivot,
      state: { incidents },
      now: NOW,
      channel: 'C0ALERTS1',
      trendDays: 14,
    });

  it('fetches the recent days once when an incident opens, and not when nothing opens', async () => {
    const fake = fakePivot();
    const first = await evaluate(fake.pivot);
    expect(first.evaluation.transitions.map((t) => [t.kind, t.entityKey])).toEqual([['open', 'appPlatform=IOS']]);
    expect(fake.requests).toHaveLength(2);
    expect(first.trend?.get('appPlatform=IOS')?.map((p) => p.value)).toEqual([5, 10, 15]);

    const again = await evaluate(fake.pivot, first.evaluation.nextState.incidents);
    expect(again.evaluation.transitions).toEqual([]);
    expect(fake.requests).toHaveLength(3);
    expect(again.trend).toBeUndefined();
  });

  it('still evaluates when the trend request fails, and says why', async () => {
    const result = await evaluate(fakePivot({ failTrend: true }).pivot);
    expect(result.evaluation.transitions.map((t) => t.kind)).toEqual(['open']);
    expect(result.trend).toBeUndefined();
    expect(result.trendError?.message).toContain('timed out');
  });
});

describe('the parent of a newly opened threshold incident', () => {
  async function post(options: {
    chartPoints?: Array<{ at: string; value: number }>;
    chartUnavailable?: boolean;
    /** Slack refuses every image block, as it does for a file it never finishes processing. */
    refuseImages?: boolean;
  }) {
    const posts: SlackMessage[] = [];
    const uploads: string[] = [];
    let refused = 0;
    const slack = {
      async post(channel: string, message: SlackMessage) {
        if (options.refuseImages && JSON.stringify(message.blocks).includes('"type":"image"')) {
          refused++;
          throw new SlackDeliveryError('chat.postMessage', 'invalid_blocks');
        }
        posts.push(message);
        return { ts: '1700000000.000100', channel };
      },
      async uploadPrivate(file: { filename: string }) {
        uploads.push(file.filename);
        return 'F0CHART1';
      },
      async history() {
        return [];
      },
    } as unknown as SlackGateway;
    const rendered: unknown[] = [];
    const store = createMemoryStore({ clock: () => NOW });
    const incident: AlertIncident = {
      id: 'inc_IOS',
      ruleId: 'spend-high',
      reportId: 'platforms',
      entityKey: 'appPlatform=IOS',
      state: 'open',
      channel: 'C0ALERTS1',
      values: [{ at: NOW.toISOString(), value: 15 }],
      openedAt: NOW.toISOString(),
      updatedAt: NOW.toISOString(),
      lastValue: 15,
      threshold: 10,
    };
    await store.incidents.save(incident);
    const deps = {
      slack,
      charts: {
        renderView: async (v: unknown) => {
          rendered.push(v);
          return { data: Buffer.from('png'), alt: 'chart' };
        },
      },
      store,
      logger: silentLogger(),
      clock: () => NOW,
      defaultTimeZone: 'UTC',
      imageRetryDelaysMs: [1, 1],
    };
    const threads: RuleThreads = {
      report,
      rule,
      channels: ['C0ALERTS1'],
      rangeLabel: 'Yesterday',
      timezone: 'UTC',
      now: NOW,
    };
    await deliverTransitions(threads, [], deps as never, {
      attempt: 1,
      ...(options.chartPoints ? { chartPoints: new Map([['inc_IOS', options.chartPoints]]) } : {}),
      ...(options.chartUnavailable ? { chartUnavailable: new Set(['inc_IOS']) } : {}),
    });
    return { text: JSON.stringify(posts), rendered, uploads, refused, stored: store.incidents.get('inc_IOS') };
  }

  it('shows the recent days with the threshold line', async () => {
    const points = [
      { at: '2026-11-18', value: 5 },
      { at: '2026-11-19', value: 10 },
      { at: '2026-11-20', value: 15 },
    ];
    const { text, rendered, uploads, stored } = await post({ chartPoints: points });
    expect(uploads).toEqual(['spend-high.png']);
    expect(stored?.chartFileId).toBe('F0CHART1');
    expect(text).toContain('F0CHART1');
    const chart = (rendered[0] as { rows: unknown[]; chart: { thresholds?: Array<{ value: number }> } }).chart;
    expect((rendered[0] as { rows: unknown[] }).rows).toHaveLength(3);
    expect(chart.thresholds?.map((t) => t.value)).toEqual([10]);
    expect(text).not.toContain('Chart unavailable');
  });

  it('posts without the chart, saying so, when Slack keeps refusing its image', async () => {
    const points = [
      { at: '2026-11-19', value: 10 },
      { at: '2026-11-20', value: 15 },
    ];
    const { text, refused, stored } = await post({ chartPoints: points, refuseImages: true });
    expect(refused).toBe(3);
    expect(text).toContain('Chart unavailable: Slack did not accept the chart image');
    expect(text).not.toContain('F0CHART1');
    expect(stored?.threadTs).toBe('1700000000.000100');
    // Later edits of the parent do not show it either.
    expect(stored?.chartFileId).toBeUndefined();
  });

  it('says "chart unavailable" when its values could not be fetched', async () => {
    const { text, uploads } = await post({ chartUnavailable: true });
    expect(uploads).toEqual([]);
    expect(text).toContain('Chart unavailable');
    // The note sits above the buttons.
    expect(text.indexOf('Chart unavailable')).toBeLessThan(text.indexOf('alert_ack'));
  });
});

describe('runRuleEvaluation: the chart points of an anomaly incident', () => {
  const anomalyReport = parseReportText(
    'title: Platforms\nquery:\n  dimensions: [appPlatform]\n  metrics: [spend]\n  range: yesterday\n  timezone: UTC\nalerts:\n  - id: spend-unusual\n    metric: spend\n    anomaly: { baseline: same_weekday, weeks: 3, sensitivity: 3 }\n',
    { file: 'reports/platforms.yaml', id: 'platforms', now: NOW },
  ).report as LoadedReport;
  // Spend by the period's start: IOS has no row two weeks back, and a spike now.
  const spendOn: Record<string, number | undefined> = {
    '2026-11-20': 90,
    '2026-11-13': 10,
    '2026-11-06': undefined,
    '2026-10-30': 12,
  };
  const pivot = async (request: PivotRequest): Promise<PivotResponse> => {
    const spend = spendOn[request.from.slice(0, 10)];
    return {
      columns: [
        { key: 'appPlatform', kind: 'dimension', name: 'appPlatform', args: {} },
        { key: 'spend', kind: 'metric', name: 'spend', args: {} },
      ],
      rows: spend === undefined ? [] : [{ appPlatform: 'IOS', spend }],
      warnings: [],
    } as unknown as PivotResponse;
  };

  it('places each baseline week at its start and the value now at the evaluated range, not the evaluation instant', async () => {
    const result = await runRuleEvaluation({
      report: anomalyReport,
      rule: anomalyReport.definition.alerts[0] as RuleThreads['rule'],
      pivot,
      state: { incidents: [] },
      now: NOW,
      channel: 'C1',
    });
    const points = result.anomalyPoints?.('appPlatform=IOS', 90);
    // A week with no row counts as 0: spend is additive (a ratio's missing week would be left out).
    expect(points?.map((p) => [p.at.slice(0, 10), p.value])).toEqual([
      ['2026-10-30', 12],
      ['2026-11-06', 0],
      ['2026-11-13', 10],
      ['2026-11-20', 90],
    ]);
  });
});
