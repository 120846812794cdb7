/**
 * Conformance of the semantics against direct SQL on the sandbox's own tables: filters, cleanup,
 * `to` exclusive, time zones and DST buckets, cohorts, channels, dimension rules, siteBundle age.
 */
import { getInputType } from '../../../src/reporting/catalog/index.js';
import { useSandbox } from '../../support/sandboxClient.js';

const NOW = new Date('2026-11-05T12:00:00Z');
const FROM = '2026-10-29T00:00:00Z';
const TO = '2026-11-04T00:00:00Z';
const WINDOW = `f.ts >= TIMESTAMPTZ '2026-10-29 00:00:00+00' AND f.ts < TIMESTAMPTZ '2026-11-04 00:00:00+00'`;
const JOINED = `facts f JOIN campaigns c ON c.campaign_id = f.campaign_id JOIN groups g ON g.group_id = f.group_id
  JOIN ads a ON a.ad_id = f.ad_id JOIN sites s ON s.site_id = f.site_id JOIN geo ON geo.geo_id = f.geo_id
  JOIN countries k ON k.country_idx = geo.country_idx`;

/** Each Filter field as a column of the joined tables, written here independently of the compiler. */
const FILTER_SQL: Readonly<Record<string, string>> = {
  adId: 'f.ad_id',
  adSetId: 'f.group_id',
  advertiserId: 'c.advertiser_id',
  appId: 'c.app_id',
  campaignId: 'f.campaign_id',
  campaignTypeId: "CASE c.type WHEN 'UA' THEN 1 ELSE 2 END",
  groupId: 'f.group_id',
  sourceId: 'f.source_id::INTEGER',
  adSize: 'a.size',
  adType: 'a.type',
  campaignCountry: 'c.country_code',
  campaignGoalType: 'c.goal_type',
  campaignContractualGoalType: 'c.contr_goal_type',
  adSetTemplate: 'g.template',
  city: 'geo.city',
  countryCode: 'k.code',
  countryName: 'k.name',
  region: 'geo.region',
  siteName: 's.name',
  siteCategory: 's.category',
  siteSubcategory: 's.subcategory',
  siteBundle: 's.bundle',
  appPlatform: 'c.platform',
  campaignTrackerType: 'c.tracker',
  campaignType: 'c.type',
  groupExperiment: 'g.experiment',
  groupType: 'g.group_type',
  status: 'c.status',
};

const t = useSandbox({ scale: 'small', seed: 5, now: NOW });

type Row = Record<string, string | number | null>;
interface PivotData {
  pivot: { results: Row[]; totals: Row };
}
const sqlOne = async (query: string): Promise<string> =>
  String(Object.values((await t.sandbox.sql(query))[0] ?? {})[0] ?? 0);
const totals = async (filter: Record<string, unknown>): Promise<Row> =>
  (
    await t.client.data<PivotData>(
      'query($f: Filter, $from: DateTime!, $to: DateTime!) { pivot(from: $from, to: $to, filter: $f) { totals { impressions installs events } } }',
      { f: filter, from: FROM, to: TO },
    )
  ).pivot.totals;
const lit = (v: unknown): string => (typeof v === 'string' ? `'${v.replaceAll("'", "''")}'` : String(v));

describe('filters match direct SQL', () => {
  it('covers every Filter field of the catalog', () => {
    const fields = getInputType('Filter')?.fields.map((f) => f.name) ?? [];
    expect(fields.filter((f) => !(f in FILTER_SQL)).sort()).toEqual(['archived', 'attrSource', 'eventId']);
  });

  it.each(Object.entries(FILTER_SQL))('%s: equals, notEquals, isIn and isNotIn', async (field, column) => {
    const values = await t.sandbox.sql(
      `SELECT ${column} AS v FROM ${JOINED} WHERE ${WINDOW} AND f.channel = 0 GROUP BY 1 ORDER BY count(*) DESC, 1 LIMIT 2`,
    );
    const v = values[0]?.v;
    const w = values[1]?.v ?? v;
    const cases: [Record<string, unknown>, string][] = [
      [{ equals: v }, `${column} = ${lit(v)}`],
      [{ notEquals: v }, `${column} IS DISTINCT FROM ${lit(v)}`],
      [{ isIn: [v, w] }, `${column} IN (${lit(v)}, ${lit(w)})`],
      [{ isNotIn: [v] }, `${column} NOT IN (${lit(v)})`],
    ];
    const ops = new Set(
      getInputType(getInputType('Filter')?.fields.find((f) => f.name === field)?.type ?? '')?.fields.map((f) => f.name),
    );
    expect(ops.has('equals') && ops.has('notEquals')).toBe(true);
    for (const [spec, where] of cases.filter(([spec]) => ops.has(Object.keys(spec)[0] ?? ''))) {
      const expected = await sqlOne(
        `SELECT COALESCE(sum(impressions), 0)::BIGINT FROM ${JOINED} WHERE ${WINDOW} AND f.channel = 0 AND ${where}`,
      );
      expect([field, spec, (await totals({ [field]: spec })).impressions]).toEqual([field, spec, expected]);
    }
  });

  it('archived restricts to archived (or live) campaigns', async () => {
    for (const flag of [true, false]) {
      const expected = await sqlOne(
        `SELECT COALESCE(sum(impressions), 0)::BIGINT FROM ${JOINED} WHERE ${WINDOW} AND f.channel = 0 AND c.archived = ${flag}`,
      );
      expect((await totals({ archived: flag })).impressions).toBe(expected);
    }
  });

  it('eventId and attrSource restrict conversions only, leaving delivery untouched', async () => {
    const all = await totals({});
    const byEvent = await totals({ eventId: { equals: 1014 } });
    expect(byEvent.impressions).toBe(all.impressions);
    expect(byEvent.events).toBe(
      await sqlOne(
        `SELECT COALESCE(sum(cnt), 0)::BIGINT FROM facts f WHERE ${WINDOW} AND f.channel = 0 AND kind = 2 AND NOT assisted AND event_id = 1014`,
      ),
    );
    const skad = await totals({ attrSource: { equals: 'SKAD' } });
    expect(skad.impressions).toBe(all.impressions);
    expect(skad.installs).toBe(
      await sqlOne(
        `SELECT COALESCE(sum(cnt), 0)::BIGINT FROM facts f WHERE ${WINDOW} AND f.channel = 0 AND kind = 1 AND NOT assisted AND attr_src = 2`,
      ),
    );
  });
});

describe('cleanup and removeZeroRows', () => {
  let unfiltered: Row[];
  beforeAll(async () => {
    const data = await t.client.data<PivotData>(`{ pivot(from: "${FROM}", to: "${TO}") {
      results { campaignId clicks events impressions installs sourceViewa spend } } }`);
    unfiltered = data.pivot.results;
  });

  const FIELDS: [string, string, boolean][] = [
    ['clicks', 'clicks', true],
    ['events', 'events', true],
    ['impressions', 'impressions', true],
    ['installs', 'installs', true],
    ['processedInstalls', 'installs', true],
    ['sourceViewa', 'sourceViewa', true],
    ['spend', 'spend', false],
  ];
  const OPS: Readonly<Record<string, (a: number, b: number) => boolean>> = {
    greaterThan: (a, b) => a > b,
    greaterOrEqualThan: (a, b) => a >= b,
    lowerThan: (a, b) => a < b,
    lowerOrEqualThan: (a, b) => a <= b,
  };

  it.each(FIELDS)(
    '%s thresholds keep exactly the rows that satisfy them, after aggregation',
    async (field, metric, isLong) => {
      const sorted = unfiltered.map((r) => Number(r[metric] ?? 0)).sort((a, b) => a - b);
      const median = sorted[Math.floor(sorted.length / 2)] ?? 0;
      // sourceViewa is a 0..1 fraction behind a Long threshold: only 0 and 1 are meaningful.
      const threshold = field === 'sourceViewa' ? 0 : Math.floor(median);
      for (const [op, test] of Object.entries(OPS)) {
        const value = isLong ? JSON.stringify(String(threshold)) : String(threshold);
        const data =
          await t.client.data<PivotData>(`{ pivot(from: "${FROM}", to: "${TO}", cleanup: { ${field}: { ${op}: ${value} } }) {
        results { campaignId } totals { impressions } } }`);
        const expected = unfiltered.filter((r) => test(Number(r[metric] ?? 0), threshold));
        expect([field, op, data.pivot.results.map((r) => r.campaignId)]).toEqual([
          field,
          op,
          expected.map((r) => r.campaignId),
        ]);
        const sum = expected.reduce((s, r) => s + BigInt(String(r.impressions)), 0n);
        expect(data.pivot.totals.impressions).toBe(String(sum));
      }
    },
  );

  it('removeZeroRows drops rows whose requested metrics are all zero', async () => {
    const query = (
      remove: boolean,
    ) => `{ pivot(from: "2026-11-03T10:00:00Z", to: "2026-11-03T11:00:00Z", options: { removeZeroRows: ${remove} }) {
      results { campaignId installs events } } }`;
    const all = (await t.client.data<PivotData>(query(false))).pivot.results;
    const kept = (await t.client.data<PivotData>(query(true))).pivot.results;
    expect(all.some((r) => r.installs === '0' && r.events === '0')).toBe(true);
    expect(kept).toEqual(all.filter((r) => r.installs !== '0' || r.events !== '0'));
  });
});

describe('time', () => {
  const hourly = async (from: string, to: string, zone = 'UTC') =>
    (
      await t.client.data<PivotData>(`{ pivot(from: "${from}", to: "${to}", context: { sqlTimeZone: "${zone}" }) {
        results { date(granularity: HOURLY) timeOfDay impressions } totals { impressions } } }`)
    ).pivot;

  it('includes from and excludes to', async () => {
    const day = await hourly('2026-11-03T00:00:00Z', '2026-11-04T00:00:00Z');
    expect(day.results).toHaveLength(24);
    expect(day.results[0]?.date).toBe('2026-11-03T00:00:00+00:00');
    expect(day.results[23]?.date).toBe('2026-11-03T23:00:00+00:00');
    expect(day.totals.impressions).toBe(
      await sqlOne(
        `SELECT sum(impressions)::BIGINT FROM facts f WHERE channel = 0 AND ts >= TIMESTAMPTZ '2026-11-03 00:00:00+00' AND ts < TIMESTAMPTZ '2026-11-04 00:00:00+00'`,
      ),
    );
    expect((await hourly('2026-11-03T05:00:00Z', '2026-11-03T06:00:00Z')).results.map((r) => r.date)).toEqual([
      '2026-11-03T05:00:00+00:00',
    ]);
    expect((await hourly('2026-11-03T05:00:00Z', '2026-11-03T05:00:00Z')).results).toEqual([]);
  });

  it('reads zoneless from/to in context.sqlTimeZone and buckets days there, across the DST change', async () => {
    const data =
      await t.client.data<PivotData>(`{ pivot(from: "2026-10-31", to: "2026-11-03", context: { sqlTimeZone: "America/New_York" }) {
      results { date(granularity: DAILY) dayOfWeek impressions } } }`);
    expect(data.pivot.results.map((r) => [r.date, r.dayOfWeek])).toEqual([
      ['2026-10-31T00:00:00-04:00', 'Saturday'],
      ['2026-11-01T00:00:00-04:00', 'Sunday'],
      ['2026-11-02T00:00:00-05:00', 'Monday'],
    ]);
    const bounds = [
      '2026-10-31 04:00:00+00',
      '2026-11-01 04:00:00+00',
      '2026-11-02 05:00:00+00',
      '2026-11-03 05:00:00+00',
    ];
    for (let i = 0; i < 3; i++) {
      expect(data.pivot.results[i]?.impressions).toBe(
        await sqlOne(
          `SELECT sum(impressions)::BIGINT FROM facts WHERE channel = 0 AND ts >= TIMESTAMPTZ '${bounds[i]}' AND ts < TIMESTAMPTZ '${bounds[i + 1]}'`,
        ),
      );
    }
  });

  it('gives the fall-back day 25 hourly buckets (New York and London)', async () => {
    const ny = await hourly('2026-11-01', '2026-11-02', 'America/New_York');
    expect(ny.results).toHaveLength(25);
    expect(ny.results.map((r) => r.date)).toEqual(
      expect.arrayContaining(['2026-11-01T01:00:00-04:00', '2026-11-01T01:00:00-05:00']),
    );
    expect(ny.results.filter((r) => r.timeOfDay === 1)).toHaveLength(2);
    const london = await hourly('2026-10-25', '2026-10-26', 'Europe/London');
    expect(london.results).toHaveLength(25);
    expect(london.results[0]?.date).toBe('2026-10-25T00:00:00+01:00');
    expect(london.results.at(-1)?.date).toBe('2026-10-25T23:00:00+00:00');
  });

  it('starts the spring-forward day at local midnight with the new offset the next day (Sydney)', async () => {
    const data =
      await t.client.data<PivotData>(`{ pivot(from: "2026-10-04", to: "2026-10-06", context: { sqlTimeZone: "Australia/Sydney" }) {
      results { date(granularity: DAILY) } } }`);
    expect(data.pivot.results.map((r) => r.date)).toEqual(['2026-10-04T00:00:00+10:00', '2026-10-05T00:00:00+11:00']);
  });

  it('rolls hourly requests older than 15 days up to daily rows', async () => {
    const old = await hourly('2026-10-01', '2026-10-02');
    expect(old.results.map((r) => r.date)).toEqual(['2026-10-01T00:00:00+00:00']);
  });

  it('buckets weeks, months and NONE, and formats dateToStr with a Joda pattern', async () => {
    const data = await t.client.data<PivotData>(`{ pivot(from: "2026-10-01", to: "2026-11-04") {
      results { date(granularity: WEEKLY) }
      totals { impressions } } }`);
    expect(
      data.pivot.results.every((r) => /^2026-(09-28|10-(05|12|19|26)|11-02)T00:00:00\+00:00$/.test(String(r.date))),
    ).toBe(true);
    const months = await t.client.data<PivotData>(`{ pivot(from: "2026-10-01", to: "2026-11-04") {
      results { date(granularity: MONTHLY) label: dateToStr(formatString: "MMM yyyy") } } }`);
    expect(months.pivot.results.map((r) => [r.date, r.label])).toEqual([
      ['2026-10-01T00:00:00+00:00', 'Oct 2026'],
      ['2026-11-01T00:00:00+00:00', 'Nov 2026'],
    ]);
    const none = await t.client.data<PivotData>(
      `{ pivot(from: "2026-10-01", to: "2026-11-04") { results { date(granularity: NONE) } } }`,
    );
    expect(none.pivot.results).toEqual([{ date: '2026-10-01T00:00:00+00:00' }]);
  });

  it('refuses an unknown time zone with a clear error', async () => {
    const res = await t.client.gql(
      `{ pivot(from: "2026-11-01", to: "2026-11-02", context: { sqlTimeZone: "Mars/Base" }) { totals { impressions } } }`,
    );
    expect(res.body.errors?.[0]?.message).toMatch(/sqlTimeZone: "Mars\/Base" is not a known time zone/);
  });
});

describe('cohorts, channels, quality and rules', () => {
  it('buckets events by install day and bounds them by the cohort window', async () => {
    const data =
      await t.client.data<PivotData>(`{ pivot(from: "${FROM}", to: "${TO}", cohortType: INSTALL, cohortWindow: { amount: 1, period: DAYS }) {
      totals { events } } }`);
    expect(data.pivot.totals.events).toBe(
      await sqlOne(`SELECT sum(cnt)::BIGINT FROM facts WHERE channel = 0 AND kind = 2 AND NOT assisted AND h_install <= 24
        AND ts - to_hours(h_install::BIGINT) >= TIMESTAMPTZ '2026-10-29 00:00:00+00' AND ts - to_hours(h_install::BIGINT) < TIMESTAMPTZ '2026-11-04 00:00:00+00'`),
    );
  });

  it('reads CTV rows with campaignChannel CTV, both with ALL (= appendCtvData)', async () => {
    const channel = async (arg: string) =>
      (await t.client.data<PivotData>(`{ pivot(from: "${FROM}", to: "${TO}"${arg}) { totals { impressions } } }`)).pivot
        .totals.impressions;
    const mobile = BigInt(String(await channel('')));
    const ctv = BigInt(String(await channel(', campaignChannel: CTV')));
    expect(String(ctv)).toBe(
      await sqlOne(`SELECT sum(impressions)::BIGINT FROM facts f WHERE ${WINDOW} AND channel = 1`),
    );
    expect(await channel(', campaignChannel: ALL')).toBe(String(mobile + ctv));
    expect(await channel(', appendCtvData: true')).toBe(String(mobile + ctv));
    expect(await channel(', appendCtvData: true, campaignChannel: MOBILE')).toBe(String(mobile));
  });

  it.each([
    [
      'siteName with city',
      '{ siteName city impressions }',
      '',
      /siteName and siteBundle cannot be queried together with/,
    ],
    ['siteBundle with adId', '{ siteBundle adId }', '', /Unsupported dimension combination \(siteBundle, adId\)/],
    ['campaignId with CTV data', '{ campaignId }', ', appendCtvData: true', /use campaignIdCtvNormalized instead/],
    ['adId with campaignChannel CTV', '{ adId }', ', campaignChannel: CTV', /use adIdCtvNormalized instead/],
    ['a CTV field on mobile data', '{ osCtvNormalized }', '', /applies only when connected-TV data is appended/],
  ])('refuses %s with a clear GraphQL error', async (_name, results, args, message) => {
    const res = await t.client.gql(`{ pivot(from: "${FROM}", to: "${TO}"${args}) { results ${results} } }`);
    expect(res.status).toBe(200);
    expect(res.body.data).toBeNull();
    expect(res.body.errors?.[0]?.message).toMatch(message);
  });

  it('switches goalType and the key metric to the contractual goal under quality_type contr', async () => {
    const q = (
      quality: string,
    ) => `{ pivot(from: "${FROM}", to: "${TO}", quality_type: ${quality}, filter: { campaignId: { equals: 1001 } }) {
      results { goalType keyMetric } } }`;
    const [campaign] = await t.sandbox.sql('SELECT goal_type, contr_goal_type FROM campaigns WHERE campaign_id = 1001');
    expect((await t.client.data<PivotData>(q('op'))).pivot.results[0]?.goalType).toBe(campaign?.goal_type);
    expect((await t.client.data<PivotData>(q('contr'))).pivot.results[0]?.goalType).toBe(campaign?.contr_goal_type);
    expect((await t.client.data<PivotData>(q('contr_comp'))).pivot.results[0]?.goalType).toBe(
      campaign?.contr_goal_type,
    );
  });

  it('nulls siteBundle older than three months, keeps it on recent data', async () => {
    const bundles = async (from: string, to: string) =>
      (await t.client.data<PivotData>(`{ pivot(from: "${from}", to: "${to}") { results { siteBundle } } }`)).pivot
        .results;
    expect(await bundles('2026-08-01', '2026-08-03')).toEqual([{ siteBundle: null }]);
    const recent = await bundles('2026-11-01', '2026-11-02');
    expect(recent.length).toBeGreaterThan(3);
    expect(recent.every((r) => typeof r.siteBundle === 'string')).toBe(true);
  });
});
