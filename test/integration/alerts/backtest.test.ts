/**
 * Backtests on the sandbox's data: for each rule kind, a cause planted on iOS on chosen days (the
 * sandbox's `plants`) is found on those days and that entity, and nowhere else; each backtest's
 * queries are counted at the client (one per shape of request, whatever the number of days).
 * Rules a backtest cannot run say why in one line.
 */
import { type BacktestResult, backtestRule, runRuleEvaluation } from '../../../src/alerts/index.js';
import { type PivotRequest, ReportingClient } from '../../../src/reporting/index.js';
import { type AlertRule, type ReportDefinition, reportSchema } from '../../../src/reports/index.js';
import { type RunningSandbox, startSandbox } from '../../../src/sandbox/index.js';

const NOW = new Date('2026-11-21T12:00:00Z');
const IOS = 'appPlatform=IOS';
let sandbox: RunningSandbox;
let client: ReportingClient;

beforeAll(async () => {
  sandbox = await startSandbox({ scale: 'small', now: NOW });
  client = new ReportingClient({
    authUrl: sandbox.authUrl,
    graphqlUrl: sandbox.graphqlUrl,
    clientId: sandbox.clientId,
    clientSecret: sandbox.clientSecret,
  });
}, 240_000);

afterAll(async () => {
  await sandbox?.stop();
});

/** A report of yesterday by platform, its rule checked daily at 06:00 UTC. */
function definitionOf(rule: Record<string, unknown>, extra: Record<string, unknown> = {}): ReportDefinition {
  return reportSchema.parse({
    title: 'Backtest',
    query: { dimensions: ['appPlatform'], metrics: ['spend', 'installs'], range: 'yesterday', timezone: 'UTC' },
    alerts: [{ id: 'rule', check: { cron: '0 6 * * *', timezone: 'UTC' }, ...rule }],
    ...extra,
  });
}

/** Backtests the report's rule over 30 days, counting the requests it sends. */
async function backtest(definition: ReportDefinition, days = 30): Promise<{ result: BacktestResult; sent: number }> {
  let sent = 0;
  const pivot = (request: PivotRequest) => {
    sent++;
    return client.pivot(request);
  };
  const rule = definition.alerts[0] as AlertRule;
  const result = await backtestRule({ report: { id: 'backtest', definition }, rule, pivot, now: NOW, days });
  return { result, sent };
}

/** The judged days (`YYYY-MM-DD`, the range's start) of the incidents opened, by entity. */
const openedOn = (result: BacktestResult) =>
  result.events
    .filter((e) => e.kind === 'open' || e.kind === 'reopen')
    .map((e) => `${e.entityKey}@${e.rangeFrom.slice(0, 10)}`);

/** Each platform's daily values of a metric over the 30 days judged, before any plant. */
async function daily(metric: string): Promise<number[]> {
  const { rows } = await client.pivot({
    from: '2026-10-22T00:00:00Z',
    to: '2026-11-21T00:00:00Z',
    dimensions: [{ name: 'date', args: { granularity: 'DAILY' } }, { name: 'appPlatform' }],
    metrics: [{ name: metric }],
    totals: false,
  });
  return rows.map((r) => Number(r[metric]));
}

afterEach(async () => {
  await sandbox.replacePlants([]);
});

describe('a backtest finds the planted breaches', () => {
  it('above: iOS spend ×8 on Nov 10–11 opens once, on Nov 10, and resolves on Nov 12', async () => {
    const spend = await daily('spend');
    const threshold = 1.5 * Math.max(...spend);
    expect(8 * Math.min(...spend)).toBeGreaterThan(threshold);
    await sandbox.replacePlants({
      where: { appPlatform: 'IOS' },
      metric: 'spend',
      factor: 8,
      days: ['2026-11-10', '2026-11-12'],
    });
    const { result, sent } = await backtest(definitionOf({ metric: 'spend', above: threshold }));
    expect(openedOn(result)).toEqual([`${IOS}@2026-11-10`]);
    const resolved = result.events.find((e) => e.kind === 'resolve');
    expect(resolved).toMatchObject({ entityKey: IOS, rangeFrom: expect.stringMatching(/^2026-11-12/) });
    expect(result.events[0]?.condition).toMatchObject({ kind: 'above', threshold });
    expect(result.firedDays).toEqual(['2026-11-11']);
    expect(result.evaluations).toBe(30);
    expect(sent).toBe(1);
    expect(result.queries).toBe(1);
  }, 60_000);

  it('below: iOS installs ×0.1 on Nov 5 opens on Nov 5 only', async () => {
    const installs = await daily('installs');
    const threshold = 0.5 * Math.min(...installs);
    expect(0.1 * Math.max(...installs)).toBeLessThan(threshold);
    await sandbox.replacePlants({
      where: { appPlatform: 'IOS' },
      metric: 'installs',
      factor: 0.1,
      days: ['2026-11-05', '2026-11-06'],
    });
    const { result, sent } = await backtest(definitionOf({ metric: 'installs', below: threshold }));
    expect(openedOn(result)).toEqual([`${IOS}@2026-11-05`]);
    expect(sent).toBe(1);
  }, 60_000);

  it('equals: iOS installs at 0 on Nov 14 opens on Nov 14 only', async () => {
    await sandbox.replacePlants({
      where: { appPlatform: 'IOS' },
      metric: 'installs',
      factor: 0,
      days: ['2026-11-14', '2026-11-15'],
    });
    const { result, sent } = await backtest(definitionOf({ metric: 'installs', equals: 0 }));
    expect(openedOn(result)).toEqual([`${IOS}@2026-11-14`]);
    expect(result.entities).toEqual([{ entityKey: IOS, entityLabel: expect.any(String), opened: 1, resolved: 1 }]);
    expect(sent).toBe(1);
  }, 60_000);

  it('percent change: iOS spend ×4 on Nov 10 opens on Nov 10 against Nov 9', async () => {
    await sandbox.replacePlants({
      where: { appPlatform: 'IOS' },
      metric: 'spend',
      factor: 4,
      days: ['2026-11-10', '2026-11-11'],
    });
    const { result, sent } = await backtest(
      definitionOf({ metric: 'spend', change: { vs: 'previous_period', above: '100%' } }),
    );
    expect(openedOn(result)).toEqual([`${IOS}@2026-11-10`]);
    expect(result.events[0]?.condition).toMatchObject({ kind: 'change', percent: expect.any(Number) });
    expect(sent).toBe(1);
  }, 60_000);

  // At the small scale a platform's daily spend moves enough from week to week that the default
  // sensitivity (3) flags a few normal days; at 8 only the planted day stands out.
  it('anomaly: iOS spend ×6 on Nov 17 is unusual for its weekday, against the 4 weeks before it', async () => {
    await sandbox.replacePlants({
      where: { appPlatform: 'IOS' },
      metric: 'spend',
      factor: 6,
      days: ['2026-11-17', '2026-11-18'],
    });
    const rule = { metric: 'spend', anomaly: { direction: 'up', sensitivity: 8 } };
    const { result, sent } = await backtest(definitionOf(rule));
    expect(openedOn(result)).toEqual([`${IOS}@2026-11-17`]);
    const opened = result.events[0]?.condition;
    expect(opened).toMatchObject({ kind: 'anomaly', weeks: 4 });
    // Its band is that of the 4 Tuesdays before it, as the live rule's would be.
    const band = result.series.get(IOS)?.points.find((p) => p.at.startsWith('2026-11-17'));
    expect(band?.breach).toBe(true);
    expect(sent).toBe(1);
  }, 60_000);

  it('all: spend above a floor and installs at 0 opens only where both held (iOS on Nov 14)', async () => {
    const spend = await daily('spend');
    await sandbox.replacePlants({
      where: { appPlatform: 'IOS' },
      metric: 'installs',
      factor: 0,
      days: ['2026-11-14', '2026-11-15'],
    });
    const rule = {
      all: [
        { metric: 'spend', above: 0.5 * Math.min(...spend) },
        { metric: 'installs', equals: 0 },
      ],
    };
    const { result, sent } = await backtest(definitionOf(rule));
    expect(openedOn(result)).toEqual([`${IOS}@2026-11-14`]);
    expect(result.events[0]?.condition).toMatchObject({ kind: 'compound', mode: 'all' });
    expect(sent).toBe(1);
  }, 60_000);

  it('any: installs at 0 or spend above 10× its usual opens on the planted day', async () => {
    const spend = await daily('spend');
    await sandbox.replacePlants({
      where: { appPlatform: 'IOS' },
      metric: 'installs',
      factor: 0,
      days: ['2026-11-14', '2026-11-15'],
    });
    const rule = {
      any: [
        { metric: 'installs', equals: 0 },
        { metric: 'spend', above: 10 * Math.max(...spend) },
      ],
    };
    const { result } = await backtest(definitionOf(rule));
    expect(openedOn(result)).toEqual([`${IOS}@2026-11-14`]);
  }, 60_000);

  it('pacing: spend tripled from Nov 12 takes the forecast off plan from then on, never before', async () => {
    const { rows } = await client.pivot({
      from: '2026-11-01T00:00:00Z',
      to: '2026-11-12T00:00:00Z',
      dimensions: [],
      metrics: [{ name: 'spend' }],
    });
    const plan = Math.round((Number(rows[0]?.spend) / 11) * 30);
    await sandbox.replacePlants({ where: {}, metric: 'spend', factor: 3, days: ['2026-11-12', '2026-11-21'] });
    const definition = definitionOf({ pacing: { tolerance: '15%' } }, { budgets: { months: { '2026-11': plan } } });
    const { result, sent } = await backtest(definition);
    const opened = result.events.filter((e) => e.kind === 'open');
    expect(opened).toHaveLength(1);
    const day = opened[0]?.day ?? '';
    expect(day >= '2026-11-13' && day <= '2026-11-15').toBe(true);
    expect(opened[0]?.condition).toMatchObject({ kind: 'pacing', plan });
    // October has no plan, and the month's first days are too early: skipped, never judged.
    expect(result.skipped.map((s) => s.reason).sort()).toEqual(['no_plan', 'too_early']);
    // The report's request and the month's spend by day: two shapes, two queries.
    expect(sent).toBe(2);
  }, 60_000);
});

describe('a backtest judges what the live evaluation judges', () => {
  it.each([
    [
      'CPI over the last 7 days (a ratio rebuilt from its summed parts)',
      { metric: { name: 'installsCpi' }, above: 0, range: 'last_7_days' },
    ],
    ['spend against the same weekdays', { metric: 'spend', anomaly: {} }],
    ['spend against the day before', { metric: 'spend', change: { above: '1%' } }],
  ])(
    '%s: the same values at each instant as runRuleEvaluation',
    async (_name, rule) => {
      const definition = definitionOf({ ...rule, check: { cron: '0 6 * * *', timezone: 'UTC' } });
      const { result } = await backtest(definition, 3);
      expect(result.evaluations).toBe(3);
      const alert = definition.alerts[0] as AlertRule;
      for (const at of ['2026-11-19T06:00:00Z', '2026-11-20T06:00:00Z', '2026-11-21T06:00:00Z']) {
        const live = await runRuleEvaluation({
          report: { id: 'backtest', definition },
          rule: alert,
          pivot: (r) => client.pivot(r),
          state: { incidents: [] },
          now: new Date(at),
          channel: 'C1',
        });
        for (const judged of live.evaluation.judged ?? []) {
          const point = result.series.get(judged.entityKey)?.points.find((p) => p.at === live.view.range.from);
          expect(point?.value).toBeCloseTo(judged.value, 6);
          expect(point?.threshold).toBeCloseTo(judged.threshold, 6);
        }
        expect(live.evaluation.judged?.length).toBeGreaterThan(0);
      }
    },
    60_000,
  );
});

describe('a backtest that cannot run says why in one line', () => {
  it('names an unknown metric, with a suggestion', async () => {
    const definition = definitionOf({ metric: { name: 'instals' }, above: 1 });
    await expect(backtest(definition)).rejects.toThrow(/Unknown metric "instals"\. Did you mean "installs"\?/);
  });

  it('names a rule metric the report does not have', async () => {
    await expect(backtest(definitionOf({ metric: 'clicks', above: 1 }))).rejects.toThrow(
      /the metric "clicks" is not in the report's result/,
    );
  });

  it('refuses siteBundle past its 3 months', async () => {
    const definition = reportSchema.parse({
      title: 'Bundles',
      query: { dimensions: ['siteBundle'], metrics: ['spend'], range: 'yesterday', timezone: 'UTC' },
      alerts: [{ id: 'rule', metric: 'spend', above: 100 }],
    });
    const failure = backtest(definition, 100);
    await expect(failure).rejects.toThrow(/siteBundle is kept for 3 months/);
    await expect(failure).rejects.toThrow(/^[^\n]+$/);
  });

  it('refuses hourly data past 15 days for a rule of today checked every hour', async () => {
    const definition = definitionOf({ metric: 'spend', above: 1, range: 'today', check: { cron: '0 * * * *' } });
    await expect(backtest(definition, 30)).rejects.toThrow(/needs hourly data.*15 days/);
  });
});
