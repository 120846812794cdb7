import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type PivotRequest,
  type PivotResponse,
  type PostbackShareKey,
  ReportingHttpError,
  ReportingTimeoutError,
} from '../../../src/reporting/index.js';
import { formatViewTable, type ReportDefinition, reportSchema, runReport } from '../../../src/reports/index.js';

const NOW = new Date('2026-11-20T12:00:00Z');

/** A scripted client: answers pivots from a function, records every call. */
function fakeClient(answer: (request: PivotRequest) => PivotResponse | Error, postbacksFail?: Error) {
  const calls: Array<{ op: string; request: unknown }> = [];
  return {
    calls,
    async pivot(request: PivotRequest) {
      calls.push({ op: 'pivot', request });
      const result = answer(request);
      if (result instanceof Error) throw result;
      return result;
    },
    async runAsyncPivot(request: PivotRequest, path: string) {
      calls.push({ op: 'async', request });
      const header = [...request.dimensions.map((d) => d.name), ...request.metrics.map((m) => m.name)].join(',');
      await writeFile(path, `${header}\r\nUS,100,3\r\nBR,50,1\r\n"São Paulo, BR",10,\r\n`);
      return { job: { id: 'job-1' } as never, csv: { path, bytes: 1, rows: 3, columns: [] } };
    },
    async postbackShare(request: unknown): Promise<PostbackShareKey[]> {
      calls.push({ op: 'postbacks', request });
      if (postbacksFail) throw postbacksFail;
      return [
        {
          postbackKey: 'conversion_value',
          totalCount: 3,
          totalRevenue: null,
          results: [{ value: '7', count: 3, percentage: 100, revenue: null }],
        },
      ];
    },
  };
}

function response(request: PivotRequest, rows: Array<Record<string, string | number | null>>): PivotResponse {
  const columns = [
    ...request.dimensions.map((d) => ({
      key: d.alias ?? d.name,
      kind: 'dimension' as const,
      name: d.name,
      args: d.args ?? {},
    })),
    ...request.metrics.map((m) => ({
      key: m.alias ?? m.name,
      kind: 'metric' as const,
      name: m.name,
      args: m.args ?? {},
    })),
  ];
  const totals: Record<string, number> = {};
  for (const c of columns) if (c.kind === 'metric') totals[c.key] = rows.reduce((s, r) => s + Number(r[c.key] ?? 0), 0);
  return { columns, rows, totals, warnings: [] };
}

const define = (input: unknown): ReportDefinition => reportSchema.parse(input);
const byCountry = (extra: Record<string, unknown> = {}) =>
  define({
    title: 'By country',
    query: { dimensions: ['countryCode'], metrics: ['spend', 'installs'], range: 'last_7_days' },
    ...extra,
  });

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'run-report-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('runReport', () => {
  it('runs sync, sorts, cuts to top N, joins the comparison and writes CSV and JSON', async () => {
    const client = fakeClient((request) =>
      request.from.startsWith('2026-11-13')
        ? response(request, [
            { countryCode: 'BR', spend: 50, installs: 5 },
            { countryCode: 'US', spend: 100, installs: 10 },
            { countryCode: 'JP', spend: 70, installs: 7 },
          ])
        : response(request, [
            { countryCode: 'US', spend: 80, installs: 10 },
            { countryCode: 'BR', spend: 50, installs: 4 },
          ]),
    );
    const definition = byCountry({ present: { compare: 'previous_period', top: 2, sort: '-spend' }, mode: 'sync' });
    const view = await runReport({ id: 'by-country', definition }, { client, now: () => NOW, outDir: dir });
    expect(client.calls.map((c) => c.op)).toEqual(['pivot', 'pivot']);
    expect(view.rows.map((r) => r.countryCode)).toEqual(['US', 'JP']);
    expect(view.totalRowCount).toBe(3);
    expect(view.comparison?.rows.map((d) => d.spend?.percent)).toEqual([0.25, null]);
    expect(view.comparison?.totals.spend).toEqual({ previous: 130, absolute: 90, percent: 90 / 130 });
    expect(view.headline).toEqual(['spend', 'installs']);
    expect(view.columns.map((c) => c.label)).toEqual(['Country code', 'Spend', 'Installs']);
    expect(view.chart).toEqual({ kind: 'bar', x: 'countryCode', series: ['spend'] });
    expect(await readFile(join(dir, 'by-country.csv'), 'utf8')).toBe(
      'countryCode,spend,installs\r\nBR,50,5\r\nUS,100,10\r\nJP,70,7\r\n',
    );
    const json = JSON.parse(await readFile(join(dir, 'by-country.json'), 'utf8'));
    expect(json).toMatchObject({ reportId: 'by-country', mode: 'sync', csvPath: join(dir, 'by-country.csv') });
    expect(formatViewTable(view)).toContain('2 of 3 rows shown');
  });

  it('compares with the same days of last month, labelled so', async () => {
    const client = fakeClient((request) =>
      request.from.startsWith('2026-11-01')
        ? response(request, [{ countryCode: 'US', spend: 120, installs: 10 }])
        : response(request, [{ countryCode: 'US', spend: 100, installs: 10 }]),
    );
    const definition = byCountry({
      query: { dimensions: ['countryCode'], metrics: ['spend', 'installs'], range: 'month_to_date' },
      present: { compare: 'same_period_last_month' },
      mode: 'sync',
    });
    const view = await runReport({ id: 'mtd', definition }, { client, now: () => NOW, outDir: dir });
    expect(
      client.calls.map((c) => {
        const r = c.request as PivotRequest;
        return [r.from, r.to];
      }),
    ).toEqual([
      ['2026-11-01T00:00:00+00:00', '2026-11-21T00:00:00+00:00'],
      ['2026-10-01T00:00:00+00:00', '2026-10-21T00:00:00+00:00'],
    ]);
    expect(view.comparison).toMatchObject({
      kind: 'same_period_last_month',
      label: 'vs same period last month (1–20 Oct 2026)',
      totals: { spend: { previous: 100, absolute: 20, percent: 0.2 } },
    });
  });

  it('goes async for a heavy request in auto mode, reads the CSV and computes totals', async () => {
    const client = fakeClient(() => new Error('no sync expected'));
    const definition = define({
      title: 'Bundles',
      query: { dimensions: ['siteBundle'], metrics: ['impressions', 'installs'], range: 'last_14_days' },
      present: { compare: 'previous_period' },
    });
    const view = await runReport({ id: 'bundles', definition }, { client, now: () => NOW, outDir: dir });
    expect(client.calls.map((c) => c.op)).toEqual(['async']);
    expect(view.mode).toBe('async');
    expect(view.totals).toEqual({ impressions: 160, installs: 4 });
    expect(view.rows[2]).toEqual({ siteBundle: 'São Paulo, BR', impressions: 10, installs: null });
    expect(view.comparison).toBeUndefined();
    expect(view.warnings.join(' ')).toMatch(/comparison period was skipped/);
    expect((await readdir(dir)).sort()).toEqual(['bundles.csv', 'bundles.json']);
  });

  it('runs async exactly once when the sync call times out in auto mode', async () => {
    const client = fakeClient(() => new ReportingTimeoutError('POST /v1/graphql (pivot)', 10));
    const view = await runReport(
      { id: 'slow', definition: byCountry() },
      { client, now: () => NOW, syncTimeoutMs: 10 },
    );
    expect(client.calls.map((c) => c.op)).toEqual(['pivot', 'async']);
    expect(view.mode).toBe('async');
    expect(view.warnings[0]).toMatch(/timed out/);
  });

  it('does not fall back to async outside auto mode', async () => {
    const client = fakeClient(() => new ReportingTimeoutError('pivot', 10));
    await expect(
      runReport({ id: 'slow', definition: byCountry({ mode: 'sync' }) }, { client, now: () => NOW }),
    ).rejects.toBeInstanceOf(ReportingTimeoutError);
    expect(client.calls.map((c) => c.op)).toEqual(['pivot']);
  });

  it('runs a postbacks-only report and writes the distribution as CSV', async () => {
    const client = fakeClient(() => new Error('no pivot expected'));
    const definition = define({ title: 'Postbacks', query: { postbacks: { appId: 101, keys: ['conversion_value'] } } });
    const view = await runReport({ id: 'pb', definition }, { client, now: () => NOW, outDir: dir });
    expect(client.calls.map((c) => c.op)).toEqual(['postbacks']);
    expect(view.postbacks?.[0]?.postbackKey).toBe('conversion_value');
    expect(await readFile(join(dir, 'pb.csv'), 'utf8')).toBe(
      'postbackKey,value,count,percentage,revenue\r\nconversion_value,7,3,100,\r\n',
    );
  });

  it('goes out without its comparison, saying so, when the service fails the previous period', async () => {
    const outage = new ReportingHttpError('POST', 'http://x/v1/graphql', 503);
    const client = fakeClient((request) =>
      request.from.startsWith('2026-11-13')
        ? response(request, [{ countryCode: 'US', spend: 100, installs: 10 }])
        : outage,
    );
    const definition = byCountry({ present: { compare: 'previous_period' }, mode: 'sync' });
    const view = await runReport({ id: 'by-country', definition }, { client, now: () => NOW });
    expect(view.rows).toHaveLength(1);
    expect(view.comparison).toBeUndefined();
    expect(view.warnings.join(' ')).toContain('The comparison period could not be fetched');
    // Anything but a service failure (a bug) still fails the run.
    const buggy = fakeClient((request) =>
      request.from.startsWith('2026-11-13') ? response(request, []) : new TypeError('bug'),
    );
    await expect(runReport({ id: 'by-country', definition }, { client: buggy, now: () => NOW })).rejects.toThrow('bug');
  });

  it('goes out without its postback distribution beside a pivot, but fails when the distribution is the report', async () => {
    const outage = new ReportingHttpError('POST', 'http://x/v1/graphql', 502);
    const client = fakeClient((request) => response(request, [{ countryCode: 'US', spend: 1, installs: 1 }]), outage);
    const withPivot = byCountry({ mode: 'sync' });
    const both = define({
      ...withPivot,
      query: { ...withPivot.query, postbacks: { appId: 101, keys: ['conversion_value'] } },
    });
    const view = await runReport({ id: 'both', definition: both }, { client, now: () => NOW });
    expect(view.rows).toHaveLength(1);
    expect(view.postbacks).toBeUndefined();
    expect(view.warnings.join(' ')).toContain('The postback distribution could not be fetched');
    const alone = define({ title: 'Postbacks', query: { postbacks: { appId: 101, keys: ['conversion_value'] } } });
    await expect(runReport({ id: 'pb', definition: alone }, { client, now: () => NOW })).rejects.toBe(outage);
  });

  it('sorts a time series by date and charts it as a line', async () => {
    const client = fakeClient((request) =>
      response(request, [
        { date: '2026-11-19T00:00:00Z', spend: 2 },
        { date: '2026-11-18T00:00:00Z', spend: 1 },
      ]),
    );
    const definition = define({ title: 'Daily', query: { metrics: ['spend'], granularity: 'DAILY' }, mode: 'sync' });
    const view = await runReport({ id: 'daily', definition }, { client, now: () => NOW });
    expect(view.rows.map((r) => r.date)).toEqual(['2026-11-18T00:00:00Z', '2026-11-19T00:00:00Z']);
    expect(view.chart).toEqual({ kind: 'line', x: 'date', series: ['spend'] });
    expect(formatViewTable(view)).toContain('2026-11-18');
  });
});
