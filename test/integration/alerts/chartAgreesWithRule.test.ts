/**
 * A breached rule's chart shows the breach, for every rule kind in the example reports: the chart
 * is drawn from the points and lines the bot draws (`runRuleEvaluation`'s trend or anomaly points,
 * `trendLimits` / the band), over the sandbox. Thresholds are set just past the top entity's judged
 * value (90 % of it for `above`; a pacing rule's tolerance 90 % of the month's distance from its
 * plan), so a chart that drew days against a range total — the bug of
 * issue 24: a 14-day spend total of $1,831 against $500, under daily values of $100–200 — fails.
 */
import {
  type AlertTransition,
  type RuleEvaluationResult,
  runRuleEvaluation,
  TREND_DAYS,
} from '../../../src/alerts/index.js';
import { alertMessageInput } from '../../../src/insights/index.js';
import { pacingChartView, trendLimits } from '../../../src/render/index.js';
import { ReportingClient } from '../../../src/reporting/index.js';
import { type AlertRule, alertSchema, type LoadedReport, loadReports } from '../../../src/reports/index.js';
import { type RunningSandbox, startSandbox } from '../../../src/sandbox/index.js';
import { plantZeroInstalls } from '../../support/plantZeroInstalls.js';

const NOW = new Date('2026-11-23T10:00:00Z');
let sandbox: RunningSandbox;
let client: ReportingClient;
let reports: LoadedReport[];

beforeAll(async () => {
  sandbox = await startSandbox({ scale: 'small', now: NOW });
  await plantZeroInstalls(sandbox, 'com.pub0.app', NOW);
  client = new ReportingClient({
    authUrl: sandbox.authUrl,
    graphqlUrl: sandbox.graphqlUrl,
    clientId: sandbox.clientId,
    clientSecret: sandbox.clientSecret,
  });
  reports = (await loadReports('reports', { now: NOW })).reports;
}, 60_000);

afterAll(async () => {
  await sandbox?.stop();
});

function report(id: string): LoadedReport {
  const found = reports.find((r) => r.id === id);
  if (!found) throw new Error(`no report ${id}`);
  return found;
}

async function evaluate(r: LoadedReport, rule: AlertRule): Promise<RuleEvaluationResult> {
  return runRuleEvaluation({
    report: r,
    rule,
    pivot: (request) => client.pivot(request),
    state: { incidents: [] },
    now: NOW,
    channel: 'C0TEST',
    trendDays: TREND_DAYS,
  });
}

/** The shipped rule with its threshold moved just past the top entity's value, so it breaches. */
async function breaching(r: LoadedReport, shipped: AlertRule): Promise<AlertRule> {
  if (shipped.change) {
    // Any rise at all: the entities whose value rose open.
    return { ...shipped, consecutive: 1, change: { vs: shipped.change.vs, above: 0.001 } };
  }
  if (shipped.anomaly || shipped.all || shipped.any) return shipped;
  if (shipped.pacing) {
    // A tolerance just inside the month's distance from its plan.
    const probe = await evaluate(r, shipped);
    const share = probe.pacing?.share as number;
    return { ...shipped, pacing: { tolerance: Math.abs(share - 1) * 0.9 } };
  }
  const probe = await evaluate(r, alertSchema.parse({ id: shipped.id, metric: shipped.metric, above: -1 }));
  const values = probe.evaluation.transitions.map((t) => t.value);
  const up = shipped.above !== undefined;
  const edge = up ? Math.max(...values) * 0.9 : Math.min(...values.filter((v) => v > 0)) * 1.1;
  const { above: _a, below: _b, recovery: _r, consecutive: _c, ...rest } = shipped;
  return { ...rest, consecutive: 1, ...(up ? { above: edge } : { below: edge }) };
}

/** What the bot's chart draws for an opened pacing incident (`pacingChartView`, as `drawChart` does). */
function pacingChartOf(result: RuleEvaluationResult, t: AlertTransition, rule: AlertRule) {
  const ctx = { rule, reportId: 'r', reportTitle: 'r', timezone: result.timezone, rangeLabel: '', now: NOW };
  const condition = alertMessageInput(t.incident, ctx, t).condition;
  if (condition.kind !== 'pacing') throw new Error(`not a pacing condition: ${condition.kind}`);
  const view = pacingChartView({
    title: rule.id,
    label: 'Spend',
    days: result.pacingPath ?? [],
    condition,
    timezone: result.timezone,
  });
  if (!view?.chart) throw new Error('no pacing chart');
  const series = (key: string) => view.rows.map((row) => row[key] as number | null);
  return { series, lines: view.chart.thresholds ?? [], drawn: view.chart.series, condition };
}

/** What the bot's chart draws for an opened incident: its points and its lines. */
function chartOf(result: RuleEvaluationResult, t: AlertTransition, rule: AlertRule) {
  if (t.condition.kind === 'anomaly') {
    const points = result.anomalyPoints?.(t.entityKey, t.value) ?? [];
    return { points, band: { low: t.condition.low, high: t.condition.high }, threshold: undefined };
  }
  const points = [...(result.trend?.get(t.entityKey) ?? [])];
  // The condition as the bot's chart gets it (`alertMessageInput`, as `drawChart` does).
  const ctx = { rule, reportId: 'r', reportTitle: 'r', timezone: 'UTC', rangeLabel: '', now: NOW };
  const condition = alertMessageInput(t.incident, ctx, t).condition;
  return { points, band: undefined, ...trendLimits(condition, result.trendShape) };
}

const cases = [
  ['daily-kpi', 'cpi-too-high', 'above, one day'],
  ['daily-kpi', 'cpi-unusual', 'anomaly'],
  ['country-breakdown', 'country-ctr-drop', 'below, a ratio over 7 days'],
  ['ctv-and-mobile', 'ctv-cpm-high', 'above, a ratio over 7 days'],
  ['weekly-campaign-review', 'campaign-cpi-jump', 'change'],
  ['site-bundle-quality', 'bundle-spend-without-installs', 'all: above and equals, one day'],
  ['daily-kpi', 'spend-off-plan', 'pacing: the month-end forecast against the plan'],
] as const;

describe('an alert chart agrees with its rule', () => {
  it.each(cases)(
    '%s/%s (%s): a breached rule’s chart shows the breach',
    async (reportId, ruleId) => {
      const r = report(reportId);
      const shipped = r.definition.alerts.find((a) => a.id === ruleId);
      if (!shipped) throw new Error(`no rule ${ruleId}`);
      const rule = await breaching(r, shipped);
      const result = await evaluate(r, rule);
      const opened = result.evaluation.transitions.filter((t) => t.kind === 'open');
      expect(opened.length).toBeGreaterThan(0);
      if (rule.pacing) {
        // The month judged: spend so far, the forecast's path ending at the judged forecast past the
        // tolerance's edge (the one line drawn), the plan pro rata ending at the plan.
        for (const t of opened) {
          const { series, lines, drawn, condition } = pacingChartOf(result, t, rule);
          expect(drawn).toEqual(['spent', 'forecast', 'plan']);
          const spent = series('spent');
          const forecast = series('forecast');
          const plan = series('plan');
          expect(spent).toHaveLength(condition.daysInMonth);
          const lastSpent = spent.filter((v) => v !== null).at(-1) as number;
          expect(spent.filter((v) => v !== null)).toHaveLength(condition.daysElapsed);
          expect(lastSpent).toBeCloseTo(condition.spent, 4);
          // The forecast's path starts where the spend so far ends.
          expect(forecast[condition.daysElapsed - 1]).toBeCloseTo(lastSpent, 4);
          const end = forecast.at(-1) as number;
          expect(end).toBeCloseTo(t.value, 4);
          expect(plan.at(-1)).toBeCloseTo(condition.plan, 4);
          expect(lines).toHaveLength(1);
          const edge = lines[0]?.value as number;
          const over = condition.share >= 1;
          expect(edge).toBeCloseTo(condition.plan * (over ? 1 + condition.tolerance : 1 - condition.tolerance), 4);
          expect(over ? end > edge : end < edge).toBe(true);
        }
        return;
      }
      if (rule.change) {
        // A change rule's trigger is a percentage of another period: its chart draws no line.
        for (const t of opened) {
          const chart = chartOf(result, t, rule);
          expect([chart.band, chart.threshold]).toEqual([undefined, undefined]);
        }
        return;
      }
      for (const t of opened) {
        const chart = chartOf(result, t, rule);
        expect(chart.points.length).toBeGreaterThanOrEqual(2);
        const last = chart.points[chart.points.length - 1]?.value as number;
        if (chart.band) {
          expect(last).toBeCloseTo(t.value, 6);
          expect(last > chart.band.high || last < chart.band.low).toBe(true);
        } else if (chart.threshold !== undefined) {
          // The line is drawn: the last point is the judged value, past it.
          const judged = t.condition.kind === 'compound' ? (t.condition.parts[0]?.value as number) : t.value;
          expect(last).toBeCloseTo(judged, 4);
          expect(rule.below !== undefined ? last < chart.threshold : last > chart.threshold).toBe(true);
        } else {
          // No line: the days drawn are not what the rule judged (a ratio over a week).
          expect(result.trendShape).toBe('per_day_without_line');
        }
      }
    },
    60_000,
  );

  it('draws a range total as the running total over the range, its last point the judged total', async () => {
    // The rule issue 24 found: spend above a threshold over the report's 14 days.
    const r = report('site-bundle-quality');
    const rule = await breaching(
      r,
      alertSchema.parse({
        id: 'bundle-spend-high',
        metric: 'spend',
        above: 500,
        minVolume: { metric: 'impressions', value: 5000 },
      }),
    );
    const result = await evaluate(r, rule);
    expect(result.trendShape).toBe('running_total');
    const t = result.evaluation.transitions.find((x) => x.kind === 'open') as AlertTransition;
    const chart = chartOf(result, t, rule);
    expect(chart.points).toHaveLength(14);
    const last = chart.points[13]?.value as number;
    expect(last).toBeCloseTo(t.value, 4);
    expect(last).toBeGreaterThan(chart.threshold as number);
    // Each day alone is far below the threshold: a chart of days would never reach its line.
    expect((chart.points[0]?.value as number) < (chart.threshold as number)).toBe(true);
  }, 60_000);
});
