import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type CompiledQuery, compileQuery } from '../../../src/query/index.js';
import { ReportingClient } from '../../../src/reporting/index.js';
import { loadReports, type ReportView, runReport } from '../../../src/reports/index.js';
import { type RunningSandbox, startSandbox } from '../../../src/sandbox/index.js';

const NOW = new Date('2026-11-21T05:30:00Z');
let sandbox: RunningSandbox;
let client: ReportingClient;
let out: string;

beforeAll(async () => {
  sandbox = await startSandbox({ scale: 'small', now: NOW });
  client = new ReportingClient({
    authUrl: sandbox.authUrl,
    graphqlUrl: sandbox.graphqlUrl,
    clientId: sandbox.clientId,
    clientSecret: sandbox.clientSecret,
  });
  out = await mkdtemp(join(tmpdir(), 'reports-it-'));
});

afterAll(async () => {
  await sandbox?.stop();
  await rm(out, { recursive: true, force: true });
});

describe('every example report against the sandbox', () => {
  const views = new Map<string, ReportView>();

  it('loads at least six valid reports', async () => {
    const { reports, problems } = await loadReports('reports', { now: NOW });
    expect(problems).toEqual([]);
    expect(reports.length).toBeGreaterThanOrEqual(6);
    for (const report of reports) {
      views.set(report.id, await runReport(report, { client, now: () => NOW, outDir: out }));
    }
  });

  it('gives each one rows, totals, a CSV and a JSON view', async () => {
    expect(views.size).toBeGreaterThanOrEqual(6);
    for (const [id, view] of views) {
      expect(view.totalRowCount).toBeGreaterThan(0);
      expect(view.headline.length).toBeGreaterThan(0);
      const csv = await readFile(join(out, `${id}.csv`), 'utf8');
      expect(csv.split('\r\n').length - 2).toBe(view.totalRowCount);
      const json = JSON.parse(await readFile(join(out, `${id}.json`), 'utf8')) as ReportView;
      expect(json.reportId).toBe(id);
      expect(json.rows).toEqual(view.rows);
    }
  });

  it('runs the site bundle report as an async job', () => {
    expect(views.get('site-bundle-quality')?.mode).toBe('async');
    expect(views.get('daily-kpi')?.mode).toBe('sync');
  });

  it('joins the comparison period by key', () => {
    const view = views.get('weekly-campaign-review');
    expect(view?.comparison?.kind).toBe('previous_period');
    expect(view?.comparison?.rows).toHaveLength(view?.rows.length ?? -1);
    const spend = view?.comparison?.totals.spend;
    expect(spend?.previous).toBeGreaterThan(0);
    expect(spend?.percent).toBeCloseTo(
      ((view?.totals?.spend as number) - (spend?.previous ?? 0)) / (spend?.previous ?? 1),
      9,
    );
  });

  it('carries postback distributions for the SKAN report', () => {
    const view = views.get('skan-postback-quality');
    expect(view?.postbacks?.map((k) => k.postbackKey)).toEqual(['conversion_value', 'country']);
    expect(view?.rows.length).toBe(7);
  });

  it('includes connected-TV campaigns with channel all', async () => {
    const csv = await readFile(join(out, 'ctv-and-mobile.csv'), 'utf8');
    const ids = csv
      .split('\r\n')
      .slice(1)
      .map((line) => line.split(',').at(-6) ?? '');
    expect(ids.some((id) => id.startsWith('ctv-'))).toBe(true);
    expect(ids.some((id) => /^\d+$/.test(id))).toBe(true);
  });
});

describe('ad-hoc queries against the sandbox', () => {
  it('agrees with a direct pivot', async () => {
    const q = compileQuery('spend installs by countryCode yesterday', { now: NOW }) as CompiledQuery;
    const view = await runReport({ id: 'query', definition: q.definition }, { client, now: () => NOW });
    const direct = await client.pivot({
      from: '2026-11-20T00:00:00Z',
      to: '2026-11-21T00:00:00Z',
      dimensions: [],
      metrics: [{ name: 'spend' }, { name: 'installs' }],
    });
    expect(view.totals?.installs).toBe(direct.totals?.installs);
    expect(view.totals?.spend as number).toBeCloseTo(direct.totals?.spend as number, 6);
  });

  it('falls back to one async job when the sync call is too slow', async () => {
    sandbox.setFaults({ latencyMs: 400 });
    try {
      const q = compileQuery('spend installs by countryCode last 3 days', { now: NOW }) as CompiledQuery;
      const view = await runReport(
        { id: 'slow', definition: q.definition },
        { client, now: () => NOW, syncTimeoutMs: 150, asyncWait: { pollMs: 50 } },
      );
      expect(view.mode).toBe('async');
      expect(view.warnings[0]).toMatch(/timed out/);
      expect(view.totalRowCount).toBeGreaterThan(0);
      const jobs = await client.asyncPivots();
      expect(
        jobs.filter(
          (j) => j.pivotParams.dimensions?.includes('countryCode') && j.pivotParams.from.includes('2026-11-18'),
        ),
      ).toHaveLength(1);
    } finally {
      sandbox.resetFaults();
    }
  });
});
