/**
 * Conformance, generated from the catalog: every dimension, metric and metric argument is
 * queried; totals equal the sum of rows for additive metrics; ratios equal their components.
 */
import { DIMENSIONS, getMetric, METRICS } from '../../../src/reporting/catalog/index.js';
import { useSandbox } from '../../support/sandboxClient.js';

const NOW = new Date('2026-11-05T12:00:00Z');
const RANGE = 'from: "2026-10-28", to: "2026-11-04"';
/** A non-default value for every metric argument (1014 is app 101's purchase event). */
const ARG_VALUES: Readonly<Record<string, string>> = {
  attrSource: 'SKAD',
  attrTouch: 'IMP',
  attrTechnique: 'PROB',
  skadAttributionFlag: 'SKAD_ONLY',
  eventId: '1014',
  vtaWindow: '6',
  ctaWindow: '24',
  assisted: 'true',
  hasCv: 'true',
  reinstall: 'true',
};
const DIMENSION_ARGS: Readonly<Record<string, string>> = {
  date: '(granularity: DAILY)',
  dateToStr: '(formatString: "yyyy-MM-dd")',
  adUrl: '(adPreviewFormat: PNG)',
};

const t = useSandbox({ scale: 'small', seed: 3, now: NOW });

type Row = Record<string, string | number | null>;
interface PivotData {
  pivot: { results: Row[]; totals: Row };
}

const num = (v: unknown): number => (v === null || v === undefined ? 0 : Number(v));
const close = (a: number, b: number): boolean => Math.abs(a - b) <= 1e-6 * Math.max(1, Math.abs(a), Math.abs(b));

describe('every dimension', () => {
  it.each(DIMENSIONS.map((d) => [d.name, d.ctvOnly] as const))(
    '%s groups the report and its rows add up to the totals',
    async (name, ctvOnly) => {
      const channel = ctvOnly ? ', campaignChannel: ALL' : '';
      const data = await t.client.data<PivotData>(`{ pivot(${RANGE}${channel}) {
      results { value: ${name}${DIMENSION_ARGS[name] ?? ''} impressions } totals { impressions } } }`);
      expect(data.pivot.results.length).toBeGreaterThan(0);
      const sum = data.pivot.results.reduce((s, r) => s + BigInt(String(r.impressions)), 0n);
      expect(String(sum)).toBe(String(data.pivot.totals.impressions));
      const values = new Set(data.pivot.results.map((r) => JSON.stringify(r.value)));
      expect(values.size).toBe(data.pivot.results.length);
    },
  );
});

describe('every metric and argument', () => {
  let row: Row;
  beforeAll(async () => {
    const fields = METRICS.flatMap((m) => [
      `${m.name}_: ${m.name}`,
      ...m.args.map((a) => `${m.name}_${a}: ${m.name}(${a}: ${ARG_VALUES[a]})`),
    ]);
    const data = await t.client.data<PivotData>(`{ pivot(${RANGE}) { results { ${fields.join(' ')} } } }`);
    expect(data.pivot.results).toHaveLength(1);
    row = data.pivot.results[0] as Row;
  });

  it.each(METRICS.map((m) => [m.name]))('%s answers with each of its arguments', (name) => {
    const metric = getMetric(name);
    for (const key of [`${name}_`, ...(metric?.args ?? []).map((a) => `${name}_${a}`)]) {
      expect(row).toHaveProperty(key);
      const value = row[key];
      if (metric?.type.endsWith('!')) expect(value).not.toBeNull();
      if (metric?.type === 'Long') expect(String(value)).toMatch(/^\d+$/);
      if (typeof value === 'number') expect(Number.isFinite(value)).toBe(true);
    }
  });

  it('restricting arguments never increases a count', () => {
    for (const name of ['installs', 'events', 'eventValue']) {
      for (const a of getMetric(name)?.args ?? []) {
        if (a === 'assisted') continue;
        expect(num(row[`${name}_${a}`])).toBeLessThanOrEqual(num(row[`${name}_`]) + 1e-9);
      }
    }
    expect(num(row.keyMetric_attrTouch)).toBeLessThanOrEqual(num(row.keyMetric_));
  });

  it('splits installs exactly by attribution source and by touch type', async () => {
    const data = await t.client.data<PivotData>(`{ pivot(${RANGE}) { results {
      all: installs mmp: installs(attrSource: MMP) skad: installs(attrSource: SKAD)
      click: installs(attrTouch: CLICK) imp: installs(attrTouch: IMP) eview: installs(attrTouch: EVIEW) eclick: installs(attrTouch: ECLICK)
      det: installs(attrTechnique: DETERMINISTIC) prob: installs(attrTechnique: PROB) mmpOnly: installs(attrSource: MMP)
      events eventsSum: events(eventId: 1014) } } }`);
    const r = data.pivot.results[0] as Row;
    expect(num(r.mmp) + num(r.skad)).toBe(num(r.all));
    expect(num(r.click) + num(r.imp) + num(r.eview) + num(r.eclick)).toBe(num(r.all));
    expect(num(r.det) + num(r.prob)).toBe(num(r.mmpOnly));
    expect(num(r.all)).toBeGreaterThan(0);
  });
});

describe('totals and ratios', () => {
  let data: PivotData;
  const additive = METRICS.filter((m) => m.additive).map((m) => m.name);
  const derived = METRICS.filter((m) => m.derivedFrom !== undefined);
  beforeAll(async () => {
    const parts = new Set<string>(additive);
    for (const m of derived) {
      parts.add(m.name);
      parts.add((m.derivedFrom as { numerator: string }).numerator);
      parts.add((m.derivedFrom as { denominator: string }).denominator);
    }
    const fields = [...parts].join(' ');
    data = await t.client.data<PivotData>(`{ pivot(${RANGE}) {
      results { date(granularity: DAILY) campaignId countryCode ${fields} clickInstalls: installs(attrTouch: CLICK) }
      totals { ${fields} clickInstalls: installs(attrTouch: CLICK) } } }`);
    expect(data.pivot.results.length).toBeGreaterThan(50);
  });

  it.each(additive.map((n) => [n]))('totals.%s is the sum of the rows', (name) => {
    const type = getMetric(name)?.type;
    if (type === 'Long') {
      const sum = data.pivot.results.reduce((s, r) => s + BigInt(String(r[name])), 0n);
      expect(String(data.pivot.totals[name])).toBe(String(sum));
    } else {
      const sum = data.pivot.results.reduce((s, r) => s + num(r[name]), 0);
      expect(close(num(data.pivot.totals[name]), sum)).toBe(true);
    }
  });

  it.each(derived.map((m) => [m.name]))('%s equals its numerator over its denominator, rows and totals', (name) => {
    const def = getMetric(name);
    const d = def?.derivedFrom as { numerator: string; denominator: string; scale: number };
    const numerator = name === 'installsCvr' ? 'clickInstalls' : d.numerator;
    for (const r of [...data.pivot.results, data.pivot.totals]) {
      const den = num(r[d.denominator]);
      if (den === 0) {
        expect(r[name]).toBe(def?.type.endsWith('!') ? 0 : null);
      } else {
        expect(close(num(r[name]), (num(r[numerator]) / den) * d.scale)).toBe(true);
      }
    }
  });
});

describe('GraphQL features', () => {
  it('supports aliases, named fragments and inline fragments on PivotMetrics, and variables', async () => {
    const res = await t.client.gql<PivotData>(
      `query Report($from: DateTime!, $to: DateTime!, $touch: AttrTouch!) {
        pivot(from: $from, to: $to) {
          results { country: countryCode ...Money ... on PivotMetrics { vt: installs(attrTouch: $touch) } }
          totals { ...Money }
        }
      }
      fragment Money on PivotMetrics { spend cpi: installsCpi }`,
      { from: '2026-11-01', to: '2026-11-02', touch: 'IMP' },
    );
    expect(res.body.errors).toBeUndefined();
    const first = res.body.data?.pivot.results[0] as Row;
    expect(Object.keys(first)).toEqual(['country', 'spend', 'cpi', 'vt']);
    expect(Object.keys(res.body.data?.pivot.totals ?? {})).toEqual(['spend', 'cpi']);
  });

  it('answers introspection for an authenticated caller, consistent with the catalog', async () => {
    const data = await t.client.data<{ __type: { fields: { name: string }[] } }>(
      '{ __type(name: "PivotResult") { fields { name } } }',
    );
    expect(data.__type.fields.map((f) => f.name)).toEqual([...DIMENSIONS, ...METRICS].map((f) => f.name));
  });

  it('returns validation errors as standard errors[] with a suggestion', async () => {
    const res = await t.client.gql(`{ pivot(${RANGE}) { results { instals } } }`);
    expect(res.status).toBe(200);
    expect(res.body.errors?.[0]?.message).toMatch(/Cannot query field "instals".*Did you mean "installs"/);
  });

  it('returns empty results, zero counts, null ratios and 0 for Float! metrics when nothing matches', async () => {
    const data = await t.client.data<PivotData>(`{ pivot(${RANGE}, filter: { campaignId: { equals: 1 } }) {
      results { campaignId installs } totals { installs spend installsCpi absoluteCpx goalDistancePerc } } }`);
    expect(data.pivot.results).toEqual([]);
    expect(data.pivot.totals).toEqual({
      installs: '0',
      spend: 0,
      installsCpi: null,
      absoluteCpx: 0,
      goalDistancePerc: 0,
    });
  });
});
