import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { METRIC_DECISIONS, type MetricParts, metricParts } from '../../../src/explain/metricParts.js';
import {
  createReportingSource,
  DEFAULT_REPORTING_DIMENSIONS,
  type Period,
  type ReportingSourceOptions,
} from '../../../src/explain/sources/reportingSource.js';
import type { GroupRow } from '../../../src/explain/types.js';
import { type PivotRequest, ReportingClient, type WaitOptions } from '../../../src/reporting/index.js';
import { type RunningSandbox, startSandbox } from '../../../src/sandbox/index.js';

/** The Reporting Service source against the real sandbox over HTTP, every GraphQL request counted. */
describe('createReportingSource against the sandbox', () => {
  const now = new Date();
  const day = (offset: number) =>
    new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + offset)).toISOString().slice(0, 10);
  const yesterday: Period = { from: day(-1), to: day(0) };
  const dayBefore: Period = { from: day(-2), to: day(-1) };
  const fast: WaitOptions = { pollMs: 20, maxPollMs: 200 };

  let sandbox: RunningSandbox;
  let client: ReportingClient;
  let dir: string;
  /** The GraphQL operations sent, in order: `pivot` or `createAsyncPivot`, with their documents. */
  const sent: { operation: string; query: string; variables: string }[] = [];

  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0, scale: 'small', now });
    const counting: typeof fetch = async (input, init) => {
      const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
      if (url === sandbox.graphqlUrl && typeof init?.body === 'string') {
        const body = JSON.parse(init.body) as { query?: unknown; variables?: unknown };
        const query = String(body.query ?? '');
        const operation = /createAsyncPivot|asyncPivot|pivot/.exec(query)?.[0] ?? 'other';
        sent.push({ operation, query, variables: JSON.stringify(body.variables ?? {}) });
      }
      return fetch(input, init);
    };
    client = new ReportingClient({ ...sandbox, now: () => now, fetch: counting });
    dir = await mkdtemp(join(tmpdir(), 'pivotbot-explain-source-'));
  });
  afterAll(async () => {
    await sandbox.stop();
    await rm(dir, { recursive: true, force: true });
  });

  const source = (parts: MetricParts, extra: Partial<ReportingSourceOptions> = {}) =>
    createReportingSource({
      client,
      parts,
      current: yesterday,
      baseline: dayBefore,
      now: () => now,
      timezone: 'UTC',
      asyncWait: fast,
      tmpDir: dir,
      ...extra,
    });

  /** A plain pivot's totals: what the groups must add up to. */
  async function totals(period: Period, metrics: PivotRequest['metrics'], filter?: PivotRequest['filter']) {
    const response = await client.pivot({ ...period, dimensions: [], metrics, ...(filter ? { filter } : {}) });
    return response.totals ?? {};
  }
  const sum = (rows: readonly GroupRow[], period: 'current' | 'baseline', part: 'num' | 'den') =>
    rows.reduce((total, row) => total + (row[period][part] ?? 0), 0);

  it('groups installs by country for yesterday and the day before, in one pivot per period, adding up to the totals', async () => {
    const before = sent.length;
    const rows = await source(metricParts('installs')).groups({ dimensions: ['countryCode'], filter: {} });
    expect(sent.slice(before).map((s) => s.operation)).toEqual(['pivot', 'pivot']);
    expect(rows.length).toBeGreaterThan(3);
    expect(new Set(rows.map((r) => r.where.countryCode)).size).toBe(rows.length);
    for (const row of rows) {
      expect(Object.keys(row.where)).toEqual(['countryCode']);
      expect(row.current.den).toBeUndefined();
    }
    expect(sum(rows, 'current', 'num')).toBe(Number((await totals(yesterday, [{ name: 'installs' }])).installs));
    expect(sum(rows, 'baseline', 'num')).toBe(Number((await totals(dayBefore, [{ name: 'installs' }])).installs));
    expect(sum(rows, 'current', 'num')).not.toBe(sum(rows, 'baseline', 'num'));
  });

  it('narrows a group-by to a segment: a country, and a source by name (sent as its id)', async () => {
    const explain = source(metricParts('spend'));
    const inUs = await explain.groups({ dimensions: ['source'], filter: { countryCode: 'US' } });
    const usSpend = await totals(yesterday, [{ name: 'spend' }], { countryCode: { equals: 'US' } });
    expect(sum(inUs, 'current', 'num')).toBeCloseTo(Number(usSpend.spend), 6);

    const sources = await explain.groups({ dimensions: ['source'], filter: {} });
    const first = sources[0]?.where.source as string;
    const ids = await client.pivot({
      ...yesterday,
      dimensions: [{ name: 'source' }, { name: 'sourceId' }],
      metrics: [{ name: 'spend' }],
    });
    const sourceIds = ids.rows.filter((r) => r.source === first).map((r) => Number(r.sourceId));
    expect(sourceIds.length).toBeGreaterThan(0);

    const before = sent.length;
    const inSource = await explain.groups({ dimensions: ['countryCode'], filter: { source: first } });
    const filters = sent.slice(before).map((s) => JSON.parse(s.variables).filter);
    const asSent = sourceIds.length === 1 ? { equals: sourceIds[0] } : { isIn: sourceIds };
    expect(filters).toEqual([{ sourceId: asSent }, { sourceId: asSent }]);
    const expected = await totals(
      yesterday,
      [{ name: 'spend' }],
      sourceIds.length === 1 ? { sourceId: { equals: sourceIds[0] ?? 0 } } : { sourceId: { isIn: sourceIds } },
    );
    expect(sum(inSource, 'current', 'num')).toBeCloseTo(Number(expected.spend), 6);
    expect(sum(inSource, 'current', 'num')).toBeCloseTo(sources[0]?.current.num ?? Number.NaN, 6);
  });

  it('gives a ratio metric’s parts: spend and installs per country, whose quotient is the pivot’s installsCpi', async () => {
    const rows = await source(metricParts('installsCpi')).groups({ dimensions: ['countryCode'], filter: {} });
    const cpi = await client.pivot({
      ...yesterday,
      dimensions: [{ name: 'countryCode' }],
      metrics: [{ name: 'installsCpi' }, { name: 'spend' }, { name: 'installs' }],
    });
    let compared = 0;
    for (const row of cpi.rows) {
      const group = rows.find((r) => r.where.countryCode === row.countryCode);
      expect(group).toBeDefined();
      expect(group?.current.num).toBeCloseTo(Number(row.spend), 6);
      expect(group?.current.den).toBe(Number(row.installs));
      if (row.installsCpi === null) continue;
      expect((group?.current.num ?? 0) / (group?.current.den ?? 0)).toBeCloseTo(Number(row.installsCpi), 9);
      compared++;
    }
    expect(compared).toBeGreaterThan(3);
  });

  const ratioMetrics: [string, Record<string, string | number>][] = [
    ...Object.entries(METRIC_DECISIONS)
      .filter(([, decision]) => decision.kind === 'ratio')
      .map(([name]): [string, Record<string, string | number>] => [name, {}]),
    ['installsCpi', { attrTouch: 'CLICK' }],
    ['eventsRate', { attrSource: 'MMP' }],
    ['eventsRoas', { eventId: 1014 }],
    ['vtaShare', { eventId: 1014 }],
  ];
  it.each(ratioMetrics)('computes %s %j as scale × Σnum / Σden, as the sandbox does', async (name, args) => {
    const parts = metricParts({ name, args });
    if (parts.kind !== 'ratio') throw new Error(`${name} is not a ratio`);
    const rows = await source(parts).groups({ dimensions: ['appPlatform'], filter: {} });
    const metric = Object.keys(args).length > 0 ? { name, args } : { name };
    const total = Number((await totals(yesterday, [metric]))[name]);
    const den = sum(rows, 'current', 'den');
    expect(den).toBeGreaterThan(0);
    expect(total).not.toBe(0);
    expect((parts.scale * sum(rows, 'current', 'num')) / den).toBeCloseTo(total, 9);
  });

  it('refuses what the API rules forbid, and never sends it', async () => {
    const explain = source(metricParts('installs'));
    await explain.groups({ dimensions: ['source'], filter: {} }); // learns the sources' ids
    const before = sent.length;
    const forbidden = [
      { dimensions: ['siteBundle', 'city'], filter: {} },
      { dimensions: ['siteName'], filter: { region: 'California' } },
      { dimensions: ['siteBundle'], filter: { ad: 'Ad 1' } },
      { dimensions: ['date'], filter: {} },
      { dimensions: ['adUrl'], filter: {} },
      { dimensions: ['countrycode'], filter: {} },
      { dimensions: ['countryCode'], filter: { source: 'No such exchange' } },
      { dimensions: ['countryCode'], filter: { countryCode: '(none)' } },
    ];
    for (const query of forbidden) {
      expect(explain.allows(query)).toBe(false);
      await expect(explain.groups(query)).rejects.toThrow(/^This group-by cannot be asked: /);
    }
    expect(explain.refusal({ dimensions: ['siteBundle', 'city'], filter: {} })).toMatch(
      /siteName and siteBundle cannot be queried together with region, city/,
    );
    expect(explain.refusal({ dimensions: ['countrycode'], filter: {} })).toMatch(/Did you mean "countryCode"\?/);
    // The base filter counts as well: a report filtered on an ad never groups by site bundle.
    const adReport = source(metricParts('installs'), { baseFilter: { adId: { equals: 1 } } });
    expect(adReport.allows({ dimensions: ['siteBundle'], filter: {} })).toBe(false);
    expect(adReport.allows({ dimensions: ['countryCode'], filter: {} })).toBe(true);
    // siteBundle is kept 3 months: a baseline from last year cannot be split by it.
    const lastYear = source(metricParts('installs'), { baseline: { from: day(-366), to: day(-365) } });
    expect(lastYear.refusal({ dimensions: ['siteBundle'], filter: {} })).toMatch(/only for the last 3 months/);
    expect(lastYear.allows({ dimensions: ['countryCode'], filter: {} })).toBe(true);
    // With connected-TV data campaignId is not available, so a campaign cannot be filtered by it.
    const ctv = source(metricParts('installs'), { pivot: { campaignChannel: 'ALL' } });
    expect(ctv.refusal({ dimensions: ['campaign'], filter: {} })).toMatch(/connected-TV/);
    expect(ctv.allows({ dimensions: ['source'], filter: {} })).toBe(true);
    expect(ctv.allows({ dimensions: ['countryCode'], filter: {} })).toBe(true);
    expect(sent.length).toBe(before);
    for (const dimension of DEFAULT_REPORTING_DIMENSIONS) {
      expect(explain.allows({ dimensions: [dimension], filter: {} })).toBe(true);
    }
  });

  it('asks a site-bundle group-by over more than a week as async jobs, with the same groups as sync', async () => {
    const week: Period = { from: day(-8), to: day(0) };
    const weekBefore: Period = { from: day(-16), to: day(-8) };
    const parts = metricParts('installsCpi');
    const query = { dimensions: ['siteBundle'], filter: { appPlatform: 'IOS' } };
    const before = sent.length;
    const viaJobs = await source(parts, { current: week, baseline: weekBefore }).groups(query);
    const operations = sent.slice(before).map((s) => s.operation);
    expect(operations.filter((o) => o === 'createAsyncPivot')).toHaveLength(2);
    expect(operations).not.toContain('pivot');
    expect(await readdir(dir)).toEqual([]);
    const viaSync = await source(parts, { current: week, baseline: weekBefore, mode: () => 'sync' }).groups(query);
    expect(viaJobs.map((r) => r.where)).toEqual(viaSync.map((r) => r.where));
    viaJobs.forEach((row, i) => {
      expect(row.current.num).toBeCloseTo(viaSync[i]?.current.num ?? Number.NaN, 6);
      expect(row.current.den).toBe(viaSync[i]?.current.den);
      expect(row.baseline.num).toBeCloseTo(viaSync[i]?.baseline.num ?? Number.NaN, 6);
    });
    expect(viaJobs.length).toBeGreaterThan(5);
  });
});
