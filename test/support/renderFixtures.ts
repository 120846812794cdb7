/** ReportView fixtures for rendering tests: built by hand, deterministic, shaped like real runs. */
import { getMetric, type PivotRow } from '../../src/reporting/index.js';
import type { Delta, ReportView, ViewColumn } from '../../src/view/index.js';

export function dimension(key: string, label: string, unit: 'text' | 'time' = 'text'): ViewColumn {
  return { key, kind: 'dimension', name: key, args: {}, label, unit, polarity: 'neutral' };
}

export function metric(key: string, label: string, name = key): ViewColumn {
  const def = getMetric(name);
  if (!def) throw new Error(`fixture: unknown metric ${name}`);
  return { key, kind: 'metric', name, args: {}, label, unit: def.unit, polarity: def.polarity };
}

function delta(current: number | null, previous: number | null): Delta {
  if (current === null || previous === null) return { previous, absolute: null, percent: null };
  return { previous, absolute: current - previous, percent: previous === 0 ? null : (current - previous) / previous };
}

const range = {
  from: '2026-11-13T00:00:00+00:00',
  to: '2026-11-20T00:00:00+00:00',
  label: 'Last 7 days (13–19 Nov 2026)',
  timezone: 'UTC',
};

/** A smooth, deterministic wiggle so charts look like real data. */
function wave(i: number, base: number, amplitude: number, phase = 0): number {
  return Math.round((base + amplitude * Math.sin(i / 1.7 + phase) + (amplitude / 3) * Math.cos(i * 1.3)) * 100) / 100;
}

function day(offset: number, start = Date.UTC(2026, 10, 13)): string {
  return `${new Date(start + offset * 86_400_000).toISOString().slice(0, 10)}T00:00:00+00:00`;
}

/** Daily spend, installs and CPI over `days` days, with the previous period for comparison. */
export function timeSeriesView(days = 7): ReportView {
  const columns = [
    dimension('date', 'Date', 'time'),
    metric('spend', 'Spend'),
    metric('installs', 'Installs'),
    metric('installsCpi', 'CPI'),
  ];
  const make = (i: number, shift: number, start?: number): PivotRow => {
    const spend = wave(i, 4200 + shift, 650, shift / 100);
    const installs = Math.round(wave(i, 1900 - shift / 2, 260, 1 + shift / 50));
    return { date: day(i, start), spend, installs, installsCpi: Math.round((spend / installs) * 1000) / 1000 };
  };
  const rows = Array.from({ length: days }, (_, i) => make(i, 0));
  const previousRows = Array.from({ length: days }, (_, i) =>
    make(i, -300, Date.UTC(2026, 10, 13) - days * 86_400_000),
  );
  const sum = (rs: PivotRow[], k: string) => rs.reduce((a, r) => a + Number(r[k]), 0);
  const totals = {
    spend: sum(rows, 'spend'),
    installs: sum(rows, 'installs'),
    installsCpi: sum(rows, 'spend') / sum(rows, 'installs'),
  };
  const previousTotals = {
    spend: sum(previousRows, 'spend'),
    installs: sum(previousRows, 'installs'),
    installsCpi: sum(previousRows, 'spend') / sum(previousRows, 'installs'),
  };
  return {
    reportId: 'daily-kpi',
    title: 'Daily KPIs',
    description: 'Spend, installs and CPI across all campaigns.',
    owner: '@ua-team',
    range: days === 7 ? range : { ...range, label: `Last ${days} days` },
    filtersText: 'countryCode in (US, BR) · mobile',
    columns,
    rows,
    totalRowCount: rows.length,
    totals,
    headline: ['spend', 'installs', 'installsCpi'],
    comparison: {
      kind: 'previous_period',
      label: 'vs previous 7 days (6–12 Nov)',
      range: { ...range, label: 'Previous 7 days (6–12 Nov 2026)' },
      totals: {
        spend: delta(totals.spend, previousTotals.spend),
        installs: delta(totals.installs, previousTotals.installs),
        installsCpi: delta(totals.installsCpi, previousTotals.installsCpi),
      },
      rows: rows.map((r, i) => ({
        spend: delta(Number(r.spend), Number(previousRows[i]?.spend)),
        installs: delta(Number(r.installs), Number(previousRows[i]?.installs)),
        installsCpi: delta(Number(r.installsCpi), Number(previousRows[i]?.installsCpi)),
      })),
      previousRows,
    },
    chart: { kind: 'line', x: 'date', series: ['spend', 'installs'] },
    csvPath: 'daily-kpi.csv',
    mode: 'sync',
    warnings: [],
    generatedAt: '2026-11-20T09:00:03Z',
  };
}

const COUNTRIES = ['US', 'BR', 'DE', 'JP', 'GB', 'FR', 'IN', 'MX', 'CA', 'KR', 'IT', 'ES', 'AU', 'TR', 'ID'];

/** Top countries by spend with installs and CPI, compared with the previous period. */
export function topNView(count = 10, totalRowCount = 42): ReportView {
  const columns = [
    dimension('countryCode', 'Country'),
    metric('spend', 'Spend'),
    metric('installs', 'Installs'),
    metric('installsCpi', 'CPI'),
    metric('ctr', 'CTR'),
  ];
  const rows: PivotRow[] = Array.from({ length: count }, (_, i) => {
    const spend = Math.round((12000 / (i + 1.3)) * 100) / 100;
    const installs = Math.round(spend / (1.4 + (i % 4) * 0.35));
    return {
      countryCode: COUNTRIES[i % COUNTRIES.length] ?? `C${i}`,
      spend,
      installs,
      installsCpi: Math.round((spend / installs) * 1000) / 1000,
      ctr: 0.012 + (i % 5) * 0.003,
    };
  });
  rows[count - 1] = { ...rows[count - 1], ctr: null } as PivotRow;
  const base = timeSeriesView();
  return {
    ...base,
    reportId: 'top-countries',
    title: 'Top countries by spend',
    columns,
    rows,
    totalRowCount,
    headline: ['spend', 'installs', 'installsCpi'],
    comparison: {
      ...(base.comparison as NonNullable<ReportView['comparison']>),
      rows: rows.map((r, i) => ({
        spend: delta(Number(r.spend), Number(r.spend) * (0.85 + (i % 3) * 0.12)),
        installs: delta(Number(r.installs), Number(r.installs) * (1.1 - (i % 4) * 0.08)),
        installsCpi: delta(Number(r.installsCpi), Number(r.installsCpi) * 0.93),
      })),
      previousRows: [],
    },
    chart: { kind: 'bar', x: 'countryCode', series: ['spend'] },
    csvPath: 'top-countries.csv',
  };
}

/** Installs by day, stacked by platform. */
export function stackedView(): ReportView {
  const columns = [
    dimension('date', 'Date', 'time'),
    dimension('platform', 'Platform'),
    metric('installs', 'Installs'),
  ];
  const rows: PivotRow[] = [];
  for (let i = 0; i < 7; i++) {
    for (const [p, platform] of ['IOS', 'ANDROID', 'CTV'].entries()) {
      rows.push({ date: day(i), platform, installs: Math.round(wave(i, 900 - p * 350, 120, p)) });
    }
  }
  const base = timeSeriesView();
  const { comparison: _comparison, ...rest } = base;
  return {
    ...rest,
    reportId: 'installs-by-platform',
    title: 'Installs by platform',
    columns,
    rows,
    totalRowCount: rows.length,
    totals: { installs: rows.reduce((a, r) => a + Number(r.installs), 0) },
    headline: ['installs'],
    chart: { kind: 'stacked_bar', x: 'date', series: ['installs'], stackBy: 'platform' },
  };
}

/** A postbackShare result with two keys. */
export function shareView(): ReportView {
  const base = timeSeriesView();
  const { comparison: _comparison, chart: _chart, totals: _totals, ...rest } = base;
  return {
    ...rest,
    reportId: 'postback-share',
    title: 'Purchase postbacks by currency and tier',
    columns: [],
    rows: [],
    totalRowCount: 0,
    headline: [],
    postbacks: [
      {
        postbackKey: 'currency',
        totalCount: 1000,
        totalRevenue: null,
        results: [
          { value: 'USD', count: 520, percentage: 52, revenue: null },
          { value: 'EUR', count: 230, percentage: 23, revenue: null },
          { value: 'BRL', count: 150, percentage: 15, revenue: null },
          { value: 'JPY', count: 100, percentage: 10, revenue: null },
        ],
      },
      {
        postbackKey: 'tier',
        totalCount: 800,
        totalRevenue: null,
        results: [
          { value: 'gold', count: 80, percentage: 10, revenue: null },
          { value: 'silver', count: 320, percentage: 40, revenue: null },
          { value: 'USD', count: 400, percentage: 50, revenue: null },
        ],
      },
    ],
    chart: { kind: 'share', x: 'value', series: [] },
  };
}

/** A result far beyond Slack's limits: 150 rows × 24 columns, long texts, a dozen headline KPIs. */
export function hugeView(): ReportView {
  const metricNames = [
    'spend',
    'installs',
    'installsCpi',
    'clicks',
    'impressions',
    'ctr',
    'cpc',
    'cpm',
    'events',
    'eventsCpa',
    'eventValue',
    'eventsRate',
  ];
  const columns: ViewColumn[] = [dimension('campaign', 'Campaign'), dimension('countryCode', 'Country')];
  for (let i = 0; i < 22; i++) {
    const name = metricNames[i % metricNames.length] as string;
    columns.push(metric(i < metricNames.length ? name : `${name}${i}`, `${name} ${i}`, name));
  }
  const rows: PivotRow[] = Array.from({ length: 150 }, (_, r) => {
    const row: PivotRow = {
      campaign: `Campaign with a rather long name number ${r} ${'x'.repeat(r % 40)}`,
      countryCode: COUNTRIES[r % 15] ?? 'US',
    };
    for (const [c, col] of columns.entries()) if (col.kind === 'metric') row[col.key] = (r + 1) * (c + 1) * 12.5;
    return row;
  });
  const base = timeSeriesView();
  return {
    ...base,
    reportId: 'huge',
    title: `A report with a very long title ${'that keeps going '.repeat(12)}`,
    columns,
    rows,
    totalRowCount: 5000,
    totals: Object.fromEntries(columns.filter((c) => c.kind === 'metric').map((c) => [c.key, 1234.5])),
    headline: columns.filter((c) => c.kind === 'metric').map((c) => c.key),
    warnings: Array.from(
      { length: 14 },
      (_, i) => `warning ${i}: ${'siteBundle is null before three months ago. '.repeat(3)}`,
    ),
    chart: { kind: 'bar', x: 'campaign', series: ['spend'] },
  };
}
