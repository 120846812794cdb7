import {
  compileFilter,
  compilePivot,
  type FieldRequest,
  filterConditions,
  type PivotQuery,
} from '../../../src/sandbox/sql/compileSql.js';
import type { JoinName } from '../../../src/sandbox/sql/joins.js';

const field = (name: string, args: Record<string, unknown> = {}, key = name): FieldRequest => ({ name, args, key });

const base: PivotQuery = {
  from: { kind: 'local', local: '2026-11-01 00:00:00' },
  to: { kind: 'instant', iso: '2026-11-08T00:00:00.000Z' },
  timeZone: 'America/New_York',
  dimensions: [],
  metrics: [],
  filter: null,
  cleanup: null,
  cohortType: null,
  cohortWindow: null,
  qualityType: 'op',
  removeZeroRows: false,
  channel: 'MOBILE',
  includeTotals: true,
  siteBundleSince: '2026-08-05T00:00:00.000Z',
};

describe('compilePivot', () => {
  it('groups by the dimensions, reads from inclusive to exclusive in the request zone, and adds a totals row', () => {
    const { sql, columns } = compilePivot({
      ...base,
      dimensions: [field('countryCode'), field('date', { granularity: 'DAILY' }, 'date(g)')],
      metrics: [field('impressions'), field('installsCpi', { attrTouch: 'CLICK' }, 'cpi')],
    });
    expect(sql).toContain("f.ts >= timezone('America/New_York', TIMESTAMP '2026-11-01 00:00:00')");
    expect(sql).toContain("f.ts < TIMESTAMPTZ '2026-11-08 00:00:00.000+00'");
    expect(sql).toContain('GROUP BY d0, d1');
    expect(sql).toContain("date_trunc('day', timezone('America/New_York', f.ts))");
    expect(sql).toContain('LEFT JOIN countries k ON k.country_idx = geo.country_idx');
    expect(sql).toContain('f.touch = 1');
    expect(sql).toContain('UNION ALL');
    expect(sql).toContain('f.channel = 0');
    expect(columns.map((c) => [c.key, c.column, c.kind])).toEqual([
      ['countryCode', 'k0', 'dimension'],
      ['date(g)', 'k1', 'dimension'],
      ['impressions', 'm0', 'metric'],
      ['cpi', 'm1', 'metric'],
    ]);
  });

  it('shares one aggregate between metrics that need the same component', () => {
    const { sql } = compilePivot({ ...base, metrics: [field('spend'), field('cpm'), field('cpc')] });
    expect(sql.match(/SUM\(f\.spend\)/g)).toHaveLength(1);
  });

  it('divides safely: NULLIF on every denominator, COALESCE to 0 for the non-null Float! metrics', () => {
    const { sql } = compilePivot({ ...base, metrics: [field('ctr'), field('absoluteCpx')] });
    expect(sql).toMatch(/NULLIF\(c\d+, 0\)/);
    expect(sql).toContain('COALESCE((c');
  });

  it('applies cleanup after aggregation, Long thresholds given as strings', () => {
    const { sql } = compilePivot({
      ...base,
      dimensions: [field('campaignId')],
      metrics: [field('spend')],
      cleanup: { installs: { greaterThan: '10' }, spend: { lowerOrEqualThan: 99.5 } },
    });
    const kept = sql.slice(sql.indexOf('kept AS'));
    expect(kept).toMatch(/COALESCE\(c\d+, 0\) > 10/);
    expect(kept).toMatch(/COALESCE\(c\d+, 0\) <= 99.5/);
  });

  it('removes zero rows only when asked', () => {
    const asked = compilePivot({ ...base, metrics: [field('installs')], removeZeroRows: true });
    expect(asked.sql).toContain('NOT (COALESCE(');
    expect(compilePivot({ ...base, metrics: [field('installs')] }).sql).not.toContain('NOT (COALESCE(');
  });

  it('buckets cohorts by install time and bounds them by the window', () => {
    const { sql } = compilePivot({
      ...base,
      metrics: [field('events')],
      cohortType: 'INSTALL',
      cohortWindow: { amount: 2, period: 'DAYS' },
    });
    expect(sql).toContain('f.ts - to_hours(COALESCE(f.h_install, 0)::BIGINT)');
    expect(sql).toContain('f.h_install <= 48');
  });

  it('cuts hourly buckets in local time so DST days keep their 23 or 25 hours', () => {
    const { sql } = compilePivot({ ...base, dimensions: [field('date', { granularity: 'HOURLY' })] });
    expect(sql).toContain(
      "(f.ts - (timezone('America/New_York', f.ts) - date_trunc('hour', timezone('America/New_York', f.ts))))",
    );
  });

  it('reads the contractual goal under quality_type contr', () => {
    const { sql } = compilePivot({
      ...base,
      qualityType: 'contr',
      dimensions: [field('goalType')],
      metrics: [field('keyMetric')],
    });
    expect(sql).toContain('c.contr_goal_type AS d0');
    expect(sql).toContain("f.attr_src = CASE c.contr_source WHEN 'MMP' THEN 1 ELSE 2 END");
  });

  it('reads every channel with campaignChannel ALL and only CTV rows with CTV', () => {
    expect(compilePivot({ ...base, channel: 'ALL', metrics: [field('spend')] }).sql).not.toContain('f.channel =');
    expect(compilePivot({ ...base, channel: 'CTV', metrics: [field('spend')] }).sql).toContain('f.channel = 1');
  });

  it('leaves totals out for CSV exports', () => {
    expect(compilePivot({ ...base, includeTotals: false, metrics: [field('spend')] }).sql).not.toContain('UNION ALL');
  });
});

describe('filters', () => {
  it('builds NULL-safe negative conditions and handles empty lists', () => {
    expect(filterConditions('k.code', { equals: 'US', notEquals: "O'Neil" })).toEqual([
      "k.code = 'US'",
      "k.code IS DISTINCT FROM 'O''Neil'",
    ]);
    expect(filterConditions('x', { isIn: [], isNotIn: [] })).toEqual(['false', 'true']);
    expect(filterConditions('x', { isNotIn: [1, 2] })).toEqual(['(x IS NULL OR x NOT IN (1, 2))']);
  });

  it('restricts only event rows for eventId and only conversion rows for attrSource', () => {
    const joins = new Set<JoinName>();
    const conds = compileFilter({ eventId: { equals: 1014 }, attrSource: { equals: 'SKAD' }, archived: false }, joins);
    expect(conds).toEqual([
      '(f.kind <> 2 OR (f.event_id = 1014))',
      "(f.kind = 0 OR (CASE f.attr_src WHEN 1 THEN 'MMP' WHEN 2 THEN 'SKAD' END = 'SKAD'))",
      '(c.archived = false)',
    ]);
    expect([...joins]).toEqual(['c']);
  });

  it('refuses a field it does not know', () => {
    expect(() => compileFilter({ nope: { equals: 1 } }, new Set())).toThrow(/unknown filter field nope/);
  });
});
