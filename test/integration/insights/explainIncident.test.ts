/**
 * An incident's explanation narrows the report to its entity as the Reporting Service filters:
 * one incident per kind of dimension the catalog has, observed from the sandbox's real rows (the
 * shipped rules campaign-cpi-jump and ctv-cpm-high among them), every pivot sent recorded.
 */
import { join } from 'node:path';
import { type EntityPart, incidentEntity, observeEntities } from '../../../src/alerts/index.js';
import { silentLogger } from '../../../src/core/index.js';
import { explainIncident } from '../../../src/insights/index.js';
import { type PivotRequest, ReportingClient } from '../../../src/reporting/index.js';
import {
  type AlertRule,
  findReport,
  type LoadedReport,
  loadReports,
  type ReportDefinition,
  runReport,
} from '../../../src/reports/index.js';
import { type RunningSandbox, startSandbox } from '../../../src/sandbox/index.js';

describe('explainIncident against the sandbox', () => {
  const now = new Date();
  let sandbox: RunningSandbox;
  let client: ReportingClient;
  let shipped: { weekly: LoadedReport; ctv: LoadedReport };
  /** Every pivot sent, in order. */
  const sent: PivotRequest[] = [];

  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0, scale: 'small', now });
    const real = new ReportingClient({ ...sandbox, now: () => now });
    client = Object.assign(Object.create(real) as ReportingClient, {
      pivot: (request: PivotRequest, options?: { signal?: AbortSignal }) => {
        sent.push(request);
        return real.pivot(request, options);
      },
    });
    const loaded = await loadReports(join(process.cwd(), 'reports'), { now, defaultTimeZone: 'UTC' });
    shipped = { weekly: findReport(loaded, 'weekly-campaign-review'), ctv: findReport(loaded, 'ctv-and-mobile') };
  }, 120_000);
  afterAll(async () => {
    await sandbox.stop();
  });
  beforeEach(() => {
    sent.length = 0;
  });

  const deps = () => ({ client, logger: silentLogger(), defaultTimeZone: 'UTC', clock: () => now });
  const ruleOf = (report: LoadedReport, id: string) => report.definition.alerts.find((r) => r.id === id) as AlertRule;

  /** The entities the rule observes in the report's rows now, biggest first by the report's sort. */
  async function entitiesOf(
    report: LoadedReport,
    rule: AlertRule,
  ): Promise<Array<{ key: string; entity: EntityPart[] }>> {
    const view = await runReport(report, { client, now: () => now, viewJson: false, defaultTimeZone: 'UTC' });
    const observed = observeEntities(rule, view);
    if ('reason' in observed) throw new Error(observed.reason);
    return observed.observations.map((o) => ({ key: o.entityKey, entity: o.entity ?? [] }));
  }

  const filters = () => sent.map((r) => JSON.stringify(r.filter ?? {}));

  it('campaign-cpi-jump: a campaign (a name) is filtered by its campaignId, looked up once, and explained', async () => {
    const rule = ruleOf(shipped.weekly, 'campaign-cpi-jump');
    const [first] = await entitiesOf(shipped.weekly, rule);
    expect(first?.entity).toEqual([{ dimension: 'campaign', value: expect.any(String) }]);
    // Spend tripled on that campaign all last week: its CPI jumps against the week before.
    const name = first?.entity[0]?.value as string;
    await sandbox.replacePlants({ where: { campaign: name }, metric: 'spend', factor: 3, days: lastWeek(now) });
    try {
      sent.length = 0;
      const answer = await explainIncident(
        { report: shipped.weekly, rule, entity: first?.entity ?? [], at: now },
        deps(),
      );
      // One lookup of the name's id, then every query of the search narrowed by that id.
      expect(sent[0]?.dimensions.map((d) => d.name)).toEqual(['campaign', 'campaignId']);
      const searches = filters().slice(1);
      expect(searches.length).toBeGreaterThan(0);
      for (const filter of searches) expect(filter).toMatch(/"campaignId":\{"(equals|isIn)"/);
      expect(filters().join()).not.toContain('"campaign":');
      expect('explained' in answer).toBe(true);
      if ('explained' in answer) expect(answer.explained.metrics[0]?.label).toBe('Installs CPI');
    } finally {
      await sandbox.replacePlants([]);
    }
  }, 120_000);

  it('a name whose row carried its id is filtered by that id without a lookup', async () => {
    const report = adhoc({ dimensions: ['source', 'sourceId'], metrics: ['spend'] });
    const rule = { ...aboveZero('spend') };
    const [first] = await entitiesOf(report, rule);
    const source = first?.entity.find((p) => p.dimension === 'source');
    expect(source?.id).toEqual(expect.any(Number));
    sent.length = 0;
    await explainIncident({ report, rule, entity: first?.entity ?? [], at: now }, deps());
    expect(sent[0]?.dimensions.map((d) => d.name)).not.toEqual(['source', 'sourceId']);
    for (const filter of filters()) expect(filter).toContain(`"sourceId":{"equals":${source?.id}}`);
  }, 60_000);

  it.each([
    ['an id dimension (appId)', ['appId'], /"appId":\{"equals":\d+\}/],
    ['a text dimension (countryCode)', ['countryCode'], /"countryCode":\{"equals":"[A-Z]{2}"\}/],
    ['an enum dimension (appPlatform)', ['appPlatform'], /"appPlatform":\{"equals":"(IOS|ANDROID)"\}/],
    [
      'an aliased dimension (countryCode as country)',
      [{ name: 'countryCode', as: 'country' }],
      /"countryCode":\{"equals":"[A-Z]{2}"\}/,
    ],
  ] as const)(
    '%s is filtered as the service filters it',
    async (_kind, dimensions, filter) => {
      const report = adhoc({ dimensions: [...dimensions], metrics: ['spend'] });
      const rule = aboveZero('spend');
      const [first] = await entitiesOf(report, rule);
      sent.length = 0;
      const answer = await explainIncident({ report, rule, entity: first?.entity ?? [], at: now }, deps());
      expect(sent.length).toBeGreaterThan(0);
      for (const f of filters()) expect(f).toMatch(filter);
      // Filtered right, the search ran: whatever it found, the reason is never a refused query.
      if ('skipped' in answer) expect(answer.skipped.reason).toBe('not_moved');
    },
    60_000,
  );

  it('an aliased dimension in a record written before entities were stored is read through the report', async () => {
    const report = adhoc({ dimensions: [{ name: 'countryCode', as: 'country' }], metrics: ['spend'] });
    const entity = incidentEntity({ entityKey: 'country=US' });
    sent.length = 0;
    await explainIncident({ report, rule: aboveZero('spend'), entity, at: now }, deps());
    for (const f of filters()) expect(f).toContain('"countryCode":{"equals":"US"}');
  }, 60_000);

  it('a (none) value is not explained, saying why, and sends nothing', async () => {
    const report = adhoc({ dimensions: ['siteBundle'], metrics: ['spend'] });
    const answer = await explainIncident(
      { report, rule: aboveZero('spend'), entity: [{ dimension: 'siteBundle', value: null }], at: now },
      deps(),
    );
    expect(answer).toEqual({ skipped: { reason: 'no_value', detail: expect.stringContaining('(none)') } });
    expect(sent).toHaveLength(0);
  });

  it('ctv-cpm-high: a campaign with connected-TV data appended is not explained, and the reason says so', async () => {
    const rule = ruleOf(shipped.ctv, 'ctv-cpm-high');
    const [first] = await entitiesOf(shipped.ctv, rule);
    expect(first?.entity.map((p) => p.dimension)).toEqual(['campaign', 'campaignIdCtvNormalized']);
    sent.length = 0;
    const answer = await explainIncident({ report: shipped.ctv, rule, entity: first?.entity ?? [], at: now }, deps());
    expect(answer).toEqual({
      skipped: { reason: 'not_filterable', detail: expect.stringContaining('campaignIdCtvNormalized') },
    });
    expect(sent).toHaveLength(0);
  }, 60_000);

  it('a pacing incident gets no explanation of yesterday against the day before', async () => {
    const report = adhoc({ dimensions: [], metrics: ['spend'] });
    const rule = { ...aboveZero('spend'), pacing: { tolerance: 0.1 } } as unknown as AlertRule;
    const answer = await explainIncident({ report, rule, entity: [], at: now }, deps());
    expect(answer).toEqual({ skipped: { reason: 'pacing_rule', detail: expect.stringContaining('plan') } });
    expect(sent).toHaveLength(0);
  });
});

/** An ad-hoc report over yesterday against the day before, by these dimensions. */
function adhoc(query: Pick<ReportDefinition['query'], 'dimensions' | 'metrics'>): LoadedReport {
  return {
    id: 'adhoc',
    definition: {
      title: 'Ad hoc',
      query: { ...query, range: 'yesterday', timezone: 'UTC' },
      present: { compare: 'previous_period' },
      mode: 'sync',
      alerts: [],
    } as unknown as ReportDefinition,
  } as LoadedReport;
}

function aboveZero(metric: string): AlertRule {
  return { id: 'watch', metric, above: 0, on: 'entity', consecutive: 1 } as unknown as AlertRule;
}

/** Last week (Monday to Sunday, UTC) as plant days. */
function lastWeek(now: Date): [string, string] {
  const day = (now.getUTCDay() + 6) % 7;
  const monday = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() - day - 7));
  const sunday = new Date(monday.getTime() + 6 * 86_400_000);
  return [monday.toISOString().slice(0, 10), sunday.toISOString().slice(0, 10)];
}
