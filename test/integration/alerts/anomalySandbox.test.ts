/**
 * The anomaly rule against the real sandbox: each planted anomaly of the generated data (the CPI
 * spike of campaign 1001, the spend collapse in BR, the outage of source 6, all yesterday) is
 * caught, and a week of normal days raises nothing for the same rules.
 *
 * The medium scale is needed: at the small scale (110 rows a day) a campaign has about a dozen
 * installs a day and a country's spend a few dozen dollars, so the weekly baseline is noise (see
 * docs/alerts.md, "Anomaly scoring", for the figures).
 */
import { alertRequests, evaluateRule, type PeriodRows } from '../../../src/alerts/index.js';
import { ReportingClient } from '../../../src/reporting/index.js';
import { type AlertRule, buildView, type ReportDefinition, reportSchema } from '../../../src/reports/index.js';
import { ANOMALIES } from '../../../src/sandbox/data/factsSql.js';
import { type RunningSandbox, startSandbox } from '../../../src/sandbox/index.js';

const NOW = new Date('2026-11-21T05:30:00Z');
const DAY_MS = 86_400_000;
let sandbox: RunningSandbox;
let client: ReportingClient;

beforeAll(async () => {
  sandbox = await startSandbox({ scale: 'medium', now: NOW });
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

/** One report per planted anomaly: yesterday by the dimension it hides in, with a default anomaly rule. */
const CASES = [
  {
    name: 'the CPI spike of campaign 1001',
    dimension: 'campaignId',
    metrics: ['installsCpi', 'installs', 'spend'],
    rule: { id: 'cpi-unusual', metric: 'installsCpi', anomaly: {}, minVolume: { metric: 'installs', value: 100 } },
    expected: `campaignId=${ANOMALIES.cpiSpikeCampaignId}`,
  },
  {
    name: 'the spend collapse in BR',
    dimension: 'countryCode',
    metrics: ['spend', 'impressions'],
    rule: { id: 'spend-unusual', metric: 'spend', anomaly: {} },
    expected: `countryCode=${ANOMALIES.spendCollapseCountry}`,
  },
  {
    name: 'the outage of source 6',
    dimension: 'sourceId',
    metrics: ['impressions', 'spend'],
    rule: { id: 'delivery-unusual', metric: 'impressions', anomaly: {} },
    expected: `sourceId=${ANOMALIES.outageSourceId}`,
  },
];

function definitionOf(c: (typeof CASES)[number]): ReportDefinition {
  return reportSchema.parse({
    title: c.name,
    query: { dimensions: [c.dimension], metrics: c.metrics, range: 'yesterday', timezone: 'UTC' },
    alerts: [c.rule],
  });
}

/** Runs the report as of `now` (its "yesterday" is the day before) and evaluates the rule on fresh state. */
async function evaluateAt(definition: ReportDefinition, now: Date) {
  const rule = definition.alerts[0] as AlertRule;
  const requests = alertRequests({ definition }, rule, { now });
  const [current, ...past] = await Promise.all([
    client.pivot(requests.current),
    ...(requests.history ?? []).map((h) => client.pivot(h.request)),
  ]);
  if (!current) throw new Error('no result');
  const view = buildView({
    id: 'anomaly-check',
    definition,
    compiled: requests.compiled,
    result: { columns: current.columns, rows: current.rows, ...(current.totals ? { totals: current.totals } : {}) },
    mode: 'sync',
    warnings: [],
    generatedAt: now,
  });
  const history: PeriodRows[] = past.map((p) => ({ rows: p.rows, ...(p.totals ? { totals: p.totals } : {}) }));
  return evaluateRule({
    reportId: 'anomaly-check',
    rule,
    current: view,
    history,
    state: { incidents: [] },
    now,
    channel: 'C1',
  });
}

describe.each(CASES)('an anomaly rule on $dimension', (c) => {
  const definition = definitionOf(c);

  it(`catches ${c.name} yesterday, and nothing else`, async () => {
    const result = await evaluateAt(definition, NOW);
    const opened = result.transitions.filter((t) => t.kind === 'open');
    expect(opened.map((t) => t.entityKey)).toEqual([c.expected]);
    const t = opened[0];
    expect(t?.condition.kind).toBe('anomaly');
    if (t?.condition.kind === 'anomaly') {
      expect(t.value < t.condition.low || t.value > t.condition.high).toBe(true);
      expect(Math.abs(t.condition.score)).toBeGreaterThan(3);
    }
  });

  it('raises nothing on each of the normal days 8 to 14 days ago', async () => {
    for (let daysAgo = 8; daysAgo <= 14; daysAgo++) {
      // As of 05:30 the next day, "yesterday" is the day `daysAgo` days before NOW's day.
      const result = await evaluateAt(definition, new Date(NOW.getTime() - (daysAgo - 1) * DAY_MS));
      expect({ daysAgo, transitions: result.transitions.map((t) => `${t.kind}:${t.entityKey}`) }).toEqual({
        daysAgo,
        transitions: [],
      });
      expect(result.nextState.evaluation.evaluated).toBeGreaterThan(2);
    }
  });
});
