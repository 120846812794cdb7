/**
 * The shipped example rules against the sandbox at the scale `pivotbot demo` uses: daily-kpi's
 * anomaly rule sees the planted CPI spike (campaign 1001) in yesterday's iOS CPI, and its threshold
 * rule stays quiet.
 */
import { runRuleEvaluation } from '../../../src/alerts/index.js';
import { ReportingClient } from '../../../src/reporting/index.js';
import { type LoadedReport, loadReports } from '../../../src/reports/index.js';
import { type RunningSandbox, startSandbox } from '../../../src/sandbox/index.js';

const NOW = new Date('2026-11-23T10:00:00Z');
let sandbox: RunningSandbox;
let client: ReportingClient;
let dailyKpi: LoadedReport;

beforeAll(async () => {
  sandbox = await startSandbox({ scale: 'small', now: NOW });
  client = new ReportingClient({
    authUrl: sandbox.authUrl,
    graphqlUrl: sandbox.graphqlUrl,
    clientId: sandbox.clientId,
    clientSecret: sandbox.clientSecret,
  });
  const { reports } = await loadReports('reports', { now: NOW });
  const found = reports.find((r) => r.id === 'daily-kpi');
  if (!found) throw new Error('reports/daily-kpi.yaml is missing');
  dailyKpi = found;
});

afterAll(async () => {
  await sandbox?.stop();
});

/** The rule evaluated exactly as the bot's scheduler does it (`runRuleEvaluation`). */
async function evaluate(ruleId: string) {
  const rule = dailyKpi.definition.alerts.find((r) => r.id === ruleId);
  if (!rule) throw new Error(`no rule ${ruleId}`);
  const { evaluation } = await runRuleEvaluation({
    report: dailyKpi,
    rule,
    pivot: (request) => client.pivot(request),
    state: { incidents: [] },
    now: NOW,
    channel: 'C0UADAILY',
  });
  return evaluation;
}

describe('daily-kpi alert rules on the demo sandbox', () => {
  it('cpi-unusual opens an incident for iOS, with the expected band', async () => {
    const result = await evaluate('cpi-unusual');
    expect(result.transitions.map((t) => `${t.kind}:${t.entityKey}`)).toEqual(['open:appPlatform=IOS']);
    const t = result.transitions[0];
    expect(t?.condition.kind === 'anomaly' && t.value > t.condition.high).toBe(true);
    expect(result.nextState.evaluation).toMatchObject({ ruleKey: 'daily-kpi/cpi-unusual', evaluated: 2, skipped: 0 });
  });

  it('cpi-too-high evaluates both platforms and stays quiet', async () => {
    const result = await evaluate('cpi-too-high');
    expect(result.transitions).toEqual([]);
    expect(result.nextState.evaluation.evaluated + result.skipped.length).toBe(2);
  });
});
