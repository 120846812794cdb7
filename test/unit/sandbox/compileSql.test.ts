import {
  compileFilter,
  compilePivot,
  type FieldRequest,
  filterConditions,
  type PivotQuery,
} from '../../../src/sandbox/sql/compileSql.js';
import type { JoinName } from '../../../src/sandbox/sql/joins.js';
import { SqlParams, type SqlValue } from '../../../src/sandbox/sql/SqlParams.js';

const field = (name: string, args: Record<string, unknown> = {}, key = name): FieldRequest => ({ name, args, key });

/** The SQL with each `$n` shown as the literal it stands for, so assertions read like the query DuckDB runs. */
function shown(compiled: { sql: string; params: readonly SqlValue[] }): string {
  return compiled.sql.replace(/\$(\d+)/g, (_, n: string) => {
    const value = compiled.params[Number(n) - 1];
    return typeof value === 'string' ? `'${value.replaceAll("'", "''")}'` : String(value);
  });
}

/** compilePivot with the placeholders shown as literals. */
const compiled = (q: PivotQuery) => {
  const c = compilePivot(q);
  return { ...c, sql: shown(c) };
};

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
    const { sql, columns } = compiled({
      ...base,
      dimensions: [field('countryCode'), field('date', { granularity: 'DAILY' }, 'date(g)')],
      metrics: [field('impressions'), field('installsCpi', { attrTouch: 'CLICK' }, 'cpi')],
    });
    expect(sql).toContain("f.ts >= timezone('America/New_York', '2026-11-01 00:00:00'::TIMESTAMP)");
    expect(sql).toContain("f.ts < '2026-11-08 00:00:00.000+00'::TIMESTAMPTZ");
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
    const { sql } = compiled({ ...base, metrics: [field('spend'), field('cpm'), field('cpc')] });
    expect(sql.match(/SUM\(f\.spend\)/g)).toHaveLength(1);
  });

  it('divides safely: NULLIF on every denominator, COALESCE to 0 for the non-null Float! metrics', () => {
    const { sql } = compiled({ ...base, metrics: [field('ctr'), field('absoluteCpx')] });
    expect(sql).toMatch(/NULLIF\(c\d+, 0\)/);
    expect(sql).toContain('COALESCE((c');
  });

  it('applies cleanup after aggregation, Long thresholds given as strings', () => {
    const { sql } = compiled({
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
    const asked = compiled({ ...base, metrics: [field('installs')], removeZeroRows: true });
    expect(asked.sql).toContain('NOT (COALESCE(');
    expect(compiled({ ...base, metrics: [field('installs')] }).sql).not.toContain('NOT (COALESCE(');
  });

  it('buckets cohorts by install time and bounds them by the window', () => {
    const { sql } = compiled({
      ...base,
      metrics: [field('events')],
      cohortType: 'INSTALL',
      cohortWindow: { amount: 2, period: 'DAYS' },
    });
    expect(sql).toContain('f.ts - to_hours(COALESCE(f.h_install, 0)::BIGINT)');
    expect(sql).toContain('f.h_install <= 48');
  });

  it('cuts hourly buckets in local time so DST days keep their 23 or 25 hours', () => {
    const { sql } = compiled({ ...base, dimensions: [field('date', { granularity: 'HOURLY' })] });
    expect(sql).toContain(
      "(f.ts - (timezone('America/New_York', f.ts) - date_trunc('hour', timezone('America/New_York', f.ts))))",
    );
  });

  it('reads the contractual goal under quality_type contr', () => {
    const { sql } = compiled({
      ...base,
      qualityType: 'contr',
      dimensions: [field('goalType')],
      metrics: [field('keyMetric')],
    });
    expect(sql).toContain('c.contr_goal_type AS d0');
    expect(sql).toContain("f.attr_src = CASE c.contr_source WHEN 'MMP' THEN 1 ELSE 2 END");
  });

  it('reads every channel with campaignChannel ALL and only CTV rows with CTV', () => {
    expect(compiled({ ...base, channel: 'ALL', metrics: [field('spend')] }).sql).not.toContain('f.channel =');
    expect(compiled({ ...base, channel: 'CTV', metrics: [field('spend')] }).sql).toContain('f.channel = 1');
  });

  it('leaves totals out for CSV exports', () => {
    expect(compiled({ ...base, includeTotals: false, metrics: [field('spend')] }).sql).not.toContain('UNION ALL');
  });
});

describe('filters', () => {
  it('builds NULL-safe negative conditions over bound values and handles empty lists', () => {
    const params = new SqlParams();
    expect(filterConditions('k.code', { equals: 'US', notEquals: "O'Neil" }, params)).toEqual([
      'k.code = $1',
      'k.code IS DISTINCT FROM $2',
    ]);
    expect(filterConditions('x', { isIn: [], isNotIn: [] }, params)).toEqual(['false', 'true']);
    expect(filterConditions('x', { isNotIn: [1, 2, 'US'] }, params)).toEqual(['(x IS NULL OR x NOT IN ($3, $4, $1))']);
    expect(params.values).toEqual(['US', "O'Neil", 1, 2]);
  });

  it('restricts only event rows for eventId and only conversion rows for attrSource', () => {
    const joins = new Set<JoinName>();
    const params = new SqlParams();
    const conds = compileFilter(
      { eventId: { equals: 1014 }, attrSource: { equals: 'SKAD' }, archived: false },
      joins,
      params,
    );
    expect(conds).toEqual([
      '(f.kind <> 2 OR (f.event_id = $1))',
      "(f.kind = 0 OR (CASE f.attr_src WHEN 1 THEN 'MMP' WHEN 2 THEN 'SKAD' END = $2))",
      '(c.archived = $3)',
    ]);
    expect(params.values).toEqual([1014, 'SKAD', false]);
    expect([...joins]).toEqual(['c']);
  });

  it('refuses a field it does not know', () => {
    expect(() => compileFilter({ nope: { equals: 1 } }, new Set(), new SqlParams())).toThrow(
      /unknown filter field nope/,
    );
  });
});

describe('request values are bound, never SQL text', () => {
  const hostile = "x'); DROP TABLE facts; --";

  it('binds filter values, dates, the zone, formats, metric arguments, cohort windows and thresholds', () => {
    const { sql, params } = compilePivot({
      ...base,
      dimensions: [field('countryCode'), field('dateToStr', { formatString: `yyyy '${hostile}'` })],
      metrics: [field('events', { eventId: 4242, vtaWindow: 17 }), field('spend')],
      filter: { countryCode: { isIn: ['BR', hostile] }, campaignId: { equals: 90210 } },
      cleanup: { spend: { greaterThan: 1234.5 } },
      cohortType: 'INSTALL',
      cohortWindow: { amount: 3, period: 'DAYS' },
    });
    for (const value of [
      'BR',
      'DROP TABLE',
      '4242',
      '90210',
      '1234.5',
      '2026-11-01',
      '2026-11-08',
      'America/New_York',
    ]) {
      expect(sql).not.toContain(value);
    }
    expect(sql).not.toMatch(/\b72\b/);
    expect(params).toEqual(
      expect.arrayContaining(['BR', hostile, 4242, 17, 90210, 1234.5, 72, 'America/New_York', '2026-11-01 00:00:00']),
    );
    expect(params.find((p) => typeof p === 'string' && p.startsWith('%Y') && p.includes('DROP'))).toBeDefined();
  });

  it('gives equal values one placeholder, so equal components stay one aggregate', () => {
    const { sql } = compilePivot({
      ...base,
      metrics: [field('events', { eventId: 7 }), field('eventsCpa', { eventId: 7 })],
    });
    expect(sql.match(/f\.event_id = \$\d+/g)?.length).toBe(1);
  });
});

describe('the bound statement', () => {
  it('binds exactly the values its text uses, numbered in order (a zone no local time needed is left out)', () => {
    const { sql, params } = compilePivot({
      ...base,
      from: { kind: 'instant', iso: '2026-11-01T03:00:00.000Z' },
      timeZone: 'America/Sao_Paulo',
      dimensions: [field('countryCode')],
      metrics: [field('spend')],
    });
    const used = [...new Set([...sql.matchAll(/\$(\d+)/g)].map((m) => Number(m[1])))];
    expect(used).toEqual(params.map((_, i) => i + 1));
    expect(params).not.toContain('America/Sao_Paulo');
  });

  it('renumbers placeholders to the ones a statement kept', () => {
    const params = new SqlParams();
    const unused = params.ref('dropped');
    const kept = params.ref(42);
    expect(unused).toBe('$1');
    expect(params.finish(`x = ${kept} AND y = ${kept}`)).toEqual({ sql: 'x = $1 AND y = $1', values: [42] });
  });
});
